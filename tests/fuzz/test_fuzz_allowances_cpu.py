"""The differences docs/differences.md lists for the fuzzer (fuzz_allowances): every allowance has
its docs entry and every entry its allowance, with the same functions, each a catalog row; each
condition accepts the documented difference and refuses a wrong value beside it; the fuzzer
reports a listed difference as listed, not as a mismatch."""

from __future__ import annotations

import re
import warnings
import types

import numpy as np
import pytest

import fuzz_allowances as fa
import fuzz_catalog as fc
import fuzzlib


def test_every_allowance_is_a_docs_entry_and_back():
    entries = fa.docs_entries()
    assert entries, "docs/differences.md has no section '{}'".format(fa.SECTION[3:])
    assert set(entries) == {a.id for a in fa.ALLOWANCES}
    text = fa.DOCS.read_text(encoding="utf-8")
    headings = set(re.findall(r"^## (.+)$", text, re.M))
    names = {r.name for r in fc.ROWS}
    for a in fa.ALLOWANCES:
        funcs, body = entries[a.id]
        assert set(funcs) == set(a.functions), (a.id, funcs, a.functions)
        assert set(a.functions) <= names, (a.id, set(a.functions) - names)
        see = re.findall(r'See "([^"]+)"', body)
        assert see and set(see) <= headings, (a.id, see)
        assert "where" in body, "{}: an entry states its condition, not only the function".format(a.id)


def _ok(x):
    return ("ok", np.asarray(x), False)


def _accurate_log1p(z):
    re_, im = fa._log1p_exact(np.asarray(z))
    out = np.empty(np.shape(z), np.asarray(z).dtype)
    out.real, out.imag = re_, im
    return out


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_log1p_near_zero_lists_numpys_rounding_only(dt):
    row = fc.BY_KEY["log1p(a)"]
    z = np.array([1e-10 + 0j, 0.002 - 0.001j, 3e-4 + 2e-5j, 0.1 + 0.2j, 1.0 + 1.0j], dt)
    if dt == np.complex64:
        z[0] = 1e-5
    e, g = np.log1p(z), _accurate_log1p(z)
    assert not np.array_equal(e, g)  # (NumPy rounds 1 + x: its answer is not the accurate one)
    assert fa._log1p_near_zero(row, ([z], {}), _ok(e), _ok(g))
    wrong = g.copy()
    wrong[1] *= dt(1 + 1e-4)  # a wrong value near zero
    assert not fa._log1p_near_zero(row, ([z], {}), _ok(e), _ok(wrong))
    far = g.copy()
    far[3] *= dt(1 + 1e-3)  # a difference away from zero is no rounding of 1 + x
    assert not fa._log1p_near_zero(row, ([z], {}), _ok(e), _ok(far))
    assert not fa._log1p_near_zero(row, ([z], {}), _ok(e), _ok(e))  # nothing differs: nothing to list


def test_power_lists_the_stride0_shortcuts_only():
    row = fc.BY_KEY["power(a b)"]
    a = np.array([[-np.inf, -0.0, 4.0, 2.5]])
    b = np.array([0.5])
    e = np.power(a, b)  # NumPy: the exponent broadcast with stride 0 takes sqrt
    g = np.power(a, np.broadcast_to(b, a.shape).copy())  # C's pow, as cuarray takes for an array
    assert np.isnan(e[0, 0]) and np.isposinf(g[0, 0])
    assert fa._power_materialized(row, ([a, b], {}), _ok(e), _ok(g))
    wrong = g.copy()
    wrong[0, 3] = 7.0
    assert not fa._power_materialized(row, ([a, b], {}), _ok(e), _ok(wrong))
    b3 = np.array([3.0])  # not one of NumPy's shortcuts
    assert not fa._power_materialized(row, ([a, b3], {}), _ok(np.power(a, b3)), _ok(np.power(a, b3) + 1))
    b0 = np.float64(0.5)  # a scalar exponent: cuarray takes the shortcuts itself
    assert not fa._power_materialized(row, ([a, b0], {}), _ok(e), _ok(g))


