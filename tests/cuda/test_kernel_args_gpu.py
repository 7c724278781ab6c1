"""Issue 54, CuPy's kernel arguments on the device: Python int/float for int/short/float
parameters, host NumPy structs by value, ElementwiseKernel with a structured NumPy scalar."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

SRC = r"""
extern "C" __global__ void axpb(float* x, float a, int b, short c, unsigned int d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i * a + b + c + (float)(d % 1000u);
}
"""


def test_python_scalars_take_the_declared_widths():
    n = 50
    x = cp.empty(n, dtype=np.float32)
    cp.RawKernel(SRC, "axpb")((1,), (64,), (x, 0.5, -3, 7, 2 ** 32 - 1, n))
    want = np.arange(n, dtype=np.float32) * np.float32(0.5) + np.float32(-3 + 7 + (2 ** 32 - 1) % 1000)
    np.testing.assert_array_equal(x.get(), want)
    # The driver reports widths, not signedness: an int fits when it fits the signed or the unsigned
    # type of the width (2 ** 31 and 40000 do), OverflowError when it fits neither
    with pytest.raises(OverflowError, match="argument 2 of kernel 'axpb'"):
        cp.RawKernel(SRC, "axpb")((1,), (64,), (x, 0.5, 2 ** 32, 7, 1, n))
    with pytest.raises(OverflowError, match="argument 3 of kernel 'axpb'"):
        cp.RawKernel(SRC, "axpb")((1,), (64,), (x, 0.5, 1, 70000, 1, n))
    with pytest.raises(OverflowError, match="argument 3 of kernel 'axpb'"):
        cp.RawKernel(SRC, "axpb")((1,), (64,), (x, 0.5, 1, -32769, 1, n))


def test_struct_mismatch_is_a_type_error_and_the_context_survives():
    src = r"""
    struct pair { int a; double b; };
    extern "C" __global__ void k(pair p, double* out) { out[threadIdx.x] = p.a + p.b; }
    """
    out = cp.zeros(4)
    packed = np.dtype([("a", np.int32), ("b", np.float64)])
    with pytest.raises(TypeError, match="16-byte parameter but the host NumPy array"):
        cp.RawKernel(src, "k")((1,), (4,), (np.zeros(1, packed), out))
    aligned = np.dtype([("a", np.int32), ("b", np.float64)], align=True)
    p = np.zeros(1, aligned)
    p["a"], p["b"] = 3, 0.25
    cp.RawKernel(src, "k")((1,), (4,), (p, out))
    np.testing.assert_array_equal(out.get(), np.full(4, 3.25))


def test_elementwise_kernel_structured_scalar():
    dt = np.dtype({"names": ["x", "y", "z"], "formats": [np.float64] * 3})
    k = cp.ElementwiseKernel("T v, S s", "T out", "out = v * s.x + s.y - s.z", "scale_shift")
    s = np.array([(2.0, 1.0, 0.5)], dt)[0]
    v = cp.arange(6, dtype=np.float64)
    np.testing.assert_array_equal(k(v, s).get(), np.arange(6.0) * 2.0 + 0.5)
    r = cp.ReductionKernel("T v, S s", "T out", "v * s.x", "a + b", "out = a + s.y", "0", "wsum")
    assert float(r(v, s)) == 15.0 * 2.0 + 1.0
