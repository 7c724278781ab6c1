"""A program in the style of CuPy's examples/custom_struct (written for cuarray, not copied): a
templated 3x3 matrix struct passed by value (a packed host NumPy matrix), kernels instantiated
for float and double through a RawModule's name expressions. Run as a program:
`python matrix_param.py`."""

import sys

import numpy

import cuarray as cp

SOURCE = r"""
template <typename T>
struct Mat3 { T m[3][3]; };

template <typename T>
__global__ void transform(const Mat3<T>* batch, const Mat3<T> left, Mat3<T>* out, int n) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n) return;
    Mat3<T> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            T acc = T(0);
            for (int k = 0; k < 3; ++k) acc += left.m[i][k] * batch[b].m[k][j];
            r.m[i][j] = acc;
        }
    out[b] = r;
}
"""


def main():
    n = 10
    module = cp.RawModule(code=SOURCE, name_expressions=("transform<float>", "transform<double>"))
    for ctype, dt in (("float", numpy.float32), ("double", numpy.float64)):
        batch = cp.random.rand(n * 9, dtype=dt).reshape(n, 3, 3)
        left = numpy.random.default_rng(0).random((3, 3)).astype(dt)
        mat = numpy.dtype({"names": ["m"], "formats": [(dt, (3, 3))]})
        out = cp.empty_like(batch)
        kernel = module.get_function("transform<{}>".format(ctype))
        kernel((1,), (n,), (batch, left.ravel().view(mat), out, n))
        want = numpy.matmul(left, cp.asnumpy(batch))
        cp.testing.assert_array_almost_equal(out, want, decimal=5 if dt == numpy.float32 else 12)
        print("Mat3<{}> by value: ok".format(ctype))
    return 0


if __name__ == "__main__":
    sys.exit(main())
