"""`scipy.cluster.hierarchy` with the data on the device: `linkage` builds the condensed distances
on the device (`cuarray.scipy.spatial.distance.pdist`). 'single' then finds their minimum spanning
tree on the device (_single.py) and reads only its n - 1 edges to the host to label them. The other
methods copy the condensed distances to the host once and run SciPy's agglomeration there (the
nearest-neighbour chain for 'complete', 'average', 'weighted' and 'ward', the generic algorithm for
'centroid' and 'median': Mullner, "Modern hierarchical, agglomerative clustering algorithms",
2011); the linkage matrix comes back to the device. Their n - 1 merges are a chain of dependent
O(n) steps: on the host they run in SciPy's compiled loop (about 1 s for n = 8000 on one core),
where a device loop pays a launch and a read a merge. The functions on a linkage matrix (n - 1 rows of 4 numbers) read it to
the host once and run SciPy's code, so every merge order, tie rule and error is SciPy's."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._math.misc import absolute
from ..spatial._distance_pair import pdist
from ._single import label, spanning_tree

__all__ = ["linkage", "fcluster", "cophenet", "inconsistent", "is_valid_linkage", "leaves_list", "dendrogram"]

_METHODS = ("single", "complete", "average", "weighted", "centroid", "median", "ward")
_EUCLIDEAN = ("centroid", "median", "ward")
_F8 = numpy.dtype(numpy.float64)
_NOT_FINITE = "The condensed distance matrix must contain only finite values."


def _host_hierarchy():
    import scipy.cluster.hierarchy as h  # optional dependency: SciPy runs the host steps

    return h


def _host_distance():
    import scipy.spatial.distance as d  # optional dependency: SciPy's checks of a condensed matrix

    return d


def _host(x, fn):
    """A device argument's host copy (None stays None): the one read of these small arrays."""
    if x is None:
        return None
    return to_host(as_literal_or_array(x, fn))


def _suspicious(y):
    """SciPy's test of a square observation matrix that looks like a distance matrix (one read)."""
    n = y.shape[0]
    diag = y.reshape(-1)[::n + 1]
    close = absolute(y - y.T) <= 1e-8 + 1e-5 * absolute(y.T)
    return bool(to_host(all_(absolute(diag) <= 1e-8) & all_(y >= 0) & all_(close)))


def linkage(y, method="single", metric="euclidean", optimal_ordering=False):
    """See `scipy.cluster.hierarchy.linkage`. Observations' distances are computed on the device.
    'single' builds the minimum spanning tree on the device (Boruvka's rounds, one read each) and
    labels its n - 1 edges on the host: with distinct distances Z is SciPy's; with equal distances
    the heights and the flat clusters at every height are SciPy's, but merges of equal height may
    come in another order (ids and rows differ). `optimal_ordering` and the other methods read the
    condensed distances to the host once and run SciPy's code (sequential merges). The linkage
    matrix is returned on the device."""
    fn = "scipy.cluster.hierarchy.linkage"
    h = _host_hierarchy()
    y = as_literal_or_array(y, fn).astype(_F8, copy=False)
    if method not in _METHODS:
        raise ValueError(f"Invalid method: {method}")
    if method in _EUCLIDEAN and metric != "euclidean" and y.ndim == 2:
        raise ValueError(f"`method={method}` requires the distance metric to be Euclidean")
    if y.ndim == 2:
        if y.shape[0] == y.shape[1] and y.size and _suspicious(y):
            import warnings  # import time: only this rare path warns

            warnings.warn("The symmetric non-negative hollow observation matrix looks suspiciously like an "
                          "uncondensed distance matrix", h.ClusterWarning, stacklevel=2)
        # SciPy finds a NaN or inf observation in the distances; ours clamp at 0, so look here
        if y.size and not bool(to_host(all_(isfinite(y)))):
            raise ValueError(_NOT_FINITE)
        y = pdist(y, metric)
    elif y.ndim != 1:
        raise ValueError("`y` must be 1 or 2 dimensional.")
    if method != "single":
        return asarray(h.linkage(to_host(y), method=method, optimal_ordering=optimal_ordering))  # the one read
    d = _host_distance()
    shape = numpy.broadcast_to(0.0, y.shape)  # SciPy's checks of the length, without the data
    d.is_valid_y(shape, throw=True, name="y")
    if y.size and not bool(to_host(all_(isfinite(y)))):
        raise ValueError(_NOT_FINITE)
    n = d.num_obs_y(shape)
    z = label(to_host(spanning_tree(y, n)), n)  # the tree's edges: 3 (n - 1) numbers read
    if optimal_ordering:
        z = h.optimal_leaf_ordering(z, to_host(y))
    return asarray(z)


