"""The error function family (SciPy "Error function and Fresnel integrals"): CUDA's erf, erfc,
erfcx, erfinv, erfcinv; Dawson's integral dawsn and erfi (templates/erf.cuh, templates/faddeeva.cuh;
their float loops in double, as SciPy's); the Faddeeva function wofz and the complex loops of erf,
erfc, erfcx, erfi and dawsn, built on it (templates/faddeeva.cuh: Poppe & Wijers' Algorithm 680,
complex64 computed in complex128 as SciPy's)."""

from ._ufunc import real_and_complex_ufunc, special_ufunc

_H = ("erf.cuh",)
_W = ("erf.cuh", "faddeeva.cuh")
erf = real_and_complex_ufunc("erf", 1, ("d->d", "f->f"), "out0 = cuarray_special::erf(in0)", _W)
erfc = real_and_complex_ufunc("erfc", 1, ("d->d", "f->f"), "out0 = cuarray_special::erfc(in0)", _W)
erfcx = real_and_complex_ufunc("erfcx", 1, ("d->d", "f->f"), "out0 = cuarray_special::erfcx(in0)", _W)
erfi = real_and_complex_ufunc("erfi", 1, ("d->d", "f->f"), "out0 = cuarray_special::erfi((double)in0)", _W)
dawsn = real_and_complex_ufunc("dawsn", 1, ("d->d", "f->f"), "out0 = cuarray_special::dawsn((double)in0)", _W)
erfinv = special_ufunc("erfinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfinv(in0)", _H)
erfcinv = special_ufunc("erfcinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfcinv(in0)", _H)
wofz = special_ufunc("wofz", 1, 1, ("D->D", "F->F"), "out0 = cuarray_special::wofz(in0)", _W)
