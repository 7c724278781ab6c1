"""cuarray.testing as cupy.testing, on the CPU: numpy.testing's assertions, CuPy's decorator names
and signatures, parameterised classes. The second library is NumPy under another name (as in
test_helpers.py), so every check can be made to pass and to fail without a GPU."""

from __future__ import annotations

import inspect
import io
import subprocess
import sys
import types
import unittest

import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray.testing import _compare


@pytest.fixture(autouse=True)
def fake_cuarray(monkeypatch):
    fake = types.ModuleType("fake_cuarray")
    fake.__getattr__ = lambda name: getattr(numpy, name)
    fake.asnumpy = numpy.asarray
    monkeypatch.setattr(_compare, "_other_xp", fake)
    return fake


def test_testing_is_an_attribute_of_the_package():
    code = ("import sys, cuarray; assert 'cuarray.testing' not in sys.modules\n"
            "cuarray.testing.assert_allclose([1.0], [1.0]); print(cuarray.testing.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "cuarray.testing"
    assert cuarray.testing is testing


# ---- assertions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name, good, bad", [
    ("assert_allclose", ([1.0, 2.0], [1.0, 2.0 + 1e-9]), ([1.0], [1.1])),
    ("assert_array_equal", ([1, 2], [1, 2]), ([1, 2], [1, 3])),
    ("assert_array_almost_equal", ([1.0], [1.0 + 1e-8]), ([1.0], [1.001])),
    ("assert_array_almost_equal_nulp", (numpy.float64([1.0]), numpy.float64([1.0])),
     (numpy.float64([1.0]), numpy.float64([1.001]))),
    ("assert_array_max_ulp", (numpy.float32([1.0]), numpy.float32([1.0])),
     (numpy.float32([1.0]), numpy.float32([1.5]))),
    ("assert_array_less", ([1, 2], [2, 3]), ([1, 2], [1, 3])),
    ("assert_array_list_equal", ([numpy.arange(2)], [numpy.arange(2)]), ([numpy.arange(2)], [numpy.ones(2)])),
    ("assert_equal", ({"a": [numpy.arange(3)]}, {"a": [numpy.arange(3)]}), ({"a": 1}, {"a": 2})),
])
def test_assertions_as_numpy_testing(name, good, bad):
    fn = getattr(testing, name)
    fn(*good)
    with pytest.raises(AssertionError):
        fn(*bad)


def test_assertions_copy_device_arrays(monkeypatch):
    class Device:  # stands for a cuarray array: has the CUDA array interface, copied by asnumpy
        __cuda_array_interface__ = {}

        def __init__(self, host):
            self.host = host

    fake = types.ModuleType("fake_cuarray")
    fake.asnumpy = lambda d: d.host
    monkeypatch.setattr(_compare, "_other_xp", fake)
    a = numpy.arange(4.0)
    testing.assert_allclose(Device(a), a)
    testing.assert_equal([Device(a), (Device(a),)], [a, (a,)])  # inside containers too
    with pytest.raises(AssertionError):
        testing.assert_array_equal(Device(a), a + 1)


def test_array_list_equal_length():
    with pytest.raises(AssertionError, match="List size"):
        testing.assert_array_list_equal([numpy.ones(1)], [])


def test_strides_check():
    a = numpy.arange(6.0).reshape(2, 3)
    testing.assert_array_equal(a, a.copy(), strides_check=True)
    with pytest.raises(AssertionError, match="strides"):
        testing.assert_array_equal(a, numpy.asfortranarray(a), strides_check=True)


# ---- CuPy's comparing decorators ----------------------------------------------------------------------


def test_numpy_cupy_allclose_has_cupys_defaults():
    # CuPy's default rtol is 1e-7 (cuarray's own decorator is looser for float32).
    @testing.numpy_cupy_allclose()
    def close(xp):
        return xp.ones(3, dtype=numpy.float32) * (1 if xp is numpy else numpy.float32(1 + 2e-6))

    @testing.numpy_cupy_allclose(rtol={numpy.float32: 1e-5, "default": 0})
    def close_enough(xp):
        return xp.ones(3, dtype=numpy.float32) * (1 if xp is numpy else numpy.float32(1 + 2e-6))

    @testing.numpy_cupy_allclose()
    def f_order(xp):
        a = numpy.arange(6.0).reshape(2, 3)
        return a if xp is numpy else numpy.asfortranarray(a)

    with pytest.raises(AssertionError):
        close()
    close_enough()
    with pytest.raises(AssertionError, match="c_contiguous"):  # contiguity checked by default
        f_order()