def fcluster(Z, t, criterion="inconsistent", depth=2, R=None, monocrit=None):  # noqa: N803
    """See `scipy.cluster.hierarchy.fcluster`. Runs on the host on the linkage matrix (read
    once); the flat cluster labels (int32) are returned on the device."""
    fn = "scipy.cluster.hierarchy.fcluster"
    out = _host_hierarchy().fcluster(_host(Z, fn), t, criterion=criterion, depth=depth, R=_host(R, fn),
                                     monocrit=_host(monocrit, fn))
    return asarray(out)


def cophenet(Z, Y=None):  # noqa: N803
    """See `scipy.cluster.hierarchy.cophenet`. Runs on the host on the linkage matrix (and `Y`,
    read once); the results are returned on the device (the correlation as a 0-d array)."""
    fn = "scipy.cluster.hierarchy.cophenet"
    out = _host_hierarchy().cophenet(_host(Z, fn), _host(Y, fn))
    return asarray(out) if Y is None else (asarray(out[0]), asarray(out[1]))


def inconsistent(Z, d=2):  # noqa: N803
    """See `scipy.cluster.hierarchy.inconsistent`. Runs on the host on the linkage matrix (read
    once); the statistics are returned on the device."""
    return asarray(_host_hierarchy().inconsistent(_host(Z, "scipy.cluster.hierarchy.inconsistent"), d))


def is_valid_linkage(Z, warning=False, throw=False, name=None):  # noqa: N803
    """See `scipy.cluster.hierarchy.is_valid_linkage`. Reads the linkage matrix to the host."""
    return _host_hierarchy().is_valid_linkage(_host(Z, "scipy.cluster.hierarchy.is_valid_linkage"),
                                              warning=warning, throw=throw, name=name)


def leaves_list(Z):  # noqa: N803
    """See `scipy.cluster.hierarchy.leaves_list`. Runs on the host on the linkage matrix (read
    once); the leaf order (int32) is returned on the device."""
    return asarray(_host_hierarchy().leaves_list(_host(Z, "scipy.cluster.hierarchy.leaves_list")))


def dendrogram(Z, p=30, truncate_mode=None, color_threshold=None, get_leaves=True, orientation="top",  # noqa: N803
               labels=None, count_sort=False, distance_sort=False, show_leaf_counts=True, no_plot=False,
               no_labels=False, leaf_font_size=None, leaf_rotation=None, leaf_label_func=None,
               show_contracted=False, link_color_func=None, ax=None, above_threshold_color="C0"):
    """See `scipy.cluster.hierarchy.dendrogram`. The layout is host work on the linkage matrix
    (read once) and the result is SciPy's dict of host lists; plotting (no_plot=False) is
    matplotlib's, as in SciPy."""
    return _host_hierarchy().dendrogram(
        _host(Z, "scipy.cluster.hierarchy.dendrogram"), p=p, truncate_mode=truncate_mode,
        color_threshold=color_threshold, get_leaves=get_leaves, orientation=orientation, labels=labels,
        count_sort=count_sort, distance_sort=distance_sort, show_leaf_counts=show_leaf_counts, no_plot=no_plot,
        no_labels=no_labels, leaf_font_size=leaf_font_size, leaf_rotation=leaf_rotation,
        leaf_label_func=leaf_label_func, show_contracted=show_contracted, link_color_func=link_color_func, ax=ax,
        above_threshold_color=above_threshold_color)
