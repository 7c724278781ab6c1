"""cuarray.scipy.cluster.vq on the GPU against scipy.cluster.vq on fresh random data: float32 and
float64, 1-D and 2-D observations, strided inputs, k = 1, more codes than points, NaN inputs,
empty clusters, and the random initialisations (SciPy's draws: the same seed, the same result)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sv = pytest.importorskip("scipy.cluster.vq")

import cuarray  # noqa: E402
from cuarray.scipy.cluster import vq as cv  # noqa: E402

G = cuarray.asarray
TOL = {np.float32: 2e-5, np.float64: 1e-12}


def _data(rng, n, d, dt):
    centres = rng.normal(scale=10, size=(5, d))
    x = centres[rng.integers(0, 5, n)] + rng.normal(size=(n, d))
    return x.astype(dt)


def _clear(x, book, margin):
    """Rows whose nearest code is ahead of the second by more than `margin` (float64 distances):
    only there must float32 codes agree."""
    x2, b2 = np.atleast_2d(x.T).T.astype(np.float64), np.atleast_2d(book.T).T.astype(np.float64)
    d = np.sort(((x2[:, None, :] - b2[None]) ** 2).sum(-1) ** 0.5, axis=1)
    return (d[:, 1] - d[:, 0] > margin * (1 + d[:, 1])) if d.shape[1] > 1 else np.ones(len(x), bool)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape,k", [((3000, 7), 6), ((500,), 4), ((1000, 3), 1), ((200, 40), 9)])
def test_vq(dt, shape, k):
    rng = np.random.default_rng()
    x = _data(rng, shape[0], shape[1] if len(shape) > 1 else 1, dt)
    x = x if len(shape) > 1 else x[:, 0]
    book = x[rng.choice(len(x), k, replace=False)]
    code, dist = cv.vq(G(x), G(book))
    ref_code, ref_dist = sv.vq(x, book)
    assert code.dtype == ref_code.dtype and dist.dtype == ref_dist.dtype
    ok = _clear(x, book, 1e-3 if dt == np.float32 else 1e-10)
    np.testing.assert_array_equal(code.get()[ok], ref_code[ok])
    # ours is |x - c| itself; SciPy's (|x|^2 + |c|^2 - 2 x.c for 5 or more features) cancels near 0
    x2, b2 = x.reshape(len(x), -1).astype(np.float64), book.reshape(k, -1).astype(np.float64)
    exact = np.sqrt(((x2 - b2[code.get()]) ** 2).sum(axis=1))
    np.testing.assert_allclose(dist.get(), exact, rtol=TOL[dt], atol=TOL[dt])
    np.testing.assert_allclose(dist.get()[ok], ref_dist[ok], rtol=TOL[dt],
                               atol=np.sqrt(4 * x2.shape[1] * np.finfo(dt).eps) * np.abs(x).max())
    np.testing.assert_allclose(cv.whiten(G(x)).get(), sv.whiten(x), rtol=TOL[dt] * 10)


def test_vq_strided_and_integer():
    rng = np.random.default_rng()
    x = _data(rng, 400, 6, np.float64)
    book = x[:5].copy()
    code, dist = cv.vq(G(x)[::2, ::2], G(book)[:, ::2])
    ref_code, ref_dist = sv.vq(x[::2, ::2], book[:, ::2])
    np.testing.assert_array_equal(code.get(), ref_code)
    np.testing.assert_allclose(dist.get(), ref_dist, rtol=1e-12, atol=1e-12)  # 3 features: SciPy's is direct
    xi = rng.integers(-50, 50, (100, 3))
    code, dist = cv.vq(G(xi), G(xi[:4]))
    ref_code, ref_dist = sv.vq(xi, xi[:4])
    assert code.dtype == ref_code.dtype and dist.dtype == ref_dist.dtype
    np.testing.assert_allclose(dist.get(), ref_dist, rtol=1e-12)


def _blobs(rng, n, d, k, dt):
    """k blobs 30 apart with unit noise: no observation is near-equidistant from two blobs' means,
    so float32 rounding cannot move one between clusters."""
    direction = rng.normal(size=d)
    centres = 30 * rng.permutation(k)[:, None] * (direction / np.linalg.norm(direction))
    label = rng.integers(0, k, n)
    label[:k] = np.arange(k)
    return (centres[label] + rng.normal(size=(n, d))).astype(dt)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5000, 4), (800,)])
def test_kmeans2_matrix(dt, shape):
    rng = np.random.default_rng()
    x = _blobs(rng, shape[0], shape[1] if len(shape) > 1 else 1, 5, dt)
    x = x if len(shape) > 1 else x[:, 0]
    book = x[:5].copy()  # one observation of each blob
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an empty cluster warns in both
        got = cv.kmeans2(G(x), G(book), iter=8, minit="matrix")
        ref = sv.kmeans2(x, book, iter=8, minit="matrix")
    assert got[0].dtype == ref[0].dtype and got[1].dtype == ref[1].dtype
    ok = _clear(x, ref[0], 1e-3 if dt == np.float32 else 1e-10)
    assert ok.mean() > 0.95
    np.testing.assert_array_equal(got[1].get()[ok], ref[1][ok])
    np.testing.assert_allclose(got[0].get(), ref[0], rtol=TOL[dt] * 10, atol=TOL[dt] * 10)


@pytest.mark.parametrize("minit", ["random", "points", "++"])
@pytest.mark.parametrize("shape", [(2000, 3), (12, 20), (600,)])
def test_kmeans2_seeded_is_scipys(minit, shape):
    rng = np.random.default_rng()
    x = _data(rng, shape[0], shape[1] if len(shape) > 1 else 1, np.float64)
    x = x if len(shape) > 1 else x[:, 0]
    seed = int(rng.integers(1 << 30))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cv.kmeans2(G(x), 4, iter=6, minit=minit, rng=seed)
        ref = sv.kmeans2(x, 4, iter=6, minit=minit, rng=seed)
    np.testing.assert_allclose(got[0].get(), ref[0], rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(got[1].get(), ref[1])
    # and the invariant of every run: each centroid with members is their mean
    book, label = cv.kmeans2(G(x), 4, iter=3, minit=minit, seed=seed, missing="warn")
    book, label = book.get().reshape(4, -1), label.get()
    x2 = x.reshape(len(x), -1)
    for j in np.unique(label):
        np.testing.assert_allclose(book[j], x2[label == j].mean(axis=0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_kmeans(dt):
    rng = np.random.default_rng()
    x = _blobs(rng, 3000, 3, 2, dt)  # two blobs, two codes: every run ends at the blobs' means
    seed = int(rng.integers(1 << 30))
    got, ref = cv.kmeans(G(x), 2, iter=4, rng=seed), sv.kmeans(x, 2, iter=4, rng=seed)
    np.testing.assert_allclose(got[0].get(), ref[0], rtol=TOL[dt] * 10, atol=TOL[dt] * 10)
    np.testing.assert_allclose(float(got[1]), float(ref[1]), rtol=TOL[dt] * 10)
    x = _blobs(rng, 3000, 1, 2, dt)[:, 0]
    got, ref = cv.kmeans(G(x), G(x[:2])), sv.kmeans(x, x[:2])
    np.testing.assert_allclose(got[0].get(), ref[0], rtol=TOL[dt] * 10, atol=TOL[dt] * 10)


def test_errors_and_edges():
    x = np.random.default_rng().random((10, 3))
    with pytest.raises(ValueError, match="larger sample"):
        cv.kmeans(G(x), 11, rng=0)
    with pytest.raises(ValueError, match="larger sample"):
        cv.kmeans2(G(x), 11, minit="points", rng=0)
    book, label = cv.kmeans2(G(x), 1, minit="points", rng=0)
    np.testing.assert_allclose(book.get(), x.mean(axis=0, keepdims=True), rtol=1e-13)
    assert (label.get() == 0).all()
    bad = x.copy()
    bad[2, 2] = np.nan
    for call in (lambda: cv.vq(G(bad), G(x[:2])), lambda: cv.kmeans2(G(bad), 2, rng=0),
                 lambda: cv.kmeans(G(bad), 2), lambda: cv.whiten(G(bad))):
        with pytest.raises(ValueError, match="infs or NaNs"):
            call()
    empty = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0]])
    book = np.array([[0.0, 0.0], [100.0, 100.0], [5.0, 5.0]])
    with pytest.warns(UserWarning, match="clusters is empty"):
        got = cv.kmeans2(G(empty), G(book), minit="matrix")
    with pytest.warns(UserWarning):
        ref = sv.kmeans2(empty, book, minit="matrix")
    np.testing.assert_allclose(got[0].get(), ref[0])
    with pytest.raises(cv.ClusterError, match="clusters is empty"):
        cv.kmeans2(G(empty), G(book), minit="matrix", missing="raise")
    with pytest.raises(TypeError):
        cv.vq(x, G(x[:2]))  # host data is refused
