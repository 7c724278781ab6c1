"""The interpolators of issue #53 on the GPU against scipy.interpolate on the host: the bivariate
and spherical FITPACK splines (host fits, device evaluation: grids, points, derivatives, derivative
splines, integrals), the legacy Rbf, AAA, lagrange/pade/approximate_taylor_polynomial, interp2d;
fresh random and edge inputs (empty, 0-d, outside the box), float32/float64 (complex where SciPy
takes it), batches of query shapes, bad input."""

from __future__ import annotations

import warnings
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


def close(got, ref, tol=1e-10, dtype=True):
    assert isinstance(got, cuarray.ndarray), type(got)
    got, ref = got.get(), np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if dtype:
        assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    finite = ref[np.isfinite(ref)]
    scale = max(1.0, float(np.max(np.abs(finite), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# -- bivariate splines ---------------------------------------------------------------------------------------

def _scattered(key, n=200):
    rng = _rng("scat", key)
    x, y = rng.uniform(-1, 2, n), rng.uniform(0, 3, n)
    return x, y, np.sin(2 * x) * np.cos(y) + 0.05 * rng.normal(size=n)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f8", "f4"])
@pytest.mark.parametrize("name", ["SmoothBivariateSpline", "LSQBivariateSpline", "RectBivariateSpline"])
def test_bivariate(name, dtype):
    if name == "RectBivariateSpline":
        rng = _rng("rect", str(dtype))
        args = (np.linspace(0, 3, 12), np.linspace(-1, 1, 9), rng.normal(size=(12, 9)))
        kw = {"s": 0.5, "kx": 2}
    else:
        x, y, z = _scattered(name)
        args = (x, y, z) + (([-0.2, 0.5, 1.2], [0.8, 1.6, 2.2]) if name.startswith("LSQ") else ())
        kw = {"s": 1.0} if name.startswith("Smooth") else {"kx": 2}
    ref = _quiet(getattr(si, name), *args, **kw)
    got = _quiet(getattr(ci, name), *(G(a.astype(dtype)) if isinstance(a, np.ndarray) else a for a in args), **kw)
    if dtype == np.float32:  # the fit of float32 data: SciPy's fit of the same (rounded) numbers
        ref = _quiet(getattr(si, name), *(a.astype(dtype) if isinstance(a, np.ndarray) else a for a in args), **kw)
    rng = _rng("q", name, str(dtype))
    xq, yq = np.sort(rng.uniform(-2, 3.5, 40)), np.sort(rng.uniform(-0.5, 3.5, 30))
    kx, ky = ref.degrees
    for dx, dy in [(0, 0), (1, 0), (0, 1), (kx - 1, ky - 1)]:
        close(got(G(xq), G(yq), dx=dx, dy=dy), ref(xq, yq, dx=dx, dy=dy), 1e-9)
        pts = rng.uniform(-1.5, 3, (3, 50, 2))  # a batch of points, N-D
        close(got.ev(G(pts[..., 0]), G(pts[..., 1]), dx, dy), ref.ev(pts[..., 0], pts[..., 1], dx, dy), 1e-9)
    close(got(G(xq[::3].astype(np.float32)), G(yq)), ref(xq[::3].astype(np.float32), yq), 1e-9)
    close(got(G(xq)[::2], G(yq)[1::3]), ref(xq[::2], yq[1::3]), 1e-9)  # non-contiguous views
    close(got(0.3, 1.1, grid=False), ref(0.3, 1.1, grid=False), 1e-9)
    close(got(G(np.zeros(0)), G(yq)), ref(np.zeros(0), yq))
    assert got.integral(-0.5, 1.5, 0.2, 2.8) == pytest.approx(ref.integral(-0.5, 1.5, 0.2, 2.8), rel=1e-12)
    assert got.get_residual() == ref.get_residual()
    close(got.get_coeffs(), ref.get_coeffs(), 0)
    d_ref, d_got = ref.partial_derivative(1, 1), got.partial_derivative(1, 1)
    close(d_got(G(xq), G(yq)), d_ref(xq, yq), 1e-9)
    close(d_got.get_coeffs(), d_ref.get_coeffs(), 1e-12)
    with pytest.raises(ValueError, match="parder"):
        got(G(xq), G(yq), dx=kx)
    with pytest.raises(ValueError, match="strictly increasing"):
        got(G(xq[::-1]), G(yq))
    with pytest.raises(TypeError):
        got(xq, yq)  # host query points: the host-input policy


def test_sphere_splines():
    rng = _rng("sphere")
    theta, phi = rng.uniform(0.05, np.pi - 0.05, 300), rng.uniform(0.05, 2 * np.pi - 0.05, 300)
    r = np.cos(theta) + np.sin(phi) * np.sin(theta) + 0.01 * rng.normal(size=300)
    u, v = np.linspace(0.1, np.pi - 0.1, 14), np.linspace(-np.pi + 0.1, np.pi - 0.1, 17)
    rr = np.cos(u)[:, None] + np.sin(v)[None, :] + 0.01 * rng.normal(size=(14, 17))
    for name, args, kw in [("SmoothSphereBivariateSpline", (theta, phi, r), {"s": 3.0}),
                           ("LSQSphereBivariateSpline", (theta, phi, r, np.linspace(0.5, 2.6, 4),
                                                          np.linspace(0.8, 5.4, 5)), {}),
                           ("RectSphereBivariateSpline", (u, v, rr), {})]:
        ref, got = _quiet(getattr(si, name), *args, **kw), _quiet(getattr(ci, name), *map(G, args), **kw)
        tq = np.linspace(0, np.pi, 25)
        pq = np.linspace(0, 2 * np.pi, 31) if not name.startswith("Rect") else np.linspace(-3.5, 3.5, 31)
        for dt, dp in [(0, 0), (1, 1), (2, 0)]:
            close(got(G(tq), G(pq), dt, dp), ref(tq, pq, dt, dp), 1e-9)
            close(got.ev(G(tq), G(pq[:25]), dt, dp), ref.ev(tq, pq[:25], dt, dp), 1e-9)
        with pytest.raises(ValueError, match="theta out of bounds"):
            got(G(np.array([4.0])), G(np.array([1.0])))


# -- Rbf ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("function", ["multiquadric", "inverse", "gaussian", "linear", "cubic", "quintic",
                                      "thin_plate"])
def test_rbf(function):
    rng = _rng("rbf", function)
    x, y, z = rng.uniform(0, 1, (3, 300))
    d = np.exp(-x) * np.cos(3 * y) + z
    kw = {"function": function, "smooth": 1e-3 if function in ("cubic", "quintic") else 0.0}
    ref, got = si.Rbf(x, y, z, d, **kw), ci.Rbf(G(x), G(y), G(z), G(d), **kw)
    assert got.epsilon == pytest.approx(ref.epsilon, rel=1e-14)
    close(got.A, ref.A, 1e-12)
    q = rng.uniform(-0.2, 1.2, (3, 7, 40))
    close(got(*map(G, q)), ref(*q), 1e-6)
    close(got(*(G(a.astype(np.float32)) for a in q)), ref(*(a.astype(np.float32) for a in q)), 1e-6)
    close(got(*(G(a)[:, ::2] for a in q)), ref(*(a[:, ::2] for a in q)), 1e-6)
    close(got(G(q[0, :0, 0]), G(q[1, :0, 0]), G(q[2, :0, 0])), ref(q[0, :0, 0], q[1, :0, 0], q[2, :0, 0]))


def test_rbf_options_and_errors():
    rng = _rng("rbf-opt")
    x, y = rng.uniform(0, 1, (2, 120))
    d = np.stack([np.sin(4 * x) + y, x * y], axis=-1)
    for kw in ({"norm": "cityblock"}, {"epsilon": 0.2, "function": "gaussian"}, {"smooth": 0.5}):
        ref, got = si.Rbf(x, y, d[:, 0], **kw), ci.Rbf(G(x), G(y), G(d[:, 0]), **kw)
        close(got(G(x + 0.01), G(y)), ref(x + 0.01, y), 1e-8)
    ref, got = si.Rbf(x, y, d, mode="N-D"), ci.Rbf(G(x), G(y), G(d), mode="N-D")
    close(got(G(x[:9]), G(y[:9] + 0.02)), ref(x[:9], y[:9] + 0.02), 1e-8)
    dc = d[:, 0] * (1 - 2j)
    ref, got = si.Rbf(x, y, dc), ci.Rbf(G(x), G(y), G(dc))
    close(got(G(x[:9]), G(y[:9] + 0.02)), ref(x[:9], y[:9] + 0.02), 1e-8)
    f = lambda r: cuarray.exp(-3.0 * r)  # noqa: E731 (a callable of device distances)
    ref, got = si.Rbf(x, y, d[:, 1], function=lambda r: np.exp(-3.0 * r)), ci.Rbf(G(x), G(y), G(d[:, 1]), function=f)
    close(got(G(x[:9]), G(y[:9])), ref(x[:9], y[:9]), 1e-8)
    for bad in [lambda m, a: m.Rbf(a(x), a(y), function="nope"), lambda m, a: m.Rbf(a(x), a(y), mode="2-D"),
                lambda m, a: m.Rbf(a(x), a(y))(a(x), a(x[:3]))]:
        with pytest.raises(ValueError) as want:
            bad(si, np.asarray)
        with pytest.raises(ValueError) as have:
            bad(ci, G)
        assert str(have.value) == str(want.value)


# -- AAA ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["exp-f8", "exp-f4", "gamma", "complex-circle", "sqrt-logspace", "large", "sparse"])
def test_aaa(case):
    """The approximant against SciPy's. The greedy path (which sample is added each step) is an
    argmax of errors that, on dense samples, nearly tie between neighbours, so the device's rounding
    (cuSOLVER's QR, cuBLAS's products) may pick a neighbour of SciPy's point; the approximant is then
    as good, with about as many terms. The path itself is compared on sparse random samples."""
    import scipy.special as sp

    rng = _rng("aaa", case)
    z = {"exp-f8": np.linspace(-1, 1.3, 2000), "exp-f4": np.linspace(-1, 1, 500, dtype=np.float32),
         "gamma": np.sort(rng.uniform(-1.5, 1.5, 800)),
         "complex-circle": 0.2 + 1.5 * np.exp(1j * np.sort(rng.uniform(0, 2 * np.pi, 600))),
         "sqrt-logspace": np.logspace(-15, 0, 300), "large": rng.uniform(-3, 3, 50_000),
         "sparse": rng.uniform(-1, 1, 40)}[case]
    f = {"gamma": sp.gamma, "complex-circle": lambda v: np.tan(np.pi * v / 4), "sqrt-logspace": np.sqrt,
         "large": lambda v: np.tanh(5 * v) / (4 + v), "sparse": lambda v: np.exp(np.sin(3 * v))}.get(case, np.exp)(z)
    ref, got = _quiet(si.AAA, z, f), _quiet(ci.AAA, G(z), G(f))
    assert got.weights.dtype == ref.weights.dtype and got.errors.dtype == ref.errors.dtype
    assert got.support_points.dtype == ref.support_points.dtype
    assert abs(got.weights.shape[0] - ref.weights.shape[0]) <= 2
    tol = 10 * max(ref.errors[-1], np.finfo(z.dtype).eps ** 0.75 * np.abs(f).max())
    assert float(abs(got(G(z)) - G(f)).max()) <= tol  # as accurate on the samples as SciPy's
    q = z[5::11] + (0.001 if z.dtype.kind == "f" else 0.001j)
    close(got(G(q)), ref(q), 1e-8 if z.dtype != np.float32 else 1e-4)
    close(got(G(z[:12].reshape(3, 4))), ref(z[:12].reshape(3, 4)), 1e-8 if z.dtype != np.float32 else 1e-4)
    if case == "sparse":
        assert sorted(got.support_points.get().tolist()) == sorted(ref.support_points.tolist())
        close(got.errors, ref.errors, 1e-6)
    if case == "gamma":  # the genuine poles, whatever the path
        for p in (0.0, -1.0):
            assert np.min(np.abs(got.poles().get() - p)) < 1e-6


def test_aaa_clean_up_and_errors():
    z = np.exp(np.linspace(-0.5, 0.5 + 15j * np.pi, num=1000))
    with pytest.warns(RuntimeWarning):
        r = ci.AAA(G(z), G(np.tan(np.pi * z / 2)), rtol=0, max_terms=60, clean_up=False)
    spurious = int((abs(r.residues()) < 1e-14).sum())
    with pytest.warns(RuntimeWarning, match="Froissart"):
        assert r.clean_up() >= 1
    assert int((abs(r.residues()) < 1e-14).sum()) < spurious
    np.testing.assert_allclose(r(G(z)).get(), np.tan(np.pi * z / 2), atol=6e-12, rtol=3e-12)
    for args, kw in [((np.arange(3.0), np.arange(3.0)), {"max_terms": 0}), ((np.arange(4.0), np.arange(3.0)), {}),
                     ((np.array([0.0, np.inf, 1.0]), np.arange(3.0)), {})]:
        with pytest.raises(ValueError) as want:
            si.AAA(*args, **kw)
        with pytest.raises(ValueError) as have:
            ci.AAA(*map(G, args), **kw)
        assert str(have.value) == str(want.value)


# -- poly1d helpers, interp2d ------------------------------------------------------------------------------

def test_poly1d_helpers():
    x, w = np.array([0.0, 1.0, 2.5, 3.0]), np.array([1.0, -2.0, 5.0, 0.5])
    with pytest.warns(DeprecationWarning):
        p = ci.lagrange(G(x), G(w))
    assert isinstance(p, cuarray.poly1d)
    close(p.coeffs, _quiet(si.lagrange, x, w).coeffs, 1e-12)
    close(p(G(np.linspace(0, 3, 7))), _quiet(si.lagrange, x, w)(np.linspace(0, 3, 7)), 1e-12)
    an = np.array([1.0, 1.0, 0.5, 1 / 6, 1 / 24, 1 / 120])
    with pytest.warns(DeprecationWarning):
        p, q = ci.pade(G(an), 2)
    rp, rq = _quiet(si.pade, an, 2)
    close(p.coeffs, rp.coeffs, 1e-12)
    close(q.coeffs, rq.coeffs, 1e-12)
    with pytest.warns(DeprecationWarning):
        t = ci.approximate_taylor_polynomial(cuarray.sin, 0.5, 3, 0.1)
    close(t.coeffs, _quiet(si.approximate_taylor_polynomial, np.sin, 0.5, 3, 0.1).coeffs, 1e-9)
    with pytest.raises(NotImplementedError, match="removed in SciPy 1.14.0"):
        ci.interp2d(G(x), G(x), G(np.ones((4, 4))))
