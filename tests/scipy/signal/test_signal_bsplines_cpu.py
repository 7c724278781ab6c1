"""B-splines and symmetric IIR smoothing without a device: the functions run over NumPy stand-ins
for the cuarray operations they call (SciPy's own lfilter/sosfilt for cuarray's, ndimage's
convolve1d for cuarray's), against scipy.signal: the start-state sums (their length decided as
SciPy's C loops decide it, so convergence errors match), dtypes, edges; and the signatures."""

import inspect
import re
import types

import numpy as np
import pytest

ss = pytest.importorskip("scipy.signal")
nd = pytest.importorskip("scipy.ndimage")

from cuarray.scipy import signal as cs  # noqa: E402
from cuarray.scipy.signal import _bsplines as B  # noqa: E402
from cuarray.scipy.signal import _symiir as S  # noqa: E402

RNG = np.random.default_rng(11)


def _astype(x, dt, copy=True, order="K"):
    return np.asarray(x).astype(dt, copy=copy)


@pytest.fixture(scope="module")
def host(host_copies):
    """scipy.signal's private copy (conftest's `host_copies`) with NumPy and SciPy for _symiir's and
    _bsplines' device routines."""
    common = dict(_data=lambda x, fn: np.asarray(x), _astype=_astype, _concatenate=np.concatenate, _sum=np.sum,
                  _lfilter=ss.lfilter)
    return host_copies({
        S: dict(common, _from_host=np.asarray, _stack=np.stack, _sosfilt=ss.sosfilt),
        B: dict(common, _zeros=np.zeros, _ascontiguousarray=np.ascontiguousarray, _arange=np.arange, _moveaxis=np.moveaxis, _exp=np.exp, _abs=np.abs,
                _clip=np.clip, _floor=np.floor, _cos=np.cos, _sin=np.sin, _where=np.where,
                _ndf=types.SimpleNamespace(convolve1d=nd.convolve1d)),
    })[cs]


def _same(got, ref, tol=1e-9):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = max(tol, 2e-6) if ref.dtype.char in "fF" else tol
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def _data(shape, dt):
    x = RNG.normal(size=shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return x.astype(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("shape", [(5,), (50,), (3, 64)])
def test_symiirorder1(host, dt, shape):
    x = _data(shape, dt)
    for z1 in (0.1, -0.5, 0.9, -0.99):
        for precision in (-1, 1e-3, 0.5, 2.0):
            try:
                ref = ss.symiirorder1(x, 0.7, z1, precision)
            except ValueError as exc:
                with pytest.raises(ValueError) as got:
                    host.symiirorder1(x, 0.7, z1, precision)
                assert str(got.value) == str(exc)
                continue
            _same(host.symiirorder1(x, 0.7, z1, precision), ref, 1e-7)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(7,), (50,), (3, 64)])
def test_symiirorder2(host, dt, shape):
    x = _data(shape, dt)
    for r, omega in ((0.5, 0.3), (0.8, 0.0), (0.3, np.pi), (0.9, 1.2), (0.2, 2.5)):
        for precision in (-1, 1e-3):
            try:
                ref = ss.symiirorder2(x, r, omega, precision)
            except ValueError as exc:
                with pytest.raises(ValueError) as got:
                    host.symiirorder2(x, r, omega, precision)
                assert str(got.value) == str(exc)
                continue
            _same(host.symiirorder2(x, r, omega, precision), ref, 1e-7)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128])
def test_symiir_strided_batches(host, dt):
    # SciPy's symiirorder1 start state (C, symiirorder1_ic) reads a strided view as if it were
    # C-contiguous, so SciPy's own answer for one is wrong: the oracle is SciPy on a dense copy
    x = _data((4, 300), dt)
    views = ((slice(None), slice(None, None, 2)), (slice(None, None, -2), slice(3, None, 3)), (1, slice(None, None, 3)))
    for view in views:
        ref = ss.symiirorder1(np.ascontiguousarray(x[view]), 0.7, 0.3)
        _same(host.symiirorder1(x[view], 0.7, 0.3), ref, 1e-7)
        if dt != np.complex128:
            ref = ss.symiirorder2(np.ascontiguousarray(x[view]), 0.5, 0.3)
            _same(host.symiirorder2(x[view], 0.5, 0.3), ref, 1e-7)


def test_symiir_errors(host):
    with pytest.raises(ValueError, match=r"\|z1\| must be less than 1.0"):
        host.symiirorder1(np.ones(40), 1.0, 1.0)
    with pytest.raises(ValueError, match="r must be less than 1.0"):
        host.symiirorder2(np.ones(40), 1.0, 0.5)
    with pytest.raises(ValueError, match="Input must be 1D or 2D"):
        host.symiirorder1(np.ones((2, 2, 40)), 1.0, 0.5)
    _same(host.symiirorder1(np.arange(40), 1.0, 0.2), ss.symiirorder1(np.arange(40), 1.0, 0.2))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 50, 3000])
def test_cspline1d_qspline1d(host, dt, n):
    x = _data(n, dt)
    tol = 1e-6 if dt == np.float32 else 1e-8  # (a float64 result of float32 data, partly summed in float32)
    for lamb in (0.0, 0.5, 3.0):
        if not (lamb and n < 3):
            _same(host.cspline1d(x, lamb), ss.cspline1d(x, lamb), tol)
    _same(host.qspline1d(x), ss.qspline1d(x), tol)
    with pytest.raises(ValueError, match="Smoothing quadratic"):
        host.qspline1d(x, 1.0)


