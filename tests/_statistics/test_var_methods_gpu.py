"""var/std with each one-pass method forced (`averages._var(..., method=)`: Welford or shifted sums
in a thread, with or without a sum's loads in flight; issue 32) and the public var/std/nanvar/nanstd,
against NumPy's two-pass answer computed in float64 on the same values: the shapes the methods plan
differently (few columns along axis 0, rows, flat), ddof, keepdims, out=, where= (the two-pass
path), and hard data (large offsets, constant columns, NaN/inf). Fresh random data, seeded by the
test id. CPU side: tests/_statistics/test_var_methods_cpu.py."""

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

import cuarray  # noqa: E402
from cuarray._statistics import averages  # noqa: E402

METHODS = list(averages.VAR_METHODS)
# The methods that differ from welford-wide only in the number of accumulator sets: the shapes only.
MAIN = [m for m in METHODS if m not in ("welford-wide4", "welford-wide8")]
RTOL = {"e": 2e-3, "f": 2e-4, "d": 1e-10}


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _data(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.char == "e":
        return (rng.standard_normal(shape) * 3).astype(dt)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 3 + 1000).astype(dt)  # an offset mean
    return rng.integers(0, 200, shape).astype(dt)


def _var(x, axis, method, root=False, **kw):
    """The method forced: `_var`'s positional order (a, axis, dtype, out, ddof, keepdims, where, mean)."""
    return averages._var(x, axis, kw.get("dtype"), kw.get("out"), kw.get("ddof", 0), kw.get("keepdims", False),
                         kw.get("where", True), None, root, np.std if root else np.var, method=method)


def _want(x, axis, root, ddof=0, keepdims=False, where=True, res_dtype=None):
    """NumPy's two-pass answer in float64 on the same values, rounded to NumPy's result dtype."""
    fn = np.std if root else np.var
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            dt = fn(x.reshape(-1)[:2]).dtype if res_dtype is None else res_dtype
            exact = np.asarray(fn(x.astype(np.float64) if x.dtype.kind != "c" else x.astype(np.complex128),
                                  axis=axis, ddof=ddof, keepdims=keepdims, where=where))
    return exact.astype(dt)


def _check(got, want, rtol, msg="", atol=0):
    got = got.get() if hasattr(got, "get") else got
    assert got.dtype == want.dtype and got.shape == want.shape, (msg, got.dtype, want.dtype, got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=msg)


_CASES = [((1_000_000, 4), 0, "float32"), ((1_000_000, 4), 0, "float64"), ((1_000_000, 8), 0, "float32"),
          ((300_000, 2), 0, "float32"), ((100_000, 16), 1, "float32"), ((1_234_567,), None, "float32"),
          ((64, 5000), 1, "float64"), ((3, 5, 7), (0, 2), "float32"), ((200_000, 4), 0, "float16"),
          ((200_000, 4), 0, "int32"), ((1000, 4), 0, "complex64")]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape,axis,dt", _CASES, ids=["{}-{}-{}".format(*c) for c in _CASES])
def test_each_method_matches_numpy(shape, axis, dt, method):
    x = _data(_rng(shape, axis, dt), shape, dt)
    if dt == "complex64":
        x = (x + 1j * _data(_rng(shape, axis, "im"), shape, "float32")).astype(dt)
    xd = cuarray.asarray(x)
    rtol = RTOL.get(np.dtype(dt).char, 1e-10 if np.dtype(dt).kind in "iu" else 2e-4)
    for root, ddof, keepdims in ((False, 0, False), (True, 1, True)):
        want = _want(x, axis, root, ddof, keepdims)
        _check(_var(xd, axis, method, root, ddof=ddof, keepdims=keepdims), want, rtol,
               "{} root={} ddof={}".format(method, root, ddof))


@pytest.mark.parametrize("method", MAIN)
def test_each_method_out_and_where(method):
    rng = _rng("out", method)
    x = _data(rng, (1_000_000, 4), "float32")
    xd = cuarray.asarray(x)
    out = cuarray.empty((4,), np.float32)
    assert _var(xd, 0, method, out=out) is out
    _check(out, _want(x, 0, False), 2e-4, "out=")
    out64 = cuarray.empty((1, 4), np.float64)  # out= of another dtype: a cast, as NumPy's
    assert _var(xd, 0, method, True, out=out64, keepdims=True, ddof=1) is out64
    _check(out64, _want(x, 0, True, 1, True).astype(np.float64), 2e-4, "out= float64")
    w = rng.random((1_000_000, 4)) < 0.7
    with np.errstate(all="ignore"):
        want = np.var(x.astype(np.float64), axis=0, where=w).astype(np.float32)
    _check(_var(xd, 0, method, where=cuarray.asarray(w)), want, 2e-4, "where=")


