"""ElementwiseKernel calls that reuse an earlier call's binding, against NumPy on the GPU: the
scalars, pointers and outputs of each call (not the first call's), alternating dtypes, shapes,
layouts (a raw input copied when not C-contiguous), Python and NumPy scalars, outputs given and
allocated, and a placeholder bound by a Python int's value."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402


def test_repeated_calls_use_their_own_arguments():
    # (a sum of a difference: no multiply for the compiler to contract into an FMA, so NumPy's
    # two roundings are the kernel's)
    k = cuarray.ElementwiseKernel("T x, T y, int64 n", "T z", "z = (x - y) + (T)n", "bind_gpu_diff")
    rng = np.random.default_rng()
    for it in range(12):
        dt = ("float32", "float64", "int32")[it % 3]
        shape = ((257,), (13, 11), (0,))[it // 3 % 3]
        hx = (rng.standard_normal(shape) * 10).astype(dt)
        hy = (rng.standard_normal(shape) * 10).astype(dt)
        n = int(rng.integers(-100, 100))
        x, y = cuarray.asarray(hx), cuarray.asarray(hy)
        want = ((hx - hy) + np.asarray(n).astype(dt)).astype(dt)
        if it % 2:
            z = cuarray.empty(shape, dt)
            assert k(x, y, n, z) is z
        else:
            z = k(x, y, np.int64(n))
        np.testing.assert_array_equal(z.get(), want)


def test_raw_input_of_changing_layout():
    k = cuarray.ElementwiseKernel("raw T x", "T z", "z = x[_ind.size() - 1 - i]", "bind_gpu_rev")
    rng = np.random.default_rng()
    h = rng.standard_normal((16, 16)).astype(np.float32)
    for view in (lambda a: a, lambda a: a.T, lambda a: a, lambda a: a[::-1], lambda a: a.T):
        hv = view(h)
        z = cuarray.empty(256, np.float32)
        k(view(cuarray.asarray(h)), z)
        np.testing.assert_array_equal(z.get(), np.ascontiguousarray(hv).ravel()[::-1])


def test_placeholder_bound_by_python_int_value():
    k = cuarray.ElementwiseKernel("T s, float64 x", "float64 y", "y = x + (double)(s % 7)", "bind_gpu_pyint")
    x = cuarray.zeros(4)
    for s in (5, 2**63 + 3, 12, 2**64 - 1):
        want = np.zeros(4) + float(np.asarray(s) % 7)
        np.testing.assert_array_equal(k(s, x).get(), want)
