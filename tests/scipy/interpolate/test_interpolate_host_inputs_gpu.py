"""docs/scipy.md's host-input rule in cuarray.scipy.interpolate on the GPU, against SciPy: Python
scalars, lists and tuples taken wherever SciPy takes an array (constructors, `bc_type` lists,
grids as tuples of lists, the points an interpolant is evaluated at: CuPy's own tests write
`interp([[1, 0.3], [1, 11.5]])`, `PchipInterpolator([0, 1], [0, 2])`); NumPy arrays taken where
they parametrise the interpolant (knots, coefficients, breakpoints, grids) and refused as the data
fitted or the points evaluated."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.interpolate")

import cuarray  # noqa: E402
from cuarray.scipy import interpolate as ci  # noqa: E402

G = cuarray.asarray
XS = [0.0, 0.5, 1.25, 2.0, 3.0, 3.5, 4.5]
YS = [1.0, -0.5, 2.0, 0.25, 1.5, 3.0, -1.0]
Q = [0.1, 0.7, 2.2, 4.0]
T = [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 2.0]
C = [1.0, 2.0, -1.0, 0.5, 3.0]


def _same(got, want, what):
    got = got.get() if isinstance(got, cuarray.ndarray) else np.asarray(got)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=what)


LISTS = {
    "BSpline": (lambda m: m.BSpline(T, C, 3)(Q), None),
    "BSpline tuple": (lambda m: m.BSpline(tuple(T), tuple(C), 3)(tuple(Q)), None),
    "BSpline scalar": (lambda m: m.BSpline(T, C, 3)(0.3), None),
    "PPoly": (lambda m: m.PPoly([[1.0, 2.0], [0.5, -1.0]], [0.0, 1.0, 2.0])(Q), None),
    "BPoly": (lambda m: m.BPoly([[1.0, 2.0], [0.5, -1.0]], [0.0, 1.0, 2.0])(Q), None),
    "PPoly.from_spline": (lambda m: m.PPoly.from_spline((T, C, 3))(Q), None),
    "make_interp_spline": (lambda m: m.make_interp_spline(XS, YS)(Q), None),
    "make_interp_spline k=5": (lambda m: m.make_interp_spline(XS, YS, k=5)(Q), None),
    "make_interp_spline bc natural lists": (lambda m: m.make_interp_spline(XS, YS, bc_type=([(2, 0)], [(2, 0)]))(Q), None),
    "make_interp_spline bc clamped values": (lambda m: m.make_interp_spline(XS, YS, bc_type=([(1, 0.0)], [(1, 3.0)]))(Q),
                                             None),
    "make_interp_spline bc mixed": (lambda m: m.make_interp_spline(XS, YS, bc_type=("natural", "clamped"))(Q), None),
    "make_interp_spline bc two a side": (lambda m: m.make_interp_spline(XS, YS, k=5,
                                                                         bc_type=([(1, 0.0), (2, 0.0)],
                                                                                  [(1, 0.0), (2, 0.0)]))(Q), None),
    "CubicSpline": (lambda m: m.CubicSpline(XS, YS)(Q), None),
    "CubicSpline bc": (lambda m: m.CubicSpline(XS, YS, bc_type=((1, 0.5), (2, -1.0)))(Q), None),
    "Akima": (lambda m: m.Akima1DInterpolator(XS, YS)(Q), None),
    "Pchip (CuPy's)": (lambda m: m.PchipInterpolator([0, 1], [0, 2])([0.25, 0.5]), None),
    "CubicHermiteSpline": (lambda m: m.CubicHermiteSpline(XS, YS, YS)(Q), None),
    "interp1d": (lambda m: m.interp1d(XS, YS)(Q), None),
    "interp1d cubic": (lambda m: m.interp1d(XS, YS, kind="cubic")(Q), None),
    "RGI tuple of lists": (lambda m: m.RegularGridInterpolator(([1.0, 2.0], [0.0, 5.0, 12.0]),
                                                               [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])([[1, 0.3], [1.5, 11.5]]),
                           None),
    "RGI cubic": (lambda m: m.RegularGridInterpolator(([0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]),
                                                      [[float(i * j + i) for j in range(4)] for i in range(4)],
                                                      method="cubic")([[1.5, 0.3], [2.5, 2.5]]), None),
    "interpn": (lambda m: m.interpn(([1.0, 2.0], [0.0, 5.0, 12.0]), [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]],
                                    [[1.2, 4.0]]), None),
    "NdBSpline": (lambda m: m.NdBSpline(([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]), [[1.0, 2.0], [3.0, 5.0]],
                                        1)([[0.25, 0.5], [0.75, 0.1]]), None),
    "RBFInterpolator": (lambda m: m.RBFInterpolator([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5]],
                                                    [1.0, 2.0, 3.0, 4.0, 0.0])([[0.25, 0.75]]), None),
    "KroghInterpolator": (lambda m: m.KroghInterpolator(XS[:4], YS[:4])(Q), None),
    "BarycentricInterpolator": (lambda m: m.BarycentricInterpolator(XS, YS)(Q), None),
    "griddata": (lambda m: m.griddata([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [1.0, 2.0, 3.0, 4.0],
                                      [[0.25, 0.5]]), None),
}


@pytest.mark.parametrize("case", sorted(LISTS))
def test_python_literals_are_taken(case):
    f, _ = LISTS[case]
    _same(f(ci), f(si), case)


def test_numpy_parameters_are_taken():
    t, c, x, y = np.array(T), np.array(C), np.array(XS), np.array(YS)
    q = G(np.array(Q))
    _same(ci.BSpline(t, c, 3)(q), si.BSpline(t, c, 3)(np.array(Q)), "BSpline of NumPy knots and coefficients")
    _same(ci.PPoly(np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([0.0, 1.0, 2.0]))(q),
          si.PPoly(np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([0.0, 1.0, 2.0]))(np.array(Q)), "PPoly")
    _same(ci.CubicSpline(x, G(y))(q), si.CubicSpline(x, y)(np.array(Q)), "CubicSpline of NumPy breakpoints")
    grid = (np.array([1.0, 2.0]), np.array([0.0, 5.0, 12.0]))
    v = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
    _same(ci.RegularGridInterpolator(grid, G(v))(G(np.array([[1.2, 4.0]]))),
          si.RegularGridInterpolator(grid, v)(np.array([[1.2, 4.0]])), "RGI of a NumPy grid")


def test_numpy_data_is_refused():
    x, y = G(np.array(XS)), G(np.array(YS))
    spl = ci.CubicSpline(x, y)
    for call in (lambda: spl(np.array(Q)), lambda: ci.BSpline(T, C, 3)(np.array(Q)),
                 lambda: ci.PPoly([[1.0], [0.5]], [0.0, 1.0])(np.array(Q)),
                 lambda: ci.LinearNDInterpolator(G(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])), np.ones(3)),
                 lambda: ci.RegularGridInterpolator(([1.0, 2.0], [0.0, 5.0]), np.ones((2, 2))),
                 lambda: ci.interp1d(x, np.array(YS))):
        with pytest.raises(TypeError, match=r"cuarray\.asarray"):
            call()
