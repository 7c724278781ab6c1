"""The KDTree kernels of templates/kdtree.cu built for the host with g++ (kdtree_host.cpp) and run
over a grid planned and sorted as `_grid.Grid` does (in NumPy): the k nearest, the ball counts and
the ball lists against brute force, for 1-D to 7-D data, p = 1, 2, 3, inf, upper bounds, eps,
queries outside the data's box, duplicate and flat data."""

from __future__ import annotations

import ctypes
import pathlib
import zlib

import numpy as np
import pytest

from cuarray.scipy.spatial import _grid
import host_build  # tests/ is on sys.path

HERE = pathlib.Path(__file__).parent
TEMPLATES = HERE.parent.parent.parent / "cuarray" / "scipy" / "spatial" / "templates"
_built = {}

P = ctypes.c_void_p


@pytest.fixture(scope="module")
def lib():
    if "lib" not in _built:
        _built["lib"] = host_build.library(["-O1", "-std=c++17", "-shared", "-fPIC", "-I", TEMPLATES,
                                            HERE / "kdtree_host.cpp"])
    return _built["lib"]


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


class HostGrid:
    """Grid's build in NumPy: the same plan, cells and sort."""

    def __init__(self, x):
        self.x = np.ascontiguousarray(x, dtype=np.float64)
        n, d = x.shape
        g = min(d, 3)
        lo = x[:, :g].min(axis=0) if n else np.zeros(g)
        hi = x[:, :g].max(axis=0) if n else np.zeros(g)
        self.plan = pl = _grid.plan_grid(n, lo, hi)
        c = np.zeros(n, dtype=np.int64)
        for j in range(3):
            cj = np.clip(np.floor((x[:, j] - pl.lo[j]) / pl.h), 0, pl.res[j] - 1).astype(np.int64) if j < g else 0
            c = c * pl.res[j] + cj
        self.perm = np.argsort(c, kind="stable").astype(np.int64)
        self.pts = np.ascontiguousarray(self.x[self.perm])
        self.start = np.searchsorted(c[self.perm], np.arange(np.prod(pl.res) + 1)).astype(np.int64)
        self.n, self.d = n, d

    def args(self):
        pl = self.plan
        return [self.pts.ctypes.data_as(P), self.perm.ctypes.data_as(P), self.start.ctypes.data_as(P),
                ctypes.c_longlong(self.n), ctypes.c_int(self.d), ctypes.c_int(pl.g),
                *(ctypes.c_int(r) for r in pl.res), *(ctypes.c_double(v) for v in pl.lo), ctypes.c_double(pl.h)]


def _reduced(v, p):
    return v * v if p == 2 else (v if p == 1 or np.isinf(p) else v ** p)


def _brute(x, q, p):
    diff = np.abs(q[:, None, :] - x[None, :, :])
    return diff.max(axis=2, initial=0.0) if np.isinf(p) else (diff ** (2 if p == 2 else p)).sum(axis=2)


def _knn(lib, grid, q, k, p, ub=np.inf, eps=0.0):
    q = np.ascontiguousarray(q, dtype=np.float64)
    m = len(q)
    od, oi = np.empty((m, k)), np.empty((m, k), dtype=np.int64)
    fac = (1.0 + eps) ** -(2.0 if p == 2 else (1.0 if p == 1 or np.isinf(p) else p))
    lib.host_knn(*grid.args(), q.ctypes.data_as(P), ctypes.c_longlong(m), ctypes.c_int(k),
                 ctypes.c_int(_grid.p_kind(p)), ctypes.c_double(p), ctypes.c_double(_reduced(ub, p)),
                 ctypes.c_double(fac), od.ctypes.data_as(P), oi.ctypes.data_as(P))
    return od, oi


def _cases():
    out = []
    for d in (1, 2, 3, 5, 7):
        for p in (2.0, 1.0, 3.0, np.inf):
            out.append((d, p))
    return out


