"""Airy functions (SciPy "Airy functions"): airy and airye, four outputs (Ai, Ai', Bi, Bi') each,
as SciPy computes them (templates/airy.cuh): real airy by Cephes' power series and asymptotic
approximations within [-10, 10] and by AMOS beyond, real airye and both complex loops by AMOS
(templates/amos_airy.cuh, ported from xsf); float32 and complex64 compute in double, as SciPy's."""

from ._ufunc import special_ufunc

_H = ("airy.cuh",)
_LOOPS = ("f->ffff", "d->dddd", "F->FFFF", "D->DDDD")  # SciPy's order (1.17 and 1.18)
# the second to fourth outputs through references (templates/airy.cuh's airy_ufunc, airy_c)
airy = special_ufunc("airy", 1, 4, _LOOPS,
                     {"float": "out0 = cuarray_special::airy_ufunc((double)in0, out1, out2, out3)",
                      "complex": "out0 = cuarray_special::airy_c(in0, out1, out2, out3)"}, _H)
airye = special_ufunc("airye", 1, 4, _LOOPS,
                      {"float": "out0 = cuarray_special::airye_ufunc((double)in0, out1, out2, out3)",
                       "complex": "out0 = cuarray_special::airye_c(in0, out1, out2, out3)"}, _H)
