"""Structured scalars as ElementwiseKernel and ReductionKernel parameters on the device: CUDA's
float3 and a generated struct (placeholder) reach the operation field by field, against NumPy.
Fresh random values."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

FLOAT3 = np.dtype({"names": ["x", "y", "z"], "formats": [np.float32] * 3})
CHAR_DOUBLE = np.dtype([("a", "i1"), ("b", "f8")], align=True)


def test_elementwise_kernel_struct_parameters():
    rng = np.random.default_rng()
    v = np.array(tuple(rng.standard_normal(3)), FLOAT3)[()]
    cd = np.array((int(rng.integers(-100, 100)), rng.standard_normal()), CHAR_DOUBLE)[()]
    x = rng.standard_normal((33, 7)).astype(np.float32)
    k = cuarray.ElementwiseKernel("float32 x, float3 v, S c", "float64 y",
                                  "y = x * v.x + v.y - v.z + c.a * c.b", "struct_params")
    got = k(cuarray.asarray(x), v, cd).get()
    f = np.float32
    want = ((x * f(v["x"]) + f(v["y"]) - f(v["z"])).astype(np.float64) + float(cd["a"]) * cd["b"])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)  # (NVRTC may contract x * v.x + v.y)


def test_reduction_kernel_struct_parameter():
    rng = np.random.default_rng()
    dt = np.dtype([("scale", "f4"), ("shift", "f4")])
    w = np.array(tuple(rng.standard_normal(2)), dt)[()]
    x = rng.standard_normal((40, 9)).astype(np.float32)
    k = cuarray.ReductionKernel("T x, S w", "T y", "x * w.scale + w.shift", "a + b", "y = a", "0", "weighted")
    got = k(cuarray.asarray(x), w, axis=1).get()
    want = (x * np.float32(w["scale"]) + np.float32(w["shift"])).sum(axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
