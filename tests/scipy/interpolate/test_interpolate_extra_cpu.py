"""The interpolators of issue #53 without a device (NumPy namespace, SciPy's NdBSpline as the
tensor kernel's model: conftest.py) against scipy.interpolate: the bivariate and spherical FITPACK
splines (fits on the host, evaluation through the device path), the legacy `Rbf`, the poly1d
helpers `lagrange`/`pade`/`approximate_taylor_polynomial` (SciPy 1.18's DeprecationWarning) and
the removed `interp2d`."""

import inspect
import warnings

import numpy as np
import pytest
import scipy
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(5353)
_BEFORE_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)


def close(got, ref, tol=1e-10):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    scale = max(1.0, float(np.max(np.abs(ref[np.isfinite(ref)]), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def _scattered(n=150):
    x, y = RNG.uniform(-1, 2, n), RNG.uniform(0, 3, n)
    return x, y, np.sin(2 * x) * np.cos(y) + 0.05 * RNG.normal(size=n)


def _sphere(n=200):
    theta, phi = RNG.uniform(0.05, np.pi - 0.05, n), RNG.uniform(0.05, 2 * np.pi - 0.05, n)
    return theta, phi, np.cos(theta) + np.sin(phi) * np.sin(theta) + 0.01 * RNG.normal(size=n)


def _rect_sphere():
    u, v = np.linspace(0.1, np.pi - 0.1, 12), np.linspace(-np.pi + 0.1, np.pi - 0.1, 15)
    return u, v, np.cos(u)[:, None] + np.sin(v)[None, :] + 0.01 * RNG.normal(size=(12, 15))


def _bivariate_pairs(h):
    x, y, z = _scattered()
    tx, ty = [-0.2, 0.5, 1.2], [0.8, 1.6, 2.2]
    return [("SmoothBivariateSpline", (x, y, z), {"s": 1.0}),
            ("SmoothBivariateSpline", (x, y, z), {"kx": 2, "ky": 4, "s": 0.5, "bbox": [-2, 3, -1, 4]}),
            ("LSQBivariateSpline", (x, y, z, tx, ty), {}),
            ("LSQBivariateSpline", (x, y, z, tx, ty), {"kx": 2, "w": RNG.uniform(0.5, 1.5, x.size)}),
            ("RectBivariateSpline", (np.linspace(0, 3, 9), np.linspace(-1, 1, 7), RNG.normal(size=(9, 7))),
             {"s": 0.5, "kx": 2})]


@pytest.mark.parametrize("case", range(5))
def test_bivariate_splines(host_interpolate, case):
    name, args, kwargs = _bivariate_pairs(host_interpolate)[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # FITPACK's warnings about the fit: SciPy's, both sides
        ref, got = getattr(si, name)(*args, **kwargs), getattr(host_interpolate, name)(*args, **kwargs)
    assert isinstance(got, host_interpolate.BivariateSpline)
    xq, yq = np.linspace(-2.5, 3.5, 11), np.linspace(-0.5, 3.5, 9)  # beyond the box on both sides: clamped
    kx, ky = ref.degrees
    for dx, dy in [(0, 0), (1, 0), (0, 1), (kx - 1, ky - 1)]:
        close(got(xq, yq, dx=dx, dy=dy), ref(xq, yq, dx=dx, dy=dy), 1e-9)
        close(got(xq[:9], yq, dx=dx, dy=dy, grid=False), ref(xq[:9], yq, dx=dx, dy=dy, grid=False), 1e-9)
        close(got.ev(xq[:, None], yq[None, :], dx, dy), ref.ev(xq[:, None], yq[None, :], dx, dy), 1e-9)
    close(got(0.3, 1.1), ref(0.3, 1.1), 1e-9)
    close(got(0.3, 1.1, grid=False), ref(0.3, 1.1, grid=False), 1e-9)
    close(got(0.3, np.array([1.1]), grid=False), ref(0.3, np.array([1.1]), grid=False), 1e-9)
    close(got(np.zeros(0), yq), ref(np.zeros(0), yq))
    close(got.ev(np.zeros((2, 0)), np.zeros((2, 0))), ref.ev(np.zeros((2, 0)), np.zeros((2, 0))))
    for g, r in zip(got.get_knots(), ref.get_knots()):
        close(g, r, 0)
    close(got.get_coeffs(), ref.get_coeffs(), 0)
    assert got.get_residual() == ref.get_residual() and got.degrees == ref.degrees
    for box in [(-0.5, 1.5, 0.2, 2.8), (-5, 5, -5, 5), (1.0, 0.5, 2.0, 1.0)]:
        assert got.integral(*box) == pytest.approx(ref.integral(*box), rel=1e-12, abs=1e-13)
    d_ref, d_got = ref.partial_derivative(1, ky - 1), got.partial_derivative(1, ky - 1)
    assert d_got.degrees == d_ref.degrees
    close(d_got.get_coeffs(), d_ref.get_coeffs(), 1e-12)
    close(d_got(xq, yq), d_ref(xq, yq), 1e-9)
    assert got.partial_derivative(0, 0) is got
    with pytest.raises(AttributeError, match='method "get_residual" is unavailable'):
        d_got.get_residual()
    with pytest.raises(AttributeError, match='attribute "fp" is unavailable'):
        d_got.fp


def test_bivariate_errors_are_scipys(host_interpolate):
    x, y, z = _scattered()
    ref, got = si.SmoothBivariateSpline(x, y, z, kx=2), host_interpolate.SmoothBivariateSpline(x, y, z, kx=2)
    q = np.array([0.1, 0.2])
    for kwargs, grid in [({"dx": 2}, True), ({"dx": 2}, False), ({"dx": -1}, True), ({"dy": 3}, False)]:
        with pytest.raises(ValueError) as want:
            ref(q, q, grid=grid, **kwargs)
        with pytest.raises(ValueError) as have:
            got(q, q, grid=grid, **kwargs)
        assert str(have.value) == str(want.value)
    for xq, yq in [(q[::-1], q), (q, q[::-1])]:
        with pytest.raises(ValueError, match="strictly increasing when `grid` is True"):
            got(xq, yq)
    for d in [(2, 0), (-1, 0), (0, 3)]:
        with pytest.raises(ValueError) as want:
            ref.partial_derivative(*d)
        with pytest.raises(ValueError) as have:
            got.partial_derivative(*d)
        assert str(have.value) == str(want.value)
    for bad in [lambda m: m.SmoothBivariateSpline(x, y, z[:-1]), lambda m: m.SmoothBivariateSpline(x, y, z, eps=2.0),
                lambda m: m.SmoothBivariateSpline(x[:5], y[:5], z[:5]),
                lambda m: m.RectBivariateSpline([0.0, 2.0, 1.0, 3.0, 4.0], np.arange(5.0), np.ones((5, 5)))]:
        with pytest.raises(ValueError) as want:
            bad(si)
        with pytest.raises(ValueError) as have:
            bad(host_interpolate)
        assert str(have.value) == str(want.value)


def test_bivariate_from_tck(host_interpolate):
    x, y, z = _scattered()
    ref = si.SmoothBivariateSpline(x, y, z, s=2.0)
    got = host_interpolate.BivariateSpline._from_tck(ref.tck + ref.degrees)
    xq, yq = np.linspace(-1, 2, 5), np.linspace(0, 3, 6)
    close(got(xq, yq), ref(xq, yq), 1e-9)
    assert got.integral(0, 1, 0, 1) == pytest.approx(ref.integral(0, 1, 0, 1), rel=1e-12)
    with pytest.raises(ValueError, match="5 element tuple"):
        host_interpolate.BivariateSpline._from_tck(ref.tck)


def _sphere_pairs():
    theta, phi, r = _sphere()
    u, v, rr = _rect_sphere()
    return [("SmoothSphereBivariateSpline", (theta, phi, r), {"s": 3.5}),
            ("SmoothSphereBivariateSpline", (theta, phi, r), {"s": 1.0, "w": RNG.uniform(0.5, 1.5, theta.size)}),
            ("LSQSphereBivariateSpline", (theta, phi, r, np.linspace(0.5, 2.6, 4), np.linspace(0.8, 5.4, 5)), {}),
            ("RectSphereBivariateSpline", (u, v, rr), {}),
            ("RectSphereBivariateSpline", (u, v, rr), {"s": 0.1, "pole_continuity": True, "pole_values": (1.0, -1.0),
                                                       "pole_exact": True}),
            ("RectSphereBivariateSpline", (u, v, rr), {"s": 0.2, "pole_continuity": (True, False),
                                                       "pole_flat": (True, False), "pole_values": 0.9})]


@pytest.mark.parametrize("case", range(6))
def test_sphere_splines(host_interpolate, case):
    name, args, kwargs = _sphere_pairs()[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fit, got = getattr(si, name)(*args, **kwargs), getattr(host_interpolate, name)(*args, **kwargs)
    if "pole_continuity" in kwargs:
        # SciPy's spgrid with pole conditions is not repeatable (two fits of the same data differ, or are
        # NaN: reproduced with SciPy 1.17.1 and 1.18.1), so the evaluation is checked against SciPy's
        # evaluation of the same fit's knots and coefficients
        ref = getattr(si, name).__new__(getattr(si, name))
        ref.tck, ref.degrees, ref.fp = tuple(np.asarray(a) for a in got.tck), got.degrees, got.fp
        ref.v0 = fit.v0
    else:
        ref = fit
    tq, pq = np.linspace(0, np.pi, 7), np.linspace(0, 2 * np.pi, 8)
    if name.startswith("Rect"):
        pq = np.linspace(-3.5, 3.5, 8)  # beyond v0 + 2 pi on both sides: clamped as bispev does
    for dt, dp in [(0, 0), (1, 0), (1, 2)]:
        close(got(tq, pq, dtheta=dt, dphi=dp), ref(tq, pq, dtheta=dt, dphi=dp), 1e-9)
        close(got(tq, pq[:7], dt, dp, grid=False), ref(tq, pq[:7], dt, dp, grid=False), 1e-9)
        close(got.ev(tq[:, None], pq[None, :], dt, dp), ref.ev(tq[:, None], pq[None, :], dt, dp), 1e-9)
    close(got(0.7, 1.3, grid=False), ref(0.7, 1.3, grid=False), 1e-9)
    close(got.get_coeffs(), ref.get_coeffs(), 0)
    assert got.get_residual() == ref.get_residual()
    if name.startswith("Rect"):
        assert got.v0 == ref.v0
    with pytest.raises(ValueError, match="requested theta out of bounds."):
        got(np.array([-0.1, 1.0]), np.array([1.0]))
    if not name.startswith("Rect"):
        with pytest.raises(ValueError, match="requested phi out of bounds."):
            got.ev(np.array([1.0]), np.array([7.0]))
    d_ref, d_got = ref.partial_derivative(1, 1), got.partial_derivative(1, 1)
    close(d_got(tq, pq), d_ref(tq, pq), 1e-9)


def test_sphere_errors_are_scipys(host_interpolate):
    theta, phi, r = _sphere()
    u, v, rr = _rect_sphere()
    for bad in [lambda m: m.SmoothSphereBivariateSpline(theta + 4, phi, r),
                lambda m: m.SmoothSphereBivariateSpline(theta, phi, r, s=-1.0),
                lambda m: m.LSQSphereBivariateSpline(theta, phi, r, [0.0, 1.0], [1.0, 2.0]),
                lambda m: m.RectSphereBivariateSpline(u - 0.2, v, rr),
                lambda m: m.RectSphereBivariateSpline(u, v, rr, pole_flat=True)]:
        with pytest.raises(ValueError) as want:
            bad(si)
        with pytest.raises(ValueError) as have:
            bad(host_interpolate)
        assert str(have.value) == str(want.value)


# -- Rbf ------------------------------------------------------------------------------------------------------

FUNCTIONS = ["multiquadric", "inverse", "gaussian", "linear", "cubic", "quintic", "thin-plate", "Thin_Plate"]


@pytest.mark.parametrize("function", FUNCTIONS)
def test_rbf_functions(host_interpolate, function):
    x, y = RNG.uniform(0, 2, 30), RNG.uniform(-1, 1, 30)
    d = np.exp(-x) * np.cos(3 * y)
    kw = {"function": function, "smooth": 0.001 if function in ("quintic", "cubic") else 0.0}
    ref, got = si.Rbf(x, y, d, **kw), host_interpolate.Rbf(x, y, d, **kw)
    assert got.epsilon == pytest.approx(ref.epsilon, rel=1e-15) and got.function == ref.function
    close(got.A, ref.A, 1e-12)
    close(got.nodes, ref.nodes, 1e-6)
    xq, yq = RNG.uniform(-0.5, 2.5, (4, 5)), RNG.uniform(-1.5, 1.5, (4, 5))
    close(got(xq, yq), ref(xq, yq), 1e-7)
    close(got(x[:3], y[:3]), d[:3], 1e-6 if kw["smooth"] == 0 else 1e-2)


def test_rbf_options(host_interpolate):
    x, y, z = RNG.uniform(0, 1, (3, 25))
    d = x + y * z
    for kwargs in ({"epsilon": 0.3}, {"norm": "cityblock"}, {"norm": "chebyshev", "function": "linear"},
                   {"smooth": 0.1}):
        ref, got = si.Rbf(x, y, z, d, **kwargs), host_interpolate.Rbf(x, y, z, d, **kwargs)
        close(got(x[::2] + 0.01, y[::2], z[::2]), ref(x[::2] + 0.01, y[::2], z[::2]), 1e-8)
    ref, got = si.Rbf(x, y, z, d, foo=3), host_interpolate.Rbf(x, y, z, d, foo=3)
    assert got.foo == ref.foo == 3
    dn = np.stack([d, x - y], axis=-1)
    ref, got = si.Rbf(x, y, dn, mode="N-D"), host_interpolate.Rbf(x, y, dn, mode="N-D")
    close(got(x[:4], y[:4]), ref(x[:4], y[:4]), 1e-8)
    ref, got = si.Rbf(x, y, d[:, None], mode="N-D"), host_interpolate.Rbf(x, y, d[:, None], mode="N-D")
    close(got.nodes, ref.nodes, 1e-8)  # one value component: SciPy's nodes are (N, 1)
    close(got(x[:4], y[:4]), ref(x[:4], y[:4]), 1e-8)
    ref, got = si.Rbf(x, y, (d * (1 + 2j))), host_interpolate.Rbf(x, y, (d * (1 + 2j)))
    close(got(x[:4] + 0.1, y[:4]), ref(x[:4] + 0.1, y[:4]), 1e-8)
    ref, got = si.Rbf(x, y, np.ones((25, 2), int), mode="N-D"), host_interpolate.Rbf(x, y, np.ones((25, 2), int),
                                                                                       mode="N-D")
    assert np.asarray(got.nodes).dtype == ref.nodes.dtype  # SciPy fills an array of the values' dtype
    close(got(0.5, 0.5), ref(0.5, 0.5))
    close(got(0.5, 0.5)[:0], ref(0.5, 0.5)[:0])


def test_rbf_chunks(host_interpolate, monkeypatch):
    x, y = RNG.uniform(0, 1, (2, 20))
    d = np.sin(x) + y
    ref, got = si.Rbf(x, y, d, function="gaussian"), host_interpolate.Rbf(x, y, d, function="gaussian")
    monkeypatch.setitem(type(got).__call__.__globals__, "_CHUNK", 45)  # two query rows a block of 20 nodes
    xq, yq = RNG.uniform(0, 1, (2, 7))
    close(got(xq, yq), ref(xq, yq), 1e-8)
    close(got(xq[:0], yq[:0]), ref(xq[:0], yq[:0]))


def test_rbf_callables(host_interpolate):
    x, y = RNG.uniform(0, 1, (2, 15))
    d = x * y
    for f in (lambda r: np.exp(-2.0 * r), lambda self, r: np.sqrt(r ** 2 + self.epsilon ** 2)):
        ref, got = si.Rbf(x, y, d, function=f), host_interpolate.Rbf(x, y, d, function=f)
        close(got(x + 0.05, y), ref(x + 0.05, y), 1e-7)

    class Kernel:
        def __call__(self, r, s):
            return r * 0.5 + s

    with pytest.raises(ValueError, match="1 or 2 arguments"):
        si.Rbf(x, y, d, function=Kernel())
    with pytest.raises(ValueError, match="1 or 2 arguments"):
        host_interpolate.Rbf(x, y, d, function=Kernel())


def test_rbf_errors_are_scipys(host_interpolate):
    x, y = RNG.uniform(0, 1, (2, 6))
    cases = [lambda m: m.Rbf(x, y, function="foo"), lambda m: m.Rbf(x, y, mode="x"),
             lambda m: m.Rbf(x, y[:4]), lambda m: m.Rbf(x, y, function=lambda r: r[0]),
             lambda m: m.Rbf(x, y, function=lambda a, b, c: a), lambda m: m.Rbf(x, y)(x, x[:2])]
    for bad in cases:
        with pytest.raises(ValueError) as want:
            bad(si)
        with pytest.raises(ValueError) as have:
            bad(host_interpolate)
        assert str(have.value) == str(want.value)


# -- lagrange, pade, approximate_taylor_polynomial, interp2d ---------------------------------------------------


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("name, args", [
    ("lagrange", ([0.0, 1.0, 2.5, 3.0], [1.0, -2.0, 5.0, 0.5])),
    ("lagrange", (np.array([0, 1, 2], np.float32), np.array([1, 2, 5], np.float32))),
    ("lagrange", ([1.0], [3j])),
    ("lagrange", ([], [])),
    ("pade", ([1.0, 1.0, 0.5, 1 / 6, 1 / 24], 2)),
    ("pade", (np.array([1.0, 1.0, 0.5, 1 / 6], np.float32), 1)),
    ("pade", ([1.0, 1j, 0.5, -0.25j], 1, 2)),
    ("approximate_taylor_polynomial", (np.sin, 0.5, 3, 0.1)),
    ("approximate_taylor_polynomial", (np.exp, 1.0, 4, 0.5, 6)),
])
def test_poly1d_helpers(host_interpolate, name, args):
    ref = _quiet(getattr(si, name), *args)
    with pytest.warns(DeprecationWarning, match=f"`{name}` is deprecated and will be removed in SciPy 1.20.0"):
        got = getattr(host_interpolate, name)(*args)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    for g, r in zip(gots, refs):
        close(g.coeffs, r.coeffs, 1e-12 if name != "approximate_taylor_polynomial" else 1e-9)


@pytest.mark.parametrize("args", [([1.0, 1.0, 0.5], 1, 2), ([1.0, 1.0, 0.5], 3), ([1.0, 1.0, 0.5], 1, -1),
                                  ([1.0, 1.0, 0.5], -1)])
def test_pade_errors_are_scipys(host_interpolate, args):
    with pytest.raises(ValueError) as want:
        _quiet(si.pade, *args)
    with pytest.raises(ValueError) as have:
        _quiet(host_interpolate.pade, *args)
    assert str(have.value) == str(want.value)


def test_interp2d_is_removed_as_in_scipy():
    with pytest.raises(NotImplementedError) as want:
        si.interp2d([0, 1], [0, 1], [[0, 1], [1, 2]])
    with pytest.raises(NotImplementedError) as have:
        ci.interp2d([0, 1], [0, 1], [[0, 1], [1, 2]])
    assert str(have.value) == str(want.value)
    assert str(inspect.signature(ci.interp2d)) == str(inspect.signature(si.interp2d))


def test_deprecations_are_scipy_118s():
    """SciPy 1.18 deprecates the three poly1d helpers (1.17 does not warn): ours warn as 1.18."""
    if _BEFORE_118:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            si.lagrange([0.0, 1.0], [1.0, 2.0])
    else:
        with pytest.warns(DeprecationWarning):
            si.lagrange([0.0, 1.0], [1.0, 2.0])


# -- AAA ------------------------------------------------------------------------------------------------------


def _aaa_pair(host_interpolate, z, f, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(all="ignore"):
            return si.AAA(z, f, **kwargs), host_interpolate.AAA(z, f, **kwargs)


@pytest.mark.parametrize("case", ["exp", "gamma", "tan-circle", "sqrt-logspace"])
def test_aaa_against_scipy(host_interpolate, case):
    import scipy.special as sp

    z = {"exp": np.linspace(-1, 1.3, 1000), "gamma": np.sort(np.random.default_rng(7).uniform(-1.5, 1.5, 500)),
         "tan-circle": 0.2 + 1.5 * np.exp(1j * np.linspace(0, 2 * np.pi, 300, endpoint=False)),
         "sqrt-logspace": np.logspace(-15, 0, 300)}[case]
    f = {"exp": np.exp, "gamma": sp.gamma, "tan-circle": lambda v: np.tan(np.pi * v / 4),
         "sqrt-logspace": np.sqrt}[case](z)
    ref, got = _aaa_pair(host_interpolate, z, f)
    assert sorted(np.asarray(got.support_points).tolist(), key=abs) == sorted(ref.support_points.tolist(), key=abs)
    order_got, order_ref = np.argsort(np.asarray(got.support_points)), np.argsort(ref.support_points)
    close(np.asarray(got.support_values)[order_got], ref.support_values[order_ref], 0)
    # each step's weights are the Loewner matrix's last right singular vector, from the SVD of its QR
    # factor here and of the matrix itself in SciPy: they agree to the rounding times the vector's
    # conditioning, which is poor once the fit is nearly exact (or a spurious pole sits near a
    # sample), so single weights and a step's error can differ in the 4th digit while the greedy path
    # (the support points above) and the approximant (below) are the same
    assert np.asarray(got.weights).shape == ref.weights.shape and np.asarray(got.weights).dtype == ref.weights.dtype
    assert len(got.errors) == len(ref.errors)
    np.testing.assert_allclose(np.asarray(got.errors), ref.errors, rtol=1e-2, atol=1e-7 * ref.errors[0])
    assert np.max(np.abs(np.asarray(got(z)) - f)) <= 10 * max(ref.errors[-1], np.finfo(float).eps ** 0.75 * abs(f).max())
    q = (z[3::7] - 0.2) * 1.01 + 0.2 if case == "tan-circle" else z[3::7] + 0.003
    close(got(q), ref(q), 1e-9)
    close(got(z[:5]), ref(z[:5]), 1e-12)  # support points and samples: exact values where hit
    near = np.abs(ref.poles()) < 2.5
    for p in ref.poles()[near]:
        assert np.min(np.abs(np.asarray(got.poles()) - p)) < 1e-6 * max(1.0, abs(p))
    assert np.asarray(got.poles()).dtype == ref.poles().dtype


def test_aaa_float32_inf_nan_duplicates_few_points(host_interpolate):
    z32 = np.linspace(-1, 1, 200, dtype=np.float32)
    ref, got = _aaa_pair(host_interpolate, z32, np.exp(z32))
    for g, r in [(got.weights, ref.weights), (got.errors, ref.errors), (got.support_points, ref.support_points),
                 (got(np.float32(0.3)), ref(np.float32(0.3))), (got(0.3), ref(0.3))]:
        assert np.asarray(g).dtype == r.dtype
    # The greedy choices agree while a step's largest errors are apart by more than float32's
    # rounding of |f - r| (f ~ 1: a few eps); the fourth step is a three-way tie within 4e-7 of
    # 2.98e-4 (0.0452, 0.0553, 0.0352: float64 arithmetic picks 0.0553, SciPy's float32 0.0452, and
    # which one a float32 run picks follows its BLAS's rounding), so any point of that tie is SciPy's
    # choice up to rounding.
    got_points, ref_points = np.asarray(got.support_points).tolist(), ref.support_points.tolist()
    assert got_points[:3] == ref_points[:3] and len(got_points) == len(ref_points) == 4
    with np.errstate(all="ignore"):
        step = si.AAA(z32, np.exp(z32), max_terms=3)
        err = np.abs(np.exp(z32) - step(z32))
    tied = z32[err >= err.max() - 4 * np.finfo(np.float32).eps * np.exp(z32).max()].tolist()
    assert len(tied) >= 2 and ref_points[3] in tied and got_points[3] in tied
    x, y = np.array([0.0, 1, 2, 3, 1]), np.array([1.0, 2, np.inf, 4, 2])  # a non-finite value, a duplicate
    ref, got = _aaa_pair(host_interpolate, x, y)
    close(got.support_points, ref.support_points, 0)
    close(got(np.array([np.inf, 0.0, 1.5])), ref(np.array([np.inf, 0.0, 1.5])), 1e-12)
    ref, got = _aaa_pair(host_interpolate, np.arange(4.0), np.arange(4.0) ** 2)  # the null-space steps
    close(got.support_points, ref.support_points, 0)
    close(got.errors, ref.errors, 1e-12)
    close(got(np.array([0.5, 3.0])), ref(np.array([0.5, 3.0])), 1e-12)


def test_aaa_warnings_and_clean_up(host_interpolate):
    z = np.linspace(-1, 1, 300)
    with pytest.warns(RuntimeWarning, match="AAA failed to converge within 5 iterations."):
        got = host_interpolate.AAA(z, np.abs(z), max_terms=5)
    with pytest.warns(RuntimeWarning, match="AAA failed to converge"):
        ref = si.AAA(z, np.abs(z), max_terms=5)
    close(got.errors, ref.errors, 1e-12)
    # SciPy's own check (test_spiral_cleanup): rtol=0 forces Froissart doublets; clean_up removes some
    z = np.exp(np.linspace(-0.5, 0.5 + 15j * np.pi, num=1000))
    with pytest.warns(RuntimeWarning), np.errstate(all="ignore"):
        r = host_interpolate.AAA(z, np.tan(np.pi * z / 2), rtol=0, max_terms=60, clean_up=False)
    spurious = np.sum(np.abs(np.asarray(r.residues())) < 1e-14)
    with pytest.warns(RuntimeWarning, match="Froissart doublets detected."), np.errstate(all="ignore"):
        assert r.clean_up() >= 1
    assert np.sum(np.abs(np.asarray(r.residues())) < 1e-14) < spurious
    np.testing.assert_allclose(np.asarray(r(z)), np.tan(np.pi * z / 2), atol=6e-12, rtol=3e-12)
    r = host_interpolate.AAA(z, np.tan(np.pi * z / 2))  # test_spiral
    np.testing.assert_allclose(np.sort(np.abs(np.asarray(r.poles())))[:4], [1, 1, 3, 3], rtol=9e-7)


@pytest.mark.parametrize("args, kwargs", [((np.arange(3.0), np.arange(3.0)), {"max_terms": 0}),
                                          ((np.arange(3.0), np.ones((3, 2))), {}),
                                          ((np.ones((3, 1)), np.arange(3.0)), {}),
                                          ((np.arange(4.0), np.arange(3.0)), {}),
                                          ((np.array([0.0, np.inf, 1.0]), np.arange(3.0)), {})])
def test_aaa_errors_are_scipys(host_interpolate, args, kwargs):
    with pytest.raises(ValueError) as want:
        si.AAA(*args, **kwargs)
    with pytest.raises(ValueError) as have:
        host_interpolate.AAA(*args, **kwargs)
    assert str(have.value) == str(want.value)


def test_aaa_residues_roots(host_interpolate):
    z = np.linspace(-1, 1, 400)
    f = (z - 0.3) * (z + 0.5) / (z - 1.5)
    ref, got = _aaa_pair(host_interpolate, z, f)
    for g, r in [(got.roots(), ref.roots()), (got.poles(), ref.poles())]:
        g, r = np.sort_complex(np.asarray(g)), np.sort_complex(r)
        close(g[np.abs(g) < 2], r[np.abs(r) < 2], 1e-8)
    res_g, res_r = np.asarray(got.residues()), ref.residues()
    close(res_g[np.argmin(np.abs(np.asarray(got.poles()) - 1.5))], res_r[np.argmin(np.abs(ref.poles() - 1.5))], 1e-8)