def test_spline_eval(host):
    x = RNG.normal(size=20)
    cj, qj = ss.cspline1d(x), ss.qspline1d(x)
    for newx in (np.linspace(-50, 70, 301), np.arange(-30, 40), np.linspace(0, 19, 7).astype(np.float32), np.array([])):
        for dx, x0 in ((1.0, 0), (0.5, 2)):
            _same(host.cspline1d_eval(cj, newx, dx, x0), ss.cspline1d_eval(cj, newx, dx, x0))
            _same(host.qspline1d_eval(qj, newx, dx, x0), ss.qspline1d_eval(qj, newx, dx, x0))
    newx = np.linspace(0, 19, 7)
    _same(host.cspline1d_eval(cj.astype(np.float32), newx), ss.cspline1d_eval(cj.astype(np.float32), newx))
    with pytest.raises(ValueError, match="must not be empty"):
        host.cspline1d_eval(np.array([]), newx)
    with pytest.raises(ValueError, match="must not be empty"):
        host.qspline1d_eval(np.array([]), newx)
    _same(host.qspline1d_eval(np.array([]), np.array([])), ss.qspline1d_eval(np.array([]), np.array([])))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_2d_and_spline_filter(host, dt):
    img = _data((40, 33), dt)
    for lamb in (0.0, 0.1, 2.0):
        got = host.cspline2d(img, lamb)
        _same(got, ss.cspline2d(img, lamb), 1e-7)
        assert got.flags.c_contiguous, ("cspline2d", lamb, got.strides)  # as SciPy's
    got = host.qspline2d(img)
    _same(got, ss.qspline2d(img), 1e-7)
    assert got.flags.c_contiguous, ("qspline2d", got.strides)
    with pytest.raises(ValueError, match="lambda must be negative or zero"):
        host.qspline2d(img, 1.0)
    for lmbda in (0.0, 5.0):
        _same(host.spline_filter(img, lmbda), ss.spline_filter(img, lmbda), 1e-6)
    imgc = _data((40, 33), np.complex128)
    _same(host.spline_filter(imgc, 0.0), ss.spline_filter(imgc, 0.0), 1e-6)
    with pytest.raises(TypeError):
        host.spline_filter(np.ones((40, 40), np.int32))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16, np.int64, np.complex64, np.complex128])
def test_sepfir2d(host, dt):
    img = (_data((12, 9), dt) * 5).astype(dt)
    for hrow, hcol in (([1.0, 2.0, 1.0], [1.0, 0.0, -1.0]), ([0.2, 0.5, 1.0, 0.5, 0.2], [1.0]),
                       ([1.0], [3.0, 1.0, 2.0, 1.0, 3.0])):
        _same(host.sepfir2d(img, hrow, hcol), ss.sepfir2d(img, hrow, hcol), 1e-6)
    with pytest.raises(ValueError, match="odd length"):
        host.sepfir2d(img, [1.0, 1.0], [1.0])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_gauss_spline(host, dt):
    x = np.arange(-5, 6).astype(dt)
    for n in (0, 1, 3):
        _same(host.gauss_spline(x, n), ss.gauss_spline(x, n), 1e-7)


def test_weights_match_scipys_loops():
    # single precision: the loop's products and comparisons are float32 (K decided there)
    w = S.iir1_weights(-0.26794919, np.float32, -1, 100)
    assert w.dtype == np.float32 and np.abs(w[-1]) ** 2 <= np.float32(1e-6) ** 2 < np.abs(w[-2]) ** 2
    with pytest.raises(ValueError, match="did not converge"):
        S.iir1_weights(0.9, np.float64, -1, 100)
    h0, w0, h01, w1 = S.iir2_fwd_weights(0.5, 0.3, np.float64, -1, 200)
    assert len(w0) > 10 and len(w1) > 10
    v0, v1 = S.iir2_bwd_weights(0.5, 0.3, np.float64, 1e-3, 200)
    assert v0[-1] ** 2 <= 1e-3 < v0[-2] ** 2


NAMES = ["cspline1d", "cspline1d_eval", "cspline2d", "qspline1d", "qspline1d_eval", "qspline2d", "spline_filter",
         "gauss_spline", "symiirorder1", "symiirorder2"]


@pytest.mark.parametrize("name", NAMES)
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(cs, name)) == inspect.signature(getattr(ss, name))


def test_sepfir2d_signature_is_scipys_documented_one():
    # SciPy's sepfir2d is a C function: 1.18 gives it a text signature `(input, hrow, hcol)`;
    # 1.17 has none, its docstring's first line says `out = sepfir2d(input, hrow, hcol)`
    try:
        ref = inspect.signature(ss.sepfir2d)
    except ValueError:
        m = re.match(r"\s*(?:\w+\s*=\s*)?sepfir2d\(([^)]*)\)", ss.sepfir2d.__doc__)
        assert m, ss.sepfir2d.__doc__[:80]
        params = [p.strip() for p in m.group(1).split(",")]
    else:
        assert inspect.signature(cs.sepfir2d) == ref
        params = list(ref.parameters)
    assert params == ["input", "hrow", "hcol"]
    assert list(inspect.signature(cs.sepfir2d).parameters) == params