class _CuarrayLike:
    """NumPy answering where docs/differences.md says cuarray differs: log1p accurate near zero,
    power of an array exponent by C's pow."""

    __name__ = "cuarray-like"

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def log1p(z, *args, **kw):
        z = np.asarray(z)
        r = np.log1p(z, *args, **kw)
        if z.dtype.kind != "c" or args or kw:
            return r
        with np.errstate(invalid="ignore"):
            near = np.isfinite(z) & (np.abs(z.real) + np.abs(z.imag) < 0.5)  # (cuarray's formula there)
        return np.where(near, _accurate_log1p(z), r)

    @staticmethod
    def power(a, b, *args, **kw):
        if isinstance(b, np.ndarray) and b.ndim and not args and not kw:
            try:
                b = np.array(np.broadcast_to(b, np.broadcast_shapes(np.shape(a), b.shape)))
            except ValueError:
                pass
        return np.power(a, b, *args, **kw)


def test_the_fuzzer_reports_listed_differences_apart():
    rows = [fc.BY_KEY["log1p(a)"], fc.BY_KEY["power(a b)"]]
    st = fuzzlib.fuzz(rows, 2, fuzzlib.Side(np), fuzzlib.Side(_CuarrayLike()), calls=400)
    assert not st.mismatches, "\n".join(map(str, st.mismatches[:2]))
    # (NumPy's sqrt shortcut shows only for a one-element exponent of 0.5 against -inf: rare here,
    # test_power_lists_the_stride0_shortcuts_only has it)
    assert "log1p-near-zero" in {x.allowance for x in st.listed}
    assert "listed" in st.summary() and st.listed_by


def test_a_listed_function_with_a_wrong_value_is_a_mismatch():
    wrong = types.SimpleNamespace(log1p=lambda z, *a, **k: _accurate_log1p(z) * 1.001
                                  if np.asarray(z).dtype.kind == "c" else np.log1p(z, *a, **k))
    st = fuzzlib.fuzz([fc.BY_KEY["log1p(a)"]], 2, fuzzlib.Side(np), fuzzlib.Side(wrong, name="wrong"), calls=200)
    assert st.mismatches and not st.listed


def test_sinh_cosh_lists_an_overflow_past_the_threshold_only():
    row = fc.BY_KEY["cosh(a)"]
    z = np.array([100.39931 + 3.4345586e-08j, 1.5 + 0.5j], np.complex64)
    e = np.cosh(z)  # inf + 6.9e35j: the exact imaginary part is finite
    g = e.copy()
    g.imag[0] = np.inf  # cuarray's cosh(x) overflows before its small sin(y) factor
    assert fa._sinh_cosh_overflow(row, ([z], {}), _ok(e), _ok(g))
    wrong_sign = e.copy()
    wrong_sign.imag[0] = -np.inf
    assert not fa._sinh_cosh_overflow(row, ([z], {}), _ok(e), _ok(wrong_sign))
    beside = g.copy()
    beside[1] *= 1.01  # a wrong value beside the listed one
    assert not fa._sinh_cosh_overflow(row, ([z], {}), _ok(e), _ok(beside))
    low = np.array([50.0 + 1e-30j], np.complex64)  # below the threshold: no overflow to excuse
    el = np.cosh(low)
    gl = el.copy()
    gl.imag[0] = np.inf
    assert not fa._sinh_cosh_overflow(row, ([low], {}), _ok(el), _ok(gl))