def test_numpy_cupy_decorators_hide_xp_and_pass():
    @testing.numpy_cupy_array_equal()
    def body(xp, n):
        return xp.arange(n)

    assert list(inspect.signature(body).parameters) == ["n"]
    body(n=4)


@pytest.mark.parametrize("deco, shift", [
    (testing.numpy_cupy_array_equal(), 1e-12),
    (testing.numpy_cupy_array_almost_equal(decimal=6), 1e-3),
    (testing.numpy_cupy_array_almost_equal_nulp(nulp=2), 1e-9),
    (testing.numpy_cupy_array_max_ulp(maxulp=2), 1e-9),
])
def test_numpy_cupy_decorators_detect_mismatch(deco, shift):
    @deco
    def body(xp):
        return xp.linspace(1, 2, 5) + (0 if xp is numpy else shift)

    with pytest.raises(AssertionError):
        body()


def test_numpy_cupy_array_less_and_equal():
    @testing.numpy_cupy_array_less()
    def less(xp):  # cuarray's result (actual) must be below NumPy's (desired)
        return xp.arange(3.0) + (1 if xp is numpy else 0)

    @testing.numpy_cupy_equal()
    def python_value(xp):
        return xp.arange(4).shape

    @testing.numpy_cupy_equal()
    def differs(xp):
        return 1 if xp is numpy else 2

    less()
    python_value()
    with pytest.raises(AssertionError, match="gave 1"):
        differs()


def test_numpy_cupy_type_check():
    @testing.numpy_cupy_array_almost_equal()
    def dtype(xp):
        return xp.arange(3, dtype=numpy.float32 if xp is numpy else numpy.float64)

    with pytest.raises(AssertionError, match="dtype"):
        dtype()


def test_scipy_name_and_sp_name(fake_cuarray, monkeypatch):
    pytest.importorskip("scipy")
    import scipy
    import scipy.sparse

    fake_scipy, fake_sparse = object(), object()
    monkeypatch.setattr(fake_cuarray, "scipy", fake_scipy, raising=False)
    monkeypatch.setattr(fake_cuarray, "sparse", fake_sparse, raising=False)
    seen = []

    @testing.numpy_cupy_equal(scipy_name="scp", sp_name="sp")
    def body(xp, scp, sp):
        seen.append((xp, scp, sp))
        return 1

    assert list(inspect.signature(body).parameters) == []
    body()
    assert seen == [(numpy, scipy, scipy.sparse), (fake_cuarray, fake_scipy, fake_sparse)]


@pytest.fixture
def sparse_cuarray(fake_cuarray, monkeypatch):
    """The fake cuarray with scipy.sparse as its sparse module (a sparse result of either run
    has `toarray` and `format`, which is all the comparison reads)."""
    scipy_sparse = pytest.importorskip("scipy.sparse")
    monkeypatch.setattr(fake_cuarray, "sparse", scipy_sparse, raising=False)
    return fake_cuarray


def test_sparse_results_compare_as_dense_arrays(sparse_cuarray):
    # CuPy's contract (cupy/testing/_loops.py): with sp_name, sparse results of both runs are
    # compared through toarray(), their formats equal unless _check_sparse_format=False.
    def make(fmt_np, fmt_cu, shift=0.0):
        def body(xp, sp):
            d = numpy.arange(12.0).reshape(3, 4) % 5
            if xp is numpy:
                return sp.csr_matrix(d).asformat(fmt_np)
            return sp.csr_matrix(d + shift).asformat(fmt_cu)
        return body

    testing.numpy_cupy_allclose(sp_name="sp")(make("csr", "csr"))()
    testing.numpy_cupy_array_equal(sp_name="sp")(make("csc", "csc"))()
    with pytest.raises(AssertionError, match="Mismatched elements"):
        testing.numpy_cupy_array_equal(sp_name="sp")(make("csr", "csr", shift=1.0))()
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        testing.numpy_cupy_allclose(sp_name="sp")(make("csr", "csr", shift=1e-3))()
    with pytest.raises(AssertionError, match="format 'csr' from SciPy, 'csc' from cuarray"):
        testing.numpy_cupy_allclose(sp_name="sp")(make("csr", "csc"))()
    testing.numpy_cupy_allclose(sp_name="sp", _check_sparse_format=False)(make("csr", "csc"))()
    assert "_check_sparse_format" in inspect.signature(testing.numpy_cupy_allclose).parameters


