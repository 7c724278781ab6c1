"""cuarray.scipy.spatial.KDTree on the GPU against scipy.spatial.KDTree on the host: query (k
int and list, p = 1, 2, 3, inf, distance_upper_bound, k > n, float32 queries, N-D query
batches, many queries sorted by cell), the ball queries, pairs, neighbour counts and sparse
distance matrices, for 1-D to 16-D data with duplicate and collinear points."""

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
from cuarray.scipy.spatial import _kdtree  # noqa: E402

G = cuarray.asarray


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _points(n, d, key):
    x = _rng("pts", n, d, key).random((n, d))
    if n > 4:
        x[1] = x[0]  # a duplicate
        x[2:5, :] = x[2, :]  # collinear along the first axis
        x[2:5, 0] = [0.1, 0.2, 0.3]
    return x


def _same_neighbours(dg, ig, dh, ih, x, q, p=2.0):
    """Distances equal to SciPy's; indices SciPy's where found, or (tied distances may list
    points in another order) points at exactly the distance reported."""
    dg, ig = dg.get(), ig.get()
    np.testing.assert_allclose(dg, dh, rtol=1e-12, atol=1e-14)
    assert ig.shape == np.shape(ih) and ig.dtype.kind == "i"
    n = len(x)
    np.testing.assert_array_equal(ig == n, np.asarray(ih) == n)  # the same missing neighbours
    qq = q[..., None, :] if ig.ndim == q.ndim else q  # a column of neighbours, or the nearest only
    found = ig < n
    dist = np.linalg.norm(x[np.where(found, ig, 0)] - qq, ord=p, axis=-1)
    np.testing.assert_allclose(np.where(found, dist, np.inf), dg, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("d", [1, 2, 3, 5, 16])
@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, np.inf])
def test_query(d, p):
    x, q = _points(300, d, "x"), _rng("q", d).random((40, d))
    t, h = cs.KDTree(G(x)), spatial.KDTree(x)
    for k in (1, 5, [2, 7]):
        dg, ig = t.query(G(q), k=k, p=p)
        dh, ih = h.query(q, k=k, p=p)
        _same_neighbours(dg, ig, dh, ih, x, q, p)


def test_query_edges():
    x = _points(50, 3, "e")
    t, h = cs.KDTree(G(x)), spatial.KDTree(x)
    dg, ig = t.query(G(x[3]), k=1)  # a single point: 0-d results
    dh, ih = h.query(x[3], k=1)
    assert dg.shape == () and ig.shape == ()
    np.testing.assert_allclose(float(dg.get()), dh, atol=1e-15)
    dg, ig = t.query(G(x[:7]), k=60)  # k > n: inf and n past the end
    dh, ih = h.query(x[:7], k=60)
    _same_neighbours(dg, ig, dh, ih, x, x[:7])
    assert (ig.get()[:, 50:] == 50).all()
    dg, ig = t.query(G(x[:9]), k=4, distance_upper_bound=0.2)
    dh, ih = h.query(x[:9], k=4, distance_upper_bound=0.2)
    np.testing.assert_allclose(dg.get(), dh)
    np.testing.assert_array_equal(np.isinf(dg.get()), np.isinf(dh))
    dg, _ = t.query(G(x[:9].reshape(3, 3, 3)), k=2)  # N-D batch of queries
    assert dg.shape == (3, 3, 2)
    dg, _ = t.query(G(np.zeros((0, 3))), k=3)
    assert dg.shape == (0, 3)
    far = np.array([[50.0, -20.0, 3.0]])
    _same_neighbours(*t.query(G(far), k=3), *h.query(far, k=3), x, far)
    d32, _ = t.query(G(x[:5].astype(np.float32)), k=2)
    np.testing.assert_allclose(d32.get(), h.query(x[:5].astype(np.float32), k=2)[0])
    with pytest.raises(ValueError):
        t.query(G(x[:, :2]))
    with pytest.raises(ValueError):
        t.query(G(x), p=0.5)


