"""`Rotation.mean` and `Rotation.reduce` on (..., 4) quaternion arrays."""

from __future__ import annotations

import numpy

from ...._core.host_input import as_parameter
from ...._manipulation.transpose import moveaxis
from ...._math.misc import abs as abs_
from ...._sorting.searching_reduce import argmax
from ....linalg._decomp import eigh
from . import _quat as Q

__all__ = ["mean_quat", "reduce_quat"]


def _axes(axis, nd, shape):
    all_axes = tuple(range(nd))
    if axis is None:
        axis = all_axes
    elif isinstance(axis, (int, numpy.integer)):
        axis = (int(axis),)
    if not isinstance(axis, tuple):
        raise ValueError("`axis` must be None, int, or tuple of ints.")
    if axis != () and (min(axis) < -nd or max(axis) > nd - 1):
        raise ValueError("axis {} is out of bounds for rotation with shape {}.".format(axis, shape))
    return all_axes, tuple(sorted(set(a % nd for a in axis))) if nd else ()


def mean_quat(q, weights, axis):
    """Markley's chordal L2 mean over `axis`: the eigenvector of the largest eigenvalue of the
    mean of w q q^T (4x4 per output, one batched eigh)."""
    if q.shape[0] == 0:
        raise ValueError("Mean of an empty rotation set is undefined.")
    nd = q.ndim - 1
    all_axes, axis = _axes(axis, nd, q.shape[:-1])
    qe = q[..., None, :]
    if weights is None:
        K = qe.swapaxes(-1, -2) @ qe
    else:
        w = as_parameter(weights, "Rotation.mean").astype(q.dtype)
        if w.size and bool((w < 0).any()):
            raise ValueError("`weights` must be non-negative.")
        try:
            numpy.broadcast_shapes(q.shape[:-1], w.shape)
        except ValueError:
            raise ValueError("Expected `weights` to be broadcastable to rotation shape, got shape {} for {} "
                             "rotations.".format(w.shape, q.shape[:-1])) from None
        K = (w[..., None, None] * qe).swapaxes(-1, -2) @ qe
    keep = tuple(i for i in all_axes if i not in axis)
    if nd:
        K = moveaxis(K, keep + axis, all_axes)
    K = K.reshape(K.shape[:len(keep)] + (-1, 4, 4)).mean(axis=-3)
    _, v = eigh(K)
    return v[..., -1]


def reduce_quat(q, left, right):
    """For each rotation p, the (l, r) of the groups that maximise |scalar part of l p r|, and
    l p r itself: every pair of the (small) groups tried at once on the device."""
    p = q.reshape(-1, 4)
    one = Q.identity_like((1,), q.dtype)
    L = one if left is None else left.reshape(-1, 4).astype(q.dtype)
    R = one if right is None else right.reshape(-1, 4).astype(q.dtype)
    lpr = Q.compose(L[:, None, None, :], Q.compose(p[None, :, None, :], R[None, None, :, :]))  # (L, N, R, 4)
    score = moveaxis(abs_(lpr[..., 3]), 1, 0).reshape(p.shape[0], -1)
    best = argmax(score, axis=1)
    li, ri = best // R.shape[0], best % R.shape[0]
    reduced = Q.compose(L[li], Q.compose(p, R[ri]))
    reduced = reduced.reshape(q.shape)
    return reduced, li, ri
