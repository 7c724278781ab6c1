"""solve_toeplitz's planner (cuarray/scipy/linalg/_toeplitz_plan.py) at its boundary shapes: the
crossovers its docstring states, the memory bound, the batch and right-hand-side terms, and that it
is pure (plain numbers in, a string out)."""

from __future__ import annotations

import pytest

from cuarray.scipy.linalg import _toeplitz_plan as P

H100 = 132


def _first_dense(k=1, systems=1, matrices=1, complex_=False, sms=H100, start=2, stop=20000):
    return next((n for n in range(start, stop) if P.route(n, k, systems, matrices, complex_, sms) == P.DENSE_LU), None)


def _last_dense(k=1, systems=1, matrices=1, complex_=False, sms=H100):
    first = _first_dense(k, systems, matrices, complex_, sms)
    n = first
    while P.route(n + 1, k, systems, matrices, complex_, sms) == P.DENSE_LU:
        n += 1
    return n


def test_calibration_point():
    # the one timing: n = 4096, one system, ~10 ms by Levinson, ~2 ms by the dense route
    assert 9000 < P.levinson_us(4096, 1, 1, H100) < 11000
    assert 1000 < P.dense_us(4096, 1, 1, 1, False) < 2500


@pytest.mark.parametrize("complex_,first,last", [(False, 326, 11379), (True, 327, 4723)])
def test_one_system_crossovers(complex_, first, last):
    assert P.route(first - 1, 1, 1, 1, complex_, H100) == P.LEVINSON
    assert P.route(first, 1, 1, 1, complex_, H100) == P.DENSE_LU
    assert P.route(last, 1, 1, 1, complex_, H100) == P.DENSE_LU
    assert P.route(last + 1, 1, 1, 1, complex_, H100) == P.LEVINSON
    # the GPU tests' large single systems take the dense route, their small ones Levinson
    assert P.route(2048, 1, 1, 1, complex_, H100) == P.DENSE_LU
    assert P.route(300, 1, 1, 1, complex_, H100) == P.LEVINSON


def test_memory_bound(monkeypatch):
    # float64: n^2 * 8 <= 1 GiB up to n = 11585; the model leaves the dense route a little earlier
    big = 11585
    assert big * big * 8 <= P.DENSE_BYTES_MAX < (big + 1) ** 2 * 8
    assert _last_dense() < big
    # the bound alone: a model that always favoured LU would still stop at it
    monkeypatch.setattr(P, "DENSE_ADVANTAGE", 0.0)
    assert P.route(big, 1, 1, 1, False, H100) == P.DENSE_LU
    assert P.route(big + 1, 1, 1, 1, False, H100) == P.LEVINSON
    assert P.route(8192, 1, 1, 1, True, H100) == P.DENSE_LU
    assert P.route(8193, 1, 1, 1, True, H100) == P.LEVINSON
    assert P.route(4096, 1, 8, 8, False, H100) == P.DENSE_LU     # 8 x 128 MiB = 1 GiB
    assert P.route(4096, 1, 9, 9, False, H100) == P.LEVINSON
    assert P.route(4096, 1, 9, 1, False, H100) == P.DENSE_LU     # one matrix shared: 128 MiB


def test_batches():
    # distinct matrices: the LUs run one after another, Levinson's systems side by side
    assert (_first_dense(systems=2, matrices=2), _last_dense(systems=2, matrices=2)) == (641, 7110)
    assert (_first_dense(systems=4, matrices=4), _last_dense(systems=4, matrices=4)) == (1326, 4159)
    assert _first_dense(systems=8, matrices=8) is None
    # one matrix for many systems (b batched, c and r not): one LU, as one system
    assert _first_dense(systems=64, matrices=1) == 326
    # Levinson past its resident blocks (2 an SM) takes more waves: a huge batch of small shared
    # systems goes dense
    resident = P.LEVINSON_BLOCKS_PER_SM * H100
    assert P.levinson_us(100, 1, resident, H100) == P.levinson_us(100, 1, 1, H100)
    assert P.levinson_us(100, 1, resident + 1, H100) == 2 * P.levinson_us(100, 1, 1, H100)
    assert P.route(100, 1, 1, 1, False, H100) == P.LEVINSON
    assert P.route(100, 1, 10 * resident, 1, False, H100) == P.DENSE_LU
    # fewer SMs: fewer systems side by side
    assert P.levinson_us(500, 1, 100, 40) == 2 * P.levinson_us(500, 1, 100, H100)


def test_right_hand_sides():
    # each group of 8 right-hand sides adds to Levinson's step: the dense route starts earlier
    assert _first_dense(k=8) == 326
    assert _first_dense(k=9) < 326
    assert _first_dense(k=11) == 243
    assert _first_dense(k=64) < _first_dense(k=17) < _first_dense(k=16) == _first_dense(k=9)


@pytest.mark.parametrize("n", [0, 1])
def test_trivial_orders(n):
    assert P.route(n, 1, 1, 1, False, H100) == P.LEVINSON
    assert P.route(n, 1000, 10 ** 6, 1, True, H100) == P.LEVINSON


def test_pure():
    # plain numbers in, a string out, the same each time; nothing of a device is touched
    assert P.route(2048, 3, 1, 1, True, H100) == P.route(2048, 3, 1, 1, True, H100) == "dense-lu"
    assert P.route(64, 3, 1, 1, True, H100) == "levinson"
