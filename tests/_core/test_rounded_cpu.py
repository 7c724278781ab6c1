"""cuarray/rounded.cuh (IEEE add, sub, mul, div rounded once, never fused) without a device: NVRTC's
PTX for sm_90 of a * b + c through it holds the separate rounded operations and no fma, where the
plain operators are contracted into one (so the check can fail); the host build (g++ with
-ffp-contract=off, as the templates' CPU tests build it) rounds each step as NumPy does. The
families that use it (linspace/arange, histogram edges, ndimage interpolation and EDT, interp1d)
check their results against NumPy/SciPy in their own tests."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
from cubin_info import nvrtc_text  # tests/ is on sys.path

CORE = pathlib.Path(__file__).resolve().parents[2] / "cuarray" / "_core" / "templates"

_KERNELS = r"""
#include "cuarray/rounded.cuh"
template <typename T> __global__ void rounded(const T* a, const T* b, const T* c, T* out) {
  const int i = threadIdx.x;
  out[4 * i] = cuarray::rn::add(cuarray::rn::mul(a[i], b[i]), c[i]);
  out[4 * i + 1] = cuarray::rn::sub(cuarray::rn::mul(a[i], b[i]), c[i]);
  out[4 * i + 2] = cuarray::rn::add(c[i], cuarray::rn::div(a[i], b[i]));
  out[4 * i + 3] = cuarray::rn::sub(c[i], cuarray::rn::mul(a[i], b[i]));
}
template <typename T> __global__ void plain(const T* a, const T* b, const T* c, T* out) {
  const int i = threadIdx.x;
  out[i] = a[i] * b[i] + c[i];
}
"""


def _ptx(names) -> str:
    from cuda.bindings import nvrtc  # only here: the rest of the file runs without NVRTC

    prog = nvrtc.nvrtcCreateProgram(_KERNELS.encode(), b"rounded.cu", 0, [], [])[1]
    for n in names:
        nvrtc.nvrtcAddNameExpression(prog, n.encode())
    flags = [b"-arch=sm_90", b"-std=c++17", b"--include-path=" + str(CORE).encode()]
    ok = nvrtc.nvrtcCompileProgram(prog, len(flags), flags)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert ok, nvrtc_text(prog, "log")
    return nvrtc_text(prog)


def _entry(ptx: str, fragment: str) -> str:
    """The body of the one .entry whose mangled name contains `fragment`."""
    parts = [p for p in ptx.split(".entry ")[1:] if fragment in p.split("(", 1)[0]]
    assert len(parts) == 1, fragment
    return parts[0]


@pytest.mark.parametrize("t,suffix", [("float", "f32"), ("double", "f64")])
def test_rounded_ops_are_not_contracted(t, suffix):
    pytest.importorskip("cuda.bindings")
    ptx = _ptx(["rounded<{}>".format(t), "plain<{}>".format(t)])
    tag = "f" if t == "float" else "d"
    body = _entry(ptx, "7roundedI" + tag)
    assert "fma" not in body
    assert all(op + ".rn." + suffix in body for op in ("mul", "add", "sub", "div"))
    assert "fma.rn." + suffix in _entry(ptx, "5plainI" + tag)  # the operators are fused: the check can fail


_HOST = r"""
#include "cuarray/rounded.cuh"
template <typename T> void run(const T* a, const T* b, const T* c, T* out, long n) {
  for (long i = 0; i < n; ++i) {
    out[4 * i] = cuarray::rn::add(cuarray::rn::mul(a[i], b[i]), c[i]);
    out[4 * i + 1] = cuarray::rn::sub(cuarray::rn::mul(a[i], b[i]), c[i]);
    out[4 * i + 2] = cuarray::rn::add(c[i], cuarray::rn::div(a[i], b[i]));
    out[4 * i + 3] = cuarray::rn::sub(c[i], cuarray::rn::mul(a[i], b[i]));
  }
}
extern "C" void run_f(const float* a, const float* b, const float* c, float* o, long n) { run(a, b, c, o, n); }
extern "C" void run_d(const double* a, const double* b, const double* c, double* o, long n) { run(a, b, c, o, n); }
"""


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rounded_host_build_rounds_each_step_as_numpy(tmp_path, dtype):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    (tmp_path / "h.cpp").write_text(_HOST)
    so = tmp_path / "librn.so"
    subprocess.run(["g++", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(CORE), str(tmp_path / "h.cpp"),
                    "-o", str(so)], check=True)
    lib = ctypes.CDLL(str(so))
    rng = np.random.default_rng(20261125)
    n = 4096
    a, b, c = (rng.normal(size=n) * 10.0 ** rng.integers(-3, 4, size=n)).astype(dtype), \
        rng.normal(size=n).astype(dtype), rng.normal(size=n).astype(dtype)
    a[:4], b[:4], c[:4] = [np.inf, 0, np.nan, 1e-40], [0, -0.0, 1, 3], [1, -0.0, 2, -np.inf]
    out = np.empty(4 * n, dtype)
    ptr = ctypes.POINTER(ctypes.c_float if dtype == np.float32 else ctypes.c_double)
    fn = lib.run_f if dtype == np.float32 else lib.run_d
    with np.errstate(all="ignore"):
        fn(*(x.ctypes.data_as(ptr) for x in (a, b, c, out)), ctypes.c_long(n))
        want = np.stack([a * b + c, a * b - c, c + a / b, c - a * b], axis=1).ravel()
    np.testing.assert_array_equal(out.view(np.uint8), want.view(np.uint8))
