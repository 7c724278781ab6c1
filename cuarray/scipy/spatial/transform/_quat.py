"""Quaternion math of `Rotation` on (..., 4) device arrays (scalar last), composed of cuarray
operations and the kernels of `_rotation_kernels`: each function works on any batch shape.

The conversions follow the published algorithms SciPy cites: Shepperd's method for matrices
(the largest of the trace and the diagonal picks the stable formula), the quaternion-based Euler
angles of Bernardes and Viollet (2022), the Davenport-angle generalisation of that method, and
Markley's chordal L2 mean (the leading eigenvector of the sum of q q^T)."""

from __future__ import annotations

import re
import warnings

import numpy

from ...._core.ndarray import ndarray
from ...._creation.basic import empty, zeros
from ...._manipulation.joining import concatenate, stack
from ...._math.misc import abs as abs_
from ...._math.misc import sqrt
from ...._math.trigonometric import arctan2, cos, hypot, sin
from ...._sorting.searching import where
from ...._sorting.searching_reduce import argmax
from ._rotation_kernels import kernel

__all__ = ["normalize", "compose", "as_matrix", "apply", "canonical", "from_matrix_orthogonal",
           "from_rotvec", "as_rotvec", "from_mrp", "as_mrp", "from_euler", "as_euler", "from_davenport",
           "as_davenport", "magnitude", "inv", "identity_like", "parse_order"]


def _c(q, k):
    return q[..., k]


def norm_last(x, keepdims=False):
    return sqrt((x * x).sum(axis=-1, keepdims=keepdims))


def normalize(q):
    """q / |q|; a zero quaternion raises SciPy's ValueError (one host read)."""
    n = norm_last(q, keepdims=True)
    if q.size and bool((n == 0).any()):
        raise ValueError("Found zero norm quaternions in `quat`.")
    return q / n


def _bshape(*shapes):
    return tuple(numpy.broadcast_shapes(*shapes))


def compose(p, q):
    """The quaternion of `p` applied after `q` (broadcast over the batch)."""
    out = empty(_bshape(p.shape, q.shape), dtype=numpy.result_type(p.dtype, q.dtype))
    if out.size:
        kernel("compose")(*(_c(p, k) for k in range(4)), *(_c(q, k) for k in range(4)),
                          *(out[..., k] for k in range(4)))
    return out


def as_matrix(q):
    out = empty(q.shape[:-1] + (3, 3), dtype=q.dtype)
    if out.size:
        kernel("matrix")(*(_c(q, k) for k in range(4)), *(out[..., i, j] for i in range(3) for j in range(3)))
    return out


def apply(q, v, inverse):
    """R v (R^T v with `inverse`) for vectors (..., 3), broadcast against the rotations."""
    shape = _bshape(q.shape[:-1], v.shape[:-1]) + (3,)
    out = empty(shape, dtype=v.dtype)
    if out.size:
        kernel("apply")(*(_c(q, k) for k in range(4)), *(_c(v, k) for k in range(3)),
                        numpy.int32(bool(inverse)), *(out[..., k] for k in range(3)))
    return out


def inv(q):
    return concatenate([-q[..., :3], q[..., 3:]], axis=-1)


def identity_like(shape, dtype):
    q = zeros(tuple(shape) + (4,), dtype=dtype)
    q[..., 3] = 1.0
    return q


def canonical(q):
    """The sign of q with w > 0 (ties broken by x, then y, then z), as SciPy's canonical form."""
    x, y, z, w = (_c(q, k) for k in range(4))
    flip = (w < 0) | ((w == 0) & ((x < 0) | ((x == 0) & ((y < 0) | ((y == 0) & (z < 0))))))
    return where(flip[..., None], -q, q)


def from_matrix_orthogonal(m):
    """Shepperd's method: of the trace and the three diagonal entries, the largest picks which
    quaternion component is computed from it (the others from off-diagonal sums and
    differences), then the result is normalised."""
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    tr = m00 + m11 + m22
    choice = argmax(stack([m00, m11, m22, tr], axis=-1), axis=-1)[..., None]
    s10, s20, s21 = m[..., 1, 0] + m[..., 0, 1], m[..., 2, 0] + m[..., 0, 2], m[..., 2, 1] + m[..., 1, 2]
    d21, d02, d10 = m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0], m[..., 1, 0] - m[..., 0, 1]
    cands = [
        stack([1 - tr + 2 * m00, s10, s20, d21], axis=-1),
        stack([s10, 1 - tr + 2 * m11, s21, d02], axis=-1),
        stack([s20, s21, 1 - tr + 2 * m22, d10], axis=-1),
        stack([d21, d02, d10, 1 + tr], axis=-1),
    ]
    q = cands[3]
    for k in range(3):
        q = where(choice == k, cands[k], q)
    return q / norm_last(q, keepdims=True)


