"""Structured NumPy scalars as RawKernel arguments on the device: CUDA's vector types (float3,
int2, double2, int4, float4) and user structs of 16 and 32 bytes, copied field by field into
arrays by the kernel and compared with the fields NumPy holds. Fresh random values."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

SRC = r"""
struct CharDouble { char a; double b; };
struct Big { double a; int b; double c[2]; };
extern "C" __global__ void fields(float3 f3, int2 i2, const double2 d2, int4 i4, float4 f4, CharDouble cd,
                                  Big big, double* out, int n) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    double v[] = {f3.x, f3.y, f3.z, (double)i2.x, (double)i2.y, d2.x, d2.y, (double)i4.x, (double)i4.y,
                  (double)i4.z, (double)i4.w, f4.x, f4.y, f4.z, f4.w, (double)cd.a, cd.b, big.a,
                  (double)big.b, big.c[0], big.c[1], (double)n};
    for (int k = 0; k < 22; ++k) out[k] = v[k];
}
"""


def _vec(names, fmt):
    return np.dtype({"names": list(names), "formats": [fmt] * len(names)})


def test_struct_arguments_reach_the_kernel_field_by_field():
    rng = np.random.default_rng()
    f3 = np.array(tuple(rng.standard_normal(3)), _vec("xyz", "f4"))[()]
    i2 = np.array(tuple(int(v) for v in rng.integers(-1000, 1000, 2)), _vec("xy", "i4"))[()]
    d2 = np.array(tuple(rng.standard_normal(2)), _vec("xy", "f8"))[()]
    i4 = np.array(tuple(int(v) for v in rng.integers(-1000, 1000, 4)), _vec("xyzw", "i4"))[()]
    f4 = np.array(tuple(rng.standard_normal(4)), _vec("xyzw", "f4"))[()]
    cd = np.array((int(rng.integers(-100, 100)), rng.standard_normal()),
                  np.dtype([("a", "i1"), ("b", "f8")], align=True))[()]
    big = np.array((rng.standard_normal(), int(rng.integers(-1000, 1000)), rng.standard_normal(2)),
                   np.dtype([("a", "f8"), ("b", "i4"), ("c", "f8", (2,))], align=True))[()]
    n = int(rng.integers(1, 1000))
    out = cuarray.zeros(22, cuarray.float64)
    k = cuarray.RawKernel(SRC, "fields")
    k((1,), (32,), (f3, i2, d2, i4, f4, cd, big, out, np.int32(n)))
    want = ([float(np.float32(v)) for v in f3.tolist()] + list(i2.tolist()) + list(d2.tolist())
            + list(i4.tolist()) + [float(np.float32(v)) for v in f4.tolist()] + [cd["a"], cd["b"]]
            + [big["a"], big["b"], big["c"][0], big["c"][1], n])
    np.testing.assert_array_equal(out.get(), np.array(want, np.float64))
