"""Hypergeometric functions (SciPy "Hypergeometric functions"), real arguments: hyp2f1, Gauss's
function (templates/hyp2f1.cuh: Cephes' hyp2f1, which SciPy uses for these loops), and hyp1f1,
Kummer's function (templates/hyp1f1.cuh: SciPy's own cases, then Kummer's transformation, the
asymptotic expansion or the series in double-double arithmetic where SciPy calls Boost). Complex z
(SciPy's 'dddD->D' and 'ddD->D' loops) raises TypeError. Float loops compute in double, as
SciPy's do."""

from ._ufunc import special_ufunc

hyp2f1 = special_ufunc("hyp2f1", 4, 1, ("dddd->d", "ffff->f"),
                       "out0 = cuarray_special::hyp2f1((double)in0, (double)in1, (double)in2, (double)in3)",
                       ("hyp2f1.cuh",))
hyp1f1 = special_ufunc("hyp1f1", 3, 1, ("fff->f", "ddd->d"),
                       "out0 = cuarray_special::hyp1f1((double)in0, (double)in1, (double)in2)", ("hyp1f1.cuh",))
