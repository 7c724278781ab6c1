"""Hypergeometric functions (SciPy "Hypergeometric functions"): hyp2f1, Gauss's function, for real
arguments (templates/hyp2f1.cuh: Cephes' hyp2f1, which SciPy uses for these loops). Complex z
(SciPy's 'dddD->D' loops) raises TypeError. Float loops compute in double, as SciPy's do."""

from ._ufunc import special_ufunc

hyp2f1 = special_ufunc("hyp2f1", 4, 1, ("dddd->d", "ffff->f"),
                       "out0 = cuarray_special::hyp2f1((double)in0, (double)in1, (double)in2, (double)in3)",
                       ("hyp2f1.cuh",))
