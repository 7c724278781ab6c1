"""Run cuarray.scipy.spatial's Python logic on the CPU: NumPy stands in for the cuarray routines
each module imports, and NumPy versions of the same formulas for its kernels (the CUDA of those
kernels is checked by the NVRTC compile tests and by the GPU tests), so block planning, metric
plans, argument handling, shapes and dtypes are compared with SciPy without a GPU (the idea of
tests/cuarray_sparse/_host_shim.py)."""

from __future__ import annotations

import types

import numpy as np
from scipy import special

from cuarray.scipy.spatial import _sqdist_plan
from cuarray.scipy.spatial import _sqdist_tiles as _sqdist_tiles_module


class HostArray(np.ndarray):
    """A NumPy array with cuarray's `.get()`."""

    def get(self, stream=None):
        return np.asarray(self).copy()


def H(a):
    """A host-shim array of NumPy data."""
    return np.array(a, copy=True).view(HostArray)


def _wrap(fn):
    def f(*args, **kwargs):
        r = fn(*args, **kwargs)
        if isinstance(r, tuple):
            return tuple(x.view(HostArray) if isinstance(x, np.ndarray) else x for x in r)
        return r.view(HostArray) if isinstance(r, np.ndarray) else np.asarray(r).view(HostArray)
    return f


def _as_array(x, fn=None):
    if isinstance(x, (list, tuple)):
        raise TypeError("host input")
    return np.asarray(x).view(HostArray)


def _as_parameter(x, fn=None):
    return np.asarray(x).view(HostArray)


def _as_literal_or_array(x, fn=None):  # (host arrays stand for device ones here: both are taken)
    return np.asarray(x).view(HostArray)


def _triu_indices(n, k=0, m=None):
    return tuple(v.view(HostArray) for v in np.triu_indices(n, k, m))


def _inverse(a, char, check):
    """cuarray.linalg's unchecked inverse: a singular matrix gives NaN, not an error."""
    out = np.empty(a.shape, dtype=char)
    for i in np.ndindex(a.shape[:-2]):
        try:
            out[i] = np.linalg.inv(a[i])
        except np.linalg.LinAlgError:
            out[i] = np.nan
    return out.view(HostArray)


# name in the module -> the NumPy stand-in
_NUMPY = {
    "as_array": _as_array, "as_parameter": _as_parameter, "as_literal_or_array": _as_literal_or_array,
    "ndarray": HostArray,
    "from_host": _wrap(np.asarray), "to_host": np.asarray, "empty": _wrap(np.empty), "zeros": _wrap(np.zeros),
    "arange": _wrap(np.arange), "take": _wrap(np.take), "vstack": _wrap(np.vstack), "sqrt": np.sqrt,
    "where": _wrap(np.where), "searchsorted": _wrap(np.searchsorted), "cov": _wrap(np.cov),
    "inv": _wrap(np.linalg.inv), "_inverse": _inverse, "not_equal": np.not_equal, "log": np.log, "abs_": np.abs, "max_": _wrap(np.max),
    "norm": _wrap(np.linalg.norm), "triu_indices": _triu_indices, "concatenate": _wrap(np.concatenate),
    "_concat": _wrap(np.concatenate), "stack": _wrap(np.stack), "arctan2": np.arctan2, "cos": np.cos,
    "sin": np.sin, "tan": np.tan, "hypot": np.hypot, "argmax": _wrap(np.argmax), "det": _wrap(np.linalg.det),
    "svd": _wrap(np.linalg.svd), "eigh": _wrap(np.linalg.eigh), "moveaxis": _wrap(np.moveaxis),
    "diff": _wrap(np.diff), "isfinite": np.isfinite, "cumsum": _wrap(np.cumsum),
    "argsort": _wrap(np.argsort), "take_along_axis": _wrap(np.take_along_axis), "nonzero": _wrap(np.nonzero),
    "arccos": np.arccos, "prod": _wrap(np.prod), "maximum": np.maximum, "minimum": np.minimum,
    "zeros_like": _wrap(np.zeros_like), "full": _wrap(np.full), "unique": _wrap(np.unique),
    "ones": _wrap(np.ones), "ascontiguousarray": _wrap(np.ascontiguousarray), "floor": np.floor, "isinf": np.isinf,
}


def _reduced(d, p):
    return d * d if p == 2 else (d if p == 1 or np.isinf(p) else d ** p)


