"""The mismatches of the GPU fuzz runs of seeds 22 and 23 (NumPy 2.5, H200) that are no wrong
value: each case as the fuzzer draws it, cuarray's answer as the device gave it, the condition
(fuzz_allowances) or the check (fuzz_checks) that now accepts it, and a wrong value beside it
that is still refused. Before these conditions each case was a mismatch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fuzz_allowances as fa
import fuzz_catalog as fc
import fuzz_check_unwrap as fk
import fuzzlib

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _case(key, index, seed):
    """(row, host inputs, NumPy's outcome) of a fuzz case."""
    row = fc.BY_KEY[key]
    args, kw = row.make(fuzzlib.case_rng(row.key, seed, index))
    host = ([fuzzlib._host_value(s) for s in args], {k: fuzzlib._host_value(s) for k, s in kw.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return row, host, fuzzlib.Side(np).outcome(row, args, kw)


def _ok(x):
    return ("ok", np.asarray(x), False)


@pytest.mark.parametrize("index,numpys", [(244, -np.inf), (2137, np.inf)])
def test_average_lists_nan_against_numpys_infinity_only_past_overflow(index, numpys):
    """Seed 22: average([9e307, -inf, 1.8e308]) (float64) and a float32 row with two +inf beside
    -3.4e38 and -1.1e38: the finite values of the other sign overflow in some order."""
    row, host, ref = _case("average(a)", index, 22)
    assert float(ref[1]) == numpys
    nan = _ok(np.full_like(ref[1], np.nan))
    assert fa.listed(row, host, ref, nan) == "sum-overflow-meets-infinity"
    assert not fa._sum_meets_infinity(row, host, ref, _ok(np.full_like(ref[1], -numpys)))  # the other infinity
    assert not fa._sum_meets_infinity(row, host, ref, _ok(np.zeros_like(ref[1])))  # a finite value
    # the same infinities beside finite values that cannot overflow: NaN is then wrong
    x = np.array([1.0, -np.inf, 2.0], host[0][0].dtype)
    assert not fa._sum_meets_infinity(row, ([x], {}), _ok(np.float64(-np.inf).astype(x.dtype)), nan)


def test_outer_lists_numpys_unfused_product_only():
    """Seed 22: outer(-5.49-5.49j as complex64, 1.8e308+1.8e308j): NumPy's outer gives nan-infj
    where its multiply of the same operands (and cuarray's outer) gives inf-infj."""
    row, host, ref = _case("outer(a b)", 47, 22)
    a, b = (np.asarray(x) for x in host[0])
    device = np.array([[complex(np.inf, -np.inf)]])
    assert fa.listed(row, host, ref, _ok(device)) == "outer-unfused-complex-product"
    for wrong in (complex(-np.inf, -np.inf), complex(np.inf, np.inf), complex(np.nan, np.nan), 1 - 1j):
        assert not fa._outer_unfused_complex(row, host, ref, _ok(np.array([[wrong]]))), wrong
    # finite operands far from overflow: nothing differs but a rounding, nothing is listed
    a, b = np.array([1.5 + 2j], np.complex64), np.array([3 - 1j])
    e = np.outer(a, b)
    assert not fa._outer_unfused_complex(row, ([a, b], {}), _ok(e), _ok(e * (1 + 1e-6)))


def test_complex_poly1d_power_lists_non_finite_coefficients_only():
    """Seed 23: poly1d([-1.8e308-2.2e-308j, 1+3j]) ** 3: the three leading coefficients overflow;
    which part is NaN and which inf follows the order of the parts' arithmetic."""
    row, host, ref = _case("poly1d**(a1 ppow){}", 198, 23)
    inf, nan = np.inf, np.nan
    device = np.array([complex(-inf, -inf), complex(nan, inf), complex(nan, -inf), -26.03206499 - 18.04276919j])
    device[3] = ref[1][3]  # (printed to 8 digits; the run agreed there)
    assert fa.listed(row, host, ref, _ok(device)) == "fused-product-overflow"
    wrong = device.copy()
    wrong[3] = -26 - 18j  # a wrong finite coefficient beside the listed ones
    assert not fa._fused_product_overflow(row, host, ref, _ok(wrong))
    finite = device.copy()
    finite[1] = 1e300 + 1e300j  # a finite value where the exact coefficient overflows
    assert not fa._fused_product_overflow(row, host, ref, _ok(finite))


def test_complex_max_lists_another_nan_element_of_the_row_only():
    """Seed 23: max of a transposed complex128 array under a C-ordered `where`, with several
    elements that have a NaN part: NumPy returns nan+nanj, the first in C order; the device
    returned nan+5.81e-06j, the first in memory order."""
    row, host, ref = _case("max(a){initial,where,axis,keepdims}", 365, 23)
    device = np.full_like(ref[1], complex(np.nan, 5.813724284346137e-06))
    assert fa.listed(row, host, ref, _ok(device)) == "complex-extremum-nan-choice"
    not_an_element = np.full_like(ref[1], complex(np.nan, 1.0))
    assert not fa._complex_extremum_nan_choice(row, host, ref, _ok(not_an_element))
    assert not fa._complex_extremum_nan_choice(row, host, ref, _ok(np.full_like(ref[1], 2 - 2j)))
    # an element with a NaN part that `where` leaves out is no answer either
    x, kw = host[0][0], host[1]
    where = np.broadcast_to(kw["where"], x.shape)
    hidden = x[~where & np.isnan(x.real)]
    hidden = hidden[~np.isin(hidden, x[where])]
    if hidden.size and not np.isnan(hidden[0].imag):
        assert not fa._complex_extremum_nan_choice(row, host, ref, _ok(np.full_like(ref[1], hidden[0])))


def test_matrix_power_compares_overflow_as_products():
    """Seed 23: a float32 stack cubed, the second matrix past 3.4e38: NumPy [[nan, inf], [nan, inf]],
    the device (cuBLAS's order) [[nan, nan], [-inf, inf]]; the first matrix agrees."""
    row, host, ref = _case("linalg.matrix_power(sq int)", 271, 23)
    device = np.array(ref[1], copy=True)
    device[1] = [[np.nan, np.nan], [-np.inf, np.inf]]
    assert row.check(ref[1], device, row, host) is None
    wrong = device.copy()
    wrong[0, 0, 0] *= np.float32(1.5)  # a wrong finite value
    assert row.check(ref[1], wrong, row, host) is not None
    finite = device.copy()
    finite[1, 1, 0] = 1.0  # a finite value where NumPy's overflowed
    assert row.check(ref[1], finite, row, host) is not None


def test_float16_unwrap_sums_its_corrections_in_float32():
    """Seed 22: float16 unwrap (period 3) of 420 values with inf and NaN: NumPy's float16 running
    sum of corrections overflows to -inf where cuarray's float32 cumsum does not (the device's
    answer equals this model element for element)."""
    row, host, ref = _case("unwrap(a)", 44, 22)
    x = host[0][0]
    device = fk._unwrap_float32_sums(x, host[1]["period"], -1)
    assert not np.array_equal(np.isinf(ref[1]), np.isinf(device))  # (a mismatch before the model)
    assert row.check(ref[1], device, row, host) is None
    nan = device.copy()
    nan.flat[np.flatnonzero(np.isfinite(device))[0]] = np.nan  # a NaN where the model is finite
    assert row.check(ref[1], nan, row, host) is not None
    inf = device.copy()
    inf.flat[np.flatnonzero(np.isfinite(device))[0]] = np.inf  # an inf where the model is finite
    assert row.check(ref[1], inf, row, host) is not None
