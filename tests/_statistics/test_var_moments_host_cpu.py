"""The device math of var's one-pass accumulators (reduction.cuh's `moments` and `shifted`: step,
Chan's combination, m2), built with g++ on the host from the header's own text: a thread's chain of
L elements, then a pairwise tree of combinations (the shape of the GPU's reductions), against NumPy's
two-pass var in float64 on hard data (large offsets, constants, outliers, NaN/inf). The GPU runs the
same functions: tests/_statistics/test_var_methods_gpu.py."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

HEADER = pathlib.Path(__file__).resolve().parents[2] / "cuarray/_core/templates/cuarray/reduction.cuh"

_PRE = r"""
#include <cmath>
#include <vector>
#define __device__
#define __forceinline__ inline
inline float __fdividef(float a, float b) { return a / b; }
using std::fma;
namespace cuarray {
"""
_POST = r"""
}  // namespace cuarray
using namespace cuarray;
template <typename A, typename T, typename S, typename C>
A tree(const T* x, long n, int L, A none, S step, C comb) {
  std::vector<A> parts;
  for (long i = 0; i < n; i += L) {
    A a = none;
    for (long j = i; j < i + L && j < n; ++j) step(a, x[j]);
    parts.push_back(a);
  }
  while (parts.size() > 1) {
    std::vector<A> next;
    for (size_t i = 0; i < parts.size(); i += 2)
      next.push_back(i + 1 < parts.size() ? comb(parts[i], parts[i + 1]) : parts[i]);
    parts.swap(next);
  }
  return parts[0];
}
#define DEF(T, N)                                                                                     \
  extern "C" double welford_##N(const T* x, long n, int L) {                                          \
    return tree(x, n, L, moments_none<T>(), [](moments<T>& a, T v) { moments_step(a, v); },            \
                [](const moments<T>& a, const moments<T>& b) { return moments_combine(a, b); }).m2;     \
  }                                                                                                   \
  extern "C" double shift_##N(const T* x, long n, int L) {                                            \
    return shifted_m2(tree(x, n, L, shifted_none<T>(), [](shifted<T>& a, T v) { shifted_step(a, v); }, \
                           [](const shifted<T>& a, const shifted<T>& b) { return shifted_combine(a, b); })); \
  }
DEF(float, f)
DEF(double, d)
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    text = HEADER.read_text()
    body = text[text.index("template <typename T>\nstruct moments {"):text.index("// argmax/argmin")]
    d = tmp_path_factory.mktemp("moments")
    (d / "m.cpp").write_text(_PRE + body + _POST)
    so = d / "m.so"
    subprocess.run(["g++", "-O2", "-std=c++17", "-shared", "-fPIC", str(d / "m.cpp"), "-o", str(so)], check=True)
    dll = ctypes.CDLL(str(so))
    for name in ("welford_f", "shift_f", "welford_d", "shift_d"):
        getattr(dll, name).restype = ctypes.c_double
        getattr(dll, name).argtypes = (ctypes.c_void_p, ctypes.c_long, ctypes.c_int)
    return dll


def _data(kind, dt, rng, n=100_003):
    if kind == "offset":  # offset / std: 1e4 in float32, 1e9 in float64
        return (rng.standard_normal(n) * (1.0 if dt == np.float32 else 1e-3) + (1e4 if dt == np.float32 else 1e6)
                ).astype(dt)
    if kind == "normal":
        return (rng.standard_normal(n) * 3 + 1000).astype(dt)
    if kind == "outliers":  # a few far values, some of them first in a chain (the shift)
        x = rng.standard_normal(n).astype(dt)
        x[::4099] = 1e4
        x[5] = -3e4
        return x
    return np.full(n, 7.25, dt)  # constant


@pytest.mark.parametrize("algo", ["welford", "shift"])
@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("kind", ["normal", "offset", "outliers", "constant"])
def test_chains_and_combinations_match_numpy(lib, algo, dt, kind):
    x = _data(kind, dt, np.random.default_rng(len(kind)))
    ref = np.var(x.astype(np.float64)) * x.size
    f = getattr(lib, "{}_{}".format(algo, "f" if dt == np.float32 else "d"))
    # the GPU tests' tolerances (Welford at offset/std 1e4 over a 2048-element chain: 1.0e-4)
    rtol = 2e-4 if dt == np.float32 else 1e-8
    for L in (1, 3, 8, 16, 2048):
        got = f(x.ctypes.data, x.size, L)
        if kind == "constant":
            assert got == 0.0, (L, got)  # no deviation is ever formed
        else:
            assert abs(got - ref) <= rtol * ref, (L, got, ref)


@pytest.mark.parametrize("algo", ["welford", "shift"])
def test_nan_and_inf_give_nan(lib, algo):
    rng = np.random.default_rng(3)
    f = getattr(lib, algo + "_f")
    for pos, vals in ((0, (np.nan,)), (10, (np.nan,)), (0, (np.inf,)), (10, (np.inf,)), (10, (np.inf, -np.inf))):
        x = (rng.standard_normal(5000) + 10).astype(np.float32)
        for k, v in enumerate(vals):
            x[pos + 7 * k] = v
        for L in (1, 8, 2048):
            assert np.isnan(f(x.ctypes.data, x.size, L)), (pos, vals, L)


def test_shifted_m2_is_never_negative(lib):
    """S2 - S1^2/n can round below 0 for near-constant data: clamped (a std of NaN otherwise)."""
    x = np.full(4096, 1e4, np.float32)
    x[::7] = np.nextafter(np.float32(1e4), np.float32(2e4))
    for L in (1, 3, 8, 2048):
        assert lib.shift_f(x.ctypes.data, x.size, L) >= 0.0
