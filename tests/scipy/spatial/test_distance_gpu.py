"""cuarray.scipy.spatial.distance on the GPU against scipy.spatial.distance on the host: every
metric of cdist/pdist (float32/float64/bool rows, weights, duplicate rows, empty and one-row
inputs, blocks smaller than the input), the vector functions, squareform and the validity checks.

Tolerances: the GEMM metrics compute |a|^2 + |b|^2 - 2 a.b (rows centred first), exact to about
1e-16 of the squared row norms, so a distance near 0 is known to about 1e-8 of the rows' scale:
atol 1e-7 for data in [0, 1). The other metrics are reductions of the same terms: rtol 1e-10."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sd = pytest.importorskip("scipy.spatial.distance")
import scipy.spatial  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import spatial as cs  # noqa: E402
from cuarray.scipy.spatial import _distance_pair  # noqa: E402
from cuarray.scipy.spatial import distance as cd  # noqa: E402

G = cuarray.asarray
METRICS = list(sd._METRICS_NAMES)
GEMM = {"euclidean", "sqeuclidean", "seuclidean", "mahalanobis", "cosine", "correlation", "minkowski"}
BOOLEAN = {"dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule"}
WEIGHTED = set(METRICS) - {"jensenshannon", "mahalanobis", "seuclidean"}


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _close(got, want, metric=""):
    got = got.get() if hasattr(got, "get") else np.asarray(got)
    assert got.dtype == np.float64
    assert got.shape == np.shape(want)
    atol = 1e-7 if metric in GEMM else 1e-12
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=atol, equal_nan=True)


def _data(metric, shape, dtype, key):
    r = _rng(metric, shape, str(dtype), key)
    if dtype == np.bool_ or metric in BOOLEAN:
        return r.random(shape) > 0.5 if dtype == np.bool_ else (r.random(shape) > 0.5).astype(dtype)
    x = r.random(shape).astype(dtype)
    if len(shape) == 2 and shape[0] > 2:
        x[1] = x[0]  # a duplicate row: distance 0
    return x


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_], ids=["f8", "f4", "bool"])
@pytest.mark.parametrize("metric", METRICS)
def test_cdist_pdist(metric, dtype):
    if dtype == np.bool_ and metric in ("mahalanobis", "jensenshannon", "seuclidean"):
        pytest.skip("singular or undefined on boolean rows in SciPy too")
    XA, XB = _data(metric, (13, 5), dtype, "a"), _data(metric, (9, 5), dtype, "b")
    _close(cd.cdist(G(XA), G(XB), metric), sd.cdist(XA, XB, metric), metric)
    _close(cd.pdist(G(XA), metric), sd.pdist(XA, metric), metric)


@pytest.mark.parametrize("metric", sorted(WEIGHTED))
def test_weights(metric):
    XA, XB = _data(metric, (7, 4), np.float64, "wa"), _data(metric, (6, 4), np.float64, "wb")
    w = _rng("w", metric).random(4) + 0.1
    w[2] = 0.0
    _close(cd.cdist(G(XA), G(XB), metric, w=G(w)), sd.cdist(XA, XB, metric, w=w), metric)
    _close(cd.pdist(G(XA), metric, w=G(w)), sd.pdist(XA, metric, w=w), metric)


@pytest.mark.parametrize("p", [0.5, 1, 1.5, 2, 3, np.inf])
def test_minkowski_p(p):
    XA, XB = _data("m", (8, 6), np.float64, p), _data("m", (5, 6), np.float64, -p)
    _close(cd.cdist(G(XA), G(XB), "minkowski", p=p), sd.cdist(XA, XB, "minkowski", p=p), "minkowski")
    w = _rng("mw", p).random(6)
    _close(cd.cdist(G(XA), G(XB), "minkowski", p=p, w=w), sd.cdist(XA, XB, "minkowski", p=p, w=w), "minkowski")


def test_parameters_v_vi_and_aliases():
    XA, XB = _data("v", (20, 3), np.float64, "a"), _data("v", (15, 3), np.float64, "b")
    V = _rng("V").random(3) + 0.5
    _close(cd.cdist(G(XA), G(XB), "seuclidean", V=V), sd.cdist(XA, XB, "seuclidean", V=V), "seuclidean")
    VI = np.linalg.inv(np.cov(np.vstack([XA, XB]).T))
    _close(cd.cdist(G(XA), G(XB), "mahalanobis", VI=G(VI)), sd.cdist(XA, XB, "mahalanobis", VI=VI), "mahalanobis")
    _close(cd.pdist(G(XA), "mahal"), sd.pdist(XA, "mahal"), "mahalanobis")
    _close(cd.cdist(G(XA), G(XB), "EU"), sd.cdist(XA, XB, "EU"), "euclidean")
    for bad in ({"V": np.ones((3, 1))}, {"V": np.ones(2)}):
        with pytest.raises(ValueError):
            cd.cdist(G(XA), G(XB), "seuclidean", **bad)
    with pytest.raises(ValueError, match="non-negative"):
        cd.cdist(G(XA), G(XB), "cityblock", w=-np.ones(3))
    with pytest.raises(ValueError, match="same size"):
        cd.cdist(G(XA), G(XB), "cityblock", w=np.ones(2))


def test_blocks_and_out(monkeypatch):
    monkeypatch.setattr(_distance_pair, "BLOCK_ELEMENTS", 50)  # several blocks of rows
    XA, XB = _data("blk", (31, 4), np.float64, "a"), _data("blk", (17, 4), np.float64, "b")
    for metric in ("euclidean", "cityblock", "cosine", "jaccard", "jensenshannon"):
        _close(cd.cdist(G(XA), G(XB), metric), sd.cdist(XA, XB, metric), metric)
        _close(cd.pdist(G(XA), metric), sd.pdist(XA, metric), metric)
    out = cuarray.empty((31, 17))
    assert cd.cdist(G(XA), G(XB), out=out) is out
    _close(out, sd.cdist(XA, XB), "euclidean")
    with pytest.raises(ValueError):
        cd.cdist(G(XA), G(XB), out=cuarray.empty((31, 17), dtype=cuarray.float32))


# shapes across the fused tiles' edges (64 x 64 tiles, k in chunks of 32): one row, a partial tile,
# whole tiles, odd widths (no 16-byte pairs), k below, at and past a chunk, one block of many tiles
TILE_SHAPES = [(1, 1, 1), (1, 200, 3), (65, 64, 32), (64, 129, 33), (130, 67, 64), (257, 1001, 100), (3000, 700, 7)]


@pytest.mark.parametrize("m, n, k", TILE_SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f8", "f4"])
def test_euclidean_family_tiles(m, n, k, dtype):
    """The fused tensor-core tiles (sm_90; cuBLAS and an epilogue elsewhere) against SciPy, for
    every metric that takes them, cdist, pdist and a row-reversed view."""
    r = _rng("tiles", m, n, k, str(dtype))
    XA = (r.random((m, k)) * 4 - 1).astype(dtype)
    XB = (r.random((n, k)) * 4 - 1).astype(dtype)
    if m > 2:
        XA[1] = XA[0]
        XA[2] = XB[0]  # equal rows across A and B
    V = r.random(k) + 0.5
    # |a|^2 + |b|^2 - 2 a.b on rows centred at XB's mean is exact to a few ulps of the squared norms:
    # a distance near 0 is known to sqrt(16 eps max|a|^2), 1.5e-6 at k = 64 here (the module's 1e-7
    # is for the few features of the tests above)
    c = np.vstack([XA, XB]).astype(np.float64) - XB.astype(np.float64).mean(axis=0)
    for metric, kw, w in (("euclidean", {}, 1.0), ("sqeuclidean", {}, 1.0), ("seuclidean", {"V": V}, 1.0 / V.min())):
        atol = float(np.sqrt(16 * np.finfo(np.float64).eps * w * (c * c).sum(axis=1).max()))
        if metric == "sqeuclidean":
            atol = atol**2
        for got, want in ((cd.cdist(G(XA), G(XB), metric, **kw), sd.cdist(XA, XB, metric, **kw)),
                          (cd.pdist(G(XA), metric, **kw), sd.pdist(XA, metric, **kw)),
                          (cd.cdist(G(XA)[::-1], G(XB)[:, ::-1], metric, **kw), sd.cdist(XA[::-1], XB[:, ::-1], metric, **kw))):
            assert got.dtype == np.float64 and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=1e-9, atol=atol)
    if m > 2:  # equal rows: 0 to within that cancellation, not exactly
        assert float(cd.cdist(G(XA), G(XB), "sqeuclidean")[2, 0].get()) <= 16 * np.finfo(np.float64).eps * (c * c).sum(axis=1).max()


def test_euclidean_tiles_from_another_thread():
    """The tiles (their module, shared-memory attribute and occupancy are cached per device) give
    the same values from a thread that did not make the arrays."""
    import threading

    r = _rng("thread")
    XA, XB = r.random((300, 40)), r.random((130, 40))
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("d", cd.cdist(G(XA), G(XB)).get()))
    worker.start()
    worker.join()
    np.testing.assert_array_equal(out["d"], cd.cdist(G(XA), G(XB)).get())
    _close(out["d"], sd.cdist(XA, XB), "euclidean")


def test_euclidean_roots_and_special_values():
    """The tiles' square root (an estimate and two corrections, no library branch) is the correctly
    rounded root here, at 0, subnormal, tiny and huge squared distances, and a NaN coordinate gives
    NaN as in SciPy."""
    r = _rng("roots")
    x = np.sqrt(r.random(20000) * 10.0 ** r.integers(-300, 300, 20000))[:, None]
    x[:6, 0] = [0.0, 1e-200, 1e-160, 3e-155, 1e154, np.nan]
    # squares at the fast root's threshold 2^-900 (its lanes take the root unscaled above it)
    x[6:12, 0] = 2.0**-450 * np.array([1.0, 1 - 2.0**-52, 1 + 2.0**-52, 0.75, 1.5, 2.0**0.5])
    z = np.zeros((1, 1))
    sq = cd.cdist(G(x), G(z), "sqeuclidean").get()[:, 0]
    got = cd.cdist(G(x), G(z)).get()[:, 0]
    np.testing.assert_array_equal(got, np.sqrt(sq))
    np.testing.assert_array_equal(got[:6], sd.cdist(x[:6], z)[:, 0])
    np.testing.assert_allclose(got, sd.cdist(x, z)[:, 0], rtol=1e-15, atol=0, equal_nan=True)


def test_edges():
    X = _data("e", (4, 3), np.float64, "x")
    _close(cd.cdist(G(X[:0]), G(X)), sd.cdist(X[:0], X))
    _close(cd.cdist(G(X), G(X[:1])), sd.cdist(X, X[:1]), "euclidean")
    _close(cd.pdist(G(X[:1])), sd.pdist(X[:1]))
    _close(cd.pdist(G(X[:0])), sd.pdist(X[:0]))
    Xt = _data("e", (6, 5), np.float64, "t")[:, ::2]  # a non-contiguous view
    _close(cd.pdist(G(_data("e", (6, 5), np.float64, "t"))[:, ::2]), sd.pdist(Xt), "euclidean")
    Z = np.zeros((3, 4))
    Z[0] = 1.0
    for metric in ("cosine", "correlation", "jensenshannon", "canberra", "braycurtis", "jaccard", "dice"):
        with np.errstate(all="ignore"):
            want = sd.pdist(Z, metric)
        _close(cd.pdist(G(Z), metric), want, metric)


def test_callable_metric():
    XA, XB = _data("c", (5, 3), np.float64, "a"), _data("c", (4, 3), np.float64, "b")

    def f(u, v):
        return float(np.abs(u - v).max())

    _close(cd.cdist(G(XA), G(XB), f), sd.cdist(XA, XB, f))
    _close(cd.pdist(G(XA), f), sd.pdist(XA, f))
    _close(cd.cdist(G(XA), G(XB), cd.cityblock), sd.cdist(XA, XB, sd.cityblock), "cityblock")


@pytest.mark.parametrize("metric", METRICS)
def test_vector_functions(metric):
    r = _rng("vec", metric)
    if metric in BOOLEAN:
        u, v = r.random(9) > 0.5, r.random(9) > 0.5
    else:
        u, v = r.random(9), r.random(9)
    kw = {"seuclidean": {"V": r.random(9) + 0.5}, "mahalanobis": {"VI": np.eye(9) + 0.1}}.get(metric, {})
    got = getattr(cd, metric)(G(u), G(v), **{k: G(x) for k, x in kw.items()})
    _close(got, np.float64(getattr(sd, metric)(u, v, **kw)), metric)
    if metric in WEIGHTED:
        w = r.random(9)
        _close(getattr(cd, metric)(G(u), G(v), w=G(w)), np.float64(getattr(sd, metric)(u, v, w=w)), metric)


def test_vector_functions_batched_and_jensenshannon_axis():
    r = _rng("batch")
    u, v = r.random((3, 4, 6)), r.random((3, 4, 6))
    for name in ("minkowski", "euclidean", "sqeuclidean"):
        _close(getattr(cd, name)(G(u), G(v)), getattr(sd, name)(u, v), "minkowski")
    for axis, keepdims, base in ((0, False, None), (1, True, 2.0), (-1, False, None)):
        _close(cd.jensenshannon(G(u), G(v), base, axis=axis, keepdims=keepdims),
               sd.jensenshannon(u, v, base, axis=axis, keepdims=keepdims))


def test_squareform_and_validity():
    X = _data("sq", (7, 3), np.float64, "x")
    y = sd.pdist(X)
    M = cd.squareform(G(y))
    np.testing.assert_array_equal(M.get(), sd.squareform(y))
    np.testing.assert_array_equal(cd.squareform(M).get(), sd.squareform(sd.squareform(y)))
    assert cd.squareform(G(np.zeros(0))).shape == (1, 1)
    assert cd.squareform(G(np.zeros((1, 1)))).shape == (0,)
    assert cd.is_valid_dm(M) and cd.num_obs_dm(M) == 7
    bad = sd.squareform(y)
    bad[0, 1] += 1.0
    assert not cd.is_valid_dm(G(bad)) and not sd.is_valid_dm(bad)
    with pytest.raises(ValueError, match="symmetric"):
        cd.squareform(G(bad))
    assert cd.is_valid_dm(G(bad), tol=2.0) == sd.is_valid_dm(bad, tol=2.0)
    diag = sd.squareform(y)
    diag[2, 2] = 1.0
    with pytest.raises(ValueError, match="diagonal"):
        cd.is_valid_dm(G(diag), throw=True)


def test_module_level_helpers():
    x, y = _rng("h").random((6, 3)), _rng("h2").random((4, 3))
    for p in (1, 2, 3.5, np.inf):
        with pytest.warns(DeprecationWarning):
            got = cs.distance_matrix(G(x), G(y), p)
        with pytest.warns(DeprecationWarning):
            want = scipy.spatial.distance_matrix(x, y, p)
        _close(got, want, "minkowski")
        with pytest.warns(DeprecationWarning):
            got = cs.minkowski_distance(G(x), G(x[::-1]), p)
        with pytest.warns(DeprecationWarning):
            want = scipy.spatial.minkowski_distance(x, x[::-1], p)
        _close(got, want)


def test_directed_hausdorff():
    u, v = _rng("dh1").random((300, 4)), _rng("dh2").random((200, 4))
    d, i, j = cd.directed_hausdorff(G(u), G(v))
    dh, ih, jh = sd.directed_hausdorff(u, v)
    assert d == pytest.approx(dh, rel=1e-9, abs=1e-7) and (i, j) == (ih, jh)


def test_procrustes_and_geometric_slerp():
    a = _rng("pa").random((30, 3))
    b = a[:, ::-1] * 2 + 0.5 + 0.01 * _rng("pb").random((30, 3))
    for got, want in zip(cs.procrustes(G(a), G(b)), scipy.spatial.procrustes(a, b)):
        np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
    s, e = np.array([1.0, 0, 0]), np.array([0, 0.6, 0.8])
    t = np.linspace(0, 1, 9)
    np.testing.assert_allclose(cs.geometric_slerp(s, e, G(t)).get(), scipy.spatial.geometric_slerp(s, e, t),
                               atol=1e-14)


@pytest.mark.parametrize("n", [3, 100, 5000])
def test_convex_hull_2d(n):
    pts = _rng("hull", n).normal(size=(n, 2))
    got, want = cs.ConvexHull(G(pts)), scipy.spatial.ConvexHull(pts)
    v = list(got.vertices.get())
    k = v.index(min(v))
    w = list(want.vertices)
    kw = w.index(min(w))
    assert v[k:] + v[:k] == w[kw:] + w[:kw]  # the same counterclockwise cycle
    assert got.volume == pytest.approx(want.volume, rel=1e-12) and got.area == pytest.approx(want.area, rel=1e-12)
    with pytest.raises(cs.QhullError):
        cs.ConvexHull(G(np.c_[np.arange(4.0), 2 * np.arange(4.0)]))
