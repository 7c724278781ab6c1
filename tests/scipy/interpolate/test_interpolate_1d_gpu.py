"""cuarray.scipy.interpolate's 1-D interpolators on the GPU against scipy.interpolate on the host:
fresh random and edge data (2 points, flat runs, NaN queries, extrapolation), float32/float64/
complex values, extra axes, non-contiguous queries."""

from __future__ import annotations

import zlib

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


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def close(got, ref, tol=1e-10):
    assert isinstance(got, cuarray.ndarray), type(got)
    got = got.get()
    ref = np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def sample(rng, n, extra=(), dtype="float64"):
    x = np.cumsum(rng.uniform(0.1, 1.0, n)) - n / 2
    y = rng.normal(size=(n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * rng.normal(size=(n,) + extra)
    return x, y.astype(dtype)


def queries(rng, x, m=200):
    q = rng.uniform(x[0] - 2, x[-1] + 2, m)
    q[:3] = x[0], x[-1], np.nan
    return q


@pytest.mark.parametrize("kind", ["linear", "nearest", "previous", "next", "zero", "slinear", "quadratic", "cubic"])
@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.0, 2.0)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_interp1d(kind, fill, dtype):
    rng = _rng("interp1d", kind, str(fill), dtype)
    x, y = sample(rng, 9, (2,), dtype)
    perm = rng.permutation(9)
    q = queries(rng, x)
    ref = si.interp1d(x[perm], y[perm], kind=kind, axis=0, fill_value=fill, bounds_error=False)
    got = ci.interp1d(G(x[perm]), G(y[perm]), kind=kind, axis=0, fill_value=fill, bounds_error=False)
    close(got(G(q)), ref(q), 1e-5 if dtype == "float32" else 1e-10)


def test_interp1d_linear_large_and_strided():
    rng = _rng("interp1d-large")
    x, y = sample(rng, 1000)
    q = rng.uniform(x[0], x[-1], (300, 40))
    f = ci.interp1d(G(x), G(y), assume_sorted=True)
    close(f(G(q)[:, ::3]), si.interp1d(x, y)(q[:, ::3]))
    close(f(G(q[:0])), si.interp1d(x, y)(q[:0]))


def test_interp1d_two_points_and_axis():
    rng = _rng("interp1d-two")
    y = rng.normal(size=(3, 2, 4))
    x = np.array([0.0, 1.0])
    q = rng.uniform(0, 1, 7)
    close(ci.interp1d(G(x), G(y), axis=1)(G(q)), si.interp1d(x, y, axis=1)(q))


def test_interp1d_bounds_error():
    f = ci.interp1d(G(np.arange(4.0)), G(np.arange(4.0) ** 2))
    with pytest.raises(ValueError, match="above the interpolation range"):
        f(G(np.array([1.0, 9.0])))  # linear: found on the device, raised in the call as SciPy's
    close(f(G(np.array([1.5]))), np.array([2.5]))  # still usable after the error


BCS = ["not-a-knot", "clamped", "natural", ((1, 0.5), (2, -1.0)), "periodic"]


@pytest.mark.parametrize("n", [2, 3, 4, 33, 1000])
@pytest.mark.parametrize("bc", BCS, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_cubic_spline(n, bc, dtype):
    rng = _rng("cubic", n, str(bc), dtype)
    x, y = sample(rng, n, (), dtype)
    if bc == "periodic":
        y[-1] = y[0]
    ref = si.CubicSpline(x, y, bc_type=bc)
    got = ci.CubicSpline(G(x), G(y), bc_type=bc)
    q = queries(rng, x)
    tol = 1e-6 if n == 1000 else 1e-9
    close(got(G(q)), ref(q), tol)
    close(got(G(q), 1), ref(q, 1), tol * 10)
    close(got.integrate(x[0] - 0.5, x[-1] * 0.7), ref.integrate(x[0] - 0.5, x[-1] * 0.7), tol)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_cubic_spline_batched_axis(axis):
    rng = _rng("cubic-axis", axis)
    x, y = sample(rng, 12, (3, 4))
    y = np.moveaxis(y, 0, axis)
    q = rng.uniform(x[0], x[-1], (5, 2))
    close(ci.CubicSpline(G(x), G(y), axis=axis)(G(q)), si.CubicSpline(x, y, axis=axis)(q), 1e-9)


@pytest.mark.parametrize("name", ["PchipInterpolator", "Akima1DInterpolator", "makima"])
@pytest.mark.parametrize("n", [2, 3, 50])
def test_local_interpolators(name, n):
    rng = _rng("local", name, n)
    x, y = sample(rng, n, (3,))
    y[n // 3:n // 2 + 1] = 0.5  # a flat run
    kw = {"method": "makima"} if name == "makima" else {}
    cls = "Akima1DInterpolator" if name == "makima" else name
    ref, got = getattr(si, cls)(x, y, **kw), getattr(ci, cls)(G(x), G(y), **kw)
    q = queries(rng, x)
    close(got(G(q)), ref(q))
    close(got.derivative()(G(q)), ref.derivative()(q), 1e-9)
    close(ci.pchip_interpolate(G(x), G(y), G(q), der=1), si.pchip_interpolate(x, y, q, der=1), 1e-9)


def test_ppoly_ops():
    rng = _rng("ppoly")
    c = rng.normal(size=(4, 6, 2))
    x = np.cumsum(rng.uniform(0.2, 1, 7))
    ref, got = si.PPoly(c, x), ci.PPoly(G(c), G(x))
    q = queries(rng, x)
    for nu in (1, 2):
        close(got.antiderivative(nu)(G(q)), ref.antiderivative(nu)(q), 1e-9)
        close(got.derivative(nu)(G(q)), ref.derivative(nu)(q), 1e-9)
    close(got(G(q), extrapolate="periodic"), ref(q, extrapolate="periodic"), 1e-9)
    close(got.integrate(x[-1] + 3, x[0] - 1, extrapolate="periodic"),
          ref.integrate(x[-1] + 3, x[0] - 1, extrapolate="periodic"), 1e-9)
    r1 = si.PPoly(c[..., 0], x)
    np.testing.assert_allclose(ci.PPoly(G(c[..., 0]), G(x)).roots().get(), r1.roots(), atol=1e-10)
    got.extend(G(c[:2, :2]), G(x[-1] + np.array([1.0, 2.0])))
    ref.extend(c[:2, :2], x[-1] + np.array([1.0, 2.0]))
    close(got(G(q)), ref(q), 1e-9)
    hermite = ci.CubicHermiteSpline(G(x[:6]), G(c[0]), G(c[1]))  # c[0], c[1]: 6 values and slopes
    close(hermite(G(q)), si.CubicHermiteSpline(x[:6], c[0], c[1])(q), 1e-9)


def test_cubic_errors_leave_the_library_usable():
    x = np.array([0.0, 1.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="strictly increasing"):
        ci.CubicSpline(G(x), G(x))
    with pytest.raises(ValueError, match="finite"):
        ci.CubicSpline(G(np.array([0.0, np.nan, 2.0])), G(x[:3]))
    ok = x[[0, 1, 3]]  # 0, 1, 2: strictly increasing, unlike x[1:]
    close(ci.CubicSpline(G(ok), G(ok))(G(np.array([1.5]))), np.array([1.5]))


@pytest.mark.parametrize("spacing", ["uniform", "geometric", "clustered"])
def test_knot_search_guess(spacing):
    """The kernels' knot search starts from the uniform-spacing guess: it must give the binary
    search's interval for evenly spaced knots (hits), and for geometric/clustered ones (misses),
    with queries on, next to and beyond the knots."""
    rng = _rng("guess", spacing)
    n = 300
    x = {"uniform": np.arange(n, dtype=float), "geometric": np.geomspace(1e-3, 1e3, n),
         "clustered": np.sort(np.concatenate((rng.uniform(0, 1e-3, n - 5), rng.uniform(1, 100, 5))))}[spacing]
    q = np.concatenate((rng.uniform(x[0] - 5, x[-1] + 5, 500), x, np.nextafter(x, -np.inf), np.nextafter(x, np.inf)))
    y = rng.normal(size=n)
    close(ci.interp1d(G(x), G(y), bounds_error=False, fill_value="extrapolate")(G(q)),
          si.interp1d(x, y, bounds_error=False, fill_value="extrapolate")(q), 1e-12)
    c = rng.normal(size=(4, n - 1))  # given coefficients: the search is under test, not a build
    for xs in (x, x[::-1].copy()):  # increasing and decreasing breakpoints
        close(ci.PPoly(G(c), G(xs))(G(q)), si.PPoly(c, xs)(q), 1e-9)
    b = si.make_interp_spline(x, y, k=3)
    close(ci.BSpline(G(b.t), G(b.c), 3)(G(q)), b(q), 1e-8)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 1000, 100003])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("cols", [1, 3, 70])
def test_tridiagonal_solve(n, dtype, cols):
    # both routes (gtsv2 up to 64 real columns; 70 take cyclic reduction), padded short systems,
    # and on gtsv2's route a first row that is not diagonally dominant (pivoting's case, as
    # not-a-knot's), against LAPACK's banded solve
    import scipy.linalg as sl

    from cuarray.scipy.interpolate._tridiag import solve_tridiagonal

    rng = _rng("tridiag", n, dtype, cols)
    real = np.float32 if dtype in ("float32", "complex64") else np.float64
    lo, up, di = rng.normal(size=n), rng.normal(size=n), 4 + rng.random(n)
    if n > 2 and cols < 70:
        di[0], up[0] = 0.5, 2.0  # |diag| < |upper|
    r = rng.normal(size=(n, cols)).astype(dtype)
    if r.dtype.kind == "c":
        r = r + 1j * rng.normal(size=(n, cols)).astype(dtype)
    lo, up, di = lo.astype(real), up.astype(real), di.astype(real)
    ab = np.zeros((3, n), real)
    ab[0, 1:], ab[1], ab[2, :-1] = up[:-1], di, lo[1:]
    ref = sl.solve_banded((1, 1), ab, r)
    close(solve_tridiagonal(G(lo), G(di), G(up), G(r)), ref, 2e-4 if real == np.float32 else 1e-10)
