"""Spherical harmonics (SciPy "Spherical harmonics"): sph_harm_y(n, m, theta, phi, *, diff_n=0),
SciPy 1.15's function, over the private ufunc _sph_harm_y (SciPy's loops 'qqdd->D', 'qqff->F';
templates/sph_harm.cuh: the recurrences of the normalised Legendre functions). Only diff_n=0:
the gradient and Hessian (diff_n=1, 2) raise NotImplementedError."""

from ._ufunc import special_ufunc

_sph_harm_y = special_ufunc(
    "_sph_harm_y", 4, 1, ("qqdd->D", "qqff->F"),
    "out0 = cuarray_special::sph_harm_y<decltype(out0)>((long long)in0, (long long)in1, (double)in2, (double)in3)",
    ("sph_harm.cuh",))


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """See `scipy.special.sph_harm_y`. Only ``diff_n=0`` (the harmonics themselves); 1 and 2
    (SciPy's derivatives) raise NotImplementedError."""
    try:
        ok = int(diff_n) == diff_n and diff_n >= 0
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError("diff_n must be a non-negative integer, received: {}.".format(diff_n))
    if diff_n > 2:
        raise ValueError("diff_n is currently only implemented for orders 0, 1, and 2, received: {}.".format(diff_n))
    if diff_n:
        raise NotImplementedError("cuarray.scipy.special.sph_harm_y computes diff_n=0 only (the harmonics, "
                                  "not their derivatives)")
    return _sph_harm_y(n, m, theta, phi)