def test_c99_unspecified_signs_beside_nan_agree_and_others_do_not():
    row = fc.BY_KEY["sinh(a)"]
    z = np.array([complex(-np.inf, np.nan), complex(1.0, 2.0)])
    e = np.sinh(z)  # NumPy: inf + nanj; C99 leaves the infinity's sign open
    g = e.copy()
    g.real[0] = -np.inf
    assert row.check(e, g, row, ([z], {})) is None
    g2 = g.copy()
    g2[1] = -e[1]
    assert row.check(e, g2, row, ([z], {}))
    other = fc.BY_KEY["arctan(a)"]  # (not a function C99 leaves the sign open for)
    ea = np.array([complex(np.inf, np.nan)])
    assert other.check(ea, -ea, other, ([ea], {}))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_sign_lists_numpys_subnormal_modulus_only(dt):
    """Fuzz seed 12 index 207: complex64 sign(1e-45 + 1e-45j) is 1 + 1j in NumPy (its hypot rounds
    to the subnormal grid), 0.70710677 (1 + 1j) in cuarray."""
    row = fc.BY_KEY["sign(a)"]
    t = np.finfo(dt).smallest_subnormal
    z = np.array([complex(t, t), complex(-t, t), 3 - 4j, complex(2 * t, -t)], dt)
    with np.errstate(all="ignore"):
        e = np.sign(z)
    re_, im = fa._unit_exact(z)
    g = (re_ + 1j * im).astype(dt)
    assert np.abs(e[0]) > 1.4  # (NumPy's is not a unit number)
    assert fa._sign_subnormal_modulus(row, ([z], {}), _ok(e), _ok(g))
    wrong = g.copy()
    wrong[0] = complex(0.6, 0.8)  # a unit number, the wrong one
    assert not fa._sign_subnormal_modulus(row, ([z], {}), _ok(e), _ok(wrong))
    beside = g.copy()
    beside[2] *= dt(1.01)  # a wrong value of a normal modulus beside the listed one
    assert not fa._sign_subnormal_modulus(row, ([z], {}), _ok(e), _ok(beside))
    assert not fa._sign_subnormal_modulus(row, ([z], {}), _ok(e), _ok(e))


@pytest.mark.parametrize("dt", [np.float32, np.complex64, np.complex128])
def test_nanmedian_lists_numpys_middle_sum_overflow_only(dt):
    """Fuzz seed 12 index 364: NumPy's nanmedian of a row holding one number past half the largest
    value adds it to itself and halves the sum (complex: nan+nanj); cuarray's is the number."""
    row = fc.BY_KEY["nanmedian(a)"]
    big = np.finfo(dt).max
    x = np.array([[big * (1 + 1j) if np.dtype(dt).kind == "c" else big, np.nan], [1.0, 3.0]], dt)
    with np.errstate(all="ignore"):
        e = np.nanmedian(x, axis=-1)
    g = np.array([x[0, 0], 2.0], dt)
    assert not np.isfinite(e[0]) and np.isfinite(g[0])
    assert fa._nanmedian_paths(row, ([x], {"axis": -1}), _ok(e), _ok(g))
    beside = g.copy()
    beside[1] = 2.5  # a wrong value beside the listed one
    assert not fa._nanmedian_paths(row, ([x], {"axis": -1}), _ok(e), _ok(beside))
    wrong = g.copy()
    wrong[0] = x[0, 0] / 2  # finite, but not the median
    assert not fa._nanmedian_paths(row, ([x], {"axis": -1}), _ok(e), _ok(wrong))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_i0_lists_numpys_exp_overflow_only(dt):
    """Fuzz seed 12 index 358: float32 i0(-89.32) is inf in NumPy (exp(89.32) overflows first),
    2.618e37 in cuarray."""
    row = fc.BY_KEY["i0(a)"]
    x = np.array([-89.3217, 2.5, 88.9], dt) if dt == np.float32 else np.array([-710.5, 2.5, 711.0], dt)
    with np.errstate(all="ignore"):
        e = np.i0(x)
        g = np.i0(x.astype(np.float64 if dt == np.float32 else np.longdouble)).astype(dt)
    assert np.isinf(e[0]) and np.isfinite(g[0])
    assert fa._i0_overflow(row, ([x], {}), _ok(e), _ok(g))
    beside = g.copy()
    beside[1] *= 1.01  # a wrong value beside the listed one
    assert not fa._i0_overflow(row, ([x], {}), _ok(e), _ok(beside))
    wrong = g.copy()
    wrong[0] /= 2  # finite, but not i0
    assert not fa._i0_overflow(row, ([x], {}), _ok(e), _ok(wrong))


@pytest.mark.parametrize("key, kw, dt", [("cumprod(a)", {"axis": 1}, np.float64), ("cumprod(a)", {}, np.float64),
                                         ("multiply.accumulate(a)", {"axis": 1}, np.complex128),
                                         ("nancumprod(a)", {"axis": -1}, np.float64)])
