"""fuzz_bounds' rules and fuzz_report's counts: each rule accepts what another correct order of
arithmetic or another backward stable algorithm answers at the edges the generators now reach
(the largest finite values, ill-conditioned and rank-deficient matrices, singular values at
NumPy's cutoffs) and still reports a wrong value of the same shape; the summary counts per
function and per kind of input."""

from __future__ import annotations

import json

import numpy as np

import fuzz_bounds as fb
import fuzz_catalog as fc
import fuzz_report
import fuzz_traits
import fuzz_values
import fuzzlib


def _row(key):
    return fc.BY_KEY[key]


def test_accurate_finds_a_wrong_small_element_beside_a_large_one():
    row = _row("log1p(a)")
    e = np.array([1e3 + 0j, 2e-3 + 1e-3j], np.complex64)
    g = e.copy()
    g[1] *= np.complex64(1 + 5e-5)
    assert fuzzlib.compare_values(e, g, row) is None  # (the array's scale hides it)
    assert "relative to the element" in row.check(e, g, row, ([e], {}))
    assert row.check(e, e.copy(), row, ([e], {})) is None
    sub = np.array([1e-320, 0.5])  # a subnormal result compares absolutely
    assert row.check(sub, np.array([0.0, 0.5]), row, ([sub], {})) is None


def test_sums_accept_another_order_where_some_order_overflows():
    row = _row("sum(a)")
    big = float(np.finfo(np.float64).max)
    x = np.array([big, big, -big, -big, 1.0])
    e = np.sum(x)  # NumPy's order: inf
    assert fb.check_sums("linear")(e, np.float64(1.0), row, ([x], {})) is None  # a tree's: 1
    y = np.array([1e300, -1e300, 3.0, 1e-300])  # no order overflows: the bound 2 n eps sum|x|
    e = np.sum(y)
    assert fb.check_sums("linear")(e, np.float64(e + 1e285), row, ([y], {})) is None
    assert fb.check_sums("linear")(e, np.float64(e + 1e290), row, ([y], {}))
    z = np.array([1.0, 2.0, 3.5])
    assert row.check(np.sum(z), np.float64(6.6), row, ([z], {}))  # an ordinary wrong sum


def test_sums_of_products_bound_each_element():
    row = _row("matmul(m m)")
    a = np.array([[1e300, 1.0], [1.0, 2.0]])
    b = np.array([[1e-300, 3.0], [1e8, 1.0]])
    e = a @ b
    g = e.copy()
    g[0, 0] += 1e-8  # within 2 n eps (|a| @ |b|)[0, 0] = 1e8
    assert row.check(e, g, row, ([a, b], {})) is None
    g[1, 1] += 1e-8  # beyond (|a| @ |b|)[1, 1] = 5
    assert row.check(e, g, row, ([a, b], {}))


def test_moments_bound_the_two_pass_error():
    row = _row("var(a)")
    x = np.full(5, 3e150) * (1 + np.arange(5) * 1e-16)
    e = np.var(x)
    assert row.check(e, np.float64(e * 3 + 1e270), row, ([x], {})) is None
    assert row.check(np.var([1.0, 2.0, 4.0]), np.float64(1.6), row, ([np.array([1.0, 2.0, 4.0])], {}))


def test_conditioned_grows_with_kappa_and_stops_past_the_noise():
    row = _row("linalg.inv(sq)")
    q = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
    a = q @ np.diag([1.0, 1e-6, 1e-9]) @ q.T
    e = np.linalg.inv(a)
    g = e * (1 + 1e-8)  # kappa eps = 2e-7: an error of 1e-8 is any algorithm's
    assert row.check(e, g, row, ([a], {})) is None
    assert row.check(e, e * (1 + 1e-3), row, ([a], {}))
    well = np.diag([2.0, 3.0, 4.0])
    assert row.check(np.linalg.inv(well), np.linalg.inv(well) * (1 + 1e-5), row, ([well], {}))


def test_pinv_applies_numpys_cutoff_on_exact_singular_values():
    row = _row("linalg.pinv(m)")
    a = np.zeros((2, 2, 2), np.float32)
    a[:, 0, 0], a[:, 1, 1] = 1.0, [1e-8, 0.5]  # exactly diagonal: 1e-8 > NumPy's 1e-15 cutoff
    e = np.linalg.pinv(a)
    assert fb.check_pinv(e, e.copy(), row, ([a], {})) is None
    cut = e.copy()
    cut[0, 1, 1] = 0  # an eps-sized cutoff drops 1e-8
    assert fb.check_pinv(e, cut, row, ([a], {}))
    noise = np.array([[1.0, 1.0], [1.0, 1.0 + 1e-7]], np.float32)  # s_min at rounding: open
    assert fb.check_pinv(np.linalg.pinv(noise), np.zeros((2, 2), np.float32), row, ([noise], {})) is None


