"""`RotationSpline`: rotations interpolated with continuous angular rate and acceleration. See
`scipy.spatial.transform.RotationSpline`.

The method is the one SciPy cites (Smooth Attitude Interpolation, the note SciPy's RotationSpline
follows): between consecutive knots the rotation vector relative to the knot's rotation is
a cubic of time, r(s) = a s^3 + b s^2 + w_k s; the angular rates w_k at the interior knots make
the angular acceleration continuous, a block-tridiagonal system (3 x 3 blocks) that is nonlinear
in the rates and is solved by a few fixed-point steps. The knots are few, so that solve is host
work (NumPy and one banded LAPACK solve per step); evaluation at any number of times is device
work (an interval search and the cubic's Horner form, then the rotations, rates or accelerations
of the whole batch). The rotation-vector kinematics are written with cross products:
M x = x + c1 (v x x) + c2 (v x (v x x)) for the matrices I + c1 [v]x + c2 [v]x^2.
"""

from __future__ import annotations

import types

import numpy

from ...._core.host_input import as_parameter
from ...._core.transfer import from_host, to_host
from ...._indexing.inserting import take
from ...._manipulation.joining import stack
from ...._math.misc import sqrt
from ...._math.trigonometric import cos, sin, tan
from ...._sorting.searchsorted import searchsorted
from ...._sorting.searching import where
from ._rotation import Rotation

__all__ = ["RotationSpline"]

_SMALL = 1e-4  # below this angle the series forms replace the closed forms
_MAX_ITER, _TOL = 10, 1e-9  # the fixed-point steps of the angular-rate solve


def _device():
    """The device functions the kinematics take (read at call time)."""
    return types.SimpleNamespace(where=where, sin=sin, cos=cos, tan=tan, sqrt=sqrt, stack=stack)


def _cross(xp, a, b):
    ax, ay, az = a[..., 0], a[..., 1], a[..., 2]
    bx, by, bz = b[..., 0], b[..., 1], b[..., 2]
    return xp.stack([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx], axis=-1)


def _angle(xp, v):
    """|v| and a stand-in angle that is never small (where the closed forms are evaluated)."""
    th = xp.sqrt((v * v).sum(axis=-1))
    big = th > _SMALL
    return th, big, xp.where(big, th, 1.0)


def _apply(xp, v, x, c1, c2):
    """(I + c1 [v]x + c2 [v]x^2) x for stacks of vectors (coefficients per row)."""
    vx = _cross(xp, v, x)
    return x + c1[..., None] * vx + c2[..., None] * _cross(xp, v, vx)


def rate_to_rotvec_dot(xp, v, w):
    """d(rotation vector)/dt for angular rate w at rotation vector v."""
    th, big, t = _angle(xp, v)
    k = xp.where(big, (1 - 0.5 * t / xp.tan(0.5 * t)) / (t * t), 1 / 12 + th * th / 720)
    return _apply(xp, v, w, 0.5 + 0 * th, k)


def rotvec_dot_to_rate(xp, v, vd):
    """The angular rate for the rotation-vector derivative vd at v."""
    th, big, t = _angle(xp, v)
    k1 = xp.where(big, (1 - xp.cos(t)) / (t * t), 0.5 - th * th / 24)
    k2 = xp.where(big, (t - xp.sin(t)) / t ** 3, 1 / 6 - th * th / 120)
    return _apply(xp, v, vd, -k1, k2)


def acceleration_term(xp, v, vd):
    """The part of the angular acceleration quadratic in vd (the rest is rotvec_dot_to_rate of
    the second derivative)."""
    th, big, t = _angle(xp, v)
    s, c = xp.sin(t), xp.cos(t)
    k1 = xp.where(big, (-t * s - 2 * (c - 1)) / t ** 4, 1 / 12 - th * th / 180)
    k2 = xp.where(big, (-2 * t + 3 * s - t * c) / t ** 5, -1 / 60 + th * th / 12604)
    k3 = xp.where(big, (t - s) / t ** 3, 1 / 6 - th * th / 120)
    dot = (v * vd).sum(axis=-1)[..., None]
    cp = _cross(xp, v, vd)
    return dot * (k1[..., None] * cp + k2[..., None] * _cross(xp, v, cp)) + k3[..., None] * _cross(xp, vd, cp)


def _block(xp, fn, v):
    """The 3 x 3 matrices of the linear map fn(xp, v, .) for each row of v (columns: images of e_j)."""
    eye = numpy.eye(3)
    return numpy.stack([fn(xp, v, numpy.broadcast_to(eye[j], v.shape)) for j in range(3)], axis=-1)


def _banded(blocks, n):
    """The (11, 3 n) band of LAPACK's banded solve (5 sub- and super-diagonals) of a
    block-tridiagonal matrix given as {(block row, block column): 3 x 3 matrix}."""
    band = numpy.zeros((11, 3 * n))
    for (bi, bj), m in blocks.items():
        for i in range(3):
            for j in range(3):
                band[5 + 3 * bi + i - (3 * bj + j), 3 * bj + j] += m[i, j]
    return band


