"""The math of `RigidTransform` on (..., 4, 4) device matrices: building them from rotations and
translations, the SE(3) exponential and logarithm (exponential coordinates: a rotation vector and
the translation part of the twist; the closed forms J = I + k1 [w]x + k2 [w]x^2 and its inverse,
with their Taylor series below an angle of 1e-3, as in SciPy), dual quaternions, inverses and the
batched application to vectors (one elementwise kernel, `_rotation_kernels`' "rigid_apply").
Everything is elementwise or a small batched product over the batch: no host reads."""

from __future__ import annotations

import numpy

from ...._creation.basic import empty, zeros
from ...._manipulation.joining import concatenate
from ...._math.trigonometric import cos, sin, tan
from ...._sorting.searching import where
from . import _quat as Q
from ._rotation_kernels import kernel

__all__ = ["assemble", "from_exp_coords", "as_exp_coords", "from_dual_quat", "as_dual_quat", "inverse",
           "apply_rigid", "normalize_rotation"]


def assemble(translation, rotation_matrix):
    """The (..., 4, 4) matrices [[R, t], [0, 1]] of rotation matrices (..., 3, 3) and translations
    (..., 3) of the same batch shape."""
    m = zeros(translation.shape[:-1] + (4, 4), dtype=translation.dtype)
    m[..., :3, :3] = rotation_matrix
    m[..., :3, 3] = translation
    m[..., 3, 3] = 1
    return m


def normalize_rotation(m):
    """m with its rotation block re-orthonormalised through its quaternion (Shepperd's method)."""
    m[..., :3, :3] = Q.as_matrix(Q.from_matrix_orthogonal(m[..., :3, :3]))
    return m


def _angle(rv):
    return Q.norm_last(rv, keepdims=True)


def _exp_translation(rv, u):
    """J u for J = I + k1 [w]x + k2 [w]x^2 (SE(3)'s left Jacobian), by cross products."""
    angle = _angle(rv)
    small = angle < 1e-3
    a2 = angle * angle
    safe = angle + small.astype(angle.dtype)  # (1 where small: the Taylor series is taken there)
    k1 = where(small, 0.5 - a2 / 24 + a2 * a2 / 720, (1.0 - cos(angle)) / (safe * safe))
    k2 = where(small, 1 / 6 - a2 / 120 + a2 * a2 / 5040, (angle - sin(angle)) / (safe * safe * safe))
    wu = Q._cross(rv, u)
    return u + k1 * wu + k2 * Q._cross(rv, wu)


def _log_translation(rv, t):
    """J^-1 t in closed form: t - [w]x t / 2 + k [w]x^2 t."""
    angle = _angle(rv)
    small = angle < 1e-3
    a2 = angle * angle
    safe = angle + small.astype(angle.dtype)
    k = where(small, 1 / 12 + a2 / 720 + a2 * a2 / 30240, (1 - 0.5 * angle / tan(0.5 * safe)) / (safe * safe))
    wt = Q._cross(rv, t)
    return t - 0.5 * wt + k * Q._cross(rv, wt)


def from_exp_coords(e):
    rv = e[..., :3]
    return assemble(_exp_translation(rv, e[..., 3:]), Q.as_matrix(Q.from_rotvec(rv)))


def as_exp_coords(m):
    rv = Q.as_rotvec(Q.from_matrix_orthogonal(m[..., :3, :3]))
    return concatenate([rv, _log_translation(rv, m[..., :3, 3])], axis=-1)


def _normalize_dual(real, dual):
    """A unit dual quaternion: the real part of unit norm (a zero one becomes the identity) and the
    dual part made orthogonal to it."""
    norm = Q.norm_last(real, keepdims=True)
    zero = norm == 0.0
    unit = zeros(real.shape, dtype=real.dtype)
    unit[..., 3] = 1
    real = where(zero, unit, real)
    norm = where(zero, 1.0, norm)
    real, dual = real / norm, dual / norm
    return real, dual - (real * dual).sum(axis=-1, keepdims=True) * real


def _roll(q, shift):
    return concatenate([q[..., 1:], q[..., :1]], axis=-1) if shift < 0 else concatenate([q[..., 3:], q[..., :3]],
                                                                                         axis=-1)


def from_dual_quat(dq, scalar_first):
    real, dual = dq[..., :4], dq[..., 4:]
    if scalar_first:
        real, dual = _roll(real, -1), _roll(dual, -1)
    real, dual = _normalize_dual(real, dual)
    rot = real / Q.norm_last(real, keepdims=True)  # (unit already; SciPy normalises again)
    translation = 2.0 * Q.compose(dual, Q.inv(rot))[..., :3]
    return assemble(translation, Q.as_matrix(rot))


def as_dual_quat(m, scalar_first):
    real = Q.from_matrix_orthogonal(m[..., :3, :3])
    pure = concatenate([m[..., :3, 3], zeros(m.shape[:-2] + (1,), dtype=m.dtype)], axis=-1)
    dual = 0.5 * Q.compose(pure, real)
    if scalar_first:
        real, dual = _roll(real, 1), _roll(dual, 1)
    return concatenate([real, dual], axis=-1)


def inverse(m):
    """[[R^T, -R^T t], [0, 1]]."""
    r_inv = m[..., :3, :3].swapaxes(-1, -2)
    t = m[..., :3, 3]
    t_inv = -(r_inv * t[..., None, :]).sum(axis=-1)
    return assemble(t_inv, r_inv)


def apply_rigid(m, v, inverse_):
    """R v + t (R^T (v - t) with `inverse_`) for vectors (..., 3) broadcast against the
    transforms: one kernel, the matrix entries read in place."""
    shape = tuple(numpy.broadcast_shapes(m.shape[:-2], v.shape[:-1])) + (3,)
    out = empty(shape, dtype=v.dtype)
    if out.size:
        kernel("rigid_apply")(*(m[..., i, j] for i in range(3) for j in range(4)),
                              *(v[..., k] for k in range(3)), numpy.int32(bool(inverse_)),
                              *(out[..., k] for k in range(3)))
    return out
