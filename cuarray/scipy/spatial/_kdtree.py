"""`KDTree` and `cKDTree` with SciPy 1.18's API over the GPU grid of `_grid` (a uniform grid on
the first min(d, 3) coordinates, sorted by cell: one radix argsort and one searchsorted to
build; one thread a query, cells visited outward from the query's). Not a k-d tree: the name,
the signatures and the answers are SciPy's; `leafsize`, `compact_nodes`, `balanced_tree` and
`workers` are accepted and unused, `tree` is absent. `boxsize` (periodic spaces) builds the grid
over 2^P images of the data for P periodic axes (`_periodic`); as SciPy's, the operations of two
trees (`query_ball_tree`, `count_neighbors`, `sparse_distance_matrix`) measure in the first tree's
space.

Results: `query` returns device arrays (0-d where SciPy returns a Python scalar);
`query_ball_point`, `query_ball_tree` and `query_pairs(output_type='set')` return SciPy's host
lists and sets (ragged), built from one device-to-host copy; `count_neighbors` returns a host
number for a scalar `r` as SciPy does and a device array otherwise."""

from __future__ import annotations

import types

import numpy

from ..._core.host_input import as_parameter
from ..._core.ndarray import ndarray
from ..._core.transfer import to_host
from ..._creation.basic import empty
from ..._creation.ranges import arange
from ..._indexing.inserting import take, take_along_axis
from ..._logic.content import isfinite, isinf
from ..._creation.basic import ones, zeros
from ..._manipulation.joining import concatenate, stack
from ..._math.misc import sqrt
from ..._math.rounding import floor
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort
from . import _distance_kernels as _k
from . import _periodic
from ._grid import Grid, knn_capacity

__all__ = ["KDTree", "cKDTree"]

SORT_QUERIES_FROM = 1 << 15  # queries sorted by cell first (locality of the cells they visit)



def _xp():
    """The routines `_periodic` is written over, on the GPU (looked up when called: the host
    tests' copy of this module binds NumPy stand-ins to these names)."""
    return types.SimpleNamespace(where=where, concatenate=concatenate, floor=floor, isinf=isinf, argsort=argsort,
                                 take_along_axis=take_along_axis, zeros=zeros, ones=ones)


def _reduced(v, p):
    return v * v if p == 2 else (v if p == 1 or numpy.isinf(p) else v ** p)


def _unreduce(d, p):
    if p == 2:
        return sqrt(d)
    if p == 1 or numpy.isinf(p):
        return d
    return d ** (1.0 / p)


def _float_points(x, fn):
    x = as_parameter(x, "KDTree." + fn)
    if x.dtype.kind == "c":
        raise TypeError("KDTree does not work with complex data")
    return x.astype(numpy.float64, copy=False)