@pytest.mark.parametrize("d,p", _cases(), ids=lambda v: str(v))
def test_knn_matches_brute_force(lib, d, p):
    r = _rng("knn", d, p)
    x = r.random((400, d))
    x[1] = x[0]
    x[5:9] = x[5]
    q = np.concatenate([r.random((40, d)), r.random((5, d)) * 4 - 1.5])  # some outside the box
    grid = HostGrid(x)
    ref = _brute(x, q, p)
    for k in (1, 3, 8, 30):
        od, oi = _knn(lib, grid, q, k, p)
        want = np.sort(ref, axis=1)[:, :k]
        np.testing.assert_allclose(od, want, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(np.take_along_axis(ref, oi, axis=1), od, rtol=1e-12, atol=1e-15)
    ub = 0.15
    od, oi = _knn(lib, grid, q, 6, p, ub=ub)
    want = np.sort(ref, axis=1)[:, :6]
    want = np.where(want < _reduced(ub, p), want, np.inf)
    np.testing.assert_allclose(od, want, rtol=1e-12, atol=1e-15)
    assert ((oi == 400) == np.isinf(od)).all()


def test_knn_more_than_n_and_eps(lib):
    x = _rng("few").random((5, 3))
    grid = HostGrid(x)
    od, oi = _knn(lib, grid, x, 9, 2.0)
    assert np.isinf(od[:, 5:]).all() and (oi[:, 5:] == 5).all()
    np.testing.assert_allclose(od[:, :5], np.sort(_brute(x, x, 2.0), axis=1))
    y = _rng("eps").random((300, 3))
    q = _rng("epsq").random((30, 3))
    od, _ = _knn(lib, HostGrid(y), q, 4, 2.0, eps=0.5)
    exact = np.sort(_brute(y, q, 2.0), axis=1)[:, :4]
    assert (np.sqrt(od) <= (1 + 0.5) * np.sqrt(exact) + 1e-12).all()  # SciPy's eps contract


@pytest.mark.parametrize("shape", [(300, 3), (200, 2), (150, 6), (50, 1)])
@pytest.mark.parametrize("p", [2.0, 1.0, np.inf])
def test_ball_count_and_fill(lib, shape, p):
    r = _rng("ball", shape, p)
    x = r.random(shape)
    x[3] = x[2]
    q = np.concatenate([r.random((25, shape[1])), r.random((3, shape[1])) * 3 - 1])
    grid = HostGrid(x)
    radius = np.full(len(q), 0.2 if shape[1] < 6 else 0.6)
    radius[::4] = 0.05
    m = len(q)
    count, wsum = np.empty(m, dtype=np.int64), np.empty(m)
    w = r.random(shape[0])
    common = [q.ctypes.data_as(P), ctypes.c_longlong(m), radius.ctypes.data_as(P), ctypes.c_int(1),
              ctypes.c_int(_grid.p_kind(p)), ctypes.c_double(p)]
    lib.host_ball_count(*grid.args(), *common, w.ctypes.data_as(P), count.ctypes.data_as(P), wsum.ctypes.data_as(P))
    inside = _brute(x, q, p) <= _reduced(radius, p)[:, None]
    np.testing.assert_array_equal(count, inside.sum(axis=1))
    np.testing.assert_allclose(wsum, (inside * w).sum(axis=1), rtol=1e-12)
    offsets = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    oi, od = np.empty(int(count.sum()), dtype=np.int64), np.empty(int(count.sum()))
    lib.host_ball_fill(*grid.args(), *common, offsets.ctypes.data_as(P), oi.ctypes.data_as(P), od.ctypes.data_as(P))
    for t in range(m):
        got = np.sort(oi[offsets[t]:offsets[t] + count[t]])
        np.testing.assert_array_equal(got, np.flatnonzero(inside[t]))


def test_flat_and_duplicate_data(lib):
    x = np.ones((30, 3))
    x[:, 0] = np.linspace(0, 1, 30)  # collinear: two flat axes
    grid = HostGrid(x)
    q = _rng("flat").random((10, 3))
    od, _ = _knn(lib, grid, q, 5, 2.0)
    np.testing.assert_allclose(od, np.sort(_brute(x, q, 2.0), axis=1)[:, :5], rtol=1e-12)
    same = np.zeros((12, 2))
    od, oi = _knn(lib, HostGrid(same), same[:2], 12, 2.0)
    assert (od == 0).all() and sorted(oi[0]) == list(range(12))
