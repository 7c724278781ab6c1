"""The gamma family (SciPy "Gamma and related functions"): gamma is CUDA's tgamma (its complex loop,
and loggamma's and rgamma's, SciPy's principal-branch log Gamma: templates/cgamma.cuh; psi's
complex loop SciPy's complex digamma: templates/cdigamma.cuh); gammaln,
loggamma (real loop), gammasgn, rgamma and psi/digamma are written in templates/gamma.cuh on
CUDA's tgamma/lgamma (their float loops compute in double and round once, as SciPy's do, except
gammaln's, which computes in float for x >= 0: templates/gamma_float.cuh); beta, betaln, poch and binom in
templates/beta.cuh; the regularized incomplete gamma and beta functions and their inverses in
templates/igam.cuh and templates/incbet.cuh (float loops in double, as SciPy's)."""

from ._ufunc import real_and_complex_ufunc, special_ufunc

_H = ("gamma.cuh",)
_HC = ("gamma.cuh", "cgamma.cuh")  # with the complex loops (templates/cgamma.cuh)
_FD = ("d->d", "f->f")
gamma = real_and_complex_ufunc("gamma", 1, _FD, "out0 = cuarray_special::gamma(in0)", _HC)
# gammaln's float loop computes in float for x >= 0 (templates/gamma_float.cuh: within 2 ulp of
# SciPy's double evaluation, relative at the roots 1 and 2), in double below 0. GAMMALN_LGAMMAF is
# the loop it replaced (CUDA's lgammaf for x >= 0), for scripts/perf/special_float_variants.py.
GAMMALN_LGAMMAF = "out0 = cuarray_special::gammaln(in0)"
gammaln = special_ufunc("gammaln", 1, 1, _FD, {"f->f": "out0 = cuarray_special::gammaln_float(in0)",
                                              "d->d": GAMMALN_LGAMMAF}, ("gamma.cuh", "gamma_float.cuh"))
loggamma = real_and_complex_ufunc("loggamma", 1, _FD, "out0 = cuarray_special::loggamma((double)in0)", _HC)
gammasgn = special_ufunc("gammasgn", 1, 1, _FD, "out0 = cuarray_special::gammasgn((double)in0)", _H)
rgamma = real_and_complex_ufunc("rgamma", 1, _FD, "out0 = cuarray_special::rgamma((double)in0)", _HC)
# (SciPy 1.17 lists psi's loops d, D, f, F; the rows' d, f, D, F pick the same loop for every input)
psi = real_and_complex_ufunc("psi", 1, _FD, "out0 = cuarray_special::psi((double)in0)", ("gamma.cuh", "cdigamma.cuh"))
digamma = psi

_B = ("beta.cuh",)
_DD = ("dd->d", "ff->f")
_FF = ("ff->f", "dd->d")
_2 = "out0 = cuarray_special::{}((double)in0, (double)in1)"
_3 = "out0 = cuarray_special::{}((double)in0, (double)in1, (double)in2)"
beta = special_ufunc("beta", 2, 1, _DD, _2.format("beta"), _B)
betaln = special_ufunc("betaln", 2, 1, _DD, _2.format("betaln"), _B)
poch = special_ufunc("poch", 2, 1, _FF, _2.format("poch"), _B)
binom = special_ufunc("binom", 2, 1, _FF, _2.format("binom"), _B)

_I = ("igam.cuh",)
gammainc = special_ufunc("gammainc", 2, 1, _DD, _2.format("gammainc"), _I)
gammaincc = special_ufunc("gammaincc", 2, 1, _DD, _2.format("gammaincc"), _I)
gammaincinv = special_ufunc("gammaincinv", 2, 1, _DD, _2.format("gammaincinv"), _I)
gammainccinv = special_ufunc("gammainccinv", 2, 1, _DD, _2.format("gammainccinv"), _I)

_IB = ("incbet.cuh",)
betainc = special_ufunc("betainc", 3, 1, ("fff->f", "ddd->d"), _3.format("betainc"), _IB)
betaincinv = special_ufunc("betaincinv", 3, 1, ("fff->f", "ddd->d"), _3.format("betaincinv"), _IB)