class HostGrid:
    """The `_grid.Grid` interface answered by brute force in NumPy (what the kernels compute:
    reduced distances, the k nearest below ub in distance order, the points within r)."""

    def __init__(self, data):
        self.data = np.asarray(data)
        self.n, self.d = self.data.shape

    def cells(self, x):
        return np.zeros(len(x), dtype=np.int64).view(HostArray)

    def _dist(self, q, p):
        diff = np.abs(np.asarray(q)[:, None, :] - self.data[None, :, :])
        if np.isinf(p):
            return diff.max(axis=2, initial=0.0)
        return (diff ** (2 if p == 2 else p)).sum(axis=2)

    def knn(self, q, k, p, ub_reduced, eps_fac):
        d = self._dist(q, p)
        order = np.argsort(d, axis=1, kind="stable")[:, :k]
        dist = np.take_along_axis(d, order, axis=1)
        ok = dist < ub_reduced
        od = np.full((len(q), k), np.inf)
        oi = np.full((len(q), k), self.n, dtype=np.int64)
        od[:, :dist.shape[1]] = np.where(ok, dist, np.inf)
        oi[:, :dist.shape[1]] = np.where(ok, order, self.n)
        return od.view(HostArray), oi.view(HostArray)

    def _within(self, q, radius, p):
        r = np.asarray(radius)
        rr = _reduced(r if r.shape[0] == len(q) and len(q) > 1 else np.full(len(q), r[0]), p)
        return self._dist(q, p) <= rr[:, None]

    def ball_count(self, q, radius, p, weights=None):
        inside = self._within(q, radius, p)
        w = None if weights is None else (inside * np.asarray(weights)[None, :]).sum(axis=1).view(HostArray)
        return inside.sum(axis=1).astype(np.int64).view(HostArray), w

    def ball_fill(self, q, radius, p, offsets, total, with_distances):
        inside = self._within(q, radius, p)
        rows, cols = np.nonzero(inside)
        d = self._dist(q, p)[rows, cols]
        return cols.astype(np.int64).view(HostArray), (d.view(HostArray) if with_distances else None)


def exact_square(a, b, mode, p):
    """sqdist_exact.cuh's formula in NumPy (the same operations in the same order, no FMA) for the
    pairs of rows a[i], b[i]: SciPy's direct sums."""
    k = a.shape[1]
    s = np.zeros(a.shape[0])
    if mode == "variance":  # even and odd columns in two sums, then an odd k's last column
        s1 = np.zeros(a.shape[0])
        j = 0
        while j + 1 < k:
            d0, d1 = a[:, j] - b[:, j], a[:, j + 1] - b[:, j + 1]
            s, s1 = s + (d0 * d0) / p[j], s1 + (d1 * d1) / p[j + 1]
            j += 2
        s = s + s1
        if j < k:
            d = a[:, j] - b[:, j]
            s = s + (d * d) / p[j]
        return s
    d = a - b
    if mode == "quad":
        for i in range(k):
            t = np.zeros(a.shape[0])
            for j in range(k):
                t = t + d[:, j] * p[i, j]
            s = s + d[:, i] * t
        return s
    for j in range(k):
        dj = d[:, j]
        s = s + {"plain": lambda: dj * dj, "weighted": lambda: p[j] * (dj * dj),
                 "weighted_sq": lambda: (p[j] * dj) * dj}[mode]()
    return s


def _squared_epilogue(g, na, nb, out, root, exact):
    """The euclidean family's epilogues (the tiles' and the cuBLAS product's): the expanded form,
    the pairs that cancelled past exact_threshold formed again from the original rows."""

    norms = na[:, None] + nb[None, :]
    s = norms - 2.0 * np.asarray(g)
    i, j = np.nonzero(s <= _sqdist_plan.exact_threshold(exact.A.shape[1]) * norms)
    A, B = np.asarray(exact.A), np.asarray(exact.B)
    s[i, j] = exact_square(A[i], B[j], exact.mode, None if exact.param is None else np.asarray(exact.param))
    s = np.where(s < 0, 0.0, s)
    out[...] = np.sqrt(s) if root else s


def _epilogue(name):
    def cosine(g, na, nb, out):
        with np.errstate(all="ignore"):
            c = g / (na * nb)
        c = np.where(np.abs(c) > 1, np.copysign(1.0, c), c)
        out[...] = 1.0 - c

    def boolean(g, sa, sb, n, code, out):
        ntf, nft = sa - g, sb - g
        nff, nd = n - sa - sb + g, ntf + nft
        with np.errstate(all="ignore"):
            r = [nd / (2 * g + nd), np.where(g + nd != 0, nd / np.where(g + nd != 0, g + nd, 1), 0.0), nd / n,
                 2 * nd / (n + nd), (n - g) / n, 2 * nd / (2 * nd + g),
                 2 * ntf * nft / (g * nff + ntf * nft + (ntf * nft == 0))][int(code)]
        out[...] = r

    return {"cosine": cosine, "bool": boolean}[name]


