"""cuarray.scipy.integrate on the GPU against scipy.integrate on the host: the sampled-data rules
over axes, dtypes, spacings, even/odd and short sample counts, non-contiguous samples; romb;
fixed_quad on batched limits; tanhsinh's result fields on a batch of finite, infinite, reversed,
equal and NaN limits, log scale, complex and float32; the host-input policy."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.integrate")

import cuarray  # noqa: E402
from cuarray.scipy import integrate as ci  # noqa: E402

G = cuarray.asarray


def close(got, want, what=""):
    assert isinstance(got, cuarray.ndarray), (what, type(got))
    got, want = got.get(), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.shape, want.shape, got.dtype, want.dtype)
    tol = 3e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)


def sample(rng, shape, dtype):
    v = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("name", ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson"])
def test_rules_match_scipy(name, dtype):
    rng = np.random.default_rng()
    ours, theirs = getattr(ci, name), getattr(si, name)
    for n in [2, 3, 4, 7, 10]:
        for shape, axis in [((n,), -1), ((3, n, 2), 1), ((n, 5), 0)]:
            y = sample(rng, shape, dtype)
            x1 = np.cumsum(rng.random(n) + 0.05)
            xn = np.cumsum(rng.random(shape) + 0.05, axis=axis)
            for kw in [{}, {"dx": 0.3}, {"x": x1}, {"x": xn}]:
                want = theirs(y.astype(np.result_type(y, *kw.values())) if name == "simpson" else y, axis=axis,
                              **kw)  # 1.18's simpson promotes y with x and dx first, 1.17's did not
                got = ours(G(y), axis=axis, **{k: (G(v) if k == "x" else v) for k, v in kw.items()})
                close(got, want.astype(np.result_type(y, *kw.values())) if name == "simpson" else want,
                      f"{name} n={n} shape={shape} axis={axis} {list(kw)}")


def test_non_contiguous_int_and_initial():
    rng = np.random.default_rng()
    y = rng.standard_normal((6, 9))
    yt = G(y).T[::2]  # (5, 6), strided
    close(ci.cumulative_simpson(yt, axis=0, initial=0), si.cumulative_simpson(y.T[::2], axis=0, initial=0), "csimp")
    close(ci.cumulative_trapezoid(yt, initial=0), si.cumulative_trapezoid(y.T[::2], initial=0), "ctrap")
    yi = rng.integers(-5, 5, (4, 7))
    close(ci.trapezoid(G(yi)), si.trapezoid(yi), "trap int")
    close(ci.cumulative_simpson(G(yi), dx=G(_DX), initial=G(np.ones((4, 1)))),
          si.cumulative_simpson(yi, dx=_DX, initial=np.ones((4, 1))), "csimp int, dx and initial arrays")


_DX = np.linspace(0.2, 0.8, 4).reshape(4, 1)


def test_cumulative_simpson_dx_array():
    rng = np.random.default_rng()
    y = rng.standard_normal((4, 7))
    close(ci.cumulative_simpson(G(y), dx=G(_DX)), si.cumulative_simpson(y, dx=_DX), "dx array")
    with pytest.raises(ValueError, match="strictly increasing"):
        ci.cumulative_simpson(G(y), x=G(np.arange(7.0)[::-1].copy()))


def test_errors_and_host_input():
    with pytest.raises(ValueError, match="At least one point"):
        ci.cumulative_trapezoid(G(np.zeros((3, 0))))
    with pytest.raises(ValueError, match="power of 2"):
        ci.romb(G(np.ones(6)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ci.simpson(np.ones(5))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_romb(dtype):
    rng = np.random.default_rng()
    for n, shape, axis in [(2, (2,), -1), (9, (3, 9), -1), (17, (17, 4), 0)]:
        y = sample(rng, shape, dtype)
        close(ci.romb(G(y), dx=0.25, axis=axis), si.romb(y, dx=0.25, axis=axis), f"romb n={n}")


def test_fixed_quad():
    rng = np.random.default_rng()
    a, b = rng.random(5), rng.random(5) + 1
    got, none = ci.fixed_quad(lambda t, p: t ** p, G(a), G(b), args=(3,), n=7)
    assert none is None
    close(got, np.array([si.fixed_quad(lambda t: t ** 3, ai, bi, n=7)[0] for ai, bi in zip(a, b)]), "batched")
    close(ci.fixed_quad(cuarray.cos, 0.5, 2.0)[0], np.asarray(si.fixed_quad(np.cos, 0.5, 2.0)[0]), "scalar")
    with pytest.raises(ValueError, match="finite limits"):
        ci.fixed_quad(cuarray.cos, G(np.array([0.0, 1.0])), G(np.array([1.0, np.inf])))


def _fields(got, want, rtol):
    for key in ["integral", "error", "success", "status", "nfev", "maxlevel"]:
        g, w = got[key], np.asarray(want[key])
        g = g.get() if isinstance(g, cuarray.ndarray) else np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, (key, g.shape, w.shape, g.dtype, w.dtype)
        if key == "integral":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True, err_msg=key)
        elif key == "error":  # an estimate from differences of sums: the device's summation order moves
            # its last bits, which it amplifies; the same order of magnitude, to eps * |integral|
            scale = np.finfo(g.dtype).eps * np.abs(np.asarray(want["integral"]))
            np.testing.assert_allclose(g, w, rtol=0.5, atol=np.nan_to_num(np.max(scale, initial=0) * 100),
                                       equal_nan=True, err_msg=key)
        else:
            np.testing.assert_array_equal(g, w, err_msg=key)


def test_tanhsinh_batch():
    rng = np.random.default_rng()
    a = np.array([0, -np.inf, 1, 0, 2.0, -np.inf, np.nan, 0.0, 3.0])
    b = np.array([1, np.inf, 1, np.inf, -1.0, 0.5, 1.0, 2.0, np.inf])
    c = rng.random(a.size) + 0.5
    with np.errstate(all="ignore"):
        want = si.tanhsinh(lambda x, c: np.exp(-c * x ** 2), a, b, args=(c,))
    got = ci.tanhsinh(lambda x, c: cuarray.exp(-c * x ** 2), G(a), G(b), args=(G(c),))
    _fields(got, want, 1e-9)
    with np.errstate(all="ignore"):
        want = si.tanhsinh(lambda x: x ** -0.5 + 1 / np.abs(x - 3), 0.0, np.array([1.0, 2.0, 4.0]), minlevel=0)
    got = ci.tanhsinh(lambda x: x ** -0.5 + 1 / cuarray.abs(x - 3), 0.0, G(np.array([1.0, 2.0, 4.0])), minlevel=0)
    _fields(got, want, 1e-9)


def test_tanhsinh_log_complex_float32():
    c = np.array([0.7, 1.3, 2.0])
    with np.errstate(all="ignore"):
        want = si.tanhsinh(lambda x, c: -c * x ** 2, np.array([0.0, -np.inf, 1.0]), np.array([1.0, np.inf, 0.0]),
                           args=(c,), log=True)
    got = ci.tanhsinh(lambda x, c: -c * x ** 2, G(np.array([0.0, -np.inf, 1.0])), G(np.array([1.0, np.inf, 0.0])),
                      args=(G(c),), log=True)
    _fields(got, want, 1e-9)
    want = si.tanhsinh(lambda x, c: np.exp(1j * c * x), 0.0, np.array([1.0, 2.0, 3.0]), args=(c,))
    got = ci.tanhsinh(lambda x, c: cuarray.exp(1j * c * x), 0.0, G(np.array([1.0, 2.0, 3.0])), args=(G(c),))
    _fields(got, want, 1e-9)
    c32 = c.astype(np.float32)
    with np.errstate(all="ignore"):
        want = si.tanhsinh(lambda x, c: np.exp(-c * x ** 2), np.float32(0), np.float32([1, 2, np.inf]), args=(c32,))
    got = ci.tanhsinh(lambda x, c: cuarray.exp(-c * x ** 2), np.float32(0), G(np.float32([1, 2, np.inf])),
                      args=(G(c32),))
    _fields(got, want, 1e-5)


@pytest.mark.parametrize("kw", [{}, dict(norm="max", quadrature="gk15"), dict(points=[0.5]), dict(quadrature="trapezoid", epsrel=1e-4)])
def test_quad_vec(kw):
    alpha = np.linspace(0.1, 2.0, 50)
    ga = G(alpha)
    got = ci.quad_vec(lambda x: x ** ga, 0, 2, full_output=True, **kw)
    want = si.quad_vec(lambda x: x ** alpha, 0, 2, full_output=True, **kw)
    close(got[0], want[0], "integral")
    # the interval heap follows the errors, whose last bits follow the device's summation order
    assert got[1] == pytest.approx(want[1], rel=1e-3), (got[1], want[1])
    assert got[2].status == want[2].status and got[2].success == want[2].success
    assert abs(got[2].neval - want[2].neval) <= 0.05 * want[2].neval, (got[2].neval, want[2].neval)
    assert isinstance(got[2].integrals, cuarray.ndarray)


def test_quad_vec_infinite_complex():
    c = np.array([0.5, 1.0, 2.0])
    got = ci.quad_vec(lambda x: cuarray.exp(-G(c) * x * x) * (1 + 1j), -np.inf, np.inf)
    want = si.quad_vec(lambda x: np.exp(-c * x * x) * (1 + 1j), -np.inf, np.inf)
    close(got[0], want[0], "gaussians")


def _counted(f, calls):
    def g(x):
        calls.append("float" if isinstance(x, float) else (type(x).__name__, x.shape))
        return f(x)
    return g


@pytest.mark.parametrize("case", ["finite", "semi-max", "double-points", "float32"])
def test_quad_vec_vectorized_integrand_batched(case):
    # two calls with floats, then one a round with a device array (k, 1) of all the round's
    # nodes; the value within SciPy's tolerance of SciPy's, the same status
    rng = np.random.default_rng(11)
    c, p = rng.uniform(0.5, 2, 40), rng.uniform(-1, 1, 40)
    kw = {"semi-max": dict(norm="max"), "double-points": dict(points=[0.5])}.get(case, {})
    a, b = {"semi-max": (0.0, np.inf), "double-points": (-np.inf, np.inf)}.get(case, (0.0, 3.0))
    if case == "float32":
        c, p, kw = c.astype(np.float32), p.astype(np.float32), dict(epsrel=1e-5)

    def make(xp, c, p):
        if case == "semi-max":
            return lambda x: xp.exp(-c * x) * xp.cos(p * x)
        if case == "double-points":
            return lambda x: xp.exp(-c * (x - p) ** 2)
        return lambda x: xp.sin(c * x + p) * xp.exp(-x)

    calls = []
    got = ci.quad_vec(_counted(make(cuarray, G(c), G(p)), calls), a, b, full_output=True, **kw)
    want = si.quad_vec(make(np, c, p), a, b, full_output=True, **kw)
    assert isinstance(got[0], cuarray.ndarray) and got[0].shape == want[0].shape, (type(got[0]), want[0].shape)
    assert got[0].dtype == np.asarray(want[0]).dtype, (got[0].dtype, want[0].dtype)
    diff, tol = np.max(np.abs(got[0].get() - want[0])), kw.get("epsrel", 1e-8) * np.linalg.norm(want[0])
    assert diff <= tol, (case, diff, tol)
    assert got[2].status == want[2].status, (got[2].status, want[2].status, got[2].message)
    # float32: SciPy's estimate is float32's rounding in f; the array call computes f in float64
    low = 0.0 if case == "float32" else want[1] / 2
    assert low <= got[1] <= 2 * want[1] + 1e-3 * tol, (got[1], want[1])
    assert calls[:2] == ["float", "float"], calls[:3]
    assert all(k == ("ndarray", (k[1][0], 1)) for k in calls[2:]), calls[2:5]
    assert 1 <= len(calls) - 2 <= 12, (len(calls), want[2].neval)


def test_quad_vec_function_of_floats_node_by_node():
    # math.exp takes no device array: after the one failed array call, f is called per node
    import math

    v = np.random.default_rng(12).uniform(0.5, 2, 4)
    gv, calls = G(v), []
    got = ci.quad_vec(_counted(lambda x: gv * math.exp(-x), calls), 0.0, 2.0, full_output=True)
    want = si.quad_vec(lambda x: v * math.exp(-x), 0.0, 2.0, full_output=True)
    close(got[0], want[0], "exp")
    assert calls.count("float") == got[2].neval == want[2].neval and len(calls) == got[2].neval + 1, len(calls)