class KDTree:
    """See `scipy.spatial.KDTree`. Built on the GPU as a uniform grid of cells sorted by a radix
    sort (see the module docstring for what differs)."""

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False, balanced_tree=True,
                 boxsize=None):
        if leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        data = _float_points(data, "__init__")
        if data.ndim != 2:
            raise ValueError("data must be of shape (n, m), where there are n points of dimension m")
        if data.size and not bool(isfinite(data).all()):
            raise ValueError("data must be finite, check for nan or inf values")
        self.data = data.copy() if copy_data or not data.flags.c_contiguous else data
        self.n, self.m = data.shape
        self.leafsize = leafsize
        self.maxes = data.max(axis=0) if self.n else empty((self.m,))
        self.mins = data.min(axis=0) if self.n else empty((self.m,))
        self.size = self.n
        if boxsize is None:
            self.boxsize, self._box, self._pts = None, None, self.data
        else:
            box = _periodic.periodic_box(to_host(boxsize) if isinstance(boxsize, ndarray) else boxsize, self.m)
            self._check_in_box(box)
            self.boxsize = as_parameter(box, "KDTree")
            self._box = box
            self._pts = _periodic.images(_xp(), self.data, box)
        self._copies = self._pts.shape[0] // self.n if self.n else 1
        self._grid = Grid(self._pts)

    def _check_in_box(self, box):
        """SciPy's checks: the data of the periodic axes in [0, L) (one read for both)."""
        axes = [int(j) for j in numpy.flatnonzero(box > 0)]
        if not axes or not self.n:
            return
        cols = take(self.data, as_parameter(numpy.array(axes), "KDTree"), axis=1)
        lim = as_parameter(box[axes], "KDTree")
        over, under = to_host(stack([(cols >= lim).any(), (cols < 0).any()])).tolist()
        if over:
            raise ValueError("Some input data are greater than the size of the periodic box.")
        if under:
            raise ValueError("Negative input data are outside of the periodic box.")

    def _space(self, box):
        """This tree's points in the space of `box` (another tree's): itself where the spaces are
        the same, else a tree of its points (wrapped into that box) built for it."""
        same = (box is None and self._box is None) or (
            box is not None and self._box is not None and numpy.array_equal(box, self._box))
        if same:
            return self
        if box is None:
            return KDTree(self.data)
        return KDTree(_periodic.wrap(_xp(), self.data, box), boxsize=box)

    def _may_repeat(self, r):
        """Whether a ball of radius r (device radii) can hold two images of one point."""
        if self._copies == 1 or r.size == 0:
            return False
        half = float(self._box[self._box > 0].min()) / 2.0
        return bool(to_host(r.max()) >= half)

    def _tiled(self, w):
        """Per-point weights repeated for the images."""
        return w if w is None or self._copies == 1 else concatenate([w] * self._copies)

    def _queries(self, x, fn):
        x = _float_points(x, fn)
        if x.ndim == 0 or x.shape[-1] != self.m:
            raise ValueError("x must consist of vectors of length {} but has shape {}".format(self.m, x.shape))
        if x.size and not bool(isfinite(x).all()):
            raise ValueError("'x' must be finite, check for nan or inf values")
        xx = x.reshape(-1, self.m).copy() if not x.flags.c_contiguous else x.reshape(-1, self.m)
        return x, xx if self._box is None else _periodic.wrap(_xp(), xx, self._box)

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=numpy.inf, workers=1):
        """See `scipy.spatial.KDTree.query`. Device arrays; queries sorted by cell first when
        there are many (the answer is unsorted back)."""
        x, xx = self._queries(x, "query")
        if k is None:
            raise ValueError("k must be an integer or a sequence of integers")
        if p < 1:
            raise ValueError("Only p-norms with 1<=p<=infinity permitted")
        nearest = numpy.isscalar(k) and k == 1
        ks = numpy.arange(1, int(k) + 1) if numpy.isscalar(k) else numpy.asarray(k, dtype=numpy.intp).reshape(-1)
        kmax = int(ks.max()) if ks.size else 0
        retshape = tuple(x.shape[:-1])
        od, oi = self._knn(xx, kmax * self._copies, float(eps), float(p), float(distance_upper_bound))
        if self._copies > 1:  # each point once, at its nearest image
            od, oi = _periodic.dedup_knn(_xp(), od, oi, self.n, kmax)
        od = _unreduce(od, p)
        if not numpy.array_equal(ks, numpy.arange(1, kmax + 1)):
            sel = as_parameter(ks - 1, "KDTree.query")
            od, oi = take(od, sel, axis=1), take(oi, sel, axis=1)
        od, oi = od.reshape(retshape + (len(ks),)), oi.reshape(retshape + (len(ks),))
        if nearest:
            od, oi = od[..., 0], oi[..., 0]
        return od, oi

    def _knn(self, xx, kmax, eps, p, ub):
        ub_r = _reduced(ub, p)
        fac = (1.0 + eps) ** -(2.0 if p == 2 else (1.0 if p == 1 or numpy.isinf(p) else p))
        nq = xx.shape[0]
        order = None
        if nq >= SORT_QUERIES_FROM:
            order = argsort(self._grid.cells(xx), kind="stable")
            xx = take(xx, order, axis=0)
        if knn_capacity(kmax) is not None:
            od, oi = self._grid.knn(xx, kmax, p, ub_r, fac)
        else:
            od, oi = self._brute_knn(xx, kmax, p, ub_r)
        if order is not None:
            d2, i2 = empty(od.shape, dtype=od.dtype), empty(oi.shape, dtype=oi.dtype)
            d2[order] = od
            i2[order] = oi
            od, oi = d2, i2
        return od, oi

    def _brute_knn(self, xx, kmax, p, ub_r):
        """More than 128 neighbours: reduced distances to every point (image) by blocks, sorted."""
        nq, pts = xx.shape[0], self._pts
        n = pts.shape[0]
        od, oi = empty((nq, kmax)), empty((nq, kmax), dtype=numpy.int64)
        od[...] = numpy.inf
        oi[...] = n
        kk = min(kmax, n)
        step = max(1, (1 << 24) // max(n, 1))
        kind = "cityblock" if p == 1 else ("chebyshev" if numpy.isinf(p) else "minkowski")
        args = (float(p),) if kind == "minkowski" else ()
        for i0 in range(0, nq, step):
            # the differences reduced over coordinates (not cdist's product form, whose rounding is
            # about 1e-8 of the points' norms: near-coincident points must keep their tiny distances)
            a = xx[i0:i0 + step]
            blk = empty((a.shape[0], n))
            _k.pair_reduction(kind)(a[:, None, :], pts[None, :, :], *args, blk, axis=2)
            blk = _reduced(blk, p)
            idx = argsort(blk, axis=1, kind="stable")[:, :kk]
            dist = take_along_axis(blk, idx, axis=1)
            keep = dist < ub_r
            od[i0:i0 + step, :kk] = where(keep, dist, numpy.inf)
            oi[i0:i0 + step, :kk] = where(keep, idx, n)
        return od, oi

    def _ball(self, xx, r, p, with_distances=False, tree=None):
        """(indices, reduced distances or None, counts, offsets) of the points of `tree` (self
        by default) within r of each query, each query's indices sorted; in a periodic space each
        point once, at its nearest image's distance."""
        tree = self if tree is None else tree
        counts, _ = tree._grid.ball_count(xx, r, p)
        offsets = cumsum(counts) - counts
        total = int(counts.sum()) if counts.size else 0
        repeats = tree._may_repeat(r)
        idx, dist = tree._grid.ball_fill(xx, r, p, offsets, total, with_distances or repeats)
        if total:
            qid = searchsorted(offsets, arange(total, dtype=numpy.int64), side="right") - 1
            if tree._copies > 1:
                idx = idx % tree.n
            if repeats:  # nearest image first among a point's entries, then keep the first
                near = argsort(dist, kind="stable")
                qid, idx, dist = take(qid, near), take(idx, near), take(dist, near)
            key = qid * max(tree.n, 1) + idx
            order = argsort(key, kind="stable")
            idx = take(idx, order)
            if dist is not None:
                dist = take(dist, order)
            if repeats:
                keep = _periodic.first_of_runs(_xp(), take(key, order))
                qid, idx = take(qid, order)[keep], idx[keep]
                dist = dist[keep] if with_distances else None
                starts = searchsorted(qid, arange(xx.shape[0] + 1, dtype=numpy.int64), side="left")
                counts, offsets = starts[1:] - starts[:-1], starts[:-1]
        elif not with_distances:
            dist = None
        return idx, dist, counts, offsets

    def _radius(self, r, shape):
        r = as_parameter(r, "KDTree").astype(numpy.float64)
        if r.shape == tuple(shape):
            return r.reshape(-1)
        full = empty(tuple(shape), dtype=numpy.float64)
        full[...] = r
        return full.reshape(-1)

    def query_ball_point(self, x, r, p=2.0, eps=0.0, workers=1, return_sorted=None, return_length=False):
        """See `scipy.spatial.KDTree.query_ball_point`. The lists are SciPy's host lists (each
        sorted, whatever `return_sorted` says: sorted is one of the orders SciPy allows);
        `return_length` gives a device array."""
        x, xx = self._queries(x, "query_ball_point")
        retshape = tuple(x.shape[:-1])
        rr = self._radius(r, retshape)
        if return_length:
            counts = self._ball(xx, rr, p)[2] if self._may_repeat(rr) else self._grid.ball_count(xx, rr, p)[0]
            return counts.reshape(retshape)
        idx, _, counts, _ = self._ball(xx, rr, p)
        lists = numpy.split(to_host(idx), numpy.cumsum(to_host(counts))[:-1]) if counts.size else []
        out = numpy.empty(len(lists), dtype=object)
        for i, a in enumerate(lists):
            out[i] = a.tolist()
        out = out.reshape(retshape)
        return out[()] if x.ndim == 1 else out

    def query_ball_tree(self, other, r, p=2.0, eps=0.0):
        """See `scipy.spatial.KDTree.query_ball_tree`: a list of host lists (in this tree's space,
        as SciPy's)."""
        if self.m != other.m:
            raise ValueError("Trees passed to query_ball_tree have different dimensionality")
        res = other._space(self._box).query_ball_point(self.data, r, p)
        return [list(v) for v in res]

    def query_pairs(self, r, p=2.0, eps=0.0, output_type="set"):
        """See `scipy.spatial.KDTree.query_pairs`. 'ndarray' is a device array (sorted pairs)."""
        if output_type not in ("set", "ndarray"):
            raise ValueError("Invalid output type")
        rr = self._radius(r, ())
        idx, _, counts, offsets = self._ball(self.data, rr, p)
        total = idx.shape[0]
        qid = searchsorted(offsets, arange(total, dtype=numpy.int64), side="right") - 1 if total else idx
        keep = qid < idx
        pairs = _pairs(qid[keep], idx[keep])
        if output_type == "ndarray":
            return pairs
        return set(map(tuple, to_host(pairs).tolist()))

    def count_neighbors(self, other, r, p=2.0, weights=None, cumulative=True):
        """See `scipy.spatial.KDTree.count_neighbors`: one ball count of self's points in other
        per distinct r."""
        if self.m != other.m:
            raise ValueError("Trees passed to count_neighbors have different dimensionality")
        r_in = to_host(r) if isinstance(r, ndarray) else r
        r_host = numpy.array(r_in, ndmin=1, dtype=numpy.float64)
        if numpy.ndim(r_in) > 1:
            raise ValueError("r must be either a single value or a one-dimensional array of values")
        if not cumulative and numpy.any(numpy.diff(r_host) < 0):
            raise ValueError("r must be non-decreasing for non-cumulative counting.")
        w_self = w_other = None
        if weights is not None:
            if isinstance(weights, tuple):
                w_self, w_other = weights
            else:
                if other is not self:
                    raise ValueError("Two different trees are used. Specify weights for both in a tuple.")
                w_self = w_other = weights
        w_self = None if w_self is None else as_parameter(w_self, "KDTree.count_neighbors").astype(numpy.float64)
        w_other = None if w_other is None else as_parameter(w_other, "KDTree.count_neighbors").astype(numpy.float64)
        for w, t in ((w_self, self), (w_other, other)):
            if w is not None and w.shape[0] != t.n:
                raise ValueError("Number of weights differ from the number of data points")
        uniq, uind, inverse = numpy.unique(r_host, return_index=True, return_inverse=True)
        weighted = w_self is not None or w_other is not None
        cum = numpy.zeros(len(uniq), dtype=numpy.float64 if weighted else numpy.int64)
        space = other._space(self._box)  # SciPy measures in self's space
        for i, rv in enumerate(uniq):
            rad = as_parameter(numpy.array([rv]), "KDTree.count_neighbors")
            if space._may_repeat(rad):  # periodic, r >= L/2: each point once, from the lists
                idx, _, counts, offsets = self._ball(self.data, rad, p, tree=space)
                wsum = None
                if w_other is not None:
                    cs = concatenate([zeros((1,)), cumsum(take(w_other, idx))])
                    wsum = take(cs, offsets + counts) - take(cs, offsets)
            else:
                counts, wsum = space._grid.ball_count(self.data, rad, p, space._tiled(w_other))
            per = wsum if w_other is not None else counts.astype(numpy.float64 if weighted else numpy.int64)
            if w_self is not None:
                per = per * w_self
            cum[i] = to_host(per.sum()) if self.n else 0
        res = cum[inverse.reshape(-1)] if cumulative else _bins(cum, uind, inverse, len(r_host))
        if numpy.ndim(r_in) == 0:
            return res[0].item()
        return as_parameter(res, "KDTree.count_neighbors")

    def sparse_distance_matrix(self, other, max_distance, p=2.0, output_type="dok_matrix"):
        """See `scipy.spatial.KDTree.sparse_distance_matrix`. 'coo_matrix'/'coo_array' are
        cuarray.sparse matrices; 'dok_matrix'/'dok_array' are SciPy's host matrices (cuarray has
        no DOK format), 'dict' and 'ndarray' host objects as SciPy's."""
        if self.m != other.m:
            raise ValueError("Trees passed to sparse_distance_matrix have different dimensionality")
        if output_type not in ("dict", "ndarray", "dok_matrix", "dok_array", "coo_matrix", "coo_array"):
            raise ValueError("Invalid output type")
        rad = as_parameter(numpy.array([float(max_distance)]), "KDTree.sparse_distance_matrix")
        space = other._space(self._box)  # SciPy measures in self's space
        j, dist, counts, offsets = self._ball(self.data, rad, p, with_distances=True, tree=space)
        total = j.shape[0]
        i = searchsorted(offsets, arange(total, dtype=numpy.int64), side="right") - 1 if total else j
        v = _unreduce(dist, p) if total else empty((0,))
        return _sparse_output(output_type, i, j, v, (self.n, other.n))


class cKDTree(KDTree):
    """See `scipy.spatial.cKDTree`: `KDTree` with cKDTree's default leafsize."""

    def __init__(self, data, leafsize=16, compact_nodes=True, copy_data=False, balanced_tree=True, boxsize=None):
        super().__init__(data, leafsize, compact_nodes, copy_data, balanced_tree, boxsize)

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=numpy.inf, workers=None, **kwargs):
        """See `scipy.spatial.cKDTree.query`."""
        _no_kwargs(kwargs)
        return KDTree.query(self, x, k, eps, p, distance_upper_bound)

    def query_ball_point(self, x, r, p=2.0, eps=0.0, workers=None, return_sorted=None, return_length=False,
                         **kwargs):
        """See `scipy.spatial.cKDTree.query_ball_point`."""
        _no_kwargs(kwargs)
        return KDTree.query_ball_point(self, x, r, p, eps, 1, return_sorted, return_length)


