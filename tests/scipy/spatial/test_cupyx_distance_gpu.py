"""cupyx's own names in cuarray.scipy.spatial.distance on the GPU: the metrics hellinger and
kl_divergence (by name and by function in cdist/pdist, float32/float64, zeros and negative
entries), distance.distance_matrix (no deprecation warning), and Python lists taken by the distance
functions (docs/scipy.md, "Host inputs") where NumPy arrays are refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sd = pytest.importorskip("scipy.spatial.distance")
import scipy.spatial  # noqa: E402
import scipy.special  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy.spatial import distance as cd  # noqa: E402

G = cuarray.asarray


def _hellinger(u, v):
    return np.sqrt(((np.sqrt(u) - np.sqrt(v)) ** 2).sum() / 2)


def _kl(u, v):
    return scipy.special.rel_entr(u, v).sum()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("metric,ref", [("hellinger", _hellinger), ("kl_divergence", _kl), ("kld", _kl)])
def test_cupyx_metrics(metric, ref, dtype):
    rng = np.random.default_rng(7)
    a, b = rng.random((30, 20)).astype(dtype), rng.random((25, 20)).astype(dtype)
    a[0, :3] = 0.0
    b[2, 5] = 0.0
    a[3, 1] = -0.5  # hellinger: NaN; kl: inf
    with np.errstate(all="ignore"):
        want = sd.cdist(a.astype(np.float64), b.astype(np.float64), ref)
        wantp = sd.pdist(a.astype(np.float64), ref)
    f = cd.hellinger if metric == "hellinger" else cd.kl_divergence
    for got in (cd.cdist(G(a), G(b), metric), cd.cdist(G(a), G(b), f)):
        assert got.dtype == np.float64
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-14, equal_nan=True)
    np.testing.assert_allclose(cd.pdist(G(a), metric).get(), wantp, rtol=1e-12, atol=1e-14, equal_nan=True)
    for i in range(4):
        with np.errstate(all="ignore"):
            w = ref(a[i].astype(np.float64), b[i].astype(np.float64))
        got = f(G(a[i]), G(b[i]))
        assert got.shape == () and got.dtype == np.float64
        np.testing.assert_allclose(float(got.get()), w, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, np.inf])
def test_distance_matrix(p):
    rng = np.random.default_rng(3)
    x, y = rng.random((20, 7)), rng.random((11, 7))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = scipy.spatial.distance_matrix(x, y, p=p)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = cd.distance_matrix(G(x), G(y), p=p)
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-13)


def test_python_lists_are_taken():
    u, v = [1.0, 0.0, 2.0], [0.5, 1.5, 2.0]
    np.testing.assert_allclose(float(cd.cityblock(u, v).get()), sd.cityblock(u, v))
    np.testing.assert_allclose(cd.cdist([u, v], [v], "cosine").get(), sd.cdist([u, v], [v], "cosine"), rtol=1e-12)
    np.testing.assert_allclose(cd.pdist([u, v, [0.0, 0.0, 1.0]]).get(), sd.pdist([u, v, [0.0, 0.0, 1.0]]), rtol=1e-12)
    np.testing.assert_allclose(cd.squareform([1.0, 2.0, 3.0]).get(), sd.squareform([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cd.cdist(np.ones((2, 3)), np.ones((2, 3)))
