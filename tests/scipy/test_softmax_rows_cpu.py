"""The softmax kernels (cuarray/scipy/special/templates/softmax_rows.cu) without a device: the
per-row and per-line functions built with g++ against scipy.special (edge rows: inf, -inf, NaN, one
element), the row tile's index walk and the lines' mapping replayed in Python (every element read
and written once, shared-memory slots distinct and inside the tile), which layouts take a kernel,
and NVRTC compiles for sm_90."""

import ctypes
import shutil

import numpy as np
import pytest
import scipy.special as sp

from cuarray.cuda import compiler
from cuarray.scipy.special import _softmax as sm
import host_build  # tests/ is on sys.path

HOST = r"""
#include "softmax_rows.cuh"
extern "C" void run_d(double* v, long long rows, int n, int log) {
  for (long long r = 0; r < rows; ++r) {
    if (log) cuarray_special::softmax_row<double, true>(v + r * n, n);
    else cuarray_special::softmax_row<double, false>(v + r * n, n);
  }
}
extern "C" void line_d(const double* x, double* y, long long outer, int n, long long inner, int log) {
  for (long long i = 0; i < outer * inner; ++i) {
    long long o = i / inner, c = i % inner, b = o * n * inner + c;
    if (log) cuarray_special::softmax_line<double, true>(x + b, y + b, n, inner);
    else cuarray_special::softmax_line<double, false>(x + b, y + b, n, inner);
  }
}
extern "C" void line_f(const float* x, float* y, long long outer, int n, long long inner, int log) {
  for (long long i = 0; i < outer * inner; ++i) {
    long long o = i / inner, c = i % inner, b = o * n * inner + c;
    if (log) cuarray_special::softmax_line<float, true>(x + b, y + b, n, inner);
    else cuarray_special::softmax_line<float, false>(x + b, y + b, n, inner);
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
def lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    return host_build.library_of(HOST, ["-O2", "-shared", "-fPIC", "-I", sm._DIR])


def _host_line(lib, x, axis, log):
    """The strided-line function over every line of a C array along `axis`."""
    x = np.ascontiguousarray(x)
    y = np.empty_like(x)
    outer, n, inner = int(np.prod(x.shape[:axis])), x.shape[axis], int(np.prod(x.shape[axis + 1:]))
    fn = lib.line_f if x.dtype == np.float32 else lib.line_d
    fn(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p), ctypes.c_longlong(outer),
       ctypes.c_int(n), ctypes.c_longlong(inner), ctypes.c_int(int(log)))
    return y


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
    """Enough of an ndarray for line_layout."""

    def __init__(self, shape, dtype="float32", c=True, f=False):
        self.shape, self.dtype = shape, np.dtype(dtype)
        self.size = int(np.prod(shape))
        self._c, self._f = c, f


def test_which_layouts_take_a_kernel():
    L = sm.line_layout
    assert L(_A((1000, 10)), 1) == (1000, 10, 1)
    assert L(_A((4, 5, 10)), 2) == (20, 10, 1)
    assert L(_A((4, 10, 1)), 1) == (4, 10, 1)  # trailing length-1 axes
    assert L(_A((10, 1000), c=False, f=True), 0) == (1000, 10, 1)  # x.T of a C array
    assert L(_A((7,)), None) == (1, 7, 1)
    assert L(_A((3, 4), c=True, f=False), None) == (1, 12, 1)
    assert L(_A((1000, 10)), 0) is None  # 1000 > ROW_MAX
    assert L(_A((10, 1000)), 0) == (1, 10, 1000)  # the slow axis: a thread per line
    assert L(_A((50, 7, 30)), 1) == (50, 7, 30)
    assert L(_A((1000, 10), c=False, f=True), 1) == (1, 10, 1000)
    assert L(_A((1, 10), c=True, f=True), 0) == (10, 1, 1)
    assert L(_A((10, 1), c=True, f=True), 0) == (1, 10, 1)
    assert L(_A((1000, 33)), 1) is None  # longer than ROW_MAX
    assert L(_A((10, 3)), (0, 1)) is None  # several axes: composed
    assert L(_A((1000, 10), c=False), 1) is None  # strided
    assert L(_A((0, 10)), 1) is None  # empty: SciPy's errors/empty result, composed path
    assert L(_A((1000, 10), "float16"), 1) is None  # NumPy computes in float16
    # > 2**31 elements: the kernels index rows, lines and offsets in 64 bits
    assert L(_A((2**28 + 3, 10)), 1) == (2**28 + 3, 10, 1)
    assert L(_A((10, 2**28 + 3)), 0) == (1, 10, 2**28 + 3)


@pytest.mark.parametrize("outer, n, inner", [(1, 10, 1000), (3, 7, 5), (50, 1, 3), (2, 32, 257)])
def test_lines_cover_every_element_once(outer, n, inner):
    seen = np.zeros(outer * n * inner, np.int64)
    for idx in range(outer * inner):
        o, c = divmod(idx, inner)
        base = o * n * inner + c
        seen[base + inner * np.arange(n)] += 1
    assert np.all(seen == 1)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_line_function_matches_scipy(lib, dtype, axis):
    rng = np.random.default_rng(7 + axis)
    x = (rng.standard_normal((6, 9, 11)) * 20).astype(dtype)
    x[0, 0, 0], x[1, 2, 3], x[2, 4, 5] = np.inf, -np.inf, np.nan
    rtol = 2e-6 if dtype == "float32" else 1e-13
    with np.errstate(all="ignore"):
        for log in (False, True):
            got = _host_line(lib, x, axis, log)
            want = (sp.log_softmax if log else sp.softmax)(x, axis=axis)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=8 * np.finfo(dtype).eps if log else 1e-30)


def test_kernel_compiles_for_sm90():
    names = [sm.kernel_name(np.dtype(d), log, cols) for d in ("float32", "float64") for log in (False, True)
             for cols in (False, True)]
    cubin, mapping = compiler.compile_cubin(sm.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "logsumexp"])
def test_host_input_follows_the_one_policy(name):
    """A list is refused as every routine refuses it (host_input.as_array), with the message that
    says what to do, not a private check's."""
    from cuarray.scipy import special

    with pytest.raises(TypeError, match=r"cuarray\.scipy\.special\.{}: .*call cuarray\.asarray\(\)".format(name)):
        getattr(special, name)([1.0, 2.0, 3.0])
