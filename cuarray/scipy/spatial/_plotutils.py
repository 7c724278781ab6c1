"""`convex_hull_plot_2d`, `delaunay_plot_2d`, `voronoi_plot_2d`: Matplotlib drawings, host work by
nature. Each reads the few arrays the drawing needs (points, simplices or Voronoi vertices and
ridges) to the host once and hands them to SciPy's function, so the figure is SciPy's."""

from __future__ import annotations

import types

from ..._core.ndarray import ndarray
from ..._core.transfer import to_host

__all__ = ["convex_hull_plot_2d", "delaunay_plot_2d", "voronoi_plot_2d"]


def _host_plotutils():
    # host work: the drawing is SciPy's (and Matplotlib's) on host copies
    import scipy.spatial  # import time: SciPy is an optional dependency (cuarray[scipy])

    return scipy.spatial


def _host_view(obj, names):
    """A namespace of `obj`'s attributes `names` with device arrays copied to the host."""
    values = {}
    for name in names:
        v = getattr(obj, name)
        values[name] = to_host(v) if isinstance(v, ndarray) else v
    return types.SimpleNamespace(**values)


def convex_hull_plot_2d(hull, ax=None):
    """See `scipy.spatial.convex_hull_plot_2d` (SciPy's drawing of host copies)."""
    return _host_plotutils().convex_hull_plot_2d(_host_view(hull, ("points", "simplices")), ax)


def delaunay_plot_2d(tri, ax=None):
    """See `scipy.spatial.delaunay_plot_2d` (SciPy's drawing of host copies)."""
    return _host_plotutils().delaunay_plot_2d(_host_view(tri, ("points", "simplices")), ax)


def voronoi_plot_2d(vor, ax=None, **kw):
    """See `scipy.spatial.voronoi_plot_2d` (SciPy's drawing of host copies)."""
    view = _host_view(vor, ("points", "vertices", "ridge_points", "ridge_vertices", "furthest_site"))
    return _host_plotutils().voronoi_plot_2d(view, ax, **kw)
