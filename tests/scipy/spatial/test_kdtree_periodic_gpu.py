"""cuarray.scipy.spatial.KDTree(boxsize=...) on the GPU against SciPy's periodic trees: query (k int
and list, p = 1, 2, 3, inf, queries outside the box, distance_upper_bound, k past the knn kernel's
lists), query_ball_point (radii below and past half the box: the deduplicated path; return_length;
one point and many: SciPy's list and object array), query_ball_tree, query_pairs, count_neighbors
(weighted too), sparse_distance_matrix, a box size 0 (a non-periodic axis), CuPy's own periodic
cases, and SciPy's errors for data outside the box."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

spatial = pytest.importorskip("scipy.spatial")

import cuarray  # noqa: E402
import cuarray.scipy.spatial as cs  # noqa: E402

G = cuarray.asarray
BOXES = [(2, 1.0), (3, [1.0, 2.0, 0.0]), (3, 0.5)]


def _case(m, box, n=120, seed=0):
    rng = np.random.default_rng(zlib.crc32(repr((m, box, n, seed)).encode()))
    L = np.broadcast_to(np.asarray(box, float), (m,))
    x = rng.random((n, m)) * np.where(L > 0, L, 1.0)
    x[1] = x[0]
    return x, rng


def _periodic_dist(q, pts, box, p):
    bx = np.broadcast_to(np.asarray(box, float), (q.shape[-1],))
    per = bx > 0
    qw = np.where(per, np.mod(q, np.where(per, bx, 1.0)), q)
    diff = np.abs(qw[:, None, :] - pts[None])
    diff = np.where(per, np.minimum(diff, np.where(per, bx, np.inf) - diff), diff)
    return diff.max(-1) if np.isinf(p) else (diff ** p).sum(-1) ** (1 / p)


@pytest.mark.parametrize("m,box", BOXES, ids=[str(b) for b in BOXES])
@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, np.inf])
def test_query(m, box, p):
    x, rng = _case(m, box)
    t, h = cs.KDTree(G(x), boxsize=box), spatial.KDTree(x, boxsize=box)
    q = np.concatenate([x[:20] + 1.0, x[20:30] - 1.0, rng.random((10, m)) * 4 - 2])
    for k in (1, 3, [1, 4], 40, 200):
        dg, ig = t.query(G(q), k=k, p=p)
        dh, ih = h.query(q, k=k, p=p)
        np.testing.assert_allclose(dg.get(), dh, rtol=1e-12, atol=1e-13, err_msg="k={}".format(k))
        ig = ig.get()
        assert ig.shape == np.shape(ih)
        found = ig < len(x)
        np.testing.assert_array_equal(found, np.asarray(ih) < len(x))
        igs = ig.reshape(len(q), -1)
        d = _periodic_dist(q, x, box, p)
        np.testing.assert_allclose(np.where(found.reshape(igs.shape), np.take_along_axis(d, np.where(igs < len(x), igs, 0), 1),
                                            np.inf), dg.get().reshape(igs.shape), rtol=1e-12, atol=1e-13)
        assert all(len(set(row[row < len(x)])) == (row < len(x)).sum() for row in igs)  # each point once
    dg, _ = t.query(G(q), k=5, p=p, distance_upper_bound=0.2)
    np.testing.assert_allclose(dg.get(), h.query(q, k=5, p=p, distance_upper_bound=0.2)[0], rtol=1e-12)


@pytest.mark.parametrize("m,box", BOXES, ids=[str(b) for b in BOXES])
def test_balls_pairs_counts(m, box):
    x, rng = _case(m, box, seed=1)
    y, _ = _case(m, box, n=90, seed=2)
    t, h = cs.KDTree(G(x), boxsize=box), spatial.KDTree(x, boxsize=box)
    t2, h2 = cs.KDTree(G(y), boxsize=box), spatial.KDTree(y, boxsize=box)
    q = x[:25] + 0.7
    half = np.min(np.asarray(box, float)[np.asarray(box, float) > 0]) / 2
    for r in (0.13, 0.9 * half, 1.3 * half, 3.0):  # below, near and past half the box
        for p in (2.0, 1.0, np.inf):
            got, want = t.query_ball_point(G(q), r, p=p), h.query_ball_point(q, r, p=p)
            assert isinstance(got, np.ndarray) and got.dtype == object and got.shape == want.shape
            assert [sorted(v) for v in got] == [sorted(v) for v in want], (r, p)
            np.testing.assert_array_equal(t.query_ball_point(G(q), r, p=p, return_length=True).get(),
                                          h.query_ball_point(q, r, p=p, return_length=True))
        assert sorted(t.query_ball_point(G(q[0]), r)) == sorted(h.query_ball_point(q[0], r))
        assert [sorted(v) for v in t.query_ball_tree(t2, r)] == [sorted(v) for v in h.query_ball_tree(h2, r)]
        assert t.query_pairs(r) == h.query_pairs(r)
        assert t.count_neighbors(t2, r) == h.count_neighbors(h2, r)
        got = t.sparse_distance_matrix(t2, r, output_type="dict")
        want = h.sparse_distance_matrix(h2, r, output_type="dict")
        assert got.keys() == want.keys()
        np.testing.assert_allclose([got[k] for k in want], list(want.values()), rtol=1e-12, atol=1e-13)
    rs = np.array([0.1, 0.4, 0.4, 1.5]) * half
    np.testing.assert_array_equal(t.count_neighbors(t2, rs).get(), h.count_neighbors(h2, rs))
    w1, w2 = rng.random(len(x)), rng.random(len(y))
    np.testing.assert_allclose(t.count_neighbors(t2, rs, weights=(G(w1), G(w2))).get(),
                               h.count_neighbors(h2, rs, weights=(w1, w2)), rtol=1e-12)


@pytest.mark.parametrize("off", [0, 1, -1])
@pytest.mark.parametrize("p", [1, 2, 3.0, np.inf])
def test_cupys_periodic_cases(off, p):
    """CuPy's TestPeriodic: 100 points in the unit square, k = 3, and a ball of radius 0.5."""
    x = np.random.default_rng(1234).random((100, 2))
    t, h = cs.KDTree(G(x), boxsize=1.0), spatial.KDTree(x, boxsize=1.0)
    dg, ig = t.query(G(x + off), 3, p=p)
    dh, ih = h.query(x + off, 3, p=p)
    np.testing.assert_allclose(dg.get(), dh, rtol=1e-12, atol=1e-13)
    got = t.query_ball_point(G(x + off), 0.5, return_sorted=True)
    assert [list(v) for v in got] == [sorted(v) for v in h.query_ball_point(x + off, 0.5, return_sorted=True)]
    t2, h2 = cs.KDTree(G(x), boxsize=1.0, leafsize=100), spatial.KDTree(x, boxsize=1.0, leafsize=100)
    assert [sorted(v) for v in t.query_ball_tree(t2, 0.5)] == [sorted(v) for v in h.query_ball_tree(h2, 0.5)]


