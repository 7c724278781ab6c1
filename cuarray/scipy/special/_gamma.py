"""The gamma family (SciPy "Gamma and related functions"): gamma is CUDA's tgamma; gammaln,
loggamma (real loop), gammasgn, rgamma and psi/digamma are written in templates/gamma.cuh on
CUDA's tgamma/lgamma (their float loops compute in double and round once, as SciPy's do)."""

from ._ufunc import special_ufunc

_H = ("gamma.cuh",)
_FD = ("d->d", "f->f")
gamma = special_ufunc("gamma", 1, 1, _FD, "out0 = cuarray_special::gamma(in0)", _H)
# gammaln's float loop computes in float where CUDA's lgammaf is bounded (templates/gamma.cuh).
gammaln = special_ufunc("gammaln", 1, 1, _FD, "out0 = cuarray_special::gammaln(in0)", _H)
loggamma = special_ufunc("loggamma", 1, 1, _FD, "out0 = cuarray_special::loggamma((double)in0)", _H)
gammasgn = special_ufunc("gammasgn", 1, 1, _FD, "out0 = cuarray_special::gammasgn((double)in0)", _H)
rgamma = special_ufunc("rgamma", 1, 1, _FD, "out0 = cuarray_special::rgamma((double)in0)", _H)
psi = special_ufunc("psi", 1, 1, _FD, "out0 = cuarray_special::psi((double)in0)", _H)
digamma = psi
