"""The device code of templates/interpolate.cuh, compiled for the host with g++ (conftest.py's
`native_interpolate`), behind the package's host logic, against scipy.interpolate: PPoly evaluation
(derivatives, decreasing breakpoints, extrapolation off, NaN), interp1d's linear step (fills,
complex, float32 knots), B-spline evaluation (derivatives up to the degree, repeated knots,
periodic), NdBSpline/RegularGridInterpolator in 2-D and 3-D, the design matrix's entries."""

import numpy as np
import pytest
import scipy.interpolate as si

RNG = np.random.default_rng(5315)


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def test_ppoly_kernel(native_interpolate):
    c = RNG.normal(size=(5, 4, 3))
    for x in (np.array([0.0, 0.5, 1.7, 2.0, 3.1]), np.array([3.0, 2.2, 1.0, 0.4, 0.0])):
        q = np.concatenate((RNG.uniform(-1, 4, 30), x, [np.nan]))
        ref, got = si.PPoly(c, x), native_interpolate.PPoly(c, x)
        for nu in range(6):
            close(got(q, nu), ref(q, nu), 1e-9)
        close(got(q, extrapolate=False), ref(q, extrapolate=False))
    cs = si.CubicSpline(np.arange(6.0), RNG.normal(size=6) + 1j * RNG.normal(size=6))
    close(native_interpolate.CubicSpline(np.arange(6.0), cs.c[-1].tolist() + [cs(5.0)])(q),
          si.CubicSpline(np.arange(6.0), cs.c[-1].tolist() + [cs(5.0)])(q))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.0, 2.0)], ids=str)
def test_linear_kernel(native_interpolate, dtype, fill):
    x = np.sort(RNG.uniform(0, 10, 12)).astype("float32" if dtype == "float32" else float)
    y = RNG.normal(size=(12, 2)).astype(dtype)
    q = np.concatenate((RNG.uniform(-1, 11, 40), x[:2], [np.nan]))
    ref = si.interp1d(x, y, axis=0, bounds_error=False, fill_value=fill)(q)
    close(native_interpolate.interp1d(x, y, axis=0, bounds_error=False, fill_value=fill)(q), ref,
          1e-5 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5, 7])
def test_bspline_kernel(native_interpolate, k):
    x = np.sort(RNG.uniform(0, 10, 20))
    b = si.make_interp_spline(x, np.sin(x)[:, None] + RNG.normal(size=(20, 2)) * 0.1, k=k)
    t = b.t.copy()
    got = native_interpolate.BSpline(t, b.c, k)
    q = np.concatenate((RNG.uniform(-1, 11, 50), t, [np.nan]))
    for nu in range(k + 2):
        close(got(q, nu), b(q, nu), 1e-8)
    close(got(q, extrapolate=False), b(q, extrapolate=False))
    close(got(q, extrapolate="periodic"), b(q, extrapolate="periodic"), 1e-9)
    if k:
        dm = native_interpolate.BSpline.design_matrix(q[:50].clip(t[k], t[-k - 1]), t, k)
        ref = si.BSpline.design_matrix(q[:50].clip(t[k], t[-k - 1]), t, k)
        close(dm.toarray() if hasattr(dm, "toarray") else dm, ref.toarray())


def test_bspline_kernel_repeated_knots(native_interpolate):
    t = np.array([0, 0, 0, 0, 1, 1, 2, 3, 3, 3, 3], dtype=float)
    c = RNG.normal(size=7)
    q = np.linspace(-0.5, 3.5, 41)
    for nu in range(4):
        close(native_interpolate.BSpline(t, c, 3)(q, nu), si.BSpline(t, c, 3)(q, nu), 1e-9)


@pytest.mark.parametrize("method", ["linear", "cubic"])
@pytest.mark.parametrize("shape", [(6, 7), (5, 6, 7)], ids=str)
def test_tensor_kernel(native_interpolate, method, shape):
    import scipy.sparse.linalg as ssl

    pts = [np.cumsum(RNG.uniform(0.2, 1.0, n)) for n in shape]
    v = RNG.normal(size=shape + (2,))
    xi = np.stack([RNG.uniform(p[0] - 0.3, p[-1] + 0.3, 30) for p in pts], axis=-1)
    kw = {"solver": ssl.spsolve} if method == "cubic" else {}
    ref = si.RegularGridInterpolator(pts, v, method=method, bounds_error=False, fill_value=None, **kw)
    got = native_interpolate.RegularGridInterpolator(pts, v, method=method, bounds_error=False, fill_value=None)
    close(got(xi), ref(xi), 1e-8)
    if method == "cubic":
        nu = (1,) * len(shape)
        close(got(xi, nu=nu), ref(xi, nu=nu), 1e-7)


@pytest.mark.parametrize("spacing", ["uniform", "jittered", "geometric", "clustered"])
def test_knot_search_from_the_uniform_guess(native_interpolate, spacing):
    """rank_in's guess from the mean spacing: hit (uniform, jittered knots), miss on either side
    (geometric, clustered), queries exactly on knots and next to them, beyond both ends; the
    answer must be the binary search's (SciPy's) for every sorted knot vector."""
    n = 200
    x = {"uniform": np.arange(n, dtype=float), "jittered": np.arange(n) + RNG.uniform(0.05, 0.95, n),
         "geometric": np.geomspace(1e-3, 1e3, n),
         "clustered": np.sort(np.concatenate((RNG.uniform(0, 1e-3, n - 5), RNG.uniform(1, 100, 5))))}[spacing]
    q = np.concatenate((RNG.uniform(x[0] - 5, x[-1] + 5, 300), x, np.nextafter(x, -np.inf),
                        np.nextafter(x, np.inf), [np.nan]))
    y = RNG.normal(size=(n, 2))
    for fill in (np.nan, "extrapolate"):
        ref = si.interp1d(x, y, axis=0, bounds_error=False, fill_value=fill)(q)
        close(native_interpolate.interp1d(x, y, axis=0, bounds_error=False, fill_value=fill)(q), ref, 1e-12)
    c = RNG.normal(size=(4, n - 1))
    for xs in (x, x[::-1].copy()):
        close(native_interpolate.PPoly(c, xs)(q), si.PPoly(c, xs)(q), 1e-9)
    b = si.make_interp_spline(x, y[:, 0], k=3)
    close(native_interpolate.BSpline(b.t.copy(), b.c, 3)(q), b(q), 1e-8)
    close(native_interpolate.BSpline(b.t.copy(), b.c, 3)(q, extrapolate=False), b(q, extrapolate=False), 1e-8)


def test_linear_kernel_repeated_knots(native_interpolate):
    x = np.array([0.0, 1.0, 1.0, 1.0, 2.0, 5.0, 5.0, 6.0])
    y = RNG.normal(size=(8, 1))
    q = np.array([0.5, 1.0, 1.5, 4.0, 5.0, 5.5, 6.0, 7.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        ref = si.interp1d(x, y, axis=0, bounds_error=False, fill_value="extrapolate")(q)
    got = native_interpolate.interp1d(x, y, axis=0, bounds_error=False, fill_value="extrapolate")(q)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    close(np.nan_to_num(got), np.nan_to_num(ref), 1e-12)