def test_box_attributes_and_errors():
    x, _ = _case(2, 1.0)
    t = cs.KDTree(G(x), boxsize=[1.0, 2.0])
    np.testing.assert_array_equal(t.boxsize.get(), [1.0, 2.0])
    assert cs.cKDTree(G(x), boxsize=np.array([1.0, 1.0])).boxsize.shape == (2,)
    assert cs.KDTree(G(x), boxsize=G(np.array(1.0))).boxsize.shape == (2,)
    for bad, match in ((x + 0.5, "greater than the size"), (x - 0.5, "Negative input")):
        with pytest.raises(ValueError, match=match):
            spatial.KDTree(bad, boxsize=1.0)
        with pytest.raises(ValueError, match=match):
            cs.KDTree(G(bad), boxsize=1.0)
    with pytest.raises(ValueError):
        cs.KDTree(G(x), boxsize=[1.0, 1.0, 1.0])
    t0 = cs.KDTree(G(np.c_[x[:, 0] - 5.0, x[:, 1]]), boxsize=[0.0, 1.0])  # axis 0 not periodic: any values
    h0 = spatial.KDTree(np.c_[x[:, 0] - 5.0, x[:, 1]], boxsize=[0.0, 1.0])
    q = x[:10] + 0.6
    np.testing.assert_allclose(t0.query(G(q), 4)[0].get(), h0.query(q, 4)[0], rtol=1e-12)


def test_ball_point_return_types():
    """SciPy's types: a list for one point, an object array of lists for many (any shape)."""
    x, _ = _case(3, 1.0, seed=5)
    for box in (None, 1.0):
        t, h = cs.KDTree(G(x), boxsize=box), spatial.KDTree(x, boxsize=box)
        one, want = t.query_ball_point(G(x[0]), 0.3), h.query_ball_point(x[0], 0.3)
        assert type(one) is list and sorted(one) == sorted(want)
        many = t.query_ball_point(G(x[:6].reshape(2, 3, 3)), 0.3)
        ref = h.query_ball_point(x[:6].reshape(2, 3, 3), 0.3)
        assert type(many) is np.ndarray and many.dtype == object and many.shape == ref.shape == (2, 3)
        assert all(type(v) is list for v in many.ravel())
        assert [sorted(v) for v in many.ravel()] == [sorted(v) for v in ref.ravel()]
        n1 = t.query_ball_point(G(x[0]), 0.3, return_length=True)
        assert n1.shape == () and int(n1.get()) == h.query_ball_point(x[0], 0.3, return_length=True)
