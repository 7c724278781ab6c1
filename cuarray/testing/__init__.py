"""Helpers for cuarray's tests: one test body under NumPy and cuarray, dtype parameters, data.

The same body runs with `xp` = numpy and `xp` = cuarray and the results are compared (CuPy's
`numpy_cupy_allclose` pattern). Typical use::

    from cuarray import testing

    @testing.for_float_dtypes()
    @testing.numpy_cuarray_allclose()
    def test_exp(xp, dtype):
        x = testing.shaped_random((3, 4), xp, dtype, seed=0)
        return xp.exp(x)

The decorated test runs with ``xp=numpy`` and ``xp=cuarray``; their results must agree in type,
shape, dtype and value (tolerances by dtype: `tolerance_for`). Needs pytest.
"""

from ._compare import (
    assert_allclose as assert_allclose,
    assert_array_equal as assert_array_equal,
    compare_results as compare_results,
    numpy_cuarray_allclose as numpy_cuarray_allclose,
    numpy_cuarray_array_equal as numpy_cuarray_array_equal,
    tolerance_for as tolerance_for,
)
from ._dtypes import (
    ALL_DTYPES as ALL_DTYPES,
    dtype_id as dtype_id,
    for_all_dtypes as for_all_dtypes,
    for_complex_dtypes as for_complex_dtypes,
    for_dtype_pairs as for_dtype_pairs,
    for_dtypes as for_dtypes,
    for_float_dtypes as for_float_dtypes,
    for_int_dtypes as for_int_dtypes,
    for_signed_dtypes as for_signed_dtypes,
    for_unsigned_dtypes as for_unsigned_dtypes,
)
from ._random import (
    LAYOUTS as LAYOUTS,
    for_layouts as for_layouts,
    non_contiguous as non_contiguous,
    shaped_random as shaped_random,
)