def _pair_reduction(name):
    def run(*args, out=None, axis=2):
        if name == "sumsq":  # a row's squared norm
            return (args[0] * args[0]).sum(axis).view(HostArray)
        args = list(args)
        if out is None and len(args) >= 3 and isinstance(args[-1], np.ndarray) and args[-1].ndim == 2:
            out = args.pop()
        x, y = args[0], args[1]
        rest = args[2:]
        w = rest[0] if name.endswith("_w") else 1.0
        p = rest[-1] if name.startswith("minkowski") else None
        d = x - y
        with np.errstate(all="ignore"):
            if name.startswith("cityblock"):
                r = (w * np.abs(d)).sum(axis)
            elif name.startswith("braysum"):
                r = (w * np.abs(x + y)).sum(axis)
            elif name.startswith("canberra"):
                den = np.abs(x) + np.abs(y)
                r = (w * np.abs(d) / (den + (den == 0))).sum(axis)
            elif name.startswith("chebyshev"):
                r = np.max(np.where(np.broadcast_to(w, d.shape) > 0, np.abs(d), 0.0), axis=axis, initial=0.0)
            elif name.startswith("minkowski"):
                r = (w * np.abs(d) ** p).sum(axis) ** (1.0 / p)
            elif name.startswith("hamming"):
                r = np.where(x != y, np.broadcast_to(w, d.shape), 0.0).sum(axis)
            elif name == "hellinger":  # cupyx's definition
                r = np.sqrt(((np.sqrt(x) - np.sqrt(y)) ** 2).sum(axis) / 2.0)
            elif name == "kl_divergence":  # sum of rel_entr
                r = special.rel_entr(x, y).sum(axis)
            else:  # jensenshannon
                m2 = x + y
                t = np.where(x > 0, x * np.log(2 * x / m2), 0.0) + np.where(y > 0, y * np.log(2 * y / m2), 0.0)
                r = np.sqrt(t.sum(axis) / 2.0)
        if out is None:
            return np.asarray(r).view(HostArray)
        out[...] = r
        return out
    return run


def _rotation_kernel(name):
    def compose(px, py, pz, pw, qx, qy, qz, qw, rx, ry, rz, rw):
        rx[...] = pw * qx + qw * px + (py * qz - pz * qy)
        ry[...] = pw * qy + qw * py + (pz * qx - px * qz)
        rz[...] = pw * qz + qw * pz + (px * qy - py * qx)
        rw[...] = pw * qw - px * qx - py * qy - pz * qz

    def matrix(x, y, z, w, *m):
        x2, y2, z2, w2 = x * x, y * y, z * z, w * w
        vals = [x2 - y2 - z2 + w2, 2 * (x * y - z * w), 2 * (x * z + y * w),
                2 * (x * y + z * w), -x2 + y2 - z2 + w2, 2 * (y * z - x * w),
                2 * (x * z - y * w), 2 * (y * z + x * w), -x2 - y2 + z2 + w2]
        for o, v in zip(m, vals):
            o[...] = v

    def apply(x, y, z, w, vx, vy, vz, inverse, ox, oy, oz):
        m = np.empty(np.broadcast_shapes(np.shape(x), np.shape(vx)) + (9,))
        outs = [m[..., i] for i in range(9)]
        matrix(x, y, z, w, *outs)
        m = m.reshape(m.shape[:-1] + (3, 3))
        if inverse:
            m = np.swapaxes(m, -1, -2)
        v = np.stack(np.broadcast_arrays(vx, vy, vz), axis=-1)
        r = (m @ v[..., None])[..., 0]
        ox[...], oy[...], oz[...] = r[..., 0], r[..., 1], r[..., 2]

    def rigid_apply(*args):
        m = np.stack(np.broadcast_arrays(*args[:12]), axis=-1).reshape(np.broadcast(*args[:12]).shape + (3, 4))
        v = np.stack(np.broadcast_arrays(*args[12:15]), axis=-1)
        r, t = m[..., :3], m[..., 3]
        if args[15]:  # SciPy's inverse matrix [R^T, -R^T t] applied
            r = np.swapaxes(r, -1, -2)
            t = -(r @ t[..., None])[..., 0]
        out = (r @ v[..., None])[..., 0] + t
        for k in range(3):
            args[16 + k][...] = out[..., k]

    return {"compose": compose, "matrix": matrix, "apply": apply, "rigid_apply": rigid_apply}[name]


