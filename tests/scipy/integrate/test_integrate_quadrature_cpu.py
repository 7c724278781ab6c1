"""cuarray.scipy.integrate's sampled-data rules, run as the real code with NumPy standing in for
the device routines (conftest.host_integrate), against scipy.integrate over axes, dtypes, shapes,
spacings, even and odd sample counts, special values and the bad inputs SciPy refuses."""

import inspect

import numpy as np
import pytest
import scipy
import scipy.integrate as si

SCIPY_118 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)
DTYPES = ["int64", "float32", "float64", "complex128"]


def sample(rng, shape, dtype):
    if dtype == "int64":
        return rng.integers(-5, 6, shape)
    v = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def spacing(rng, n, dtype="float64"):
    return np.cumsum(rng.random(n) + 0.05).astype(dtype)


def check(got, want, dtype=None):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == (dtype or want.dtype), (got.dtype, dtype or want.dtype)
    tol = 2e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
@pytest.mark.parametrize("name", ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson"])
def test_rules_match_scipy_over_axes_and_spacings(host_integrate, name, n, dtype):
    rng = np.random.default_rng()
    ours, theirs = getattr(host_integrate, name), getattr(si, name)
    for shape, axis in [((n,), -1), ((3, n, 2), 1), ((n, 4), 0)]:
        y = sample(rng, shape, dtype)
        x1 = spacing(rng, n)
        xn = np.moveaxis(np.cumsum(rng.random(shape) + 0.05, axis=axis), axis, axis)
        for kw in [{}, {"dx": 0.3}, {"x": x1}, {"x": xn}, {"x": x1.astype("float32")}]:
            oracle, yo, dt = kw, y, None
            if not SCIPY_118 and name == "simpson":  # 1.18 promotes y, x and dx first, 1.17 did not
                dt = np.result_type(y, kw.get("x", 1.0), 1.0)
                real = np.empty(0, dt).real.dtype
                oracle, yo = {k: v.astype(real) if k == "x" else v for k, v in kw.items()}, y.astype(dt)
            try:
                want = theirs(yo, axis=axis, **oracle)
            except Exception as e:  # SciPy's exception
                with pytest.raises(type(e)):
                    ours(y, axis=axis, **kw)
                continue
            check(ours(y, axis=axis, **kw), want, dt)


@pytest.mark.parametrize("name", ["cumulative_trapezoid", "cumulative_simpson"])
def test_initial(host_integrate, name):
    rng = np.random.default_rng()
    y = sample(rng, (3, 6), "float64")
    check(getattr(host_integrate, name)(y, initial=0), getattr(si, name)(y, initial=0))
    with pytest.raises(ValueError, match="initial"):
        host_integrate.cumulative_trapezoid(y, initial=1.5)
    init = rng.standard_normal((3, 1))
    check(host_integrate.cumulative_simpson(y, initial=init), si.cumulative_simpson(y, initial=init))
    dx = rng.random((3, 1))
    check(host_integrate.cumulative_simpson(y, initial=2.0, dx=dx), si.cumulative_simpson(y, initial=2.0, dx=dx))


def test_cumulative_simpson_dx_array_and_bad_x(host_integrate):
    rng = np.random.default_rng()
    y, dx = sample(rng, (3, 7), "float64"), rng.random((3, 1)) + 0.1
    check(host_integrate.cumulative_simpson(y, dx=dx), si.cumulative_simpson(y, dx=dx))
    for bad in [{"x": np.arange(7.0)[::-1]}, {"x": np.arange(6.0)}, {"dx": np.ones((3, 2))}, {"axis": 3}]:
        with pytest.raises(ValueError) as want:
            si.cumulative_simpson(y, **bad)
        with pytest.raises(ValueError, match=str(want.value)[:20].replace("(", r"\(").replace("`", ".")):
            host_integrate.cumulative_simpson(y, **bad)


def test_special_values(host_integrate):
    y = np.array([[1.0, np.inf, 2.0, 3.0, 4.0], [np.nan, 1.0, 2.0, 3.0, 4.0], [1.0, 2.0, -np.inf, 0.0, 1.0]])
    for name in ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson"]:
        with np.errstate(all="ignore"):
            check(getattr(host_integrate, name)(y), getattr(si, name)(y))
    x = np.array([0.0, 1.0, 1.0, 2.0, 3.0])  # a repeated abscissa: SciPy's zero-width guards
    with np.errstate(all="ignore"):
        check(host_integrate.simpson(y[2], x=x), si.simpson(y[2], x=x))
        check(host_integrate.simpson(y[2, :4], x=x[:4]), si.simpson(y[2, :4], x=x[:4]))


def test_empty_and_bad_shapes(host_integrate):
    for name in ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson", "romb"]:
        for y, kw in [(np.zeros((0,)), {}), (np.zeros((3, 0)), {}), (np.zeros((0, 5)), {}),
                      (np.ones((2, 5)), {"x": np.arange(4.0)}), (np.ones((2, 5)), {"x": np.ones((2, 2, 5))})]:
            if name == "romb" and "x" in kw:
                continue
            try:
                want = getattr(si, name)(y, **kw)
            except Exception as e:
                with pytest.raises(type(e)):
                    getattr(host_integrate, name)(y, **kw)
                continue
            check(getattr(host_integrate, name)(y, **kw), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_romb(host_integrate, dtype, capsys):
    rng = np.random.default_rng()
    for n, axis in [(2, -1), (3, 0), (5, 1), (17, -1), (33, 0)]:
        y = sample(rng, (n, 3) if axis == 0 else (2, n), dtype)
        check(host_integrate.romb(y, dx=0.25, axis=axis), si.romb(y, dx=0.25, axis=axis))
    for n in [0, 1, 6]:
        with pytest.raises(ValueError, match="power of 2"):
            si.romb(np.ones(n))
        with pytest.raises(ValueError, match="power of 2"):
            host_integrate.romb(np.ones(n))
    y = sample(rng, 9, "float64")
    assert host_integrate.romb(y, show=True) == pytest.approx(si.romb(y))
    ours = capsys.readouterr().out
    si.romb(y, show=True)
    assert ours == capsys.readouterr().out


def test_fixed_quad(host_integrate):
    rng = np.random.default_rng()
    for n in [1, 3, 5, 12]:
        got, none = host_integrate.fixed_quad(np.cos, 0.5, 2.0, n=n)
        assert none is None
        check(got, si.fixed_quad(np.cos, 0.5, 2.0, n=n)[0])
    a, b = rng.random(4), rng.random(4) + 1  # a batch of intervals: func gets (4, n) nodes
    check(host_integrate.fixed_quad(lambda t, p: t ** p, a, b, args=(3,))[0],
          np.array([si.fixed_quad(lambda t: t ** 3, ai, bi)[0] for ai, bi in zip(a, b)]))
    check(host_integrate.fixed_quad(np.exp, np.float32(0), np.float32(1))[0], np.float32(np.e - 1), np.float32)
    with pytest.raises(ValueError, match="finite limits"):
        host_integrate.fixed_quad(np.cos, 0, np.inf)


def test_newton_cotes(host_integrate):
    for rn, equal in [(4, 0), (16, 1), (np.array([0, 0.5, 2, 3]), 0), ([0, 1, 2, 3], 0)]:
        an, b = host_integrate.newton_cotes(rn, equal)
        want_an, want_b = si.newton_cotes(rn, equal)
        np.testing.assert_array_equal(an, want_an)
        assert b == want_b


def test_signatures_match_scipy():
    from cuarray.scipy import integrate

    names = ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson", "romb", "newton_cotes",
             "fixed_quad"]
    for name in names:
        if hasattr(si, name):
            assert inspect.signature(getattr(integrate, name)) == inspect.signature(getattr(si, name)), name
