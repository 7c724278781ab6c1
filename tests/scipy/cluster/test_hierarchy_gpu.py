"""cuarray.scipy.cluster.hierarchy on the GPU against scipy.cluster.hierarchy on fresh random data:
the linkage matrix of every method from observations (distances built on the device) and from
condensed distances, the functions of a linkage matrix on device arrays, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sh = pytest.importorskip("scipy.cluster.hierarchy")

import scipy.spatial.distance as ssd  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy.cluster import _single  # noqa: E402
from cuarray.scipy.cluster import hierarchy as ch  # noqa: E402
from cuarray.scipy.spatial import distance as ssd_gpu  # noqa: E402

G = cuarray.asarray
METHODS = ["single", "complete", "average", "weighted", "centroid", "median", "ward"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_linkage(method, dt):
    x = np.random.default_rng().random((300, 5)).astype(dt)
    z = ch.linkage(G(x), method)
    ref = sh.linkage(x, method)
    assert isinstance(z, cuarray.ndarray) and z.dtype == np.float64
    # no ties in random data: the same merges; the heights differ by the distances' rounding
    np.testing.assert_array_equal(z.get()[:, [0, 1, 3]], ref[:, [0, 1, 3]])
    np.testing.assert_allclose(z.get()[:, 2], ref[:, 2], rtol=1e-10, atol=1e-12)
    y = ssd.pdist(x.astype(np.float64), "cityblock")
    np.testing.assert_array_equal(ch.linkage(G(y), method).get(), sh.linkage(y, method))
    # a Python list, as SciPy takes it
    np.testing.assert_array_equal(ch.linkage(y[:45].tolist(), method).get(), sh.linkage(y[:45], method))
    if method not in ("centroid", "median", "ward"):
        got, ref = ch.linkage(G(x), method, "cityblock").get(), sh.linkage(x, method, "cityblock")
        np.testing.assert_array_equal(got[:, [0, 1, 3]], ref[:, [0, 1, 3]])


@pytest.mark.parametrize("method", ["single", "complete", "average", "ward"])
def test_linkage_ties(method):
    """Grid points: many equal distances, whose rounding on the device may order tied merges
    differently from SciPy; the invariants hold: a valid monotone tree over every point, the first
    merge at the least distance, and for 'single' SciPy's heights (the minimum spanning tree's
    weights) and flat clusters at each threshold (unique whatever the tie order)."""
    x = np.random.default_rng().integers(0, 4, (80, 2)).astype(np.float64)
    # the device distances first (integer points: exact squares, roots within an ulp), so that a
    # failure below says whether the distances or the agglomeration differ
    np.testing.assert_allclose(ssd_gpu.pdist(G(x)).get(), ssd.pdist(x), rtol=1e-15, atol=0)
    z = ch.linkage(G(x), method).get()
    ref = sh.linkage(x, method)
    assert sh.is_valid_linkage(z) and (np.diff(z[:, 2]) >= -1e-12).all() and z[-1, 3] == len(x)
    np.testing.assert_allclose(z[0, 2], ref[0, 2], rtol=1e-12, atol=1e-12)
    if method == "single":
        np.testing.assert_allclose(z[:, 2], ref[:, 2], rtol=1e-12, atol=1e-12)
        for t in np.unique(ref[:, 2])[:-1] + 0.5:
            got, want = sh.fcluster(z, t, "distance"), sh.fcluster(ref, t, "distance")
            pairs = set(zip(got.tolist(), want.tolist()))
            assert len(pairs) == len(set(got.tolist())) == len(set(want.tolist()))  # the same partition


def test_single_linkage_on_the_device():
    """'single' builds its minimum spanning tree on the device: condensed input (host-made, so both
    sides see the same numbers) with distinct distances gives SciPy's Z exactly, rows in chunks of
    every kind (forced small, and the default's 3 chunks at n = 3000), negative distances, n = 2
    and 3, and optimal_ordering; with duplicates (ties) the heights and partitions are SciPy's."""
    rng = np.random.default_rng()
    n = 300
    y = rng.random(n * (n - 1) // 2)  # distinct (a tie among 45,000 doubles: ~1e-7)
    ref = sh.linkage(y)
    for chunk in (1, 7 * n + 3):
        np.testing.assert_array_equal(_single.label(_single.spanning_tree(G(y), n, chunk).get(), n), ref)
    np.testing.assert_array_equal(ch.linkage(G(y), optimal_ordering=True).get(), sh.linkage(y, optimal_ordering=True))
    y = rng.random(3000 * 2999 // 2)
    np.testing.assert_array_equal(ch.linkage(G(y)).get(), sh.linkage(y))
    y = rng.standard_normal(1225)
    np.testing.assert_array_equal(ch.linkage(G(y)).get(), sh.linkage(y))
    for m in (2, 3):
        x = rng.random((m, 2))
        np.testing.assert_array_equal(ch.linkage(G(ssd.pdist(x))).get(), sh.linkage(ssd.pdist(x)))
        np.testing.assert_array_equal(ch.linkage(G(x)).get()[:, [0, 1, 3]], sh.linkage(x)[:, [0, 1, 3]])
    x = rng.random((20, 3))[rng.integers(0, 20, 90)]  # duplicates: zero and equal distances
    y = ssd.pdist(x)
    z, ref = ch.linkage(G(y)).get(), sh.linkage(y)
    assert sh.is_valid_linkage(z) and (z[:, 0] < z[:, 1]).all()
    np.testing.assert_array_equal(z[:, 2], ref[:, 2])
    np.testing.assert_array_equal(sh.cophenet(z), sh.cophenet(ref))  # the same partition below every height
    for bad in (np.array([1.0, np.inf, 2.0]), np.array([np.nan, 1.0, 2.0])):
        with pytest.raises(ValueError, match="only finite values"):
            ch.linkage(G(bad))
    with pytest.raises(ValueError, match="cannot be determined on an empty"):
        ch.linkage(G(x[:1]))


def test_functions_of_a_linkage_and_errors():
    x = np.random.default_rng().random((60, 3))
    z = sh.linkage(x, "average")
    zg = G(z)
    for t, criterion in ((1.0, "inconsistent"), (0.4, "distance"), (5, "maxclust")):
        got = ch.fcluster(zg, t, criterion)
        assert isinstance(got, cuarray.ndarray)
        np.testing.assert_array_equal(got.get(), sh.fcluster(z, t, criterion))
    np.testing.assert_array_equal(ch.inconsistent(zg, 3).get(), sh.inconsistent(z, 3))
    np.testing.assert_array_equal(ch.cophenet(zg).get(), sh.cophenet(z))
    y = ssd.pdist(x)
    c, d = ch.cophenet(zg, G(y))
    assert float(c) == sh.cophenet(z, y)[0]
    np.testing.assert_array_equal(ch.leaves_list(zg).get(), sh.leaves_list(z))
    assert ch.is_valid_linkage(zg)
    assert ch.dendrogram(zg, no_plot=True) == sh.dendrogram(z, no_plot=True)
    bad = x.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="only finite values"):
        ch.linkage(G(bad))
    with pytest.raises(ValueError, match="Invalid method"):
        ch.linkage(G(x), "nope")
    with pytest.raises(ValueError, match="requires the distance metric to be Euclidean"):
        ch.linkage(G(x), "ward", "cityblock")
    with pytest.warns(sh.ClusterWarning, match="suspiciously"):
        ch.linkage(G(ssd.squareform(y[:45])))
    with pytest.raises(TypeError):
        ch.linkage(x)  # host data is refused
