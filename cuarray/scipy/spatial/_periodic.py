"""Periodic spaces (`KDTree(boxsize=...)`) on the grid of `_grid`, by images.

SciPy's periodic distance between points of the box [0, L) takes, along each periodic axis, the
difference wrapped into [-L/2, L/2] (its `BoxDist1D`); queries are first wrapped into the box (its
`wrap_position`). Along an axis, the nearest image of a point y in [0, L) to any x in [0, L) is y
itself or y - L when y >= L/2, y or y + L when y < L/2 (the third image is always more than L/2
away), so with P periodic axes 2^P copies of the data, each point shifted by one of those choices
per axis, hold every point's nearest image. The grid is built over them (2^P times the points and
memory of a plain tree) and queried as a plain one; answers map back to the original indices (an
image's index modulo n) and keep each point once at its nearest image's distance:

- k nearest: the search asks for k 2^P neighbours among the images (the k-th nearest point's nearest
  image comes after at most the (k - 1) 2^P images of the closer points), then keeps each point's
  first (nearest) entry (`dedup_knn`);
- within r: two images of one point are L apart along some axis, so both lie within r only when
  r >= L/2: below that the counts and lists are the plain ones; from there the pairs are sorted by
  (query, point) and each point kept once, at its smallest distance (`first_of_runs`).

Written over a NumPy-named namespace `xp` (cuarray's on the GPU; the CPU tests run it with NumPy
against scipy.spatial's periodic trees). Axes whose box size is not positive are not periodic, as
SciPy's.
"""

from __future__ import annotations

import numpy

__all__ = ["periodic_box", "images", "wrap", "dedup_knn", "first_of_runs", "MAX_PERIODIC_AXES"]

MAX_PERIODIC_AXES = 12  # 4096 images: past that the copies, not the search, are the cost


def periodic_box(boxsize, m):
    """SciPy's `broadcast_contiguous(boxsize, shape=(m,), dtype=float64)`: a host array (m,)."""
    box = numpy.asarray(boxsize, dtype=numpy.float64)
    if box.shape != (m,):
        box = numpy.ascontiguousarray(numpy.broadcast_to(box, (m,)))  # a bad shape: NumPy's ValueError
    axes = numpy.flatnonzero(box > 0)
    if len(axes) > MAX_PERIODIC_AXES:
        raise NotImplementedError("cuarray's periodic KDTree holds 2^P images of the data for P periodic axes; "
                                  "{} periodic axes are more than its {}".format(len(axes), MAX_PERIODIC_AXES))
    return box


def _axes(box):
    return [int(j) for j in numpy.flatnonzero(box > 0)]


def images(xp, data, box):
    """The 2^P copies of `data` (n, m) stacked: copy t shifted along the periodic axes of the bits
    of t, each point towards the box's far side (image i is point i % n)."""
    axes = _axes(box)
    if not axes:
        return data
    shifted = {}
    for j in axes:
        col = data[:, j]
        shifted[j] = xp.where(col >= box[j] / 2.0, col - box[j], col + box[j])
    copies = []
    for t in range(1 << len(axes)):
        if t == 0:
            copies.append(data)
            continue
        c = data.copy()
        for b, j in enumerate(axes):
            if t >> b & 1:
                c[:, j] = shifted[j]
        copies.append(c)
    return xp.concatenate(copies, axis=0)


def wrap(xp, x, box):
    """Queries (q, m) wrapped into [0, L) along the periodic axes (SciPy's `wrap_position`)."""
    axes = _axes(box)
    if not axes:
        return x
    out = x.copy()
    for j in axes:
        L = float(box[j])
        col = x[:, j]
        w = col - xp.floor(col / L) * L
        w = xp.where(w >= L, w - L, w)
        out[:, j] = xp.where(w < 0.0, w + L, w)
    return out


def dedup_knn(xp, od, oi, n, k):
    """The k nearest distinct points from (q, K) lists over the images sorted by distance
    (missing entries: distance inf): each point's first (nearest) entry kept, indices mapped to
    0..n-1 (missing: n), the k first by distance."""
    q = od.shape[0]
    idx = xp.where(xp.isinf(od), n, oi % max(n, 1))
    if od.shape[1] == 0:
        return od, idx
    by_point = xp.argsort(idx, axis=1, kind="stable")  # each point's entries together, nearest first
    si = xp.take_along_axis(idx, by_point, axis=1)
    sd = xp.take_along_axis(od, by_point, axis=1)
    later = xp.concatenate([xp.zeros((q, 1), dtype=bool), si[:, 1:] == si[:, :-1]], axis=1)
    sd = xp.where(later, numpy.inf, sd)
    si = xp.where(later, n, si)
    by_dist = xp.argsort(sd, axis=1, kind="stable")[:, :k]
    return xp.take_along_axis(sd, by_dist, axis=1), xp.take_along_axis(si, by_dist, axis=1)


def first_of_runs(xp, key):
    """True at the first element of each run of equal values of the sorted 1-D `key`."""
    if key.shape[0] == 0:
        return key == key
    return xp.concatenate([xp.ones((1,), dtype=bool), key[1:] != key[:-1]])
