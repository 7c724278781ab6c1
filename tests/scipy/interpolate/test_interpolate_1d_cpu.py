"""cuarray.scipy.interpolate's 1-D interpolators without a device: signatures against SciPy, and
the host logic (checks, coefficient builds, the tridiagonal solve) with NumPy in place of the
device (conftest.py) against scipy.interpolate."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(53)
NAMES = ["PPoly", "CubicSpline", "CubicHermiteSpline", "PchipInterpolator", "pchip_interpolate",
         "Akima1DInterpolator", "interp1d"]


def close(got, ref, tol=1e-10):
    got = np.asarray(got)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("name", NAMES)
def test_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))  # nan != nan


@pytest.mark.parametrize("method", ["__call__", "derivative", "antiderivative", "integrate", "solve", "roots",
                                    "extend", "from_spline", "from_bernstein_basis", "construct_fast"])
def test_ppoly_method_signatures(method):
    assert inspect.signature(getattr(ci.PPoly, method)) == inspect.signature(getattr(si.PPoly, method))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 100])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("cols", [3, 40])
def test_tridiagonal_solve(host_tridiag, n, dtype, cols):
    # few columns: the packing for cuSPARSE's gtsv2 (checked by conftest's gtsv_model: at least 3
    # rows, zero corners, one real dtype, a row a right-hand side) and back; 40 complex columns
    # (80 real): cyclic reduction; both against LAPACK's banded solve
    import scipy.linalg as sl

    lo, up = RNG.normal(size=n), RNG.normal(size=n)
    di = 4 + RNG.random(n)
    r = RNG.normal(size=(n, cols)).astype(dtype)
    if r.dtype.kind == "c":
        r = r + 1j * RNG.normal(size=(n, cols)).astype(dtype)
    real = np.float32 if dtype in (np.float32, np.complex64) else np.float64
    got = host_tridiag.solve_tridiagonal(lo.astype(real), di.astype(real), up.astype(real), r)
    ab = np.zeros((3, n))
    ab[0, 1:], ab[1], ab[2, :-1] = up[:-1], di, lo[1:]
    ref = sl.solve_banded((1, 1), ab.astype(real), r)
    assert got.shape == (n, cols) and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-5 if real == np.float32 else 1e-12, atol=1e-6)


def test_tridiagonal_route():
    from cuarray.scipy.interpolate._tridiag import GTSV_MAX_COLUMNS, use_gtsv

    assert GTSV_MAX_COLUMNS == 64
    assert use_gtsv(10**6, 1) and use_gtsv(2, 64) and use_gtsv(10**5, 6)  # a spline's few columns
    assert not use_gtsv(128, 65) and not use_gtsv(512, 512**2)  # a grid's lines: 7.5 us a column
    assert use_gtsv(2**31 - 2, 1) and not use_gtsv(2**31 - 1, 1)  # gtsv2's int sizes
    assert not use_gtsv(2**30, 2) and use_gtsv(2**30 - 1, 2)


def sample(n, extra=(), dtype=float):
    x = np.sort(RNG.uniform(-3, 3, n))
    while np.any(np.diff(x) <= 1e-3):
        x = np.sort(RNG.uniform(-3, 3, n))
    y = RNG.normal(size=(n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * RNG.normal(size=(n,) + extra)
    return x, y.astype(dtype)


BCS = ["not-a-knot", "clamped", "natural", ((1, 0.5), (2, -1.0)), ((2, 0.0), "not-a-knot"), "periodic"]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 17])
@pytest.mark.parametrize("bc", BCS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_cubic_spline(host_interpolate, n, bc, dtype):
    x, y = sample(n, dtype=dtype)
    if bc == "periodic":
        y[-1] = y[0]
    ref = si.CubicSpline(x, y, bc_type=bc)
    got = host_interpolate.CubicSpline(x, y, bc_type=bc)
    close(got.c, ref.c, 1e-8)
    xq = np.linspace(-4, 4, 41)
    close(got(xq), ref(xq), 1e-8)
    close(got(xq, 2), ref(xq, 2), 1e-7)
    close(got.integrate(-1, 2.5), np.asarray(ref.integrate(-1, 2.5)), 1e-8)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cubic_spline_axis(host_interpolate, axis):
    x, y = sample(6, (3, 4))
    y = np.moveaxis(y, 0, axis)
    ref = si.CubicSpline(x, y, axis=axis, bc_type="natural")
    got = host_interpolate.CubicSpline(x, y, axis=axis, bc_type="natural")
    xq = RNG.uniform(-3, 3, (2, 5))
    close(got(xq), ref(xq), 1e-9)


@pytest.mark.parametrize("cls", ["PchipInterpolator", "Akima1DInterpolator", "makima"])
@pytest.mark.parametrize("n", [2, 3, 9])
def test_local_slopes(host_interpolate, cls, n):
    x, y = sample(n, (2,))
    y[2 % n:4 % n + 1] = 1.0  # flat runs
    kw = {"method": "makima"} if cls == "makima" else {}
    name = "Akima1DInterpolator" if cls == "makima" else cls
    ref, got = getattr(si, name)(x, y, **kw), getattr(host_interpolate, name)(x, y, **kw)
    xq = np.linspace(-3.5, 3.5, 30)
    close(got(xq), ref(xq))
    close(got(xq, 1), ref(xq, 1), 1e-9)


def test_hermite_and_ppoly_ops(host_interpolate):
    x, y = sample(7, (2,))
    d = RNG.normal(size=y.shape)
    ref, got = si.CubicHermiteSpline(x, y, d), host_interpolate.CubicHermiteSpline(x, y, d)
    xq = np.linspace(-3, 3, 25)
    for nu in (1, 2, 3):
        close(got.antiderivative(nu)(xq), ref.antiderivative(nu)(xq), 1e-9)
        close(got.derivative(nu)(xq), ref.derivative(nu)(xq), 1e-9)
    close(got.integrate(2.5, -2), np.asarray(ref.integrate(2.5, -2)), 1e-9)
    c = RNG.normal(size=(3, 4))
    xb = np.array([5.0, 3.0, 2.0, 0.5, 0.0])  # decreasing breakpoints
    close(host_interpolate.PPoly(c, xb)(xq), si.PPoly(c, xb)(xq))
    bp = si.BPoly(RNG.normal(size=(4, 3)), [0, 1, 2.5, 3])
    close(host_interpolate.PPoly.from_bernstein_basis(bp).c, si.PPoly.from_bernstein_basis(bp).c, 1e-12)


@pytest.mark.parametrize("kind", ["linear", "nearest", "nearest-up", "previous", "next", "zero", "slinear",
                                  "quadratic", "cubic", 0, 1, 3, 5])
@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.0, 2.0)], ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_interp1d(host_interpolate, kind, fill, dtype):
    x, y = sample(8, (3,), dtype)
    perm = RNG.permutation(8)
    xq = np.concatenate((RNG.uniform(-4, 4, 20), x[:2], [np.nan]))
    ref = si.interp1d(x[perm], y[perm], kind=kind, axis=0, fill_value=fill, bounds_error=False)
    got = host_interpolate.interp1d(x[perm], y[perm], kind=kind, axis=0, fill_value=fill, bounds_error=False)
    close(got(xq), ref(xq), 1e-5 if dtype == "float32" else 1e-9)


def test_interp1d_errors(host_interpolate):
    x, y = sample(5)
    f = host_interpolate.interp1d(x, y)
    with pytest.raises(ValueError, match="below the interpolation range"):
        f(np.array([x[0] - 1]))
    with pytest.raises(ValueError, match="above the interpolation range"):
        f(np.array([x[-1] + 1]))
    with pytest.raises(ValueError, match="Cannot extrapolate and raise"):
        host_interpolate.interp1d(x, y, bounds_error=True, fill_value="extrapolate")
    with pytest.raises(NotImplementedError):
        host_interpolate.interp1d(x, y, kind="bogus")
    with pytest.raises(ValueError, match="at least 4 entries"):
        host_interpolate.interp1d(x[:3], y[:3], kind="cubic")


@pytest.mark.parametrize("bad", ["unsorted", "duplicate", "nan_x", "nan_y", "short", "2d", "complex_x", "length"])
def test_cubic_errors(host_interpolate, bad):
    x, y = sample(6)
    if bad == "unsorted":
        x = x[::-1]
    elif bad == "duplicate":
        x[2] = x[1]
    elif bad == "nan_x":
        x[1] = np.nan
    elif bad == "nan_y":
        y[1] = np.inf
    elif bad == "short":
        x, y = x[:1], y[:1]
    elif bad == "2d":
        x = np.stack((x, x))
    elif bad == "complex_x":
        x = x + 0j
    else:
        y = y[:-1]
    for name in ("CubicSpline", "PchipInterpolator", "Akima1DInterpolator"):
        with pytest.raises(ValueError) as ref:
            getattr(si, name)(x, y)
        with pytest.raises(ValueError) as got:
            getattr(host_interpolate, name)(x, y)
        assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("method", ["__call__", "derivative", "antiderivative", "integrate", "extend",
                                    "from_power_basis", "from_derivatives", "construct_fast"])
def test_bpoly_method_signatures(method):
    assert inspect.signature(getattr(ci.BPoly, method)) == inspect.signature(getattr(si.BPoly, method))


def test_bpoly(host_interpolate):
    c = RNG.normal(size=(4, 3, 2))
    x = np.array([0.0, 1.0, 2.5, 3.0])
    ref, got = si.BPoly(c, x), host_interpolate.BPoly(c, x)
    q = np.linspace(-0.5, 3.5, 23)
    close(got(q), ref(q))
    for nu in (1, 2):
        close(got(q, nu), ref(q, nu), 1e-9)
        close(got.derivative(nu)(q), ref.derivative(nu)(q), 1e-9)
        close(got.antiderivative(nu)(q), ref.antiderivative(nu)(q), 1e-9)
    close(got.integrate(-0.2, 2.7), np.asarray(ref.integrate(-0.2, 2.7)), 1e-9)
    pp = si.PPoly(c, x)
    close(host_interpolate.BPoly.from_power_basis(host_interpolate.PPoly(c, x)).c, si.BPoly.from_power_basis(pp).c)
    ref.extend(RNG.normal(size=(2, 1, 2)) * 0 + 1, [4.0])
    got.extend(np.ones((2, 1, 2)), [4.0])
    close(got(q + 1), ref(q + 1), 1e-9)
    fd_ref = si.BPoly.from_derivatives([0, 1, 2], [[1, 2], [0, 1, 3], [2]])
    fd = host_interpolate.BPoly.from_derivatives([0, 1, 2], [[1, 2], [0, 1, 3], [2]])
    close(fd(q), fd_ref(q))