def test_products_list_an_order_decided_by_a_run_out_of_range_only(key, kw, dt):
    """Fuzz seed 13 indices 48 and 155: complex128 cumprod of factors near 1e-308, where the scan's
    tree underflowed or overflowed a run of factors that NumPy's order did not (nan+nanj for NumPy's
    0+5.7e-306j). From the first run out of range along the axis the order decides the value;
    before it, and in rows without one, a difference is a mismatch."""
    row = fc.BY_KEY[key]
    x = np.array([[2, 3, 1e-200, 1e-200, 1e200, 5], [1.5, 2, 3, 4, 5, 6]], dt)
    with np.errstate(all="ignore"):
        e = row.call(np, [x], dict(kw))
    g = e.copy()
    flat = "axis" not in kw and key.startswith("cumprod")
    at = (4,) if flat else (0, 4)  # after 1e-200 * 1e-200 (below the smallest normal)
    g[at] = 6e-200  # the tree's (2 * 3 * 1e-200) * (1e-200 * 1e200) where NumPy's in-order value is 0
    assert e[at] == 0
    assert fa._product_order(row, ([x], kw), _ok(e), _ok(g))
    before = g.copy()
    before[(1,) if flat else (0, 1)] = 7  # a wrong value before the run
    assert not fa._product_order(row, ([x], kw), _ok(e), _ok(before))
    if not flat:
        beside = g.copy()
        beside[1, 3] *= 1.01  # a wrong value in a row whose factors stay in range
        assert not fa._product_order(row, ([x], kw), _ok(e), _ok(beside))
    assert not fa._product_order(row, ([x], kw), _ok(e), _ok(e))


@pytest.mark.parametrize("key", ["add.reduce(a)", "sum(a)"])
def test_sums_list_numpys_overflow_in_the_input_type_only(key):
    """Fuzz seed 16 index 11: complex64 add.reduce of [3.4e38, 3.4e38, -3.4e38] (real parts) is
    inf + 3.56j in NumPy (its running sum overflows), 3.4028235e38 + 3.56j in cuarray (the sum in
    complex128, rounded once)."""
    row = fc.BY_KEY[key]
    big = float(np.finfo(np.float32).max)
    x = np.array([big + 1.4631224j, big + 1.4954261j, -big + 0.6046377j], np.complex64)
    with np.errstate(all="ignore"):
        e = row.call(np, [x], {})
    g = np.complex64(np.sum(x.astype(np.complex128)))
    assert np.isinf(e.real) and np.isfinite(g)
    assert fa._wider_type_overflow(row, ([x], {}), _ok(e), _ok(g))
    assert not fa._wider_type_overflow(row, ([x], {}), _ok(e), _ok(np.complex64(1 + 3.5631862j)))
    assert not fa._wider_type_overflow(row, ([x], {}), _ok(e), _ok(e))


@pytest.mark.parametrize("key", ["nanprod(a)", "prod(a)"])
def test_products_list_numpys_overflow_in_the_input_type_only(key):
    """Fuzz seed 16 index 37: float16 nanprod over the outer axis of 73.875 three times, then
    -6.1e-5 twice, is inf in NumPy (a product along an outer axis is rounded to float16 at each step,
    and overflows at the third factor), 1.502e-3 in cuarray (float32 partial products, rounded once)."""
    row = fc.BY_KEY[key]
    x = np.array([[73.875, 73.875, 73.875, -6.1035e-05, -6.1035e-05], [73.875, 2.0, -6.1035e-05, 1.0, 3.0]],
                 np.float16).T.copy()  # a C-ordered (5, 2): NumPy steps along the outer axis
    with np.errstate(all="ignore"):
        e = row.call(np, [x], {"axis": 0})
    g = np.prod(x.astype(np.float64), axis=0).astype(np.float16)
    assert np.isinf(e[0]) and np.isfinite(g[0]) and e[1] == g[1]
    assert fa._wider_type_product(row, ([x], {"axis": 0}), _ok(e), _ok(g))
    beside = g.copy()
    beside[1] *= 2  # a wrong value beside the listed one
    assert not fa._wider_type_product(row, ([x], {"axis": 0}), _ok(e), _ok(beside))
    wrong = g.copy()
    wrong[0] *= 2  # finite, but not the product
    assert not fa._wider_type_product(row, ([x], {"axis": 0}), _ok(e), _ok(wrong))