def test_query_many_and_large_k(monkeypatch):
    monkeypatch.setattr(_kdtree, "SORT_QUERIES_FROM", 16)  # the sorted-queries path at a small size
    x, q = _points(2000, 3, "m"), _rng("mq").random((500, 3))
    t, h = cs.KDTree(G(x)), spatial.KDTree(x)
    _same_neighbours(*t.query(G(q), k=8), *h.query(q, k=8), x, q)
    # past the kernel's largest list: the brute-force path, for a few queries and for many (one
    # sort of 500 rows); the indices too, which RBFInterpolator's neighbourhoods are built from:
    # SciPy's exactly, except that points at one tied distance (_points's duplicate x[0] == x[1])
    # may come in either order, where the tied group holds the same points
    for m in (20, 500):
        (dg, ig), (dh, ih) = t.query(G(q[:m]), k=200), h.query(q[:m], k=200)
        _same_neighbours(dg, ig, dh, ih, x, q[:m])
        ig, eq = ig.get(), dh[:, 1:] == dh[:, :-1]
        tied = np.zeros(dh.shape, bool)
        tied[:, 1:] |= eq
        tied[:, :-1] |= eq
        np.testing.assert_array_equal(np.where(tied, -1, ig), np.where(tied, -1, ih), err_msg=str(m))
        np.testing.assert_array_equal(np.sort(np.where(tied, ig, -1), axis=1), np.sort(np.where(tied, ih, -1), axis=1),
                                      err_msg=str(m))


@pytest.mark.parametrize("d", [2, 3, 7])
def test_ball_point_and_tree(d):
    x, q = _points(400, d, "b"), _rng("bq", d).random((30, d))
    t, h = cs.KDTree(G(x)), spatial.KDTree(x)
    r = 0.25 if d < 7 else 0.8
    for p in (2.0, 1.0, np.inf):
        got, want = t.query_ball_point(G(q), r, p=p), h.query_ball_point(q, r, p=p)
        assert [sorted(v) for v in got] == [sorted(v) for v in want]
        np.testing.assert_array_equal(t.query_ball_point(G(q), r, p=p, return_length=True).get(),
                                      h.query_ball_point(q, r, p=p, return_length=True))
    rs = _rng("rs", d).random(30) * r
    got = t.query_ball_point(G(q), G(rs))
    assert [sorted(v) for v in got] == [sorted(v) for v in h.query_ball_point(q, rs)]
    assert sorted(t.query_ball_point(G(q[0]), r)) == sorted(h.query_ball_point(q[0], r))
    y = _points(200, d, "other")
    t2, h2 = cs.KDTree(G(y)), spatial.KDTree(y)
    got = t.query_ball_tree(t2, r)
    assert [sorted(v) for v in got] == [sorted(v) for v in h.query_ball_tree(h2, r)]


def test_pairs_counts_sparse():
    x, y = _points(300, 3, "p"), _points(250, 3, "p2")
    t, h, t2, h2 = cs.KDTree(G(x)), spatial.KDTree(x), cs.KDTree(G(y)), spatial.KDTree(y)
    assert t.query_pairs(0.1) == h.query_pairs(0.1)
    np.testing.assert_array_equal(t.query_pairs(0.1, output_type="ndarray").get(),
                                  np.array(sorted(h.query_pairs(0.1))))
    assert t.query_pairs(0.1, p=1) == h.query_pairs(0.1, p=1)
    r = np.array([0.05, 0.1, 0.1, 0.3])
    assert t.count_neighbors(t2, 0.2) == h.count_neighbors(h2, 0.2)
    np.testing.assert_array_equal(t.count_neighbors(t2, r).get(), h.count_neighbors(h2, r))
    np.testing.assert_array_equal(t.count_neighbors(t2, r, cumulative=False).get(),
                                  h.count_neighbors(h2, r, cumulative=False))
    w1, w2 = _rng("w1").random(300), _rng("w2").random(250)
    np.testing.assert_allclose(t.count_neighbors(t2, r, weights=(G(w1), G(w2))).get(),
                               h.count_neighbors(h2, r, weights=(w1, w2)), rtol=1e-12)
    got = t.sparse_distance_matrix(t2, 0.15, output_type="coo_matrix")
    want = h.sparse_distance_matrix(h2, 0.15, output_type="coo_matrix")
    np.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-12)
    got = t.sparse_distance_matrix(t2, 0.15, p=1)
    np.testing.assert_allclose(got.toarray(), h.sparse_distance_matrix(h2, 0.15, p=1).toarray(), rtol=1e-12)
    assert t.sparse_distance_matrix(t2, 0.1, output_type="dict").keys() == \
        h.sparse_distance_matrix(h2, 0.1, output_type="dict").keys()


def test_degenerate_trees():
    same = np.ones((20, 2))
    t, h = cs.KDTree(G(same)), spatial.KDTree(same)
    np.testing.assert_allclose(t.query(G(same[:3]), k=4)[0].get(), h.query(same[:3], k=4)[0])
    assert len(t.query_pairs(0.0)) == len(h.query_pairs(0.0))
    empty = cs.KDTree(G(np.zeros((0, 3))))
    d, i = empty.query(G(np.zeros((2, 3))), k=2)
    assert np.isinf(d.get()).all() and (i.get() == 0).all()
    assert cs.cKDTree(G(same)).query(G(same[0]))[0].shape == ()
