"""The host SciPy this package defers to for small host work (root finding, FITPACK's knot
selection and smoothing fits): imported on first use, never at `import cuarray`."""

from __future__ import annotations

__all__ = ["host_scipy"]


def host_scipy():
    # host work: root finding and FITPACK fits reuse scipy.interpolate on host copies
    import scipy.interpolate  # import time: SciPy is an optional dependency (cuarray[scipy])

    return scipy.interpolate
