"""Small products over a long inner dimension (templates/long_k_products.cu): `A @ B` with
m, n <= 8 and a long k, as one reduction kernel of ours.

cuBLAS parallelises a GEMM over tiles of C, so a C of one tile walks all of k on one SM: the two
(2, 4e5) @ (4e5, 2) float64 products of a Gaussian mixture's M step (`r.T @ X`) took 45 µs each
on an H100 for 12.8 MB read (PyTorch and CuPy, on the same cuBLAS, 47). The kernel here reads A
and B once, every SM taking rows of k, and finishes its own sum (the last block adds the blocks'
partials, in block order): one launch, 7.6 µs. Contiguous operands only (`_matmul._fast_2d`).
"""

from __future__ import annotations

import pathlib

from .._core import reduction as _reduction
from .._core.ndarray import _new_c
from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily
from ..cuda import caches as _caches

__all__ = ["MAX_SIDE", "MAX_BYTES", "MIN_K", "fits", "products", "kernel_name", "source"]

# C of up to 8 x 8 and 512 bytes: its sums live in registers (64 float64 or complex64 values, 128
# registers; 8 x 8 complex128 spilled to local memory in ptxas's sm_90 code). From k = 8192: H100,
# GPU time against one GEMM (scripts/perf/tall_gemm.py --sweep), (2, k, 2) float64 wins from k = 1024
# (5.6 against 7.7 µs), (8, k, 8) float64 ties at 8192 (10.3 against 10.5) and loses below it (10.1
# against 8.0 at 1024). A wider side goes to cuBLAS (or `_matmul._split_k`): a thread reading a row
# of 32-64 adjacent elements of B lost to cuBLAS ((1, 4e6, 64) float32 1047 against 361 µs).
MAX_SIDE = 8
MAX_BYTES = 512
MIN_K = 1 << 13
_BLOCK = 256
_UNROLL = 4  # rows of k in flight a thread, U (m + n) loads issued before the first product ...
_LOADS = 32  # ... and no more than about this many loads (registers) at once
_BLOCKS_PER_SM = 2
_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "long_k_products.cu"
_CTYPE = {"f": "float", "d": "double", "F": "cuarray::complex<float>", "D": "cuarray::complex<double>"}
_ITEMSIZE = {"f": 4, "d": 8, "F": 8, "D": 16}
_prepared: dict = {}  # (char, m, n, k, device) -> (Kernel, grid, partial bytes): a plan, not a compile cache
_caches.register("long-k matmul plans", _prepared)


def source() -> str:
    return _TEMPLATE.read_text()


LONG_K = KernelFamily("cuarray_long_k_products", source, kernels=(
    "cuarray_long_k_products<T, M, N, BLOCK, U>(const T* a, long long a_i, long long a_k, const T* b, "
    "long long b_k, long long b_j, T* c, long long k, T* part, unsigned int* counter)",
))


def _unroll(m: int, n: int) -> int:
    return max(1, min(_UNROLL, _LOADS // (m + n)))


def kernel_name(char: str, m: int, n: int) -> str:
    return "cuarray_long_k_products<{}, {}, {}, {}, {}>".format(_CTYPE[char], m, n, _BLOCK, _unroll(m, n))


def _kernel(char: str, m: int, n: int):
    return LONG_K.kernel(kernel_name(char, m, n))


def fits(char: str, m: int, n: int, k: int, ap: int = 0, bp: int = 0) -> bool:
    """Whether `products` takes this product (`char`: the dtype's character; `ap`/`bp`: the
    operands' addresses, which the kernel's element loads need aligned to the item size: cuarray
    makes no such view (shapes.check_gpu_aligned), but an array imported from another library
    through __cuda_array_interface__ or DLPack is not checked)."""
    if k < MIN_K or m > MAX_SIDE or n > MAX_SIDE or char not in _CTYPE:
        return False
    isz = _ITEMSIZE[char]
    return m * n * isz <= MAX_BYTES and not (ap | bp) % isz


def _prepare(char: str, m: int, n: int, k: int, dev: int) -> tuple:
    """(kernel, grid, bytes of partials) of one shape on device `dev`, made once."""
    key = (char, m, n, k, dev)
    p = _prepared.get(key)
    if p is None:
        u = _unroll(m, n)
        grid = max(1, min(-(-k // (_BLOCK * u)), _BLOCKS_PER_SM * _device._sm_count(dev)))
        p = _prepared[key] = (_kernel(char, m, n), grid, grid * m * n * _ITEMSIZE[char])
    return p


def products(char, dtype, m, n, k, ap, a_i, a_k, bp, b_k, b_j):
    """C = A @ B (m x n, C-contiguous, of `dtype`) where A's element (i, kk) is at
    ap + (i a_i + kk a_k) items and B's (kk, j) at bp + (kk b_k + j b_j) items."""
    c = _new_c((m, n), dtype)
    kern, grid, nbytes = _prepare(char, m, n, k, _device.get_device_id())
    counter, part = _reduction.one_launch_workspace(nbytes)
    kern.launch(grid, _BLOCK, ap, a_i, a_k, bp, b_k, b_j, c.data.ptr, k, part, counter)
    return c