def _sqdist_tiles():
    """The fused euclidean tiles (`_sqdist_tiles`) in NumPy: its planner as it is, on a device of
    compute capability 9.0, its operands (centred, scaled, padded) and norms, and
    the kernel's formula, so that cdist/pdist's tiled path (one launch for the whole result, a
    pdist block's offsets) runs here."""

    def centred_rows(X, shift, scale=None):
        Y = np.asarray(X, dtype=np.float64) - shift
        if scale is not None:
            Y = Y * scale
        P = np.zeros((Y.shape[0], _sqdist_plan.padded_k(Y.shape[1])))
        P[:, :Y.shape[1]] = Y
        return P.view(HostArray), (Y * Y).sum(axis=1).view(HostArray)

    def launch(plan, a, b, na, nb, out, root, exact):
        assert a.shape[1] == b.shape[1] == plan.k and out.shape == (a.shape[0], b.shape[0])
        _squared_epilogue(np.asarray(a) @ np.asarray(b).T, na, nb, out, root, exact)

    return types.SimpleNamespace(plan_for=lambda m, n, k: _sqdist_plan.plan_sqdist(m, n, k, (9, 0)),
                                 centred_rows=centred_rows, launch=launch, epilogue=_squared_epilogue,
                                 Exact=_sqdist_tiles_module.Exact)


def _delaunay_host():
    """tests/scipy/spatial/_delaunay_host.py (the GPU triangulation's template built for the host
    with g++), loaded by path: this file is itself loaded by path from tests/scipy/interpolate."""
    import importlib.util
    import pathlib
    import sys

    name = "cuarray_tests_spatial_delaunay_host"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, pathlib.Path(__file__).with_name("_delaunay_host.py"))
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def spatial_standins():
    """{module: {name: NumPy stand-in}} for every module of cuarray.scipy.spatial (all imported
    here), as `host_packages` takes them (tests/scipy/interpolate/conftest.py uses them too)."""
    import importlib
    import pkgutil

    import cuarray.scipy.spatial as spatial

    for info in pkgutil.walk_packages(spatial.__path__, spatial.__name__ + "."):
        importlib.import_module(info.name)  # every module of the package in the copies
    from cuarray.scipy.spatial import (_delaunay, _distance_kernels, _distance_pair, _distance_vec, _hull,
                                       _kdtree, _minkowski, _plotutils, _procrustes, _rectangle,
                                       _spherical_voronoi, _squareform, _triangulation)
    from cuarray.scipy.spatial.transform import (_arguments, _quat, _reduce, _rigid, _rigid_transform, _rotation,
                                                 _slerp, _spline)

    standins = {}
    for mod in (_distance_vec, _distance_pair, _squareform, _minkowski, _quat, _rotation, _reduce, _slerp, _kdtree,
                _procrustes, _hull, _delaunay, _spline, _rectangle, _plotutils, _spherical_voronoi, _rigid,
                _rigid_transform, _arguments, _triangulation):
        standins[mod] = {attr: stand_in for attr, stand_in in _NUMPY.items()
                         if vars(mod).get(attr) is not None
                         and getattr(vars(mod)[attr], "__module__", None) != mod.__name__}  # imported, not its own
    standins[_kdtree]["Grid"] = HostGrid
    standins[_delaunay]["_delaunay_gpu"] = types.SimpleNamespace(delaunay_2d=_delaunay_host().delaunay_2d)
    standins[_distance_pair]["_k"] = types.SimpleNamespace(
        epilogue=_epilogue, pair_reduction=_pair_reduction, BOOL_CODES=_distance_kernels.BOOL_CODES)
    standins[_kdtree]["_k"] = standins[_distance_pair]["_k"]
    standins[_distance_pair]["_sqt"] = _sqdist_tiles()
    standins[_quat]["kernel"] = _rotation_kernel
    standins[_rigid]["kernel"] = _rotation_kernel
    return standins


class HostSpatial:
    """Private copies of cuarray.scipy.spatial's modules (transform's included) with NumPy standing in for
    the cuarray routines each imports and for its kernels (`cuarray.testing.fake_device.host_packages`:
    nothing of cuarray is patched). ``host("cuarray.scipy.spatial.x")`` is x's copy."""

    def __init__(self):
        from cuarray.testing.fake_device import host_packages

        import cuarray.scipy.spatial as spatial

        self.copies = host_packages([spatial], spatial_standins())

    def __call__(self, name):
        import sys

        return self.copies[sys.modules[name]]
