"""cuarray.scipy.optimize.linear_sum_assignment's auction (`_auction`, `_lsap`) run on the host
with NumPy standing in for the cuarray routines, against SciPy's Jonker-Volgenant on fresh random
cost matrices: the total cost (exactly for integer costs, within the documented bound for float
costs), a valid assignment (distinct columns, sorted rows, min(shape) pairs), SciPy's errors."""

import inspect

import numpy as np
import pytest
import scipy.optimize as so

import cuarray.scipy.optimize as co
from cuarray.cuda import compiler
from cuarray.scipy.optimize import _auction_chains as chains_module


def _check(lsa, c, maximize=False, exact=True):
    rows, cols = lsa(c, maximize=maximize)
    r0, c0 = so.linear_sum_assignment(c, maximize=maximize)
    assert rows.dtype == np.int64 and cols.dtype == np.int64
    assert rows.shape == cols.shape == r0.shape, (rows.shape, r0.shape)
    assert np.all(np.diff(rows) > 0) and np.unique(cols).size == cols.size
    if c.shape[0] <= c.shape[1]:
        np.testing.assert_array_equal(rows, np.arange(c.shape[0]))
    got, ref = c[rows, cols].sum(dtype=np.float64), c[r0, c0].sum(dtype=np.float64)
    if exact:
        assert got == ref, (c.shape, got, ref)
    else:
        # the documented bound, max(shape) * 2**-42 * range, plus both sums' rounding
        finite = np.abs(c[np.isfinite(c)].astype(np.float64))
        span = np.ptp(finite) if finite.size else 0.0
        bound = max(c.shape) * 2.0 ** -42 * span + 4 * min(c.shape) * np.finfo(np.float64).eps * finite.max()
        assert abs(got - ref) <= bound, (c.shape, got, ref, bound)
    return rows, cols


@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (40, 40), (25, 40), (40, 25), (1, 9), (9, 1)])
@pytest.mark.parametrize("levels", [2, 5, 1000])
def test_integer_costs_exact(host_optimize, shape, levels):
    rng = np.random.default_rng()
    c = rng.integers(-levels // 2, levels, shape)
    _check(host_optimize.linear_sum_assignment, c, maximize=bool(rng.integers(2)))


@pytest.mark.parametrize("shape", [(7, 7), (40, 40), (30, 45), (45, 30)])
@pytest.mark.parametrize("maximize", [False, True])
def test_float_costs(host_optimize, shape, maximize):
    rng = np.random.default_rng()
    c = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4)
    _check(host_optimize.linear_sum_assignment, c, maximize=maximize, exact=False)


@pytest.mark.parametrize("dtype", [bool, np.int8, np.uint16, np.int64, np.float32])
def test_dtypes(host_optimize, dtype):
    rng = np.random.default_rng()
    c = rng.integers(0, 2 if dtype is bool else 60, (20, 24)).astype(dtype)
    _check(host_optimize.linear_sum_assignment, c)


def test_integer_valued_and_constant_floats_are_exact(host_optimize):
    rng = np.random.default_rng()
    lsa = host_optimize.linear_sum_assignment
    _check(lsa, rng.integers(0, 4, (30, 30)) + 0.5)  # integral after the shift by the minimum
    _check(lsa, np.full((12, 15), 2.25))
    _check(lsa, rng.integers(-10**15, 10**15, (20, 20)).astype(np.float64), exact=False)  # past the exact range


@pytest.mark.parametrize("shape", [(30, 30), (20, 35), (35, 20)])
def test_infinite_costs_forbid_pairs(host_optimize, shape):
    rng = np.random.default_rng()
    for integral in (True, False):
        c = rng.integers(0, 9, shape).astype(float) if integral else rng.random(shape)
        c[rng.random(shape) < 0.6] = np.inf
        k = min(shape)
        pairs = (np.arange(k), rng.permutation(max(shape))[:k])
        c[pairs if shape[0] <= shape[1] else pairs[::-1]] = 1.0  # some full assignment is finite
        _check(host_optimize.linear_sum_assignment, c, exact=integral)
        _check(host_optimize.linear_sum_assignment, -c, maximize=True, exact=integral)