def _no_kwargs(kwargs):
    if kwargs:
        raise TypeError("unexpected keyword argument {!r}".format(sorted(kwargs)[0]))


def _pairs(i, j):
    key = i * (j.max() + 1 if j.size else 1) + j
    order = argsort(key, kind="stable") if j.size else key
    return stack([take(i, order), take(j, order)], axis=1) if j.size else empty((0, 2), dtype=numpy.int64)


def _bins(cum, uind, inverse, n):
    """Non-cumulative counts: each distinct r's bin (counts past the previous r), at the first
    place it appears, 0 at its repeats (SciPy's rule)."""
    bins = numpy.diff(cum, prepend=cum.dtype.type(0))
    res = numpy.zeros(n, dtype=cum.dtype)
    res[uind] = bins[inverse.reshape(-1)[uind]]
    return res


def _sparse_output(kind, i, j, v, shape):
    if kind in ("coo_matrix", "coo_array"):
        from ...sparse import coo_array, coo_matrix  # import time: cuarray.sparse only for this output
        cls = coo_matrix if kind == "coo_matrix" else coo_array
        return cls((v, (i, j)), shape=shape)
    hi, hj, hv = to_host(i), to_host(j), to_host(v)
    if kind == "dict":
        return {(int(a), int(b)): float(c) for a, b, c in zip(hi, hj, hv)}
    if kind == "ndarray":
        out = numpy.empty(len(hi), dtype=[("i", numpy.intp), ("j", numpy.intp), ("v", numpy.float64)])
        out["i"], out["j"], out["v"] = hi, hj, hv
        return out
    # host work: SciPy's DOK matrices (no device DOK format)
    import scipy.sparse as host_sparse
    coo = (host_sparse.coo_matrix if kind == "dok_matrix" else host_sparse.coo_array)((hv, (hi, hj)), shape=shape)
    return coo.todok()
