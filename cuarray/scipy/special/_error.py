"""The error function family (SciPy "Error function and Fresnel integrals"): CUDA's erf, erfc,
erfcx, erfinv, erfcinv; Dawson's integral dawsn and erfi (templates/erf.cuh, templates/faddeeva.cuh;
their float loops in double, as SciPy's); the Faddeeva function wofz and the complex loops of erf,
erfc, erfcx, erfi and dawsn, built on it (templates/faddeeva.cuh: Poppe & Wijers' Algorithm 680,
complex64 computed in complex128 as SciPy's)."""

from ._ufunc import special_ufunc

_H = ("erf.cuh",)
_W = ("erf.cuh", "faddeeva.cuh")
_RC = ("d->d", "f->f", "D->D", "F->F")


def _rc(name, real):
    """A function with SciPy's real and complex loops: `real` the real loops' expression."""
    return special_ufunc(name, 1, 1, _RC, {"float": real,
                                           "complex": "out0 = cuarray_special::{}_c(in0)".format(name)}, _W)


erf = _rc("erf", "out0 = cuarray_special::erf(in0)")
erfc = _rc("erfc", "out0 = cuarray_special::erfc(in0)")
erfcx = _rc("erfcx", "out0 = cuarray_special::erfcx(in0)")
erfi = _rc("erfi", "out0 = cuarray_special::erfi((double)in0)")
dawsn = _rc("dawsn", "out0 = cuarray_special::dawsn((double)in0)")
erfinv = special_ufunc("erfinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfinv(in0)", _H)
erfcinv = special_ufunc("erfcinv", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::erfcinv(in0)", _H)
wofz = special_ufunc("wofz", 1, 1, ("D->D", "F->F"), "out0 = cuarray_special::wofz(in0)", _W)
