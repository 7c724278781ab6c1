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

It is also CuPy's `cupy.testing`: numpy.testing's assertions on device or host arrays, and CuPy's
decorators under CuPy's names (`numpy_cupy_allclose`, `for_all_dtypes_combination`,
`parameterize`, ...), so a CuPy test file moves over by changing its import (docs/cupy-users.md).
"""

from ._asserts import (
    assert_allclose as assert_allclose,
    assert_array_almost_equal as assert_array_almost_equal,
    assert_array_almost_equal_nulp as assert_array_almost_equal_nulp,
    assert_array_equal as assert_array_equal,
    assert_array_less as assert_array_less,
    assert_array_list_equal as assert_array_list_equal,
    assert_array_max_ulp as assert_array_max_ulp,
    assert_equal as assert_equal,
)

from ._compare import (
    compare_results as compare_results,
    make_decorator as make_decorator,
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
    shaped_arange as shaped_arange,
    shaped_random as shaped_random,
    shaped_reverse_arange as shaped_reverse_arange,
)
from ._cupy_helpers import (  # the rest of cupy.testing's public helpers
    assert_warns as assert_warns,
    fix_random as fix_random,
    for_contiguous_axes as for_contiguous_axes,
    generate_matrix as generate_matrix,
    generate_seed as generate_seed,
    installed as installed,
    numpy_satisfies as numpy_satisfies,
    shaped_linspace as shaped_linspace,
    shaped_sparse_random as shaped_sparse_random,
)
from ._cupy_names import (  # CuPy's names and signatures (cupy.testing)
    for_all_dtypes_combination as for_all_dtypes_combination,
    for_CF_orders as for_CF_orders,
    for_dtypes_combination as for_dtypes_combination,
    for_float_dtypes_combination as for_float_dtypes_combination,
    for_int_dtypes_combination as for_int_dtypes_combination,
    for_orders as for_orders,
    for_signed_dtypes_combination as for_signed_dtypes_combination,
    for_unsigned_dtypes_combination as for_unsigned_dtypes_combination,
    multi_gpu as multi_gpu,
    numpy_cupy_allclose as numpy_cupy_allclose,
    numpy_cupy_array_almost_equal as numpy_cupy_array_almost_equal,
    numpy_cupy_array_almost_equal_nulp as numpy_cupy_array_almost_equal_nulp,
    numpy_cupy_array_equal as numpy_cupy_array_equal,
    numpy_cupy_array_less as numpy_cupy_array_less,
    numpy_cupy_array_list_equal as numpy_cupy_array_list_equal,
    numpy_cupy_array_max_ulp as numpy_cupy_array_max_ulp,
    numpy_cupy_equal as numpy_cupy_equal,
    parameterize as parameterize,
    product as product,
    product_dict as product_dict,
    slow as slow,
    with_requires as with_requires,
)
