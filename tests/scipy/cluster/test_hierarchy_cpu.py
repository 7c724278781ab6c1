"""cuarray.scipy.cluster.hierarchy's host logic (its copy with NumPy and SciPy's pdist in place of
the device routines, conftest.host_cluster) against scipy.cluster.hierarchy on fresh random data:
the linkage matrix of every method, SciPy's errors and warning, and the functions on a linkage
matrix; and every public name has SciPy's signature."""

import inspect

import numpy as np
import pytest
import scipy.cluster.hierarchy as sh
import scipy.spatial.distance as ssd

from cuarray.scipy.cluster import hierarchy as ch

NAMES = ["linkage", "fcluster", "cophenet", "inconsistent", "is_valid_linkage", "leaves_list", "dendrogram"]
METHODS = ["single", "complete", "average", "weighted", "centroid", "median", "ward"]


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    assert inspect.signature(getattr(ch, name)) == inspect.signature(getattr(sh, name))


@pytest.mark.parametrize("method", METHODS)
def test_linkage_is_scipys(host_cluster, method):
    x = np.random.default_rng().random((30, 4))
    h = host_cluster.hierarchy
    np.testing.assert_array_equal(h.linkage(x, method), sh.linkage(x, method))
    y = np.random.default_rng().random(45)  # condensed, 10 observations
    np.testing.assert_array_equal(h.linkage(y, method), sh.linkage(y, method))
    if method not in ("centroid", "median", "ward"):
        np.testing.assert_array_equal(h.linkage(x, method, "cityblock"), sh.linkage(x, method, "cityblock"))
    np.testing.assert_array_equal(h.linkage(x, method, optimal_ordering=True),
                                  sh.linkage(x, method, optimal_ordering=True))


def test_ties_are_scipys(host_cluster):
    x = np.random.default_rng().integers(0, 3, (25, 2)).astype(float)  # many equal distances
    for method in METHODS[1:]:  # 'single' builds its own tree: test_single_ties
        z = host_cluster.hierarchy.linkage(x, method)
        np.testing.assert_array_equal(z, sh.linkage(x, method))
        assert sh.is_valid_linkage(z)
        if method not in ("centroid", "median"):  # the two methods whose heights may decrease
            assert (np.diff(z[:, 2]) >= 0).all()


def same_single_linkage(z, ref):
    """What every minimum spanning tree shares when distances tie: the heights, and the partition
    below every height (the cophenetic distances, and fcluster's flat clusters at and between the
    heights); ids, rows and the order of equal-height merges may differ."""
    assert sh.is_valid_linkage(z) and (z[:, 0] < z[:, 1]).all() and z[-1, 3] == len(z) + 1
    np.testing.assert_array_equal(z[:, 2], ref[:, 2])
    np.testing.assert_array_equal(sh.cophenet(z), sh.cophenet(ref))
    heights = np.unique(ref[:, 2])
    for t in np.concatenate([heights, heights + 0.5]):
        got, want = sh.fcluster(z, t, "distance"), sh.fcluster(ref, t, "distance")
        pairs = set(zip(got.tolist(), want.tolist()))
        assert len(pairs) == len(set(got.tolist())) == len(set(want.tolist()))  # the same partition


@pytest.mark.parametrize("shape", [(40, 2), (60, 1), (30, 3)])
def test_single_ties(host_cluster, shape):
    """Integer grids: many equal distances (exact: integer squares, correctly rounded roots), and
    duplicate points (zero distances)."""
    x = np.random.default_rng().integers(0, 4, shape).astype(float)
    same_single_linkage(host_cluster.hierarchy.linkage(x), sh.linkage(x))
    y = ssd.pdist(x, "cityblock")
    same_single_linkage(host_cluster.hierarchy.linkage(y), sh.linkage(y))