@pytest.mark.parametrize("key, kw", [("multiply.reduce(a)", {}), ("prod(a)", {"axis": 0}), ("nanprod(a)", {"axis": 0})])
def test_product_reductions_list_class_changes_past_the_range_only(key, kw):
    """Fuzz seed 17 index 205: complex128 multiply.reduce of [2.8e-309j, 3e8, 3.8e8,
    -1.8e6+1.8e308j, 4.8e8-1j, -3.7e8, 2.6e8+3.9e7j] is 2.65e42+3.98e41j in NumPy's order and
    nan+nanj in a tree that multiplies 1.8e308j by 4.8e8 first; the second column has no factor
    past the range."""
    row = fc.BY_KEY[key]
    col = [2.781342323134e-309j, 3.01160228e+08, 3.81043676e+08, -1.76470473e+06 + 1.79769313e+308j,
           4.81190477e+08 - 1.0j, -3.65925401e+08, 2.62552732e+08 + 3.93668992e+07j]
    x = np.array([col, [1.5, 2.0, 0.5j, 3.0, 1.0, 2.0, 1.0]], np.complex128).T.copy()
    e = row.call(np, [x], kw)
    assert np.isfinite(e).all()
    g = e.copy()
    g[0] = complex(np.nan, np.nan)
    assert fa._product_reduce_order(row, ([x], kw), _ok(e), _ok(g))
    beside = g.copy()
    beside[1] = complex(np.nan, np.nan)  # a class change with no factor past the range
    assert not fa._product_reduce_order(row, ([x], kw), _ok(e), _ok(beside))
    finite = e.copy()
    finite[0] *= 2  # finite against finite: never listed
    assert not fa._product_reduce_order(row, ([x], kw), _ok(e), _ok(finite))


def test_nanmedian_lists_numpys_row_alone_where_its_masked_path_is_not_finite():
    """Fuzz seed 18 index 35: complex64 nanmedian along a kept axis of [inf, nan-1j, inf] is nan+nanj
    (NumPy's masked path), inf+nanj for the row alone and in cuarray; of [1e-38+3.4e38j, 3.4e38,
    3.4e38+1e-38j] inf+nanj (the middle added to itself), 3.4e38 alone and in cuarray."""
    row = fc.BY_KEY["nanmedian(a)"]
    big = float(np.finfo(np.float32).max)
    x = np.array([[np.inf, complex(np.nan, -1), np.inf], [1e-38 + big * 1j, big, big + 1e-38j], [1, 2, 3]],
                 np.complex64).T.copy()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = np.nanmedian(x, axis=0)
    g = np.array([complex(np.inf, np.nan), big, 2], np.complex64)
    assert not np.isfinite(e[:2]).any() and fa._nanmedian_paths(row, ([x], {"axis": 0}), _ok(e), _ok(g))
    wrong = g.copy()
    wrong[0] = complex(-np.inf, np.nan)  # non-finite, but neither path's
    assert not fa._nanmedian_paths(row, ([x], {"axis": 0}), _ok(e), _ok(wrong))
    beside = g.copy()
    beside[2] = 2.5  # a wrong value beside the listed ones
    assert not fa._nanmedian_paths(row, ([x], {"axis": 0}), _ok(e), _ok(beside))


def test_products_list_numpys_underflow_in_the_input_type_too():
    """Fuzz seed 16 index 37 again: float16 nanprod over an outer axis of -6.1e-5 twice, then 73.875
    three times, is 0 in NumPy (3.7e-9 underflows float16 first), 1.502e-3 in cuarray."""
    row = fc.BY_KEY["nanprod(a)"]
    x = np.array([[-6.1035e-05, -6.1035e-05, 73.875, 73.875, 73.875], [73.875, 2.0, -6.1035e-05, 1.0, 3.0]],
                 np.float16).T.copy()
    with np.errstate(all="ignore"):
        e = row.call(np, [x], {"axis": 0})
    g = np.prod(x.astype(np.float64), axis=0).astype(np.float16)
    assert e[0] == 0 and g[0] != 0 and e[1] == g[1]
    assert fa._wider_type_product(row, ([x], {"axis": 0}), _ok(e), _ok(g))
    assert not fa._wider_type_overflow(row, ([x], {"axis": 0}), _ok(e), _ok(g))  # sums: no underflow rule
    wrong = g.copy()
    wrong[0] *= 2
    assert not fa._wider_type_product(row, ([x], {"axis": 0}), _ok(e), _ok(wrong))
