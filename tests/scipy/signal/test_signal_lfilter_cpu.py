"""scipy.signal's linear filters without a device: templates/iir.cuh (the recursion the kernel
runs) built with g++, driven by the public functions with NumPy arrays for cuarray arrays, against
scipy.signal; and NVRTC compiles of the kernel."""

import ctypes
import importlib.util
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import compiler
from cuarray.scipy.signal import _lfilter as lf

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")

_spec = importlib.util.spec_from_file_location(
    "ndimage_filter_models", pathlib.Path(__file__).parent.parent / "ndimage" / "test_ndimage_filters_cpu.py")
_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_models)
host_ndimage = _models.host_ndimage

HOST = r"""
#include "iir.cuh"
using namespace cuarray_signal;
extern "C" void run(const double* ba, int K, const double* x, double* y, long long n, long long inner,
                    long long lines, const double* zi, double* zf) {
  for (long long line = 0; line < lines; ++line) {
    long long o = line / inner, k = line - o * inner;
    long long base = o * n * inner + k, zbase = o * (long long)K * inner + k;
    lfilter_line<512, double, double>(ba, K, x + base, y + base, n, inner, zi ? zi + zbase : nullptr,
                                      zf ? zf + zbase : nullptr);
  }
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    d = tmp_path_factory.mktemp("iir")
    (d / "h.cpp").write_text(HOST)
    so = d / "libiir.so"
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I", str(lf._DIR), str(d / "h.cpp"), "-o", str(so)], check=True)
    return ctypes.CDLL(str(so))


def _p(a):
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture
def host_lfilter(host_ndimage, monkeypatch, lib):
    def astype(x, dt, order="K", copy=True):
        return np.array(x, dtype=dt, order=order, copy=True) if copy else np.asarray(x, dtype=dt, order=order)

    def run(ba, K, x, out_dt, axis, zi):
        xd = np.ascontiguousarray(x, np.float64)
        y = np.empty(x.shape)
        zf = None if zi is None else np.empty(x.shape[:axis] + (K,) + x.shape[axis + 1:])
        n = x.shape[axis]
        if x.size and n:
            inner = int(np.prod(x.shape[axis + 1:]))
            zid = None if zi is None else np.ascontiguousarray(zi, np.float64)
            lib.run(_p(np.ascontiguousarray(ba, np.float64)), ctypes.c_int(K), _p(xd), _p(y), ctypes.c_longlong(n),
                    ctypes.c_longlong(inner), ctypes.c_longlong(x.size // n), _p(zid), _p(zf))
        return y.astype(out_dt), zf

    monkeypatch.setattr(lf, "_run", run)
    monkeypatch.setattr(lf, "_from_host", np.asarray)
    monkeypatch.setattr(lf, "astype", astype)
    monkeypatch.setattr(lf, "ndarray", lambda shape, dt: np.empty(shape, dt))
    monkeypatch.setattr(lf, "_concatenate", np.concatenate)
    monkeypatch.setattr(lf, "_broadcast", np.broadcast_to)
    monkeypatch.setattr(lf, "_stack", np.stack)
    from cuarray.scipy.signal import _convolve

    monkeypatch.setattr(_convolve, "_fft", np.fft)
    from cuarray.scipy import signal

    return signal


RNG = np.random.default_rng(9)
FILTERS = [ss.butter(4, 0.2), ss.cheby1(3, 1, [0.2, 0.5], "bandpass"), (RNG.normal(size=7), [1.0]),
           ([0.5, 0.2], [2.0, -0.3, 0.1]), ([1.0], [1.0, -0.5])]


@pytest.mark.parametrize("fi", range(len(FILTERS)))
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int32"])
def test_lfilter(host_lfilter, fi, dtype):
    b, a = FILTERS[fi]
    x = RNG.normal(size=(4, 50, 3))
    x = (x + 1j * RNG.normal(size=x.shape) if dtype == "complex128" else x * 10).astype(dtype)
    for axis in (1, 0, -1):
        try:
            ref = ss.lfilter(b, a, x, axis)
        except NotImplementedError:
            with pytest.raises(NotImplementedError):
                host_lfilter.lfilter(b, a, x, axis)
            continue
        got = host_lfilter.lfilter(b, a, x, axis)
        assert got.dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-9)
        K = max(len(a), len(b)) - 1
        zshape = list(x.shape)
        zshape[axis] = K
        zi = RNG.normal(size=zshape)
        ref_y, ref_z = ss.lfilter(b, a, x, axis, zi)
        got_y, got_z = host_lfilter.lfilter(b, a, x, axis, zi)
        assert got_y.dtype == ref_y.dtype and got_z.dtype == ref_z.dtype and got_z.shape == ref_z.shape
        np.testing.assert_allclose(got_y, ref_y, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-8)
        np.testing.assert_allclose(got_z, ref_z, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-8)


def test_long_fir_and_broadcast_zi(host_lfilter):
    b = RNG.normal(size=600)
    x = RNG.normal(size=(2, 900))
    np.testing.assert_allclose(host_lfilter.lfilter(b, [1.0], x), ss.lfilter(b, [1.0], x), atol=1e-9)
    zi = RNG.normal(size=(2, 599))
    for got, ref in zip(host_lfilter.lfilter(b, [1.0], x, zi=zi), ss.lfilter(b, [1.0], x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-9)
    b, a = ss.butter(3, 0.3)
    x = RNG.normal(size=(5, 40))
    zi = RNG.normal(size=(1, 3))
    for got, ref in zip(host_lfilter.lfilter(b, a, x, zi=zi), ss.lfilter(b, a, x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-10)


def test_zi_functions(host_lfilter):
    for b, a in FILTERS:
        np.testing.assert_allclose(host_lfilter.lfilter_zi(b, a), ss.lfilter_zi(b, a), atol=1e-12)
    sos = ss.butter(6, [0.1, 0.4], "bandpass", output="sos")
    np.testing.assert_allclose(host_lfilter.sosfilt_zi(sos), ss.sosfilt_zi(sos), atol=1e-12)


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
def test_filtfilt_sos(host_lfilter, padtype):
    x = RNG.normal(size=(3, 120))
    b, a = ss.butter(4, 0.15)
    np.testing.assert_allclose(host_lfilter.filtfilt(b, a, x, padtype=padtype),
                               ss.filtfilt(b, a, x, padtype=padtype), atol=1e-10)
    np.testing.assert_allclose(host_lfilter.filtfilt(b, a, x.T, axis=0, padtype=padtype, padlen=20),
                               ss.filtfilt(b, a, x.T, axis=0, padtype=padtype, padlen=20), atol=1e-10)
    sos = ss.butter(6, 0.2, output="sos")
    np.testing.assert_allclose(host_lfilter.sosfilt(sos, x), ss.sosfilt(sos, x), atol=1e-10)
    zi = RNG.normal(size=(3, 3, 2))
    for got, ref in zip(host_lfilter.sosfilt(sos, x, zi=zi), ss.sosfilt(sos, x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-10)
    np.testing.assert_allclose(host_lfilter.sosfiltfilt(sos, x, padtype=padtype),
                               ss.sosfiltfilt(sos, x, padtype=padtype), atol=1e-10)


def test_errors(host_lfilter):
    x = RNG.normal(size=20)
    for call in [lambda s: s.lfilter([], [1.0], x), lambda s: s.lfilter([1.0], [[1.0]], x),
                 lambda s: s.lfilter([1, 2], [1], np.arange(5)),
                 lambda s: s.lfilter([1.0, 2.0], [1.0, 0.5], x, zi=np.ones(3)),
                 lambda s: s.filtfilt([1.0], [1.0, 0.5], x, padlen=30),
                 lambda s: s.filtfilt([1.0], [1.0, 0.5], x, padtype="bogus"),
                 lambda s: s.sosfilt(np.ones((2, 5)), x)]:
        with pytest.raises(Exception) as ref:
            call(ss)
        with pytest.raises(ref.type):
            call(host_lfilter)


def test_kernel_compiles_for_sm90():
    names = sorted({lf.kernel_name(np.dtype(i), np.dtype(o), k) for i, o, k in
                    [("f", "f", 2), ("d", "d", 8), ("f", "d", 30), ("d", "f", 100), ("d", "d", 500)]})
    cubin, mapping = compiler.compile_cubin(lf.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("q,n", [(2, None), (4, 6)])
@pytest.mark.parametrize("zero_phase", [True, False])
def test_decimate_iir(host_lfilter, q, n, zero_phase):
    x = RNG.normal(size=(2, 300))
    got = host_lfilter.decimate(x, q, n, zero_phase=zero_phase)
    ref = ss.decimate(x, q, n, zero_phase=zero_phase)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9)
