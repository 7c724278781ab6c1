"""Fixtures of the signal tests that run without a device, on private copies of scipy.signal's and
ndimage's modules (`cuarray.testing.fake_device.host_packages`: nothing of cuarray is patched):
`signal_standins` (ndimage's kernels as the NumPy models of
tests/scipy/ndimage/test_ndimage_filters_cpu.py, numpy.fft for cuarray.fft, ...; a test file adds
its own and calls `host_signal_of` or `host_copies`), `host_signal` (scipy.signal's public
functions over NumPy arrays), `host_lib` (tests/scipy/ndimage's
g++ builder), `host_lfilter` (the public functions over templates/iir.cuh built with g++, the
kernels' thread loops run serially), and `ptx` (NVRTC's PTX of a source for sm_90, no device needed)."""

import ctypes
import importlib.util
import pathlib

import numpy as np
import pytest

from cubin_info import nvrtc_text  # tests/ is on sys.path
from cuarray.testing.fake_device import host_packages


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_NDIMAGE = pathlib.Path(__file__).parent.parent / "ndimage"
ndimage_standins = _load("ndimage_filter_models", _NDIMAGE / "test_ndimage_filters_cpu.py").ndimage_standins
_ndimage_conftest = _load("ndimage_conftest", _NDIMAGE / "conftest.py")
host_lib = _ndimage_conftest.host_lib
rank_tile_model = _ndimage_conftest.rank_tile_model  # host_ndimage's models of the rank kernels
scipy_select_model = _ndimage_conftest.scipy_select_model


def _empty(shape, dt):
    return np.empty(shape, dt)


def _host_copies(*standins):
    """Private copies of every module of scipy.signal and scipy.ndimage with the NumPy stand-ins
    (``{module: {name: stand-in}}`` dicts, later ones winning), cuarray's modules untouched
    (`cuarray.testing.fake_device.host_packages`): ``{module: copy}``."""
    from cuarray.scipy import ndimage, signal

    return host_packages([signal, ndimage], *standins)


def _host_signal_of(*standins):
    """scipy.signal's copy with these stand-ins (`host_copies`)."""
    from cuarray.scipy import signal

    return _host_copies(*standins)[signal]


@pytest.fixture(scope="session")
def host_copies():
    """`_host_copies`, for the tests' own fixtures."""
    return _host_copies


@pytest.fixture(scope="session")
def host_signal_of():
    """`_host_signal_of`, for the tests' own fixtures."""
    return _host_signal_of


@pytest.fixture(scope="session")
def signal_standins(ndimage_standins):
    """ndimage's stand-ins and those of convolution and filtering."""
    from cuarray.scipy.signal import _args, _convolve, _filtering

    return {**ndimage_standins,
            _args: dict(_literal=lambda x, fn: np.asarray(x)),
            _convolve: dict(_pad=np.pad, _fft=np.fft, ndarray=_empty, _arange=np.arange),
            _filtering: dict(_fft=np.fft, _concatenate=np.concatenate, _where=np.where, _from_host=np.asarray)}


@pytest.fixture(scope="module")
def host_signal(signal_standins):
    """scipy.signal's copy over NumPy arrays (one for the file: nothing of it is patched)."""
    return _host_signal_of(signal_standins)


@pytest.fixture(scope="session")
def ptx():
    """ptx(source, options) -> the PTX text NVRTC makes of `source` for compute_90."""
    from cuda.bindings import nvrtc

    def compile_ptx(src, options=()):
        prog = nvrtc.nvrtcCreateProgram(src.encode(), b"kernel.cu", 0, [], [])[1]
        flags = [b"-arch=compute_90", b"-std=c++17", *(o.encode() for o in options)]
        assert nvrtc.nvrtcCompileProgram(prog, len(flags), flags)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
        return nvrtc_text(prog)

    return compile_ptx


