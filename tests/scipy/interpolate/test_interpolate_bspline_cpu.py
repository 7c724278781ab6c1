"""B-splines without a device (NumPy namespace, SciPy's NdBSpline as the evaluation kernel's
model: conftest.py): BSpline's calculus, make_interp_spline's device path (cubic spline + blossoms)
against scipy.interpolate, signatures."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(5353)


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("name", ["BSpline", "make_interp_spline", "make_lsq_spline", "make_smoothing_spline",
                                  "splder", "splantider"])
def test_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))


@pytest.mark.parametrize("method", ["__call__", "derivative", "antiderivative", "integrate", "design_matrix",
                                    "basis_element", "construct_fast", "insert_knot"])
def test_bspline_method_signatures(method):
    assert inspect.signature(getattr(ci.BSpline, method)) == inspect.signature(getattr(si.BSpline, method))


def sample(n, extra=(), dtype=float):
    x = np.cumsum(RNG.uniform(0.1, 1.0, n))
    y = RNG.normal(size=(n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * RNG.normal(size=(n,) + extra)
    return x, y.astype(dtype)


BCS = [None, "natural", "clamped", ([(1, np.array([0.5, 1.0]))], [(2, np.array([-1.0, 0.0]))]),
       ("natural", [(1, np.array([2.0, 1.0]))])]


@pytest.mark.parametrize("n", [2, 4, 5, 20])
@pytest.mark.parametrize("bc", BCS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_make_interp_spline_cubic_device_path(host_interpolate, n, bc, dtype):
    x, y = sample(n, (2,), dtype)
    if bc is None and n < 4:
        with pytest.raises(ValueError):
            host_interpolate.make_interp_spline(x, y, bc_type=bc)
        return
    ref = si.make_interp_spline(x, y, bc_type=bc)
    got = host_interpolate.make_interp_spline(x, y, bc_type=bc)
    close(got.t, ref.t)
    close(got.c, ref.c, 1e-8)
    q = np.linspace(x[0] - 1, x[-1] + 1, 33)
    close(got(q), ref(q), 1e-8)


@pytest.mark.parametrize("k", [0, 1, 2, 5])
def test_make_interp_spline_other_degrees(host_interpolate, k):
    x, y = sample(9)
    ref, got = si.make_interp_spline(x, y, k=k), host_interpolate.make_interp_spline(x, y, k=k)
    q = np.linspace(x[0] - 1, x[-1] + 1, 33)
    close(got(q), ref(q), 1e-9)


def test_bspline_calculus(host_interpolate):
    x, y = sample(12, (3,))
    ref = si.make_interp_spline(x, y, k=3)
    got = host_interpolate.BSpline(ref.t, ref.c, 3)
    q = np.linspace(x[0] - 1, x[-1] + 1, 40)
    for nu in (1, 2):
        close(got.derivative(nu)(q), ref.derivative(nu)(q), 1e-9)
        close(got.antiderivative(nu)(q), ref.antiderivative(nu)(q), 1e-9)
        close(got(q, nu), ref(q, nu), 1e-9)
    for ext in (True, False, "periodic"):
        close(got.integrate(x[0] - 2, x[-1] * 0.8, extrapolate=ext),
              ref.integrate(x[0] - 2, x[-1] * 0.8, extrapolate=ext), 1e-9)
    per = host_interpolate.BSpline(ref.t, ref.c, 3, extrapolate="periodic")
    close(per(q), si.BSpline(ref.t, ref.c, 3, extrapolate="periodic")(q), 1e-9)
    pp_ref = si.PPoly.from_spline(si.BSpline(ref.t, ref.c[:, 0], 3))
    pp = host_interpolate.PPoly.from_spline(host_interpolate.BSpline(ref.t, ref.c[:, 0], 3))
    close(pp(q), pp_ref(q), 1e-9)
    be_ref, be = si.BSpline.basis_element([0, 1, 2.5, 3]), host_interpolate.BSpline.basis_element([0, 1, 2.5, 3])
    close(be(np.linspace(0, 3, 9)), be_ref(np.linspace(0, 3, 9)))
    padded = np.concatenate((ref.c, np.zeros((4, 3))))  # FITPACK's tck: c as long as t
    t, c, k = host_interpolate.splder((ref.t, padded, 3))
    t2, c2, k2 = si.splder((ref.t, padded, 3))
    close(t, t2)
    close(c, c2, 1e-9)


BAD_BSPLINES = {  # (t, c, k): SciPy's exception type and message for each, in its order of checks
    "k": (np.arange(8.0), np.ones(4), -1), "knots_order": (np.arange(8.0)[::-1].copy(), np.ones(4), 3),
    "coeffs": (np.arange(8.0), np.ones(2), 3), "nan_knots": (np.r_[0.0, 1, 2, np.nan, 4, 5, 6, 7], np.ones(4), 3),
    # cupyx's TestBSpline.test_ctor: complex Python knots, nan/inf, order, 2-D, lengths, a str or
    # float degree (TypeError: SciPy's operator.index; int() took 2.5 as 2)
    "complex_list": ([1, 1j], [1.0], 0), "nan": ([1, np.nan], [1.0], 0), "inf": ([1, np.inf], [1.0], 0),
    "decreasing": ([1, -1], [1.0], 0), "2d": ([[1], [1]], [1.0], 0), "short_c": ([0, 1, 2], [1], 0),
    "few_knots": ([0, 1, 2, 3, 4], [1.0, 1.0], 2), "str_k": ([0.0, 0, 1, 2, 3, 4], [1.0, 1, 1], "cubic"),
    "float_k": ([0.0, 0, 1, 2, 3, 4], [1.0, 1, 1], 2.5),
    # too few distinct internal knots is checked before finiteness; NaNs count as one value
    "nan_internal": ([np.nan, np.nan], [1.0], 0), "equal_internal": ([0.0, 1, 1, 1, 2], [1.0, 1, 1], 1),
}


@pytest.mark.parametrize("bad", sorted(BAD_BSPLINES))
def test_bspline_errors(host_interpolate, bad):
    t, c, k = BAD_BSPLINES[bad]
    with pytest.raises((ValueError, TypeError)) as ref:
        si.BSpline(t, c, k)
    with pytest.raises((ValueError, TypeError)) as got:
        host_interpolate.BSpline(t, c, k)
    assert (type(got.value), str(got.value)) == (type(ref.value), str(ref.value))