def test_sparse_against_dense_results_and_tuples(sparse_cuarray):
    @testing.numpy_cupy_array_equal(sp_name="sp", type_check=False)
    def one_dense(xp, sp):
        m = sp.csr_matrix(numpy.eye(3))
        return m if xp is numpy else m.toarray()

    @testing.numpy_cupy_allclose(sp_name="sp")
    def pair(xp, sp):  # a tuple: each item converted on its own
        m = sp.coo_matrix(numpy.eye(2) * 3)
        return m, xp.arange(2.0)

    @testing.numpy_cupy_allclose(sp_name="sp")
    def pair_differs(xp, sp):
        m = sp.coo_matrix(numpy.eye(2) * (3 if xp is numpy else 4))
        return m, xp.arange(2.0)

    with pytest.raises(AssertionError, match="SciPy returned a csr_matrix, cuarray a ndarray"):
        one_dense()
    pair()
    with pytest.raises(AssertionError, match="result"):
        pair_differs()


def test_compared_runs_see_the_same_random_data():
    draws = []

    @testing.numpy_cupy_allclose()
    def body(xp):
        a = testing.shaped_random((5,), xp, numpy.float64)  # no seed: CuPy tests rely on this
        draws.append(a)
        return a * 2

    body()
    body()
    assert (draws[0] == draws[1]).all()  # the NumPy run and the cuarray run of one call
    assert not (draws[0] == draws[2]).all()  # but fresh data for the next call


# ---- dtypes, orders, parameters ---------------------------------------------------------------------


def _marks(fn):
    (mark,) = fn.pytestmark
    return mark.args, mark.kwargs


def test_for_int_dtypes_includes_bool_as_cupy():
    @testing.for_int_dtypes()
    def f(dtype):
        pass

    assert _marks(f)[1]["ids"][0] == "bool"


def test_dtype_combinations():
    @testing.for_all_dtypes_combination(names=("a", "b"), full=True)
    def full(a, b):
        pass

    (names, combos), _ = _marks(full)
    assert names == "a,b" and len(combos) == 14 * 14

    @testing.for_float_dtypes_combination(names=("a", "b"), full=False)
    def sampled(a, b):
        pass

    (names, combos), _ = _marks(sampled)
    assert len(set(combos)) == len(combos) < 9
    for column in (0, 1):  # every dtype appears for every name
        assert {c[column] for c in combos} == {numpy.float16, numpy.float32, numpy.float64}

    @testing.for_int_dtypes_combination(names=("a",), no_bool=True, full=True)
    def ints(a):
        pass

    (name, values), kw = _marks(ints)
    assert kw["ids"][0] == "int8"
    # one name: each value the dtype itself (cupyx's TestSosFilt calls numpy.dtype(dtype) on it)
    assert name == "a" and values[0] is numpy.int8 and all(isinstance(v, type) for v in values)


