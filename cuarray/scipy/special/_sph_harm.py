"""Spherical harmonics (SciPy "Spherical harmonics"): sph_harm_y(n, m, theta, phi, *, diff_n=0),
SciPy 1.15's function, over the private ufunc _sph_harm_y (SciPy's loops 'qqdd->D', 'qqff->F';
templates/sph_harm.cuh: the recurrences of the normalised Legendre functions).

The derivatives (diff_n=1: the gradient in (theta, phi); 2: the Hessian too) come from the
ladder relations of the harmonics (Condon-Shortley phase, SciPy's): d/dphi is i m, and

    dY_n^m/dtheta = (a+(m) e^(-i phi) Y_n^(m+1) - a-(m) e^(i phi) Y_n^(m-1)) / 2,
    a+(m) = sqrt((n - m)(n + m + 1)),  a-(m) = sqrt((n + m)(n - m + 1)),

which has no cot(theta), so the poles need no special case; applied twice it gives d2/dtheta2 from
Y_n^(m-2) .. Y_n^(m+2). A coefficient whose product is negative (|m| > n) is 0, as the harmonic
and its derivatives are there. `derivatives` is written over a NumPy-named namespace, so the CPU
tests run it with NumPy and SciPy's harmonics against SciPy's own derivatives."""

from ..._manipulation.joining import stack
from ..._math.explog import exp
from ..._math.extrema import maximum
from ..._math.misc import sqrt
from ._ufunc import special_ufunc

_sph_harm_y = special_ufunc(
    "_sph_harm_y", 4, 1, ("qqdd->D", "qqff->F"),
    "out0 = cuarray_special::sph_harm_y<decltype(out0)>((long long)in0, (long long)in1, (double)in2, (double)in3)",
    ("sph_harm.cuh",))


class _Ops:
    exp, sqrt, maximum, stack = staticmethod(exp), staticmethod(sqrt), staticmethod(maximum), staticmethod(stack)


def derivatives(harmonic, xp, n, m, phi, y, diff_n):
    """(gradient, Hessian or None) of Y_n^m at the angles, given `y` = harmonic(m) and
    `harmonic(k)` = Y_n^k at the same points, in `xp` (exp, sqrt, maximum, stack)."""
    def a_up(k):  # a+(k), 0 where the product is negative
        return xp.sqrt(xp.maximum((n - k) * (n + k + 1.0), 0.0))

    def a_down(k):
        return xp.sqrt(xp.maximum((n + k) * (n - k + 1.0), 0.0))

    e_minus, e_plus = xp.exp(-1j * phi), xp.exp(1j * phi)
    up, down = harmonic(m + 1), harmonic(m - 1)
    d_theta = (a_up(m) * e_minus * up - a_down(m) * e_plus * down) * 0.5
    d_phi = 1j * m * y
    grad = xp.stack([d_theta, d_phi], axis=-1).astype(y.dtype)
    if diff_n < 2:
        return grad, None
    d_tt = (a_up(m) * a_up(m + 1) * e_minus * e_minus * harmonic(m + 2)
            - (a_up(m) * a_down(m + 1) + a_down(m) * a_up(m - 1)) * y
            + a_down(m) * a_down(m - 1) * e_plus * e_plus * harmonic(m - 2)) * 0.25
    d_tp = 1j * m * d_theta
    d_pp = -(m * m) * y
    hess = xp.stack([xp.stack([d_tt, d_tp], axis=-1), xp.stack([d_tp, d_pp], axis=-1)], axis=-2).astype(y.dtype)
    return grad, hess


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """See `scipy.special.sph_harm_y`. The derivatives (diff_n 1 and 2) are computed from the
    harmonics of the neighbouring orders (up to five evaluations and some elementwise passes).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.sph_harm_y(1, 1, cuarray.array([cuarray.pi / 3, cuarray.pi / 4]), cuarray.pi / 3)
    array([-0.14960336-0.25912061j, -0.12215063-0.21157109j])
    """
    try:
        ok = int(diff_n) == diff_n and diff_n >= 0
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError("diff_n must be a non-negative integer, received: {}.".format(diff_n))
    if diff_n > 2:
        raise ValueError("diff_n is currently only implemented for orders 0, 1, and 2, received: {}.".format(diff_n))
    y = _sph_harm_y(n, m, theta, phi)
    if not diff_n:
        return y
    grad, hess = derivatives(lambda k: _sph_harm_y(n, k, theta, phi), _Ops, n, m, phi, y, diff_n)
    return (y, grad) if hess is None else (y, grad, hess)
