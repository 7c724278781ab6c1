"""Hypergeometric functions (SciPy "Hypergeometric functions"): hyp2f1, Gauss's function
(templates/hyp2f1.cuh: Cephes' hyp2f1, which SciPy uses for the real loops; the complex loops,
'dddD->D' and 'fffF->F', SciPy's xsf hyp2f1: templates/chyp2f1.cuh), and hyp1f1, Kummer's
function (templates/hyp1f1.cuh: SciPy's own cases, then Kummer's transformation, the asymptotic
expansion or the series in double-double arithmetic where SciPy calls Boost; its complex loops,
'ddD->D' and 'ffF->F', SciPy's Zhang & Jin CCHG: templates/chyp1f1.cuh). Float loops compute in
double, as SciPy's do."""

from ._ufunc import special_ufunc

_H2_COMPLEX = "out0 = cuarray_special::hyp2f1_c((double)in0, (double)in1, (double)in2, in3)"
hyp2f1 = special_ufunc("hyp2f1", 4, 1, ("dddd->d", "dddD->D", "ffff->f", "fffF->F"),
                       {"float": "out0 = cuarray_special::hyp2f1((double)in0, (double)in1, (double)in2, (double)in3)",
                        "dddD->D": _H2_COMPLEX, "fffF->F": _H2_COMPLEX}, ("hyp2f1.cuh", "chyp2f1.cuh"))
# SciPy 1.17's order (1.18 lists the complex loops after the real ones: the same loop for every input)
_H1_COMPLEX = "out0 = cuarray_special::hyp1f1_c((double)in0, (double)in1, in2)"
hyp1f1 = special_ufunc("hyp1f1", 3, 1, ("fff->f", "ffF->F", "ddd->d", "ddD->D"),
                       {"float": "out0 = cuarray_special::hyp1f1((double)in0, (double)in1, (double)in2)",
                        "ffF->F": _H1_COMPLEX, "ddD->D": _H1_COMPLEX}, ("hyp1f1.cuh", "chyp1f1.cuh"))
