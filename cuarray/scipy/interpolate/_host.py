"""The host SciPy this package defers to for small host work (root finding, FITPACK's knot
selection and smoothing fits): imported on first use, never at `import cuarray`."""

from __future__ import annotations

__all__ = ["host_scipy", "host_spatial", "host_linalg"]


def host_scipy():
    # host work: root finding and FITPACK fits reuse scipy.interpolate on host copies
    import scipy.interpolate  # import time: SciPy is an optional dependency (cuarray[scipy])

    return scipy.interpolate


def host_spatial():
    # host work: Qhull's Delaunay triangulation until cuarray.scipy.spatial provides one
    import scipy.spatial  # import time: SciPy is an optional dependency (cuarray[scipy])

    return scipy.spatial


def host_linalg():
    # host work: the SVDs and eigenproblems of a few dozen unknowns (AAA's weights, poles, roots)
    import scipy.linalg  # import time: SciPy is an optional dependency (cuarray[scipy])

    return scipy.linalg
