"""The row-tile softmax (cuarray/scipy/special/templates/softmax_rows.cu) without a device: the
per-row function built with g++ against scipy.special (edge rows: inf, -inf, NaN, one element), the
tile's index arithmetic replayed in Python (every element read and written once, shared-memory slots
distinct and inside the tile), which layouts take the kernel, and NVRTC compiles for sm_90."""

import ctypes
import shutil
import subprocess

import numpy as np
import pytest
import scipy.special as sp

from cuarray.cuda import compiler
from cuarray.scipy.special import _softmax as sm

HOST = r"""
#include "softmax_rows.cuh"
extern "C" void run_d(double* v, long long rows, int n, int log) {
  for (long long r = 0; r < rows; ++r) {
    if (log) cuarray_special::softmax_row<double, true>(v + r * n, n);
    else cuarray_special::softmax_row<double, false>(v + r * n, n);
  }
}
extern "C" void run_f(float* v, long long rows, int n, int log) {
  for (long long r = 0; r < rows; ++r) {
    if (log) cuarray_special::softmax_row<float, true>(v + r * n, n);
    else cuarray_special::softmax_row<float, false>(v + r * n, n);
  }
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    d = tmp_path_factory.mktemp("softmax")
    (d / "h.cpp").write_text(HOST)
    so = d / "libsoftmax.so"
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I", str(sm._DIR), str(d / "h.cpp"), "-o", str(so)],
                   check=True)
    return ctypes.CDLL(str(so))


def _host(lib, x, log):
    v = np.ascontiguousarray(x).copy()
    fn = lib.run_f if v.dtype == np.float32 else lib.run_d
    fn(v.ctypes.data_as(ctypes.c_void_p), ctypes.c_longlong(v.shape[0]), ctypes.c_int(v.shape[1]),
       ctypes.c_int(int(log)))
    return v


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 3, 10, 16, 32])
def test_row_function_matches_scipy(lib, dtype, n):
    rng = np.random.default_rng(100 + n)
    x = (rng.standard_normal((257, n)) * 20).astype(dtype)
    edges = [np.inf, -np.inf, np.nan]
    for k, e in enumerate(edges):  # one edge value per row, and a row of all -inf
        x[k, k % n] = e
    x[3, :] = -np.inf
    rtol = 2e-6 if dtype == "float32" else 1e-13
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(_host(lib, x, False), sp.softmax(x, axis=1), rtol=rtol, atol=1e-30)
        # atol: the row max's entry is -log(s), s = 1 + small, known to the sum's rounding (its order)
        np.testing.assert_allclose(_host(lib, x, True), sp.log_softmax(x, axis=1), rtol=rtol,
                                   atol=8 * np.finfo(dtype).eps)


def _replay(rows, n, itemsize):
    """Every block's loads/stores of the kernel, as (global index, shared slot) pairs."""
    p, tr = sm.row_tile(n, itemsize)
    assert tr % 32 == 0 and 32 <= tr <= sm._BLOCK and tr * p * itemsize <= sm._TILE_BYTES
    assert p % 2 == 1 or n == p  # odd pitch when n is even (no bank conflicts)
    seen = np.zeros(rows * n, np.int64)
    for b in range(-(-rows // tr)):
        r0 = b * tr
        nr = min(tr, rows - r0)
        i = np.arange(nr * n)
        r = i // n
        slot = r * p + (i - r * n)
        # the kernel's incremental walk: thread t from slot s0, steps of (B / n rows, B % n columns)
        B = sm._BLOCK
        walked = np.empty(nr * n, np.int64)
        for t in range(B):
            c, at = t % n, (t // n) * p + t % n
            for k in range(t, nr * n, B):
                walked[k] = at
                at += (B // n) * p + B % n
                c += B % n
                if c >= n:
                    c -= n
                    at += p - n
        assert np.array_equal(walked, slot)
        assert len(set(slot.tolist())) == nr * n and slot.max() < tr * p
        # thread t < nr owns row t: slots [t*p, t*p + n) hold exactly row t's elements
        assert np.array_equal(slot // p, r) and np.all(slot % p < n)
        seen[r0 * n + i] += 1
    assert np.all(seen == 1)


@pytest.mark.parametrize("rows", [1, 31, 256, 257, 1000])
@pytest.mark.parametrize("n", [1, 2, 10, 16, 31, 32])
@pytest.mark.parametrize("itemsize", [4, 8])
def test_tile_covers_every_element_once(rows, n, itemsize):
    _replay(rows, n, itemsize)


class _A:
    """Enough of an ndarray for packed_rows."""

    def __init__(self, shape, dtype="float32", c=True, f=False):
        self.shape, self.dtype = shape, np.dtype(dtype)
        self.size = int(np.prod(shape))
        self._c, self._f = c, f


def test_which_layouts_take_the_kernel():
    assert sm.packed_rows(_A((1000, 10)), 1) == (1000, 10)
    assert sm.packed_rows(_A((4, 5, 10)), 2) == (20, 10)
    assert sm.packed_rows(_A((4, 10, 1)), 1) == (4, 10)  # trailing length-1 axes
    assert sm.packed_rows(_A((10, 1000), c=False, f=True), 0) == (1000, 10)  # x.T of a C array
    assert sm.packed_rows(_A((7,)), None) == (1, 7)
    assert sm.packed_rows(_A((3, 4), c=True, f=False), None) == (1, 12)
    assert sm.packed_rows(_A((1000, 10)), 0) is None  # the axis is not the fast one
    assert sm.packed_rows(_A((1000, 33)), 1) is None  # longer than ROW_MAX
    assert sm.packed_rows(_A((1000, 10), c=False), 1) is None  # strided
    assert sm.packed_rows(_A((0, 10)), 1) is None  # empty: SciPy's errors/empty result, composed path
    assert sm.packed_rows(_A((1000, 10), "float16"), 1) is None  # NumPy computes in float16
    # > 2**31 elements: the kernel indexes rows and offsets in 64 bits
    assert sm.packed_rows(_A((2**28 + 3, 10)), 1) == (2**28 + 3, 10)


def test_kernel_compiles_for_sm90():
    names = [sm.kernel_name(np.dtype(d), log) for d in ("float32", "float64") for log in (False, True)]
    cubin, mapping = compiler.compile_cubin(sm.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)