def _interior_rates(dt, rv):
    """The angular rates at the knots (one per segment start) and the rotation-vector
    derivatives at the segment ends, with continuous acceleration at the interior knots."""
    # host work: a block-tridiagonal solve over the knots (few), repeated for the nonlinear term
    from scipy.linalg import solve_banded

    n = len(dt)
    w_first, w_last = rv[0] / dt[0], rv[-1] / dt[-1]
    to_dot = _block(numpy, rate_to_rotvec_dot, rv)        # (n, 3, 3)
    to_rate = _block(numpy, rotvec_dot_to_rate, rv)
    m = n - 1                                            # unknowns: the rates at knots 1 .. n-1
    blocks = {}
    for k in range(m):
        blocks[(k, k)] = 4 * (1 / dt[k] + 1 / dt[k + 1]) * numpy.eye(3)
        if k > 0:
            blocks[(k, k - 1)] = 2 * to_rate[k] / dt[k]
        if k < m - 1:
            blocks[(k, k + 1)] = 2 * to_dot[k + 1] / dt[k + 1]
    band = _banded(blocks, m)
    rhs0 = 6 * (rv[:-1] / dt[:-1, None] ** 2 + rv[1:] / dt[1:, None] ** 2)
    rhs0[0] -= 2 / dt[0] * to_rate[0] @ w_first
    rhs0[-1] -= 2 / dt[-1] * to_dot[-1] @ w_last
    w = rv[:-1] / dt[:-1, None]  # the starting guess: each segment's mean rate
    for _ in range(_MAX_ITER):
        vd = numpy.einsum("kij,kj->ki", to_dot[:-1], w)
        new = solve_banded((5, 5), band, (rhs0 - acceleration_term(numpy, rv[:-1], vd)).ravel()).reshape(-1, 3)
        done = numpy.all(numpy.abs(new - w) < _TOL * (1 + numpy.abs(new)))
        w = new
        if done:
            break
    rates = numpy.concatenate([w_first[None], w])                       # segment start rates
    ends = numpy.concatenate([w, w_last[None]])                          # rates at segment ends
    return rates, numpy.einsum("kij,kj->ki", to_dot, ends)


class RotationSpline:
    """See `scipy.spatial.transform.RotationSpline`. The coefficients come from a small host
    solve over the knots (see the module); evaluation at a batch of times is device work.
    `times` is a device array and `interpolator` is not provided (the cubic coefficients are
    `coefficients`, shape (4, n - 1, 3), highest power first).
    """

    def __init__(self, times, rotations):
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single:
            raise ValueError("`rotations` must be a sequence of rotations.")
        if rotations._quat.ndim > 2:
            raise ValueError("Rotations with more than 1 leading dimension are not supported.")
        if len(rotations) == 1:
            raise ValueError("`rotations` must contain at least 2 rotations.")
        t = numpy.asarray(to_host(as_parameter(times, "RotationSpline")), dtype=numpy.float64)
        if t.ndim != 1:
            raise ValueError("`times` must be 1-dimensional.")
        if len(t) != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps given, got {} "
                             "rotations and {} timestamps.".format(len(rotations), len(t)))
        dt = numpy.diff(t)
        if numpy.any(dt <= 0):
            raise ValueError("Values in `times` must be in a strictly increasing order.")
        rv = numpy.asarray(to_host((rotations[:-1].inv() * rotations[1:]).as_rotvec()), dtype=numpy.float64)
        if len(t) == 2:
            rates = ends = rv / dt[:, None]
        else:
            rates, ends = _interior_rates(dt, rv)
        h = dt[:, None]
        coeff = numpy.stack([(-2 * rv + h * rates + h * ends) / h ** 3,
                             (3 * rv - 2 * h * rates - h * ends) / h ** 2, rates, numpy.zeros_like(rv)])
        self.times = from_host(t)
        self.rotations = rotations
        self.coefficients = from_host(coeff)

    def __call__(self, times, order=0):
        """See `scipy.spatial.transform.RotationSpline.__call__` (device work for the batch)."""
        if order not in (0, 1, 2):
            raise ValueError("`order` must be 0, 1 or 2.")
        t = as_parameter(times, "RotationSpline").astype(numpy.float64)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = t.reshape(-1)
        n = self.times.shape[0] - 1
        idx = searchsorted(self.times, t, side="right") - 1
        idx = where(idx < 0, 0, where(idx > n - 1, n - 1, idx))
        s = (t - take(self.times, idx))[:, None]
        a, b, c = (take(self.coefficients[i], idx, axis=0) for i in range(3))
        rv = ((a * s + b) * s + c) * s
        if order == 0:
            out = self.rotations[idx] * Rotation.from_rotvec(rv)
            return out[0] if single else out
        vd = (3 * a * s + 2 * b) * s + c
        dev = _device()
        if order == 1:
            out = rotvec_dot_to_rate(dev, rv, vd)
        else:
            out = rotvec_dot_to_rate(dev, rv, 6 * a * s + 2 * b) + acceleration_term(dev, rv, vd)
        return out[0] if single else out