def test_decorated_helpers_and_testcase_methods_run_every_dtype():
    """CuPy's pattern: a `check_*` helper under the dtype and comparison decorators, called from
    tests (cupyx's TestSpecial.check_unary), and unittest.TestCase methods, which pytest's
    parametrize marks do not reach: each runs every dtype in turn, and a mismatch in one fails."""
    seen = []

    class Checks:
        @testing.for_dtypes([numpy.float32, numpy.int16])
        @testing.numpy_cupy_allclose()
        def check(self, name, xp, dtype):
            seen.append((name, numpy.dtype(dtype).name))
            return xp.arange(3, dtype=dtype)

        @testing.for_all_dtypes_combination(names=("a", "b"), no_complex=True)
        @testing.for_CF_orders()
        def pairs(self, a, b, order):
            seen.append((a, b, order))

        @testing.for_float_dtypes()
        @testing.numpy_cupy_allclose()
        def wrong(self, xp, dtype):
            return xp.ones(2, dtype) * (2 if xp is numpy and dtype == numpy.float64 else 1)

    Checks().check("y0")
    assert seen == [("y0", "float32")] * 2 + [("y0", "int16")] * 2  # NumPy's run and cuarray's
    seen.clear()
    Checks().check("y1", dtype=numpy.float64)  # pytest's call names the parameter: that dtype only
    assert seen == [("y1", "float64")] * 2
    seen.clear()
    Checks().pairs()
    assert len(seen) > 10 and {o for *_, o in seen} == {"C", "F", "c", "f"}  # CuPy's for_CF_orders
    with pytest.raises(AssertionError):
        Checks().wrong()

    class Case(unittest.TestCase):
        @testing.for_signed_dtypes()
        def test_it(self, dtype):
            seen.append(dtype)

    seen.clear()
    result = unittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.loadTestsFromTestCase(Case))
    assert result.wasSuccessful() and seen == [numpy.int8, numpy.int16, numpy.int32, numpy.int64]


def test_for_orders():
    @testing.for_CF_orders()
    def f(order):
        pass

    (name, values), _ = _marks(f)
    assert name == "order" and values == ["C", "F", "c", "f"]


def test_product_and_product_dict():
    assert testing.product({"b": [1, 2], "a": ["x"]}) == [{"a": "x", "b": 1}, {"a": "x", "b": 2}]
    assert testing.product_dict([{"a": 1}, {"a": 2}], [{"b": 3}]) == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]


@testing.parameterize(*testing.product({"shape": [(2,), (2, 3)], "dtype": [numpy.int32, numpy.float32]}))
class TestParameterize:
    def test_attributes(self):
        assert isinstance(self.shape, tuple) and self.dtype in (numpy.int32, numpy.float32)

    @testing.numpy_cupy_array_equal()
    def test_with_xp(self, xp):
        return testing.shaped_arange(self.shape, xp, self.dtype)


def test_parameterize_made_every_case(request):
    """The decorator gives one case per dict (each case checks its own attributes above). Counted
    over the session's collection, not over the cases that ran: under pytest-xdist another worker
    may run some of them (this test saw 1 of 4 once in CI). 0 when run alone with -k."""
    names = sorted(item.name for item in request.session.items
                   if item.cls is TestParameterize and item.originalname == "test_attributes")
    assert len(names) in (0, 4) and len(set(names)) == len(names)


def test_shaped_arange_and_reverse():
    a = testing.shaped_arange((2, 3), numpy, numpy.int16)
    assert a.dtype == numpy.int16 and a.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert testing.shaped_arange((4,), numpy, numpy.bool_).tolist() == [False, True, False, True]
    assert testing.shaped_arange((2,), numpy, numpy.complex64).tolist() == [1 + 1j, 2 + 2j]
    assert testing.shaped_arange((2, 2), numpy, order="F").flags.f_contiguous
    assert testing.shaped_reverse_arange((3,), numpy, numpy.float64).tolist() == [3.0, 2.0, 1.0]


def test_shaped_random_order():
    assert testing.shaped_random((3, 4), numpy, order="F", seed=1).flags.f_contiguous


def test_with_requires():
    mark = testing.with_requires("numpy>=1.0")
    assert mark.args == (False,)
    mark = testing.with_requires("no-such-package-cuarray-test")
    assert mark.args == (True,)


# ---- the rest of cupy.testing's helpers ----------------------------------------------------------