def test_infeasible(host_optimize):
    rng = np.random.default_rng()
    c = rng.random((6, 6))
    c[:, 2:] = np.inf  # six rows, two usable columns
    for bad, maximize in ((c, False), (-c.T, True), (c[:, :5], False), (np.full((3, 4), np.inf), False),
                          (np.array([[np.inf]]), False)):
        for lsa in (so.linear_sum_assignment, host_optimize.linear_sum_assignment):
            with pytest.raises(ValueError, match="cost matrix is infeasible"):
                lsa(bad, maximize=maximize)


def test_invalid_entries_and_shapes(host_optimize):
    lsa = host_optimize.linear_sum_assignment
    c = np.ones((3, 3))
    for bad, maximize in ((np.where(np.eye(3) > 0, np.nan, c), False), (np.where(np.eye(3) > 0, -np.inf, c), False),
                          (np.where(np.eye(3) > 0, np.inf, c), True)):
        with pytest.raises(ValueError, match="matrix contains invalid numeric entries"):
            lsa(bad, maximize=maximize)
    # maximizing, -inf is a forbidden pair as +inf is when minimizing
    rows, cols = _check(lsa, np.where(np.eye(5) > 0, -np.inf, np.random.default_rng().integers(0, 9, (5, 5))), True)
    assert np.all(rows != cols)
    for arr, ndim in ((np.zeros(3), 1), (np.float64(1.0), 0), (np.zeros((2, 2, 2)), 3)):
        with pytest.raises(ValueError, match=f"expected a matrix \\(2-D array\\), got a {ndim} array"):
            lsa(arr)
    with pytest.raises(TypeError, match="Cannot cast array data"):
        lsa(np.ones((2, 2), complex))
    for shape in ((0, 0), (0, 4), (4, 0)):
        rows, cols = lsa(np.zeros(shape))
        assert rows.shape == cols.shape == (0,) and rows.dtype == cols.dtype == np.int64


def test_signature_matches_scipy():
    got = inspect.signature(co.linear_sum_assignment)
    assert str(got) == "(cost_matrix, maximize=False)"
    try:  # SciPy 1.17's compiled function carries no signature, 1.18's does
        ref = inspect.signature(so.linear_sum_assignment)
    except ValueError:
        return
    assert got == ref


@pytest.mark.parametrize("shape", [(2, 2), (1, 5), (30, 30), (12, 30)])  # m == 1 never bids
def test_a_phase_ends_in_eps_complementary_slackness(host_optimize_copies, shape):
    # one phase of bidding from no assignment: every row, and every dummy (benefit 0) of the
    # padding, ends holding a distinct object within eps of its best at the final prices
    auction = host_optimize_copies["_auction"]
    n, m = shape
    rng = np.random.default_rng()
    a = -rng.random(shape)
    eps = 10.0 ** rng.uniform(-4, -1)
    p = np.zeros(m + 1)
    owner = np.full(m + 1, -1, np.int64)
    free = np.ones(n + 2, bool)
    auction._phase(a, p, owner, free, n, m, eps)
    owner, p = owner[:m], p[:m]
    assert np.sort(owner[owner < n]).tolist() == list(range(n)) and np.count_nonzero(owner == n) == m - n
    assert not free[:n].any()
    col = np.argsort(owner)[:n]  # the object of rows 0..n-1
    vals = a - p
    slack = vals.max(axis=1) - vals[np.arange(n), col]
    assert np.all(slack <= eps * (1 + 1e-9)), slack.max() / eps
    assert np.all(p[owner == n] <= p.min() + eps * (1 + 1e-9))


def test_chains_kernel_compiles_for_sm90():
    cubin, mapping = compiler.compile_cubin(chains_module.source(), arch="sm_90", name_expressions=(chains_module.NAME,))
    assert cubin and set(mapping) == {chains_module.NAME}
