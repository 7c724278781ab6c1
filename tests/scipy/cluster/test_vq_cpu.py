"""cuarray.scipy.cluster.vq's algorithm (host copy with NumPy routines, conftest.host_cluster)
against scipy.cluster.vq on fresh random data: the same codes and code books, the same draws for
a seed, SciPy's errors and warnings; and every public name has SciPy's signature."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.cluster.vq as sv

from cuarray.scipy.cluster import vq as cv


def _data(rng, n, d, dt=np.float64):
    # separated blobs so that no observation is near-equidistant from two codes
    centres = rng.normal(scale=10, size=(4, d))
    x = centres[rng.integers(0, 4, n)] + rng.normal(size=(n, d))
    return x.astype(dt)


@pytest.mark.parametrize("name", ["whiten", "vq", "kmeans", "kmeans2"])
def test_signature(name):
    assert inspect.signature(getattr(cv, name)) == inspect.signature(getattr(sv, name))


def test_cluster_error_is_an_exception():
    assert issubclass(cv.ClusterError, Exception)


@pytest.mark.parametrize("shape", [(50, 3), (40, 7), (30,)])
def test_vq_and_whiten(host_cluster, shape):
    rng = np.random.default_rng()
    x = _data(rng, shape[0], shape[1] if len(shape) > 1 else 1)
    x = x if len(shape) > 1 else x[:, 0]
    book = x[rng.choice(len(x), 5, replace=False)]
    code, dist = host_cluster.vq.vq(x, book)
    ref_code, ref_dist = sv.vq(x, book)
    np.testing.assert_array_equal(code, ref_code)
    # ours is |x - c| itself; SciPy's (|x|^2 + |c|^2 - 2 x.c for 5 or more features) cancels
    x2, b2 = x.reshape(len(x), -1), book.reshape(len(book), -1)
    np.testing.assert_allclose(dist, np.sqrt(((x2 - b2[code]) ** 2).sum(axis=1)), rtol=1e-15, atol=0)
    np.testing.assert_allclose(dist, ref_dist, rtol=1e-13, atol=np.sqrt(4 * x2.shape[1] * np.finfo(x.dtype).eps) * np.abs(x).max())
    assert code.dtype == np.int32
    np.testing.assert_allclose(host_cluster.vq.whiten(x), sv.whiten(x), rtol=1e-14)


@pytest.mark.parametrize("shape", [(60, 2), (9, 12), (40,)])
@pytest.mark.parametrize("minit", ["matrix", "random", "points", "++"])
def test_kmeans2_is_scipys(host_cluster, shape, minit):
    rng = np.random.default_rng()
    x = _data(rng, shape[0], shape[1] if len(shape) > 1 else 1)
    x = x if len(shape) > 1 else x[:, 0]
    seed = int(rng.integers(1 << 30))
    k = x[:3].copy() if minit == "matrix" else 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an empty cluster warns in both
        got = host_cluster.vq.kmeans2(x, k, iter=5, minit=minit, rng=seed)
        ref = sv.kmeans2(x, k, iter=5, minit=minit, rng=seed)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got[1], ref[1])


def test_kmeans_is_scipys(host_cluster):
    rng = np.random.default_rng()
    x = _data(rng, 80, 3)
    seed = int(rng.integers(1 << 30))
    got, ref = host_cluster.vq.kmeans(x, 4, iter=3, seed=seed), sv.kmeans(x, 4, iter=3, seed=seed)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-12)
    guess = x[:4].copy()
    got, ref = host_cluster.vq.kmeans(x, guess), sv.kmeans(x, guess)
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-12)
    # float32 observations, a float64 guess: the centroids are float32 means, as SciPy's
    got, ref = host_cluster.vq.kmeans(x.astype(np.float32), guess), sv.kmeans(x.astype(np.float32), guess)
    assert got[0].dtype == ref[0].dtype == np.float32
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-5)


def test_empty_observations(host_cluster):
    book = np.random.default_rng().random((3, 2))
    code, dist = host_cluster.vq.vq(book[:0], book)
    ref_code, ref_dist = sv.vq(book[:0], book)
    assert code.shape == ref_code.shape == (0,) and code.dtype == ref_code.dtype and dist.dtype == ref_dist.dtype


def test_integer_observations(host_cluster):
    x = np.random.default_rng().integers(0, 50, (30, 2))
    code, dist = host_cluster.vq.vq(x, x[:3])
    ref_code, ref_dist = sv.vq(x, x[:3])
    np.testing.assert_array_equal(code, ref_code)
    assert code.dtype == ref_code.dtype and dist.dtype == ref_dist.dtype
    book, avg = host_cluster.vq.kmeans(x, 3, iter=2, rng=5)
    assert book.dtype == np.float64 and np.isfinite(avg)


def test_empty_cluster(host_cluster):
    x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0]])
    book = np.array([[0.0, 0.0], [100.0, 100.0], [5.0, 5.0]])
    with pytest.warns(UserWarning, match="One of the clusters is empty"):
        got = host_cluster.vq.kmeans2(x, book, minit="matrix")
    with pytest.warns(UserWarning):
        ref = sv.kmeans2(x, book, minit="matrix")
    np.testing.assert_allclose(got[0], ref[0])
    with pytest.raises(host_cluster.vq.ClusterError, match="One of the clusters is empty"):
        host_cluster.vq.kmeans2(x, book, minit="matrix", missing="raise")
    # kmeans drops the empty code, as SciPy's does
    got, ref = host_cluster.vq.kmeans(x, book), sv.kmeans(x, book)
    np.testing.assert_allclose(got[0], ref[0])


CALLS = [
    ("vq", lambda m, x: m.vq(x, x[:, :1])),
    ("vq", lambda m, x: m.vq(x, x[:2, 0])),
    ("vq", lambda m, x: m.vq(x[None], x[None])),
    ("kmeans", lambda m, x: m.kmeans(x, 0)),
    ("kmeans", lambda m, x: m.kmeans(x, 2.5)),
    ("kmeans", lambda m, x: m.kmeans(x, 2, iter=0)),
    ("kmeans", lambda m, x: m.kmeans(x, x[:0])),
    ("kmeans", lambda m, x: m.kmeans(x, 50, rng=0)),  # more codes than points
    ("kmeans2", lambda m, x: m.kmeans2(x, 0)),
    ("kmeans2", lambda m, x: m.kmeans2(x, 2, iter=0)),
    ("kmeans2", lambda m, x: m.kmeans2(x, 2, missing="ignore")),
    ("kmeans2", lambda m, x: m.kmeans2(x, 2, minit="bad")),
    ("kmeans2", lambda m, x: m.kmeans2(x, 50, minit="points", rng=0)),
    ("kmeans2", lambda m, x: m.kmeans2(x, x[:2, 0], minit="matrix")),
    ("kmeans2", lambda m, x: m.kmeans2(x, x[:2, :1], minit="matrix")),
    ("kmeans2", lambda m, x: m.kmeans2(x[None], 2)),
    ("kmeans2", lambda m, x: m.kmeans2(x[:0], 2)),
    ("kmeans2", lambda m, x: m.kmeans2(x, 2, rng=1, seed=1)),
]


@pytest.mark.parametrize("i", range(len(CALLS)))
def test_errors_are_scipys(host_cluster, i):
    x = np.random.default_rng().random((10, 3))
    _, call = CALLS[i]
    with pytest.raises(Exception) as ref:
        call(sv, x)
    with pytest.raises(type(ref.value)) as got:
        call(host_cluster.vq, x)
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_check_finite(host_cluster, bad):
    x = np.random.default_rng().random((10, 3))
    x[3, 1] = bad
    for call in (lambda m: m.vq(x, x[:2]), lambda m: m.kmeans(x, 2, rng=0), lambda m: m.kmeans2(x, 2, rng=0),
                 lambda m: m.whiten(x)):
        with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
            call(host_cluster.vq)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(host_cluster.vq.whiten(x, check_finite=False), sv.whiten(x, check_finite=False))


def test_whiten_zero_column_warns(host_cluster):
    x = np.random.default_rng().random((6, 2))
    x[:, 1] = 3.0
    with pytest.warns(RuntimeWarning, match="standard deviation zero"):
        got = host_cluster.vq.whiten(x)
    with pytest.warns(RuntimeWarning):
        np.testing.assert_allclose(got, sv.whiten(x))