def test_every_public_name_of_cupy_testing_is_here():
    """cupy.testing's public helpers (CuPy 14), the CuPy-internal test bases aside."""
    names = ["assert_allclose", "assert_array_almost_equal", "assert_array_almost_equal_nulp",
             "assert_array_equal", "assert_array_less", "assert_array_list_equal", "assert_array_max_ulp",
             "multi_gpu", "slow", "assert_warns", "numpy_satisfies", "shaped_arange", "shaped_linspace",
             "shaped_sparse_random", "shaped_random", "generate_matrix", "shaped_reverse_arange",
             "with_requires", "installed", "for_all_dtypes", "for_all_dtypes_combination", "for_CF_orders",
             "for_complex_dtypes", "for_contiguous_axes", "for_dtypes", "for_dtypes_combination",
             "for_float_dtypes", "for_int_dtypes", "for_int_dtypes_combination", "for_orders",
             "for_signed_dtypes", "for_signed_dtypes_combination", "for_unsigned_dtypes",
             "for_unsigned_dtypes_combination", "numpy_cupy_allclose", "numpy_cupy_array_almost_equal",
             "numpy_cupy_array_almost_equal_nulp", "numpy_cupy_array_equal", "numpy_cupy_array_less",
             "numpy_cupy_array_list_equal", "numpy_cupy_array_max_ulp", "numpy_cupy_equal", "parameterize",
             "product", "product_dict", "fix_random", "generate_seed"]
    assert [n for n in names if not hasattr(testing, n)] == []


def test_version_checks_and_assert_warns():
    assert testing.installed("numpy>=1.0", "pytest") and not testing.installed("numpy<1.0")
    assert not testing.installed("no-such-package-here")
    assert testing.numpy_satisfies(">=1.0") and not testing.numpy_satisfies("<1.0")
    import warnings
    with testing.assert_warns(RuntimeWarning):
        warnings.warn("x", RuntimeWarning)
    with pytest.raises(AssertionError, match="RuntimeWarning not triggered"):
        with testing.assert_warns(RuntimeWarning):
            warnings.warn("x", UserWarning)


@pytest.mark.parametrize("dtype, first, last", [("f4", -3.0, 5.0), ("u1", 0, 5), ("?", False, True)])
def test_shaped_linspace(dtype, first, last):
    a = testing.shaped_linspace(-3, 5, (2, 3), numpy, dtype)
    assert a.shape == (2, 3) and a.dtype == numpy.dtype(dtype)
    assert a.flat[0] == first and a.flat[-1] == last


def test_generate_matrix_has_the_singular_values():
    a = testing.generate_matrix((3, 4, 2), numpy, numpy.complex64, singular_values=[3.0, 0.5])
    assert a.shape == (3, 4, 2) and a.dtype == numpy.complex64
    numpy.testing.assert_allclose(numpy.linalg.svd(a, compute_uv=False), [[3.0, 0.5]] * 3, rtol=1e-5)
    with pytest.raises(ValueError, match="negative"):
        testing.generate_matrix((2, 2), numpy, singular_values=[-1.0])
    with pytest.raises(TypeError):
        testing.generate_matrix((2, 2), numpy, numpy.int32, singular_values=[1.0])


def test_shaped_sparse_random_takes_the_module():
    import scipy.sparse
    m = testing.shaped_sparse_random((5, 6), scipy.sparse, numpy.float64, density=0.5, format="csr")
    assert m.format == "csr" and m.shape == (5, 6) and m.dtype == numpy.float64 and m.nnz == 15


def test_for_contiguous_axes_runs_each_contiguous_axis_tuple():
    import inspect

    seen = []

    @testing.for_contiguous_axes()
    def body(self, shape, order, axis):
        seen.append((order, axis))

    assert list(inspect.signature(body).parameters) == ["self", "shape", "order"]  # pytest sees no axis
    body(None, shape=(2, 3, 4), order="C")
    body(None, shape=(2, 3, 4), order="F")
    assert seen == [("C", (0, 1, 2)), ("C", (1, 2)), ("C", (2,)), ("F", (0,)), ("F", (0, 1)), ("F", (0, 1, 2))]
    with pytest.raises(ValueError, match="order"):
        body(None, shape=(2,), order="K")


def test_fix_random_seeds_and_restores():
    @testing.fix_random()
    def draw():
        return numpy.random.random()

    before = numpy.random.get_state()[1].copy()
    assert draw() == draw()
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before)
    assert isinstance(testing.generate_seed(), int)


def test_the_default_array_module_is_cuarray():
    """shaped_random(shape) with no `xp`, as CuPy's tests call it at collection time (the name
    it returned was not imported: NameError)."""
    from cuarray.testing import _random

    assert _random._default_xp() is cuarray