def test_matrix_rank_differs_only_by_values_at_the_tolerance():
    row = _row("linalg.matrix_rank(m)")
    a = np.array([[[1.0, 0.0], [0.0, 3e-16]], [[1.0, 0.0], [0.0, 1e-3]]])
    e = np.linalg.matrix_rank(a)
    assert fb.check_matrix_rank(e, e.copy(), row, ([a], {})) is None
    assert fb.check_matrix_rank(e, e + np.array([1, 0]), row, ([a], {})) is None  # 3e-16 is at 2 eps
    assert fb.check_matrix_rank(e, e - np.array([0, 1]), row, ([a], {}))


def test_cholesky_one_side_refusing_a_matrix_at_the_edge_of_definiteness():
    row = _row("linalg.cholesky(sq)")
    edge = np.array([[1.0, 1.0], [1.0, 1.0 + 1e-17]])
    pd = np.array([[2.0, 1.0], [1.0, 2.0]])
    err = ("raise", np.linalg.LinAlgError("not positive definite"))
    assert row.check.outcome(err, ("ok", np.eye(2)), row, ([edge], {})) is None
    assert row.check.outcome(err, ("ok", np.eye(2)), row, ([pd], {}))


def test_generators_reach_every_kind():
    rng = np.random.default_rng(0)
    seen = set()
    for dt in ("f", "d", "F", "D", "e", "B", "q"):
        for _ in range(40):
            seen |= fuzz_traits.case_kinds([fuzz_values.random_values(rng, (3, 4), np.dtype(dt))], {})
            seen |= fuzz_traits.case_kinds([fuzz_values.random_values(rng, (6,), np.dtype(dt), "dups")], {})
    for _ in range(10):
        v, tags = fuzz_values.matrix_values(rng, (2, 3, 4, 4), np.dtype("d"), hermitian=True)
        seen |= fuzz_traits.case_kinds([v], {"initial": 2 ** 64}, tags)
    missing = set(fuzz_traits.ALL_KINDS) - seen - {"0-d", "empty", "scalar-special", "int-out-of-range"}
    assert not missing


def test_summary_counts_per_function_and_kind():
    rows = [_row("sqrt(a)"), _row("max(a){initial,where,axis,keepdims}")]
    st = fuzzlib.fuzz(rows, 0, fuzzlib.Side(np), fuzzlib.Side(np, name="numpy2"), calls=60)
    d = json.loads(st.to_json())
    assert sum(c[0] for c in d["rows"].values()) == 60 and set(d["rows"]) == {r.key for r in rows}
    text = fuzz_report.report(fuzz_report.merge([st.to_json(), st.to_json()]), full=True)
    assert "120 calls in 2 chunk(s)" in text and "sqrt(a): 60 " in text and "nan " in text
    assert fuzz_report.mismatch_kind("expected OverflowError(x), got a result") == "missing-error"
    assert fuzz_report.mismatch_kind("[1] dtype: expected uint8 got int32") == "dtype"


def test_histogram_density_over_float32_weights_allows_the_float32_sum():
    """GPU fuzz seed 14: NumPy's densities over float32 weights divide by n.sum() in float32, so
    every density of cuarray's differed by the same 1.45e-7 relative (one float32 ulp of the sum):
    accepted there, and only there; a wrong bin is still found."""
    row = _row("histogram(a){bins,range,density,weights}")
    e = np.array([4.49074962, -1.20227621, 4.11596609, -0.0, -0.0, -0.0, -6.71844277, -0.0, -0.0, 1.18066612])
    edges = np.linspace(-2.1, 3.2, 11)
    g = e * (1 + 1.45e-7)
    x = np.zeros(5, np.float32)
    kw32 = {"density": True, "weights": np.ones(5, np.float32)}
    assert row.check((e, edges), (g, edges), row, ([x], kw32)) is None
    wrong = g.copy()
    wrong[2] *= 1 + 1e-4
    assert "values differ" in row.check((e, edges), (wrong, edges), row, ([x], kw32))
    kw64 = {"density": True, "weights": np.ones(5)}  # float64 weights: NumPy's sum is float64
    assert "values differ" in row.check((e, edges), (g, edges), row, ([x], kw64))
    assert "values differ" in row.check((e, edges), (g, edges), row, ([x], {"weights": kw32["weights"]}))
    assert "[1]" in row.check((e, edges), (g, edges * 1.01), row, ([x], kw32))
