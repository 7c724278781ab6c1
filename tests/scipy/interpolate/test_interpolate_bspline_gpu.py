"""B-splines on the GPU against scipy.interpolate: BSpline evaluation (derivatives, extrapolation,
periodic), its calculus, design_matrix, make_interp_spline on both paths (device cubic, host
others), splder/splantider."""

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
    got = got.get()
    ref = np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def sample(rng, n, extra=(), dtype="float64"):
    x = np.cumsum(rng.uniform(0.1, 1.0, n))
    y = rng.normal(size=(n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * rng.normal(size=(n,) + extra)
    return x, y.astype(dtype)


def queries(rng, x, m=150):
    q = rng.uniform(x[0] - 1, x[-1] + 1, m)
    q[:3] = x[0], x[-1], np.nan
    return q


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_make_interp_spline_and_eval(k, dtype):
    rng = _rng("mis", k, dtype)
    x, y = sample(rng, 30, (2,), dtype)
    ref, got = si.make_interp_spline(x, y, k=k), ci.make_interp_spline(G(x), G(y), k=k)
    q = queries(rng, x)
    close(got(G(q)), ref(q), 1e-8)
    for nu in range(1, k + 1):
        close(got(G(q), nu), ref(q, nu), 1e-6)
    close(got(G(q), extrapolate=False), ref(q, extrapolate=False), 1e-8)


@pytest.mark.parametrize("bc", ["natural", "clamped", None], ids=str)
def test_make_interp_spline_cubic_large(bc):
    rng = _rng("mis-large", str(bc))
    x, y = sample(rng, 5000)
    ref, got = si.make_interp_spline(x, y, bc_type=bc), ci.make_interp_spline(G(x), G(y), bc_type=bc)
    np.testing.assert_allclose(got.t.get(), ref.t)
    close(got.c, ref.c, 1e-7)
    q = queries(rng, x, 2000)
    close(got(G(q)), ref(q), 1e-7)


def test_bspline_calculus_and_periodic():
    rng = _rng("calculus")
    x, y = sample(rng, 15, (3,))
    ref = si.make_interp_spline(x, y)
    got = ci.BSpline(G(ref.t), G(ref.c), 3)
    q = queries(rng, x)
    for nu in (1, 2):
        close(got.derivative(nu)(G(q)), ref.derivative(nu)(q), 1e-8)
        close(got.antiderivative(nu)(G(q)), ref.antiderivative(nu)(q), 1e-8)
    for ext in (True, False, "periodic"):
        close(got.integrate(x[0] - 2, x[-1] * 0.8, extrapolate=ext),
              ref.integrate(x[0] - 2, x[-1] * 0.8, extrapolate=ext), 1e-8)
    per, per_ref = ci.BSpline(G(ref.t), G(ref.c), 3, "periodic"), si.BSpline(ref.t, ref.c, 3, "periodic")
    close(per(G(q)), per_ref(q), 1e-8)
    # axis=1: the coefficients along the second axis (a transposed device view, not contiguous)
    close(ci.BSpline(G(ref.t), G(ref.c).T, 3, axis=1)(G(q[:4])), si.BSpline(ref.t, ref.c.T, 3, axis=1)(q[:4]), 1e-9)


def test_design_matrix_and_basis_element():
    rng = _rng("design")
    t = np.r_[[0.0] * 3, np.sort(rng.uniform(0, 1, 6)), [1.0] * 3]
    xq = np.sort(rng.uniform(0, 1, 20))
    ref = si.BSpline.design_matrix(xq, t, 2).toarray()
    got = ci.BSpline.design_matrix(G(xq), G(t), 2)
    np.testing.assert_allclose(got.toarray().get(), ref, atol=1e-14)
    with pytest.raises(ValueError):
        ci.BSpline.design_matrix(G(np.array([2.0])), G(t), 2)
    be = ci.BSpline.basis_element(G(np.array([0.0, 1.0, 2.5, 3.0])))
    close(be(G(xq * 3)), si.BSpline.basis_element([0, 1, 2.5, 3])(xq * 3))


def test_splder_splantider_tuples():
    rng = _rng("tuples")
    x, y = sample(rng, 10)
    b = si.make_interp_spline(x, y)
    c = np.r_[b.c, np.zeros(4)]
    for fn in ("splder", "splantider"):
        t1, c1, k1 = getattr(ci, fn)((G(b.t), G(c), 3))
        t2, c2, k2 = getattr(si, fn)((b.t, c, 3))
        assert k1 == k2
        close(t1, t2)
        close(c1, c2, 1e-9)


def test_ppoly_from_spline_on_device():
    rng = _rng("from_spline")
    x, y = sample(rng, 11)
    b = si.make_interp_spline(x, y)
    q = queries(rng, x)
    close(ci.PPoly.from_spline(ci.BSpline(G(b.t), G(b.c), 3))(G(q)), si.PPoly.from_spline(b)(q), 1e-8)


def _bad_bsplines():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parent / "test_interpolate_bspline_cpu.py"
    spec = importlib.util.spec_from_file_location("bspline_cpu_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BAD_BSPLINES


@pytest.mark.parametrize("device_knots", [False, True])
def test_bspline_constructor_errors_are_scipys(device_knots):
    """The CPU test's invalid (t, c, k) (cupyx's TestBSpline.test_ctor among them): SciPy's
    exception type and message, knots as given (lists, NumPy arrays) and as device arrays
    (complex Python knots only as given: a device array holds no Python complex)."""
    for name, (t, c, k) in sorted(_bad_bsplines().items()):
        if device_knots and name == "complex_list":
            continue
        with pytest.raises((ValueError, TypeError)) as ref:
            si.BSpline(t, c, k)
        with pytest.raises((ValueError, TypeError)) as got:
            ci.BSpline(G(np.asarray(t, float)) if device_knots else t, c, k)
        assert (type(got.value), str(got.value)) == (type(ref.value), str(ref.value)), name
