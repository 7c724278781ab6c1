"""scipy.stats.qmc on the GPU against SciPy: Sobol's and Halton's points bit for bit (unscrambled, and
scrambled from the same seed: the host makes SciPy's matrices), continued draws, fast_forward,
reset, 64 bits, many dimensions, integers; LatinHypercube's strata (one point each, uniform within, centres
without scrambling) and replay; discrepancy (every method, iterative or not, a sample
past one block of pairs); scale both ways."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sq = pytest.importorskip("scipy.stats.qmc")

import cuarray  # noqa: E402
from cuarray.scipy.stats import qmc as cq  # noqa: E402

G = cuarray.asarray


@pytest.mark.parametrize("method", ["CD", "WD", "MD", "L2-star"])
def test_discrepancy_as_scipy(method):
    rng = np.random.default_rng()
    # 1500 x 1500 x 3 pair factors: two blocks of 2^22
    for n, d in ((1, 1), (40, 5), (1500, 3)):
        s = rng.random((n, d))
        for iterative in (False, True):
            got = cq.discrepancy(G(s), iterative=iterative, method=method)
            want = sq.discrepancy(s, iterative=iterative, method=method)
            assert got.shape == () and got.dtype == np.float64
            # sums of <= n^2 products of d factors below 2 in another order: ~n^2 eps 2^d / n^2
            np.testing.assert_allclose(float(got), want, rtol=0, atol=1e-11 * 2.0 ** d, err_msg=str((n, d, iterative)))
    with pytest.raises(ValueError, match="Sample is not in unit hypercube"):
        cq.discrepancy(G(s + 1), method=method)


def test_scale_as_scipy():
    rng = np.random.default_rng()
    s = rng.random((20, 3))
    lo, hi = [-2, 0, 1], [6, 5, 1.5]
    got = cuarray.asnumpy(cq.scale(G(s), lo, hi))
    np.testing.assert_allclose(got, sq.scale(s, lo, hi), rtol=1e-15, atol=1e-15)
    back = cuarray.asnumpy(cq.scale(G(got), G(np.array(lo, dtype=float)), hi, reverse=True))
    np.testing.assert_allclose(back, sq.scale(got, lo, hi, reverse=True), rtol=1e-14, atol=1e-15)
    with pytest.raises(ValueError, match="Sample is out of bounds"):
        cq.scale(G(s * 10 + 7), lo, hi, reverse=True)


@pytest.mark.parametrize("scramble", [False, True])
@pytest.mark.parametrize("bits", [None, 64])
def test_sobol_points_as_scipys(scramble, bits):
    seed = int(np.random.default_rng().integers(2**31))
    ours, theirs = cq.Sobol(6, scramble=scramble, bits=bits, rng=seed), sq.Sobol(6, scramble=scramble, bits=bits, rng=seed)
    steps = [lambda e: e.random_base2(10), lambda e: e.random(1), lambda e: e.random(999),
             lambda e: e.reset().random(1), lambda e: e.random(3)]
    if bits is None:  # SciPy's fast_forward of 64-bit engines fails
        steps.append(lambda e: e.fast_forward(77).random(50))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for k, step in enumerate(steps):
            got, want = step(ours), step(theirs)
            # the same integers times 2^-bits (64 bits: one rounding to double, correctly rounded both sides)
            np.testing.assert_array_equal(cuarray.asnumpy(got), want, err_msg="step {} seed {}".format(k, seed))
            assert got.dtype == np.float64 and ours.num_generated == theirs.num_generated


def test_sobol_many_dimensions_and_integers_as_scipys():
    seed = int(np.random.default_rng().integers(2**31))
    ours, theirs = cq.Sobol(1111, rng=seed), sq.Sobol(1111, rng=seed)
    np.testing.assert_array_equal(cuarray.asnumpy(ours.random(256)), theirs.random(256), err_msg=str(seed))
    lo, hi = [0, 5, -3], [10, 7, 3]
    ours, theirs = cq.Sobol(3, rng=seed), sq.Sobol(3, rng=seed)
    got, want = ours.integers(lo, u_bounds=hi, n=64), theirs.integers(lo, u_bounds=hi, n=64)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(cuarray.asnumpy(got), want)
    got, want = ours.integers(4, n=32, endpoint=True), theirs.integers(4, n=32, endpoint=True)
    np.testing.assert_array_equal(cuarray.asnumpy(got), want)


@pytest.mark.parametrize("scramble", [False, True])
def test_halton_points_as_scipys(scramble):
    seed = int(np.random.default_rng().integers(2**31))
    ours, theirs = cq.Halton(40, scramble=scramble, rng=seed), sq.Halton(40, scramble=scramble, rng=seed)
    # the same digits, products and sums in SciPy's order, each rounded once (never an fma): exact
    for k, step in enumerate((lambda e: e.random(500), lambda e: e.random(1), lambda e: e.fast_forward(33).random(64),
                              lambda e: e.reset().random(7))):
        got, want = step(ours), step(theirs)
        np.testing.assert_array_equal(cuarray.asnumpy(got), want, err_msg="step {} seed {}".format(k, seed))
        assert ours.num_generated == theirs.num_generated
    lo = np.arange(40) - 20
    hi = lo + 1 + np.arange(40) % 7
    got, want = ours.integers(lo, u_bounds=hi, n=16), theirs.integers(lo, u_bounds=hi, n=16)
    np.testing.assert_array_equal(cuarray.asnumpy(got), want)


@pytest.mark.parametrize("scramble", [True, False])
def test_latin_hypercube_strata(scramble):
    n, d = 257, 6
    e = cq.LatinHypercube(d, scramble=scramble, rng=np.random.default_rng())
    x = cuarray.asnumpy(e.random(n))
    assert x.shape == (n, d) and x.dtype == np.float64
    cells = np.floor(x * n).astype(np.int64)
    for j in range(d):  # one point in each stratum [k/n, (k+1)/n) of every dimension
        np.testing.assert_array_equal(np.sort(cells[:, j]), np.arange(n))
    if not scramble:
        np.testing.assert_allclose(np.sort(x, axis=0), ((np.arange(n)[:, None] + 0.5) / n) * np.ones(d), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(cuarray.asnumpy(e.reset().random(n)), x)  # the engine's Generator seeds the draw