def _hard(kind, shape, dt, rng):
    """Hard data for one-pass formulas; (array, rtol)."""
    n = shape[0]
    if kind == "offset":
        # Columns alternate two (mean, std): float32 at offset/std 1e4 (a float32 partial mean keeps
        # ~4 digits of the deviations there; NumPy's own float32 var loses more), float64 at 1e9.
        pairs = ((1e4, 1.0), (1e3, 0.1)) if dt == "float32" else ((1e6, 1e-3), (1e3, 1e-3))
        m = np.array([pairs[i % 2][0] for i in range(shape[1])])
        s = np.array([pairs[i % 2][1] for i in range(shape[1])])
        return (rng.standard_normal(shape) * s + m).astype(dt), (2e-4 if dt == "float32" else 1e-8)
    if kind == "quantized":  # float32 1e6 +- 1e-3 rounds to 1e6 itself: an exact 0
        return (rng.standard_normal(shape) * 1e-3 + 1e6).astype(dt), 0.0
    if kind == "constant":  # constant columns beside normal ones
        x = _data(rng, shape, dt)
        x[:, ::2] = np.array([7.25, -3.5, 1e3, 0.0][:shape[1] // 2 + shape[1] % 2], dt)
        return x, RTOL[np.dtype(dt).char]
    # nonfinite: a NaN, an inf, -inf with +inf, and a finite column
    x = _data(rng, shape, dt)
    x[rng.integers(n), 0] = np.nan
    x[rng.integers(n), 1] = np.inf
    x[rng.integers(n), 2] = np.inf
    x[rng.integers(n), 2] = -np.inf
    return x, RTOL[np.dtype(dt).char]


@pytest.mark.parametrize("method", MAIN)
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["offset", "quantized", "constant", "nonfinite"])
def test_each_method_on_hard_data(kind, dt, method):
    if kind == "quantized" and dt == "float64":
        pytest.skip("float64 keeps the deviations")
    if kind == "quantized" and method == "two-pass":
        pytest.skip("the two-pass path's float32 mean of 1e6 x 1e6 is rounded: deviations of an ulp")
    # Constant columns: exactly 0 from the one-pass methods (no deviation is ever formed); the
    # two-pass path's float32 mean may be an ulp off (var <= ulp(1e3)^2 ~ 4e-9, std <= 6e-5).
    atol = 1e-4 if kind == "constant" and method == "two-pass" and dt == "float32" else 0
    rng = _rng("hard", kind, dt, method)
    x, rtol = _hard(kind, (1_000_000, 4), dt, rng)
    xd = cuarray.asarray(x)
    for axis, xs, xsd in ((0, x, xd), (None, x[:, 0].copy() if kind != "nonfinite" else x[:, 3].copy(), None)):
        if xsd is None:
            xsd = cuarray.asarray(xs)
        with np.errstate(all="ignore"):
            for root in (False, True):
                want = _want(xs, axis, root)
                got = _var(xsd, axis, method, root)
                _check(got, want, rtol, "{} {} axis={} root={}".format(kind, method, axis, root), atol)
                if kind == "quantized":
                    assert not got.get().any()


@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("shape,axis,dt", [((1_000_000, 4), 0, "float32"), ((1_000_000, 4), 0, "float64"),
                                           ((100_000, 16), 1, "float32"), ((500_000, 4), 0, "int16")])
def test_public_functions(fn, shape, axis, dt):
    """The public forms (the default method through the fast path: each call twice), NaN in the
    nan* forms' input."""
    rng = _rng("public", fn, shape, dt)
    x = _data(rng, shape, dt)
    if fn.startswith("nan") and x.dtype.kind == "f":
        x[rng.integers(0, shape[0], 1000), rng.integers(0, shape[1], 1000)] = np.nan
    xd = cuarray.asarray(x)
    f, npf = getattr(cuarray, fn), getattr(np, fn)
    rtol = RTOL.get(np.dtype(dt).char, 1e-10)
    for ddof, keepdims in ((0, False), (1, True), (0, False), (1, True)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = npf(x[:2], axis=axis, ddof=ddof).dtype
            exact = np.asarray(npf(x.astype(np.float64), axis=axis, ddof=ddof, keepdims=keepdims)).astype(res)
        _check(f(xd, axis=axis, ddof=ddof, keepdims=keepdims), exact, rtol, "{} ddof={}".format(fn, ddof))
