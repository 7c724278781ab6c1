"""cuarray.scipy.spatial.KDTree without a GPU: signatures against SciPy's, the grid planner at
its edges, the query kernels compiled by NVRTC for sm_90 (every knn instance), and the errors
raised before device work."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

spatial = pytest.importorskip("scipy.spatial")

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

import cuarray.scipy.spatial as cs  # noqa: E402
from cuarray.scipy.spatial import _grid  # noqa: E402

METHODS = ["__init__", "query", "query_ball_point", "query_ball_tree", "query_pairs", "count_neighbors",
           "sparse_distance_matrix"]


def _params(f):
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize("cls", ["KDTree", "cKDTree"])
@pytest.mark.parametrize("name", METHODS)
def test_signature_is_scipys(cls, name):
    ours, theirs = getattr(getattr(cs, cls), name), getattr(getattr(spatial, cls), name)
    want = _params(theirs)
    if any(k == inspect.Parameter.VAR_POSITIONAL for _, k, _ in want):
        pytest.skip("SciPy's Cython __init__ shows (*args, **kwargs) only")
    assert _params(ours) == want


@pytest.mark.parametrize("n,lo,hi", [
    (10 ** 7, [0, 0, 0], [1, 1, 1]),
    (1000, [0, 0], [1, 1e-9]),     # a nearly flat axis
    (50, [0, 0, 0], [0, 0, 0]),    # every point equal
    (0, [0, 0, 0], [0, 0, 0]),     # no point
    (10 ** 6, [-5.0], [5.0]),      # 1-D
    (10 ** 9, [0, 0, 0], [1, 1, 1]),  # capped cells
    (100, [0, 0, 0], [1e6, 1, 1]),  # a long thin box
])
def test_plan_grid(n, lo, hi):
    pl = _grid.plan_grid(n, np.array(lo, float), np.array(hi, float))
    assert pl.g == len(lo) and len(pl.res) == 3 and len(pl.lo) == 3
    assert pl.res[pl.g:] == (1,) * (3 - pl.g)
    cells = math.prod(pl.res)
    assert 1 <= cells <= _grid.MAX_CELLS
    for j in range(pl.g):  # the grid covers the box
        assert pl.lo[j] == lo[j] and pl.lo[j] + pl.res[j] * pl.h >= hi[j]
    if n >= 1000 and all(b > a for a, b in zip(lo, hi)):
        assert cells <= 2 * n / _grid.POINTS_PER_CELL + 8  # about n / per_cell cells, not many more


def test_knn_capacity_and_p_kind():
    assert [_grid.knn_capacity(k) for k in (1, 2, 3, 8, 9, 128)] == [1, 2, 4, 8, 16, 128]
    assert _grid.knn_capacity(129) is None
    assert [_grid.p_kind(p) for p in (2.0, 1, np.inf, 3.5)] == [0, 1, 2, 3]


def test_kernels_compile():
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch="sm_90")
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    cubin, names = compiler.compile_cubin(_grid._source(), arch="sm_90", name_expressions=_grid._names())
    assert set(names) == set(_grid._names()) and cubin


CASES = {
    "data-1d": lambda m, c: m.KDTree(c(np.zeros(3))),
    "data-complex": lambda m, c: m.KDTree(c(np.zeros((3, 2), complex))),
    "leafsize": lambda m, c: m.KDTree(c(np.zeros((3, 2))), leafsize=0),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        CASES[case](cs, from_np)
    with pytest.raises(Exception) as theirs:
        CASES[case](spatial, np.asarray)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


# -- periodic spaces: the images and the deduplication of `_periodic`, run with NumPy ------------
import types  # noqa: E402

from cuarray.scipy.spatial import _periodic  # noqa: E402

NP = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np) if not n.startswith("_")})


def _brute(pts, q, p):
    diff = np.abs(q[:, None, :] - pts[None])
    return diff.max(-1) if np.isinf(p) else (diff ** p).sum(-1) ** (1 / p)


def _periodic_case(m, box, seed):
    rng = np.random.default_rng(seed)
    L = np.broadcast_to(np.asarray(box, float), (m,))
    data = rng.random((50, m)) * np.where(L > 0, L, 1.0)
    data[1] = data[0]  # a duplicate point
    data[2, :] = 0.0  # on the box's edge
    return data, spatial.KDTree(data, boxsize=box), _periodic.periodic_box(box, m)


BOXES = [(2, 1.0), (3, [1.0, 2.0, 0.0]), (2, [0.5, 3.0]), (1, 1.0)]


@pytest.mark.parametrize("m,box", BOXES, ids=[str(b) for b in BOXES])
def test_periodic_knn_by_images_is_scipys(m, box):
    data, h, bx = _periodic_case(m, box, m)
    aug = _periodic.images(NP, data, bx)
    copies = aug.shape[0] // len(data)
    assert copies == 2 ** int((bx > 0).sum())
    for off in (0.0, 1.0, -1.0, 2.5):
        q = data[:12] + off
        for p in (1, 2, 3.0, np.inf):
            d = _brute(aug, _periodic.wrap(NP, q, bx), p)
            for k in (1, 3, 60):
                kk = min(k * copies, aug.shape[0])
                order = np.argsort(d, axis=1, kind="stable")[:, :kk]
                od = np.full((len(q), k * copies), np.inf)
                oi = np.full((len(q), k * copies), aug.shape[0])
                od[:, :kk], oi[:, :kk] = np.take_along_axis(d, order, 1), order
                dg, ig = _periodic.dedup_knn(NP, od, oi, len(data), k)
                dh, ih = h.query(q, k, p=p)
                np.testing.assert_allclose(dg, np.asarray(dh).reshape(dg.shape), rtol=1e-12, atol=1e-12)
                found = ig < len(data)
                np.testing.assert_array_equal(found, np.asarray(ih).reshape(ig.shape) < len(data))
                # each index found is a point at the distance reported (ties may order them otherwise)
                diff = np.abs(_periodic.wrap(NP, q, bx)[:, None, :] - data[np.where(found, ig, 0)])
                L = np.where(bx > 0, bx, np.inf)
                diff = np.minimum(diff, L - diff)
                dist = diff.max(-1) if np.isinf(p) else (diff ** p).sum(-1) ** (1 / p)
                np.testing.assert_allclose(np.where(found, dist, np.inf), dg, rtol=1e-12, atol=1e-12)
                assert len(set(ig[0][found[0]].tolist())) == found[0].sum()  # each point once


@pytest.mark.parametrize("m,box", BOXES, ids=[str(b) for b in BOXES])
def test_periodic_balls_by_images_are_scipys(m, box):
    """The lists within r: images within r, mapped to points, each point's first run kept."""
    data, h, bx = _periodic_case(m, box, 10 + m)
    aug = _periodic.images(NP, data, bx)
    n = len(data)
    q = data[:15] + 0.7  # (not a multiple of the box: no distance exactly r by construction)
    half = bx[bx > 0].min() / 2
    for r in (0.11, 0.27, half, 0.9 * half + 0.5):
        for p in (1, 2, np.inf):
            d = _brute(aug, _periodic.wrap(NP, q, bx), p)
            qid, img = np.nonzero(d <= r)
            key = qid * n + img % n
            order = np.argsort(key, kind="stable")
            keep = _periodic.first_of_runs(NP, key[order])
            got = [[] for _ in q]
            for a, b in zip(qid[order][keep], (img % n)[order][keep]):
                got[a].append(int(b))
            want = h.query_ball_point(q, r, p=p)
            assert [sorted(v) for v in want] == got, (r, p)
            if r < half:  # below L/2 no point has two images within r: nothing to drop
                assert keep.all()


def test_periodic_wrap_and_box_are_scipys():
    bx = _periodic.periodic_box([1.0, 0.0, 2.0], 3)
    x = np.array([[-0.25, -5.0, 4.5], [1.0, 7.0, -1e-17], [3.5, 0.5, 2.0]])
    w = _periodic.wrap(NP, x, bx)
    np.testing.assert_array_equal(w[:, 1], x[:, 1])  # a box size 0: not periodic
    assert ((w[:, [0, 2]] >= 0) & (w[:, [0, 2]] < [1.0, 2.0])).all()
    np.testing.assert_allclose(w[:, 0], [0.75, 0.0, 0.5])
    np.testing.assert_array_equal(_periodic.periodic_box(2.0, 3), [2.0, 2.0, 2.0])
    for bad in ([1.0, 2.0], np.ones((2, 3))):
        with pytest.raises(ValueError):
            _periodic.periodic_box(bad, 3)
        with pytest.raises(ValueError):
            spatial.KDTree(np.zeros((4, 3)), boxsize=bad)
    with pytest.raises(NotImplementedError, match="periodic axes"):
        _periodic.periodic_box(1.0, _periodic.MAX_PERIODIC_AXES + 1)
