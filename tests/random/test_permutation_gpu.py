"""GPU tests of permutation, shuffle, permuted, choice and the legacy API: results are true
permutations/samples, uniform (chi-square over all 24 orders of 4 items and over the parity of
16-item permutations, via permuted's independent rows), reproducible, NumPy's shapes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 16, 17, 1000, 2**20, 10**6 + 3])
def test_permutation_is_permutation(n):
    p = cuarray.random.default_rng(n).permutation(n).get()
    assert p.dtype == np.int64 and p.shape == (n,)
    assert np.array_equal(np.sort(p), np.arange(n))
    if n >= 1000:
        assert abs(np.corrcoef(p, np.arange(n))[0, 1]) < 5 / np.sqrt(n)


def test_permutation_uniform_orders_and_parity():
    rows = 240000
    x = cuarray.asarray(np.tile(np.arange(4), (rows, 1)))
    p = cuarray.random.default_rng(1).permuted(x, axis=1).get()
    code = p @ np.array([64, 16, 4, 1])
    orders = [sum(v * w for v, w in zip(perm, (64, 16, 4, 1))) for perm in itertools.permutations(range(4))]
    counts = np.array([np.sum(code == c) for c in orders])
    assert counts.sum() == rows
    assert stats.chisquare(counts).pvalue > 1e-5
    y = cuarray.asarray(np.tile(np.arange(16), (20000, 1)))
    q = cuarray.random.default_rng(2).permuted(y, axis=1).get()
    parity = np.array([_parity(r) for r in q[:20000]])
    assert abs(parity.mean() - 0.5) < 0.02  # a Feistel network alone gives only even permutations


def _parity(perm):
    seen, odd = np.zeros(len(perm), bool), 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j], j, length = True, perm[j], length + 1
            odd ^= (length - 1) & 1
    return odd


def test_position_uniform():
    rows, n = 100000, 7
    q = cuarray.random.default_rng(3).permuted(cuarray.asarray(np.tile(np.arange(n), (rows, 1))), axis=1).get()
    for pos in range(n):
        assert stats.chisquare(np.bincount(q[:, pos], minlength=n)).pvalue > 1e-5


def test_permutation_of_arrays_and_shuffle():
    a = np.arange(60).reshape(4, 15)
    x = cuarray.asarray(a)
    g = cuarray.random.default_rng(4)
    p = g.permutation(x).get()
    assert p.shape == a.shape and sorted(map(tuple, p)) == sorted(map(tuple, a))
    p1 = g.permutation(x, axis=1).get()
    assert np.array_equal(np.sort(p1, axis=1), a) and len({tuple(r - r[0]) for r in p1}) == 1
    y = cuarray.asarray(a.copy())
    g.shuffle(y, axis=1)
    yh = y.get()
    assert np.array_equal(np.sort(yh, axis=1), a) and not np.array_equal(yh, a)
    z = g.permuted(x, axis=0).get()
    assert np.array_equal(np.sort(z, axis=0), a)
    w = g.permuted(x).get()
    assert np.array_equal(np.sort(w.ravel()), a.ravel()) and w.shape == a.shape
    out = cuarray.empty_like(x)
    assert g.permuted(x, axis=1, out=out) is out
    from numpy.exceptions import AxisError

    with pytest.raises(AxisError):
        g.permutation(cuarray.asarray(np.float64(3.0)))
    with pytest.raises(AxisError):
        g.permuted(x, axis=3)


def test_permutation_reproducible():
    a = cuarray.random.default_rng(9).permutation(10**5).get()
    b = cuarray.random.default_rng(9).permutation(10**5).get()
    c = cuarray.random.default_rng(10).permutation(10**5).get()
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_choice():
    g = cuarray.random.default_rng(5)
    x = g.choice(10, size=10**6).get()
    assert x.dtype == np.int64 and x.min() == 0 and x.max() == 9
    assert stats.chisquare(np.bincount(x, minlength=10)).pvalue > 1e-5
    p = np.array([0.1, 0.0, 0.6, 0.3])
    y = g.choice(4, size=10**6, p=cuarray.asarray(p)).get()
    counts = np.bincount(y, minlength=4)
    assert counts[1] == 0
    assert stats.chisquare(counts[[0, 2, 3]], 10**6 * p[[0, 2, 3]]).pvalue > 1e-5
    z = g.choice(10**8, size=10**6, replace=False).get()
    assert len(np.unique(z)) == 10**6 and z.min() >= 0 and z.max() < 10**8
    assert abs(z.mean() / 10**8 - 0.5) < 0.003
    a = cuarray.asarray(np.arange(12).reshape(3, 4))
    assert g.choice(a, size=5).shape == (5, 4)
    assert g.choice(a, size=(2, 2), axis=1).shape == (3, 2, 2)
    assert g.choice(a, axis=1, replace=False, size=4).shape == (3, 4)
    assert g.choice(5).shape == ()
    with pytest.raises(ValueError, match="Probabilities do not sum to 1"):
        g.choice(3, p=cuarray.asarray(np.array([0.5, 0.6, 0.1])))
    with pytest.raises(ValueError, match="Probabilities are not non-negative"):
        g.choice(3, p=cuarray.asarray(np.array([0.5, 0.6, -0.1])))
    with pytest.raises(ValueError, match="a and p must have same size"):
        g.choice(5, p=cuarray.asarray(np.array([0.5, 0.5])))


def test_legacy_api():
    cuarray.random.seed(0)
    a = cuarray.random.rand(3, 4)
    cuarray.random.seed(0)
    b = cuarray.random.rand(3, 4)
    assert a.shape == (3, 4) and np.array_equal(a.get(), b.get())
    assert cuarray.random.randn(5).shape == (5,) and cuarray.random.randn().shape == ()
    r = cuarray.random.randint(3, 7, size=10000).get()
    assert r.min() == 3 and r.max() == 6
    with pytest.warns(DeprecationWarning):
        ri = cuarray.random.random_integers(5, size=10000).get()
    assert ri.min() == 1 and ri.max() == 5
    for f in ("random_sample", "random", "ranf", "sample"):
        v = getattr(cuarray.random, f)(size=7).get()
        assert v.shape == (7,) and (0 <= v).all() and (v < 1).all()
    rs = cuarray.random.RandomState(1)
    st = rs.get_state()
    u = rs.normal(size=5).get()
    rs.set_state(st)
    assert np.array_equal(rs.normal(size=5).get(), u)
    assert cuarray.random.choice(5, 3, replace=False).shape == (3,)
    x = cuarray.arange(10)
    cuarray.random.shuffle(x)
    assert sorted(x.get().tolist()) == list(range(10))
    assert cuarray.random.permutation(10).shape == (10,)
    assert cuarray.random.poisson(3.0, size=4).dtype == np.int64
    assert cuarray.random.get_random_state().tomaxint(3).shape == (3,)
    assert len(cuarray.random.default_rng(0).bytes(10)) == 10


def test_kernel_matches_numpy_model():
    from cuarray.random._permutation import permutation_model

    got = cuarray.random.default_rng(5).permutation(1000).get()
    want = permutation_model(cuarray.random.Philox(5).next_draw(), 1000, 1000)[0]
    assert np.array_equal(got, want)
    x = cuarray.asarray(np.tile(np.arange(7), (50, 1)))
    rows = cuarray.random.default_rng(6).permuted(x, axis=1).get()
    assert np.array_equal(rows, permutation_model(cuarray.random.Philox(6).next_draw(), 7, 7, rows=50))


def test_choice_weighted_without_replacement():
    """Ordered pairs drawn without replacement follow the sequential law P(i, j) = p_i p_j / (1 - p_i)
    (NumPy's law), zero-weight items never appear, and NumPy's errors for too few non-zero weights."""
    g = cuarray.random.default_rng(11)
    p = np.array([0.4, 0.0, 0.3, 0.2, 0.1])
    pd = cuarray.asarray(p)
    draws = np.array([g.choice(5, size=2, replace=False, p=pd).get() for _ in range(4000)])
    assert draws.dtype == np.int64 and draws.shape == (4000, 2)
    assert (draws[:, 0] != draws[:, 1]).all() and not (draws == 1).any()
    items = [0, 2, 3, 4]
    pairs = [(i, j) for i in items for j in items if i != j]
    expected = np.array([p[i] * p[j] / (1 - p[i]) for i, j in pairs]) * len(draws)
    observed = np.array([np.count_nonzero((draws[:, 0] == i) & (draws[:, 1] == j)) for i, j in pairs])
    assert observed.sum() == len(draws)
    assert stats.chisquare(observed, expected).pvalue > 1e-5
    # every non-zero item when size equals their count; an array population along an axis
    full = g.choice(5, size=4, replace=False, p=pd).get()
    assert sorted(full.tolist()) == items
    a = cuarray.asarray(np.arange(15).reshape(3, 5))
    assert g.choice(a, size=(2,), replace=False, p=pd, axis=1).shape == (3, 2)
    assert g.choice(5, size=0, replace=False, p=pd).shape == (0,)
    with pytest.raises(ValueError, match="Fewer non-zero entries in p than size"):
        g.choice(5, size=5, replace=False, p=pd)
    with pytest.raises(ValueError, match="Cannot take a larger sample than population"):
        g.choice(5, size=6, replace=False, p=pd)
    rs = cuarray.random.RandomState(3)
    assert sorted(rs.choice(5, 4, replace=False, p=pd).get().tolist()) == items