def from_rotvec(rv, degrees=False):
    if degrees:
        rv = rv * (numpy.pi / 180.0)
    angle = norm_last(rv, keepdims=True)
    small = angle <= 1e-3
    a2 = angle * angle
    # sin(angle / 2) / angle by its Taylor series near 0
    scale = where(small, 0.5 - a2 / 48 + a2 * a2 / 3840, sin(angle / 2) / where(small, 1.0, angle))
    return concatenate([rv * scale, cos(angle / 2)], axis=-1)


def as_rotvec(q, degrees=False):
    q = canonical(q)
    angle = 2 * arctan2(norm_last(q[..., :3], keepdims=True), q[..., 3:])
    small = angle <= 1e-3
    a2 = angle * angle
    scale = where(small, 2 + a2 / 12 + 7 * a2 * a2 / 2880, angle / where(small, 1.0, sin(angle / 2)))
    if degrees:
        scale = scale * (180.0 / numpy.pi)
    return scale * q[..., :3]


def from_mrp(p):
    s = (p * p).sum(axis=-1, keepdims=True) + 1
    return concatenate([2 * p, 2 - s], axis=-1) / s


def as_mrp(q):
    sign = where(q[..., 3:] < 0, -1.0, 1.0).astype(q.dtype)
    return sign * q[..., :3] / (1.0 + sign * q[..., 3:])


def magnitude(q):
    return 2 * arctan2(norm_last(q[..., :3]), abs_(q[..., 3]))


_AXIS = {"x": 0, "y": 1, "z": 2}


def check_seq(seq, n_max, exact):
    n = len(seq)
    if exact and n != 3:
        raise ValueError("Expected 3 axes, got {}.".format(seq))
    if not exact and (n < 1 or n > n_max):
        raise ValueError("Expected axis specification to be a non-empty string of up to 3 characters, "
                         "got {}".format(seq))
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError("Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {}".format(seq))
    if any(seq[i] == seq[i + 1] for i in range(n - 1)):
        raise ValueError("Expected consecutive axes to be different, got {}".format(seq))
    return intrinsic, [_AXIS[c] for c in seq.lower()]


def _elementary(axis, angle):
    q = zeros(angle.shape + (4,), dtype=angle.dtype)
    q[..., 3] = cos(angle / 2)
    q[..., axis] = sin(angle / 2)
    return q


def from_euler(seq, angles, degrees=False):
    intrinsic, axes = check_seq(seq, 3, False)
    if degrees:
        angles = angles * (numpy.pi / 180.0)
    if angles.ndim == 0:
        angles = angles.reshape(1)
    if angles.shape[-1] != len(axes):
        raise ValueError("Expected last dimension of `angles` to match number of sequence axes "
                         "specified, got {}.".format(angles.shape[-1]))
    q = _elementary(axes[0], angles[..., 0])
    for i in range(1, len(axes)):
        e = _elementary(axes[i], angles[..., i])
        q = compose(q, e) if intrinsic else compose(e, q)
    return q


