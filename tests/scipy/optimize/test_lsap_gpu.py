"""cuarray.scipy.optimize.linear_sum_assignment on the device against SciPy's on fresh random cost
matrices: the total cost (exactly for integer costs, within the documented bound
max(shape) * 2**-42 * range for float costs), a valid assignment (distinct columns, sorted rows),
dtypes, strided and transposed inputs, forbidden (inf) pairs, SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

so = pytest.importorskip("scipy.optimize")

import cuarray  # noqa: E402
import cuarray.scipy.optimize as co  # noqa: E402
from cuarray.scipy.optimize import _auction  # noqa: E402


def _check(c_host, c_dev=None, maximize=False, exact=True):
    rows, cols = co.linear_sum_assignment(cuarray.asarray(c_host) if c_dev is None else c_dev, maximize=maximize)
    assert isinstance(rows, cuarray.ndarray) and rows.dtype == np.int64 and cols.dtype == np.int64
    rows, cols = rows.get(), cols.get()
    r0, c0 = so.linear_sum_assignment(c_host, maximize=maximize)
    assert rows.shape == cols.shape == r0.shape, (rows.shape, r0.shape)
    assert np.all(np.diff(rows) > 0) and np.unique(cols).size == cols.size, (rows, cols)
    got, ref = c_host[rows, cols].sum(dtype=np.float64), c_host[r0, c0].sum(dtype=np.float64)
    if exact:
        assert got == ref, f"shape {c_host.shape} maximize={maximize}: cost {got} vs SciPy's {ref}"
    else:
        finite = np.abs(c_host[np.isfinite(c_host)].astype(np.float64))
        bound = max(c_host.shape) * 2.0 ** -42 * np.ptp(finite) + 4 * min(c_host.shape) * np.finfo(float).eps * finite.max()
        assert abs(got - ref) <= bound, f"shape {c_host.shape}: cost {got} vs SciPy's {ref}, bound {bound}"


@pytest.mark.parametrize("shape", [(1, 1), (64, 64), (48, 80), (80, 48)])
@pytest.mark.parametrize("levels", [3, 1000])
def test_integer_costs(shape, levels):
    rng = np.random.default_rng()
    _check(rng.integers(0, levels, shape), maximize=levels == 3)


@pytest.mark.parametrize("shape", [(96, 96), (60, 90)])
@pytest.mark.parametrize("maximize", [False, True])
def test_float_costs(shape, maximize):
    rng = np.random.default_rng()
    _check(rng.standard_normal(shape), maximize=maximize, exact=False)


@pytest.mark.parametrize("dtype", [bool, np.int32, np.uint8, np.float32])
def test_dtypes(dtype):
    rng = np.random.default_rng()
    _check(rng.integers(0, 2 if dtype is bool else 50, (30, 40)).astype(dtype))


def test_strided_and_transposed_inputs():
    rng = np.random.default_rng()
    big = rng.integers(0, 20, (60, 90))
    d = cuarray.asarray(big)
    _check(big[::2, 1::3], d[::2, 1::3])
    _check(big.T.copy(), d.T)
    f = rng.random((50, 50))
    _check(f.T.copy(), cuarray.asarray(np.asfortranarray(f)).T, exact=False)


def test_infinite_costs():
    rng = np.random.default_rng()
    c = rng.integers(0, 9, (40, 50)).astype(float)
    c[rng.random(c.shape) < 0.7] = np.inf
    c[np.arange(40), rng.permutation(50)[:40]] = 4.0  # a finite full assignment exists
    _check(c)
    _check(-c, maximize=True)
    bad = c.copy()
    bad[:, 2:] = np.inf
    with pytest.raises(ValueError, match="cost matrix is infeasible"):
        co.linear_sum_assignment(cuarray.asarray(bad))


def test_errors_and_empty():
    for c, maximize in ((np.array([[np.nan, 1.0], [1.0, 2.0]]), False), (np.array([[-np.inf, 1.0], [1.0, 2.0]]), False),
                        (np.array([[np.inf, 1.0], [1.0, 2.0]]), True)):
        with pytest.raises(ValueError, match="matrix contains invalid numeric entries"):
            co.linear_sum_assignment(cuarray.asarray(c), maximize=maximize)
    with pytest.raises(ValueError, match=r"expected a matrix \(2-D array\), got a 1 array"):
        co.linear_sum_assignment(cuarray.zeros(3))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        co.linear_sum_assignment(np.ones((2, 2)))
    for shape in ((0, 0), (0, 5), (5, 0)):
        rows, cols = co.linear_sum_assignment(cuarray.zeros(shape))
        assert rows.shape == cols.shape == (0,) and rows.dtype == np.int64


@pytest.mark.parametrize("shape, kind", [((640, 640), "float"), ((300, 700), "float"), ((700, 300), "int"),
                                         ((512, 512), "int")])
def test_sizes_with_the_one_launch_tail(shape, kind):
    # m // 64 >= 4: each phase's last unassigned persons (dummies too when rows < columns) bid in
    # the auction_chains kernel, the earlier ones in Jacobi rounds
    rng = np.random.default_rng()
    c = rng.random(shape) if kind == "float" else rng.integers(0, 50, shape)
    _check(c, exact=kind == "int")


def test_one_phase_ends_in_eps_complementary_slackness():
    # the device state after one phase from no assignment (Jacobi rounds, then the kernel's tail):
    # every row and dummy holds a distinct object within eps of its best at the final prices
    n, m = 200, 320
    rng = np.random.default_rng()
    a_host = -rng.random((n, m))
    eps = 1e-3
    a, p = cuarray.asarray(a_host), cuarray.zeros(m + 1)
    owner, free = cuarray.full(m + 1, -1, dtype=np.int64), cuarray.ones(n + 2, dtype=bool)
    _auction._phase(a, p, owner, free, n, m, eps)
    owner, p = owner.get()[:m], p.get()[:m]
    assert np.sort(owner[owner < n]).tolist() == list(range(n)) and np.count_nonzero(owner == n) == m - n
    assert not free.get()[:n].any()
    col = np.argsort(owner)[:n]
    vals = a_host - p
    slack = vals.max(axis=1) - vals[np.arange(n), col]
    assert np.all(slack <= eps * (1 + 1e-9)), f"largest slack {slack.max() / eps} eps"
    assert np.all(p[owner == n] <= p.min() + eps * (1 + 1e-9))
