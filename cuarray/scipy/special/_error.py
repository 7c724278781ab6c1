"""The error function family (SciPy "Error function and Fresnel integrals"): CUDA's erf, erfc,
erfcx, erfinv, erfcinv, and Dawson's integral dawsn (templates/erf.cuh; its float loop in double, as
SciPy's). Real loops only: complex arguments raise TypeError."""

from ._ufunc import special_ufunc

_H = ("erf.cuh",)
erf = special_ufunc("erf", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::erf(in0)", _H)
erfc = special_ufunc("erfc", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::erfc(in0)", _H)
erfcx = special_ufunc("erfcx", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::erfcx(in0)", _H)
erfinv = special_ufunc("erfinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfinv(in0)", _H)
erfcinv = special_ufunc("erfcinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfcinv(in0)", _H)
dawsn = special_ufunc("dawsn", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::dawsn((double)in0)", _H)