IIR_DRIVER = r"""
#include "iir.cuh"
using namespace cuarray_signal;
extern "C" void chunks(const double* ba, int K, const double* x, double* y, long long n, long long inner, long long L,
                       long long C, long long total, const double* start, double* end) {
  for (long long t = 0; t < total; ++t) run_chunk<512, double, double>(ba, K, x, y, n, inner, L, C, t, start, end);
}
extern "C" void carry(const double* M, int K, double* states, long long inner, long long C, long long lines,
                      const double* zi, double* zf) {
  for (long long line = 0; line < lines; ++line) carry_line<32>(M, K, states, inner, C, line, zi, zf);
}
template <int K>
void chunks_k_of(const double* ba, const double* x, double* y, long long n, long long inner, long long L, long long C,
                 long long total, const double* start, double* end) {
  for (long long t = 0; t < total; ++t) run_chunk_k<K, double, double>(ba, x, y, n, inner, L, C, t, start, end);
}
template <int K>
void carry_k_of(const double* M, double* states, long long inner, long long C, long long lines, const double* zi,
                double* zf) {
  for (long long line = 0; line < lines; ++line) carry_line_k<K>(M, states, inner, C, line, zi, zf);
}
extern "C" void chunks_k(const double* ba, int K, const double* x, double* y, long long n, long long inner, long long L,
                         long long C, long long total, const double* start, double* end) {
  switch (K) {
""" + "".join("    case {0}: chunks_k_of<{0}>(ba, x, y, n, inner, L, C, total, start, end); break;\n".format(k)
              for k in range(17)) + """  }
}
template <int K>
void overlap_k_of(const double* ba, const double* x, double* y, long long n, long long L, long long C, long long warm,
                  long long total, const double* zi, double* zf) {
  for (long long t = 0; t < total; ++t) run_chunk_overlap_k<K, double, double>(ba, x, y, n, L, C, warm, t, zi, zf);
}
extern "C" void overlap_k(const double* ba, int K, const double* x, double* y, long long n, long long L, long long C,
                          long long warm, long long total, const double* zi, double* zf) {
  switch (K) {
""" + "".join("    case {0}: overlap_k_of<{0}>(ba, x, y, n, L, C, warm, total, zi, zf); break;\n".format(k)
              for k in range(17)) + """  }
}
extern "C" void carry_k(const double* M, int K, double* states, long long inner, long long C, long long lines,
                        const double* zi, double* zf) {
  switch (K) {
""" + "".join("    case {0}: carry_k_of<{0}>(M, states, inner, C, lines, zi, zf); break;\n".format(k)
              for k in range(17)) + """  }
}
"""


def ptr(a):
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture(scope="session")
def lfilter_standins(ndimage_standins, host_lib):
    """ndimage's stand-ins and lfilter's: its scans as templates/iir.cuh built with g++."""
    from cuarray.scipy.signal import _args, _convolve
    from cuarray.scipy.signal import _lfilter as lf

    lib = host_lib("iir", IIR_DRIVER, lf._DIR)
    ll = ctypes.c_longlong

    def astype(x, dt, order="K", copy=True):
        return np.array(x, dtype=dt, order=order, copy=True) if copy else np.asarray(x, dtype=dt, order=order)

    # "staged" runs as "fixed" here: the staged kernel's rows step the same Df2t<K> in the same
    # order (its staging is checked on the GPU)
    def chunks(ba, K, x, y, out_dt, lines, n, inner, L, C, start, end, sweep):
        assert sweep != "staged" or (inner == 1 and x is not None)
        y64 = None if y is None else np.empty(y.shape)
        run = lib.chunks if sweep == "runtime" else lib.chunks_k
        run(ptr(ba), ctypes.c_int(K), ptr(None if x is None else np.ascontiguousarray(x, np.float64)), ptr(y64),
            ll(n), ll(inner), ll(L), ll(C), ll(lines * C), ptr(start), ptr(end))
        if y is not None:
            y[...] = y64

    def overlap(ba, K, x, y, out_dt, lines, n, L, C, warm, win, zi, zf):  # (the window: the kernel's staging)
        y64 = np.empty(y.shape)
        lib.overlap_k(ptr(ba), ctypes.c_int(K), ptr(np.ascontiguousarray(x, np.float64)), ptr(y64), ll(n), ll(L),
                      ll(C), ll(warm), ll(lines * C), ptr(zi), ptr(zf))
        y[...] = y64

    def carry(M, K, states, inner, C, lines, zi, zf, sweep):
        run = lib.carry if sweep == "runtime" else lib.carry_k
        run(ptr(M), ctypes.c_int(K), ptr(states), ll(inner), ll(C), ll(lines), ptr(zi), ptr(zf))

    return {**ndimage_standins,
            lf: dict(_launch_chunks=chunks, _launch_carry=carry, _launch_overlap=overlap, _from_host=np.asarray,
                     astype=astype, ndarray=_empty, _concatenate=np.concatenate, _broadcast=np.broadcast_to,
                     _stack=np.stack),
            _args: dict(_literal=lambda x, fn: np.asarray(x)),
            _convolve: dict(_fft=np.fft, _arange=np.arange)}


@pytest.fixture
def host_lfilter_copies(lfilter_standins):
    """`host_copies` with lfilter's stand-ins, for one test (a test may patch a copy)."""
    return _host_copies(lfilter_standins)


@pytest.fixture
def host_lfilter(host_lfilter_copies):
    """scipy.signal's copy over NumPy arrays, lfilter's scans built with g++."""
    from cuarray.scipy import signal

    return host_lfilter_copies[signal]