def _angles(extrinsic, symmetric, sign, lamb, a, b, c, d, suppress_warnings):
    """The three angles from the quaternion's projections a, b, c, d (Bernardes and Viollet,
    2022): half sums and differences by atan2, the middle angle from the two norms, the gimbal
    lock cases (middle angle 0 or pi) setting the third angle to 0."""
    eps = 1e-7
    half_sum, half_diff = arctan2(b, a), arctan2(d, c)
    mid = 2 * arctan2(hypot(c, d), hypot(a, b))
    lock0 = abs_(mid) <= eps
    lockpi = abs_(mid - numpy.pi) <= eps
    regular = ~(lock0 | lockpi)
    if not suppress_warnings and mid.size and bool((~regular).any()):
        warnings.warn("Gimbal lock detected. Setting third angle to zero since it is not possible "
                      "to uniquely determine all angles.", stacklevel=4)
    first = where(lock0, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    zero = first * 0
    # in the locked cases the first angle (by the sequence's order) carries the whole rotation
    if extrinsic:
        a0, a2 = where(regular, half_sum - half_diff, first), where(regular, half_sum + half_diff, zero)
    else:
        a0, a2 = where(regular, half_sum + half_diff, first), where(regular, half_sum - half_diff, zero)
    if not symmetric:
        if extrinsic:
            a2 = a2 * sign
        else:
            a0 = a0 * sign
        mid = mid - lamb
    out = stack([a0, mid, a2], axis=-1)
    return (out + numpy.pi) % (2 * numpy.pi) - numpy.pi


def as_euler(q, seq, degrees=False, suppress_warnings=False):
    intrinsic, axes = check_seq(seq, 3, True)
    extrinsic = not intrinsic
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2
    qi, qj, qk, qw = _c(q, i), _c(q, j), _c(q, k) * sign, _c(q, 3)
    if symmetric:
        a, b, c, d = qw, qi, qj, qk
    else:
        a, b, c, d = qw - qj, qi + qk, qj + qw, qk - qi
    ang = _angles(extrinsic, symmetric, sign, numpy.pi / 2, a, b, c, d, suppress_warnings)
    return ang * (180.0 / numpy.pi) if degrees else ang


def parse_order(order):
    if order in ("e", "extrinsic"):
        return True
    if order in ("i", "intrinsic"):
        return False
    raise ValueError("order should be 'e'/'extrinsic' for extrinsic sequences or 'i'/'intrinsic' for "
                     "intrinsic sequences, got {}".format(order))


def _cross(a, b):
    return stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1], a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                  a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)


def _dot(a, b):
    return (a * b).sum(axis=-1)


def from_davenport(axes, order, angles, degrees=False):
    extrinsic = parse_order(order)
    if axes.shape[-1] != 3:
        raise ValueError("Axes must be vectors of length 3.")
    if axes.ndim < 2:
        axes = axes.reshape(1, 3)
    if angles.ndim == 0:
        angles = angles.reshape(1)
    n = axes.shape[-2]
    if n < 1 or n > 3:
        raise ValueError("Expected up to 3 axes, got {}".format(n))
    axes = axes / norm_last(axes, keepdims=True)
    bad = None
    for t in range(n - 1):
        nb = abs_(_dot(axes[..., t, :], axes[..., t + 1, :])) > 1e-7
        bad = nb if bad is None else bad | nb
    if bad is not None and bool(bad.any()):
        raise ValueError("Consecutive axes must be orthogonal.")
    if degrees:
        angles = angles * (numpy.pi / 180.0)
    try:
        numpy.broadcast_shapes(axes.shape[:-1], angles.shape)
        ok = axes.shape[-2] == angles.shape[-1]
    except ValueError:
        ok = False
    if not ok:
        raise ValueError("Expected `angles` to match number of axes, got {} angles and {} axes.".format(
            angles.shape, axes.shape))
    q = identity_like(angles.shape[:-1], angles.dtype)
    for t in range(n):
        qi = from_rotvec(angles[..., t, None] * axes[..., t, :])
        q = compose(qi, q) if extrinsic else compose(q, qi)
    return q


def as_davenport(q, axes, order, degrees=False, suppress_warnings=False):
    extrinsic = parse_order(order)
    if axes.ndim < 2 or axes.shape[-2] != 3:
        raise ValueError("Expected 3 axes, got {}.".format(axes.shape))
    if axes.shape[-1] != 3:
        raise ValueError("Axes must be vectors of length 3.")
    axes = axes / norm_last(axes, keepdims=True)
    n1, n2, n3 = axes[..., 0, :], axes[..., 1, :], axes[..., 2, :]
    if bool(((_dot(n1, n2) >= 1e-7) | (_dot(n2, n3) >= 1e-7)).any()):
        raise ValueError("Consecutive axes must be orthogonal.")
    if not extrinsic:
        n1, n3 = n3, n1
    nc = _cross(n1, n2)
    lamb = arctan2(_dot(n3, nc), _dot(n3, n1))
    flip = lamb < 0
    n2 = where(flip[..., None], -n2, n2)
    nc = where(flip[..., None], -nc, nc)
    lamb = abs_(lamb)
    ql = concatenate([sin(lamb / 2)[..., None] * n2, cos(lamb / 2)[..., None]], axis=-1)
    qt = compose(ql, q)
    v = qt[..., :3]
    ang = _angles(extrinsic, False, 1, lamb, qt[..., 3], _dot(v, n1), _dot(v, n2), _dot(v, nc), suppress_warnings)
    ang[..., 1] = where(flip, -ang[..., 1], ang[..., 1])
    return ang * (180.0 / numpy.pi) if degrees else ang


def is_array(x):
    return isinstance(x, ndarray)
