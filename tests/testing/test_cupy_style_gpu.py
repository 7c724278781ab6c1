"""A test file written for CuPy, moved over by changing its import (`from cupy import testing` ->
`from cuarray import testing`): CuPy's decorators, names and idioms against the real cuarray."""

import unittest  # noqa: F401  (CuPy test files import it; pytest-style classes are what run here)

import numpy
import pytest

from cuarray import testing
from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]


@testing.parameterize(*testing.product({"shape": [(3,), (2, 3)], "axis": [None, 0]}))
class TestSum:

    @testing.for_all_dtypes(no_bool=True, no_float16=True)
    @testing.numpy_cupy_allclose(rtol={numpy.float32: 1e-5, "default": 1e-7})
    def test_sum(self, xp, dtype):
        a = testing.shaped_arange(self.shape, xp, dtype)
        return a.sum(axis=self.axis)

    @testing.for_float_dtypes(no_float16=True)
    @testing.numpy_cupy_array_almost_equal(decimal=5)
    def test_exp_random(self, xp, dtype):
        a = testing.shaped_random(self.shape, xp, dtype)  # no seed: both runs see the same data
        return xp.exp(a / 10)


class TestErrors:

    @testing.numpy_cupy_allclose(accept_error=ValueError)
    def test_reshape_mismatch(self, xp):
        return xp.arange(6).reshape(4, 2)

    @testing.for_CF_orders()
    @testing.numpy_cupy_array_equal()
    def test_order(self, xp, order):
        return xp.asarray(testing.shaped_reverse_arange((2, 3), numpy), order=order)


@testing.for_all_dtypes_combination(names=("dtype1", "dtype2"), no_bool=True, no_float16=True)
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_add_combination(xp, dtype1, dtype2):
    return testing.shaped_arange((2, 3), xp, dtype1) + testing.shaped_arange((2, 3), xp, dtype2)


def test_assertions_on_device_arrays():
    import cuarray as cp

    x = cp.arange(5.0)
    cp.testing.assert_allclose(x, numpy.arange(5.0))
    cp.testing.assert_array_equal(x, x)
    cp.testing.assert_array_less(x, x + 1)
    cp.testing.assert_array_max_ulp(x, x)
    cp.testing.assert_equal({"a": x}, {"a": numpy.arange(5.0)})


@testing.parameterize(*testing.product({"format": ["csr", "csc"], "indices": [
    ([0, 2, 2], [1, 0, 1]),          # element pairs: a dense (1, 3) result
    (slice(1, 3), [0, 2]),           # a sparse result, compared as dense
    ([[0], [2]], [1, 2]),
]}))
class TestSparseResults:

    @testing.for_dtypes("fD")
    @testing.numpy_cupy_array_equal(sp_name="sp", type_check=False)
    def test_indexing(self, xp, sp, dtype):
        a = testing.shaped_sparse_random((3, 4), sp, dtype, 0.5, self.format)
        return a[self.indices]


@testing.numpy_cupy_allclose(sp_name="sp", _check_sparse_format=False)
def test_sparse_format_not_checked(xp, sp):
    a = testing.shaped_sparse_random((3, 4), sp, numpy.float64, 0.5, "csr")
    return a if xp is numpy else a.tocsc()