def test_single_duplicates_and_small(host_cluster):
    h, rng = host_cluster.hierarchy, np.random.default_rng()
    x = rng.random((12, 3))
    x = x[rng.integers(0, 12, 30)]  # duplicates: zero distances, equal distances to the others
    same_single_linkage(h.linkage(x), sh.linkage(x))
    same_single_linkage(h.linkage(np.zeros((9, 2))), sh.linkage(np.zeros((9, 2))))
    for n in (2, 3):
        x = rng.random((n, 2))
        np.testing.assert_array_equal(h.linkage(x), sh.linkage(x))
        np.testing.assert_array_equal(h.linkage(ssd.pdist(x)), sh.linkage(ssd.pdist(x)))
    y = rng.standard_normal(55)  # negative and distinct: SciPy takes them as they are
    np.testing.assert_array_equal(h.linkage(y), sh.linkage(y))


@pytest.mark.parametrize("n", [7, 33])
def test_single_chunks(host_single, n):
    """Rows in chunks of every size around a row's length: the same tree, and SciPy's Z."""
    y = np.random.default_rng().random(n * (n - 1) // 2)
    ref = sh.linkage(y)
    for chunk in (1, n - 1, n, n + 1, 2 * n - 1, 3 * n, 5 * n + 2, n * n):
        np.testing.assert_array_equal(host_single.label(host_single.spanning_tree(y, n, chunk), n), ref)


CALLS = [
    lambda h, x: h.linkage(x, "nope"),
    lambda h, x: h.linkage(x, "ward", "cityblock"),
    lambda h, x: h.linkage(x[None]),
    lambda h, x: h.linkage(np.where(x == x[3, 1], np.nan, x)),  # one NaN observation, every draw
    lambda h, x: h.linkage(np.ones(4)),
    lambda h, x: h.linkage(np.array([1.0, np.inf, 2.0])),
    lambda h, x: h.linkage(np.array([1.0, 2.0, np.nan]), optimal_ordering=True),
    lambda h, x: h.linkage(x * 1e200),  # finite observations, infinite distances
    lambda h, x: h.linkage(x[:1]),
    lambda h, x: h.linkage(np.ones(0)),
    lambda h, x: h.fcluster(h.linkage(x), 2, criterion="bad"),
    lambda h, x: h.is_valid_linkage(x, throw=True),
    lambda h, x: h.leaves_list(x),
]


@pytest.mark.parametrize("i", range(len(CALLS)))
def test_errors_are_scipys(host_cluster, i):
    x = np.random.default_rng().random((12, 3))
    with pytest.raises(Exception) as ref:
        CALLS[i](sh, x)
    with pytest.raises(type(ref.value)) as got:
        CALLS[i](host_cluster.hierarchy, x)
    assert str(got.value) == str(ref.value)


def test_square_observations_warn(host_cluster):
    d = ssd.squareform(np.random.default_rng().random(10))
    with pytest.warns(sh.ClusterWarning, match="suspiciously"):
        z = host_cluster.hierarchy.linkage(d)
    with pytest.warns(sh.ClusterWarning):
        np.testing.assert_array_equal(z, sh.linkage(d))


def test_functions_of_a_linkage(host_cluster):
    h = host_cluster.hierarchy
    x = np.random.default_rng().random((40, 3))
    z = sh.linkage(x, "average")
    for t, criterion in ((1.0, "inconsistent"), (0.4, "distance"), (5, "maxclust")):
        np.testing.assert_array_equal(h.fcluster(z, t, criterion), sh.fcluster(z, t, criterion))
    r = sh.inconsistent(z, 3)
    np.testing.assert_array_equal(h.fcluster(z, 0.8, depth=3, R=r), sh.fcluster(z, 0.8, depth=3, R=r))
    np.testing.assert_array_equal(h.inconsistent(z, 3), r)
    np.testing.assert_array_equal(h.cophenet(z), sh.cophenet(z))
    y = ssd.pdist(x)
    c, d = h.cophenet(z, y)
    np.testing.assert_array_equal(d, sh.cophenet(z, y)[1])
    assert c == sh.cophenet(z, y)[0]
    np.testing.assert_array_equal(h.leaves_list(z), sh.leaves_list(z))
    assert h.is_valid_linkage(z) and not h.is_valid_linkage(z[:, :3])
    assert h.dendrogram(z, no_plot=True, truncate_mode="lastp", p=6) == sh.dendrogram(z, no_plot=True,
                                                                                       truncate_mode="lastp", p=6)
