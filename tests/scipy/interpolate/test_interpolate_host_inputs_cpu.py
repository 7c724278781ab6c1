"""docs/scipy.md's host-input rule in cuarray.scipy.interpolate, without a GPU: a NumPy array passed
as the data an interpolant is fitted to is refused (TypeError naming `cuarray.asarray`) before any
device work, its parameter-like arguments (breakpoints here, host-backed device arrays) taken.
The old code copied such data (a NoDeviceError here, where the copy needs a device); lists and
NumPy parameters being copied is checked on the GPU (test_interpolate_host_inputs_gpu.py)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import interpolate as ci  # noqa: E402

X = np.linspace(0.0, 1.0, 8)
Y = np.sin(X)
P2 = np.c_[X, X ** 2]
Q = from_np(np.zeros((1, 2)))

DATA = {
    "CubicSpline": lambda: ci.CubicSpline(from_np(X), Y),
    "CubicHermiteSpline": lambda: ci.CubicHermiteSpline(from_np(X), from_np(Y), np.cos(X)),
    "Akima1DInterpolator": lambda: ci.Akima1DInterpolator(from_np(X), Y),
    "PchipInterpolator": lambda: ci.PchipInterpolator(from_np(X), Y),
    "pchip_interpolate": lambda: ci.pchip_interpolate(from_np(X), Y, from_np(X)),
    "interp1d": lambda: ci.interp1d(from_np(X), Y),
    "make_interp_spline": lambda: ci.make_interp_spline(from_np(X), Y),
    "make_interp_spline-bc": lambda: ci.make_interp_spline(from_np(X), Y, bc_type=([(2, 0.0)], [(2, 0.0)])),
    "make_lsq_spline": lambda: ci.make_lsq_spline(from_np(X), Y, [0, 0, 0, 0, 1, 1, 1, 1]),
    "make_smoothing_spline": lambda: ci.make_smoothing_spline(from_np(X), Y),
    "RBFInterpolator-y": lambda: ci.RBFInterpolator(P2, from_np(Y)),
    "RBFInterpolator-d": lambda: ci.RBFInterpolator(from_np(P2), Y),
    "RegularGridInterpolator": lambda: ci.RegularGridInterpolator(([0.0, 1.0, 2.0], [0.0, 1.0]), np.ones((3, 2))),
    "interpn": lambda: ci.interpn(([0.0, 1.0, 2.0], [0.0, 1.0]), np.ones((3, 2)), Q),
    "NearestNDInterpolator": lambda: ci.NearestNDInterpolator(P2, from_np(Y)),
    "griddata": lambda: ci.griddata(from_np(P2), Y, Q),
    "KroghInterpolator": lambda: ci.KroghInterpolator(from_np(X), Y),
    "BarycentricInterpolator": lambda: ci.BarycentricInterpolator(from_np(X), Y),
    "Rbf": lambda: ci.Rbf(X, from_np(Y)),
    "AAA": lambda: ci.AAA(from_np(X), Y),
}


@pytest.mark.parametrize("case", sorted(DATA))
def test_numpy_data_is_refused(case):
    with pytest.raises(TypeError, match=r"cuarray\.asarray"):
        DATA[case]()
