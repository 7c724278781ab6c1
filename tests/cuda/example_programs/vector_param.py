"""A program in the style of CuPy's examples/custom_struct (written for cuarray, not copied): a CUDA
vector type (double3) passed by value from a host NumPy array viewed as a structured dtype, and a
float4 from four host floats. Run as a program: `python vector_param.py`."""

import sys

import numpy

import cuarray as cp

SOURCE = r"""
extern "C" __global__ void shift(const double3* points, double3 by, float4 scale, int n, double3* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double3 p = points[i];
    out[i] = make_double3((p.x + by.x) * scale.x, (p.y + by.y) * scale.y, (p.z + by.z) * scale.z + scale.w);
}
"""

DOUBLE3 = numpy.dtype({"names": ["x", "y", "z"], "formats": [numpy.float64] * 3})
FLOAT4 = numpy.dtype({"names": ["x", "y", "z", "w"], "formats": [numpy.float32] * 4})


def main():
    n = 37
    points = cp.random.rand(n * 3, dtype=numpy.float64).reshape(n, 3)
    by = numpy.array([0.5, -1.0, 2.0])
    scale = numpy.array([2.0, 3.0, 0.5, 1.0], numpy.float32)
    out = cp.empty_like(points)
    kernel = cp.RawKernel(SOURCE, "shift")
    kernel(((n + 31) // 32,), (32,), (points, by.view(DOUBLE3), scale.view(FLOAT4), n, out))
    want = (cp.asnumpy(points) + by) * scale[:3].astype(numpy.float64)
    want[:, 2] += scale[3]
    cp.testing.assert_array_almost_equal(out, want, decimal=12)
    print("double3 and float4 by value: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
