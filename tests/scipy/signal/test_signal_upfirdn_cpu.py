"""upfirdn and resample_poly without a device: templates/upfirdn.cuh built with g++ and driven
the way the kernel drives it, through the public functions with NumPy arrays, against scipy.signal;
and NVRTC compiles of the kernel."""

import ctypes

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import compiler
from cuarray.scipy.signal import _upfirdn as uf

HOST = r"""
#include "upfirdn.cuh"
using namespace cuarray_signal;
extern "C" void run(const double* h, long long nh, const double* x, long long n, double* y, long long nout,
                    long long inner, long long total, long long up, long long down) {
  for (long long idx = 0; idx < total; ++idx) {
    long long k = idx % inner, t = idx / inner;
    long long i = t % nout, o = t / nout;
    y[idx] = upfirdn_at<double, double>(h, nh, x + o * n * inner + k, n, inner, up, down, i);
  }
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("upfirdn", HOST, uf._DIR)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture
def host_up(monkeypatch, lib):
    from cuarray.scipy.ndimage import _support

    def run(h, x, out_dt, up, down, axis):
        n = x.shape[axis]
        nout = uf.output_len(len(h), n, up, down)
        xd = np.ascontiguousarray(x, np.float64)
        y = np.empty(x.shape[:axis] + (nout,) + x.shape[axis + 1:])
        inner = int(np.prod(x.shape[axis + 1:]))
        if y.size:
            lib.run(_p(np.ascontiguousarray(h, np.float64)), ctypes.c_longlong(len(h)), _p(xd), ctypes.c_longlong(n),
                    _p(y), ctypes.c_longlong(nout), ctypes.c_longlong(inner), ctypes.c_longlong(y.size),
                    ctypes.c_longlong(up), ctypes.c_longlong(down))
        return y.astype(out_dt)

    monkeypatch.setattr(_support, "as_array", lambda x, fn: np.asarray(x))
    monkeypatch.setattr(_support, "ndarray", np.ndarray)
    monkeypatch.setattr(uf, "_run", run)
    monkeypatch.setattr(uf, "ndarray", lambda shape, dt: np.empty(shape, dt))
    monkeypatch.setattr(uf, "_median", np.median)
    from cuarray.scipy import signal

    return signal


RNG = np.random.default_rng(37)


@pytest.mark.parametrize("up,down", [(1, 1), (3, 1), (1, 3), (2, 3), (5, 2), (4, 4)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int16"])
def test_upfirdn(host_up, up, down, dtype):
    h = RNG.normal(size=7)
    x = RNG.normal(size=(3, 25)) * 5
    if dtype == "complex128":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    for axis in (1, 0):
        got = host_up.upfirdn(h, x, up, down, axis=axis)
        ref = ss.upfirdn(h, x, up, down, axis=axis)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-5)


@pytest.mark.parametrize("up,down", [(3, 2), (2, 3), (1, 4), (5, 1), (6, 4)])
@pytest.mark.parametrize("padtype", ["constant", "mean", "median", "maximum"])
def test_resample_poly(host_up, up, down, padtype):
    x = RNG.normal(size=(60, 2)) + 3
    got = host_up.resample_poly(x, up, down, axis=0, padtype=padtype)
    ref = ss.resample_poly(x, up, down, axis=0, padtype=padtype)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9)
    w = np.hamming(31)
    np.testing.assert_allclose(host_up.resample_poly(x[:, 0], up, down, window=w),
                               ss.resample_poly(x[:, 0], up, down, window=w), rtol=1e-9, atol=1e-9)


def test_errors(host_up):
    x = RNG.normal(size=10)
    for call in [lambda s: s.upfirdn([], x), lambda s: s.upfirdn([1.0], x, 0), lambda s: s.resample_poly(x, 1.5, 2),
                 lambda s: s.resample_poly(x, 2, 0)]:
        with pytest.raises(Exception) as ref:
            call(ss)
        with pytest.raises(ref.type):
            call(host_up)
    with pytest.raises(NotImplementedError):
        host_up.upfirdn([1.0, 2.0], x, 2, mode="symmetric")


def test_kernel_compiles_for_sm90():
    names = sorted({uf.kernel_name(np.dtype(a), np.dtype(b)) for a, b in [("f", "f"), ("d", "d"), ("h", "d")]})
    cubin, mapping = compiler.compile_cubin(uf.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("q", [2, 3, 5])
@pytest.mark.parametrize("zero_phase", [True, False])
def test_decimate_fir(host_up, q, zero_phase):
    x = RNG.normal(size=(2, 301))
    got = host_up.decimate(x, q, ftype="fir", zero_phase=zero_phase)
    ref = ss.decimate(x, q, ftype="fir", zero_phase=zero_phase)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("hdt, xdt", [("complex128", "float64"), ("complex64", "float32"), ("complex128", "complex128"),
                                      ("complex128", "float32")])
def test_complex_taps(host_up, hdt, xdt):
    """Complex filters (NotImplementedError before issue 52) as two real ones."""
    h = (RNG.normal(size=6) + 1j * RNG.normal(size=6)).astype(hdt)
    x = RNG.normal(size=(2, 30))
    x = (x + 1j * RNG.normal(size=x.shape) if xdt.startswith("complex") else x).astype(xdt)
    for up, down in [(1, 1), (3, 2), (2, 5)]:
        got, ref = host_up.upfirdn(h, x, up, down), ss.upfirdn(h, x, up, down)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-5 if "64" in hdt else 1e-10, atol=1e-5)
    got = host_up.resample_poly(x, 3, 2, axis=1, window=h)
    ref = ss.resample_poly(x, 3, 2, axis=1, window=h)
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    xc = (RNG.normal(size=40) + 1j * RNG.normal(size=40)).astype(np.complex128)
    np.testing.assert_allclose(host_up.resample_poly(xc, 2, 3), ss.resample_poly(xc, 2, 3), rtol=1e-10, atol=1e-10)
