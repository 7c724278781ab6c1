"""Exponential integrals (SciPy "Other special functions"): exp1, expi, expn, sici and shichi; the
real loops in templates/expint.cuh (float loops compute in double, as SciPy's do), the complex
loops of exp1, expi, sici and shichi SciPy's algorithms (templates/cexpint.cuh: Zhang & Jin's
series and continued fraction for E1, J. Wilson's Si/Ci and Shi/Chi from Ei; complex64 in
complex128, as SciPy's)."""

from ._ufunc import real_and_complex_ufunc, special_ufunc

_H = ("expint.cuh",)
_HC = ("expint.cuh", "cexpint.cuh")  # with the complex loops
exp1 = real_and_complex_ufunc("exp1", 1, ("f->f", "d->d"), "out0 = cuarray_special::exp1((double)in0)", _HC)
expi = real_and_complex_ufunc("expi", 1, ("f->f", "d->d"), "out0 = cuarray_special::expi((double)in0)", _HC)
expn = special_ufunc("expn", 2, 1, ("ld->d", "ff->f", "dd->d"),
                     "out0 = cuarray_special::expn((double)in0, (double)in1)", _H)
# two outputs: the second through a reference (templates/expint.cuh's sici_ufunc, cexpint.cuh's sici_c)
sici = special_ufunc("sici", 1, 2, ("f->ff", "d->dd", "F->FF", "D->DD"),
                     {"float": "out0 = cuarray_special::sici_ufunc((double)in0, out1)",
                      "complex": "out0 = cuarray_special::sici_c(in0, out1)"}, _HC)
shichi = special_ufunc("shichi", 1, 2, ("f->ff", "d->dd", "F->FF", "D->DD"),
                       {"float": "out0 = cuarray_special::shichi_ufunc((double)in0, out1)",
                        "complex": "out0 = cuarray_special::shichi_c(in0, out1)"}, _HC)
