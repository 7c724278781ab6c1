"""lombscargle without a device: templates/lombscargle.cuh built with g++ and driven as the kernel
drives it (samples strided over "threads" whose partial sums are then added), the rest with NumPy
arrays for cuarray arrays, against scipy.signal; and an NVRTC compile of the kernel."""

import ctypes
import re

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import compiler
from cuarray.scipy.signal import _lombscargle as ls
from cuarray.testing.fake_device import host_modules

HOST = r"""
#include <cmath>
#include "lombscargle.cuh"
using namespace cuarray_signal;
// The kernel's sums, one frequency at a time: `threads` strided partial sums, then their total.
extern "C" void periodogram(const double* x, const double* y, const double* w, long long n, const double* freqs,
                            long long nf, int normalize, int floating_mean, int threads, double* out) {
  const int width = normalize == LS_AMPLITUDE ? 2 : 1;
  for (long long k = 0; k < nf; ++k) {
    double s1[LS_SUMS1] = {0}, s2[LS_SUMS2] = {0};
    for (int t = 0; t < threads; ++t) {
      double p[LS_SUMS1] = {0};
      for (long long i = t; i < n; i += threads) ls_add1(freqs[k], x[i], w[i], y[i], p);
      for (int j = 0; j < LS_SUMS1; ++j) s1[j] += p[j];
    }
    double tau = ls_tau(s1, floating_mean != 0);
    for (int t = 0; t < threads; ++t) {
      double p[LS_SUMS2] = {0};
      for (long long i = t; i < n; i += threads) ls_add2(freqs[k], x[i], w[i], y[i], tau, p);
      for (int j = 0; j < LS_SUMS2; ++j) s2[j] += p[j];
    }
    ls_finish(s1, s2, tau, n, normalize, floating_mean != 0, out + width * k);
  }
}
"""


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture(scope="module")
def host_ls(host_lib):
    """lombscargle of a private copy of _lombscargle and ndimage's _support (nothing of cuarray
    patched), the kernel built with g++."""
    from cuarray.scipy.ndimage import _support
    from cuarray.scipy.signal import _args

    lib = host_lib("lombscargle", HOST, ls._DIR)

    def run(x, y, w, freqs, mode, floating_mean):
        for a in (x, y, w, freqs):
            assert a.dtype == np.float64 and a.flags.c_contiguous  # what the kernel reads
        out = np.empty(freqs.shape[0], np.complex128 if mode == 2 else np.float64)
        lib.periodogram(_p(x), _p(y), _p(w), ctypes.c_longlong(x.shape[0]), _p(freqs),
                        ctypes.c_longlong(freqs.shape[0]), ctypes.c_int(mode), ctypes.c_int(int(bool(floating_mean))),
                        ctypes.c_int(7), _p(out))
        return out

    return host_modules({_support: dict(as_array=lambda x, fn: np.asarray(x)),
                         _args: dict(_literal=lambda x, fn: np.asarray(x)),
                         ls: dict(_launch_lombscargle=run, _full=np.full)})[ls].lombscargle


RNG = np.random.default_rng(31)


def _signal(n, dtype=np.float64):
    x = np.sort(RNG.uniform(0, 20, n))
    y = 2.0 * np.sin(1.3 * x + 0.4) + 0.5 * np.cos(3.1 * x) + 0.8 + RNG.normal(scale=0.3, size=n)
    return x.astype(dtype), y.astype(dtype)


@pytest.mark.parametrize("normalize", [False, True, "power", "normalize", "amplitude"])
@pytest.mark.parametrize("floating_mean", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_lombscargle(host_ls, normalize, floating_mean, weighted):
    x, y = _signal(301)
    # f = 0 is degenerate with a floating mean (YC and CC both cancel to rounding: any ratio of
    # roundings is as right as SciPy's), so it is checked without one
    freqs = np.concatenate([[] if floating_mean else [0.0], RNG.uniform(0.05, 6.0, 120), [1.3, 3.1]])
    kw = dict(normalize=normalize, floating_mean=floating_mean)
    if weighted:
        kw["weights"] = RNG.uniform(0.0, 2.0, x.shape[0])
    ref = ss.lombscargle(x, y, freqs, **kw)
    got = host_ls(x, y, freqs, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())


def test_lombscargle_inputs(host_ls):
    x, y = _signal(50, np.float32)
    for f in ([1.5], np.float32([0.5, 2.5]), 2.0 * np.arange(1, 9, dtype=np.int64)):
        ref = ss.lombscargle(x, y, f)
        got = host_ls(x, y, f)
        assert got.dtype == ref.dtype and got.shape == ref.shape  # one frequency: a 0-d result, as SciPy
        np.testing.assert_allclose(got, ref, rtol=1e-9)
    xs, ys = _signal(100)
    np.testing.assert_allclose(host_ls(xs[::2], ys[::2], [0.7, 1.3], normalize="amplitude"),
                               ss.lombscargle(xs[::2], ys[::2], [0.7, 1.3], normalize="amplitude"), rtol=1e-9)
    for precenter in (True, False):
        with pytest.warns(DeprecationWarning, match="precenter"):
            ref = ss.lombscargle(xs, ys, [0.7, 1.3], precenter=precenter)
        with pytest.warns(DeprecationWarning, match="precenter"):
            got = host_ls(xs, ys, [0.7, 1.3], precenter=precenter)
        np.testing.assert_allclose(got, ref, rtol=1e-9)


@pytest.mark.parametrize("args,kw", [((np.ones(5), np.ones(4), [1.0]), {}),
                                     ((np.ones((2, 2)), np.ones((2, 2)), [1.0]), {}),
                                     ((np.ones(0), np.ones(0), [1.0]), {}), ((np.ones(5), np.ones(5), []), {}),
                                     ((np.ones(5), np.ones(5), np.ones((1, 2))), {}),
                                     ((np.ones(5), np.ones(5), [1.0]), dict(weights=np.ones(4))),
                                     ((np.ones(5), np.ones(5), [1.0]), dict(weights=-np.ones(5))),
                                     ((np.ones(5), np.ones(5), [1.0]), dict(weights=np.zeros(5))),
                                     ((np.ones(5), np.ones(5), [1.0]), dict(normalize="psd")),
                                     ((np.ones(5), np.ones(5), [1.0]), dict(normalize=["power"]))])
def test_lombscargle_errors(host_ls, args, kw):
    with pytest.raises(Exception) as ref:
        ss.lombscargle(*args, **kw)
    with pytest.raises(ref.type, match=re.escape(str(ref.value))):
        host_ls(*args, **kw)


def test_kernel_compiles_for_sm90(ptx):
    cubin, mapping = compiler.compile_cubin(ls.source(), arch="sm_90", name_expressions=(ls.NAME,),
                                            options=ls.OPTIONS)
    assert cubin and set(mapping) == {ls.NAME}
    src = ls.source() + ("template __global__ void cuarray_signal::lombscargle<256>(const double*, const double*,"
                         " const double*, long long, const double*, long long, int, int, double*);")
    assert re.search(r"\bmul\.f64", ptx(src, ()))  # the check can fail: without the option they are fusible
    text = ptx(src, ls.OPTIONS)
    # -fmad=false: the products SciPy rounds (f * x before - tau, w * (c * c), ...) are not fused
    assert "mul.rn.f64" in text and not re.search(r"\bmul\.f64", text)
