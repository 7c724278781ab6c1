"""scipy.stats.qmc's discrepancy and scale without a GPU: the module on NumPy (stats_tests_host)
against scipy.stats.qmc (every method, iterative or not, 1-D to 6-D samples, a sample past one
block of pairs); scale both ways with broadcast bounds; the errors; the signatures of every
name of the module (the engines' methods too)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sq = pytest.importorskip("scipy.stats.qmc")

from cuarray.scipy.stats import qmc as cq  # noqa: E402


@pytest.fixture(scope="module")
def Q(stats_host):
    return stats_host["_discrepancy"]


def _tol(d):
    # the discrepancy is a difference of sums of products of d factors each below 2: the sums'
    # rounding, in another order than SciPy's, is ~n^2 eps of their size (< 2^d n^2 of terms
    # divided by n^2), far below 1e-12 * 2^d for the n here
    return dict(rtol=0, atol=1e-12 * 2.0 ** d)


@pytest.mark.parametrize("method", ["CD", "WD", "MD", "L2-star"])
def test_discrepancy_as_scipy(Q, method):
    rng = np.random.default_rng()
    for n, d in ((1, 1), (2, 3), (40, 2), (25, 6)):
        s = rng.random((n, d))
        for iterative in (False, True):
            got = np.asarray(Q.discrepancy(s, iterative=iterative, method=method))
            want = sq.discrepancy(s, iterative=iterative, method=method)
            assert got.shape == () and got.dtype == np.float64
            np.testing.assert_allclose(got, want, err_msg="{} {}".format((n, d), iterative), **_tol(d))
    s = rng.random((12, 2)).tolist()  # a list, and the hypercube's corners
    s[0], s[1] = [0.0, 1.0], [1.0, 0.0]
    np.testing.assert_allclose(np.asarray(Q.discrepancy(s, method=method)), sq.discrepancy(s, method=method), **_tol(2))


def test_discrepancy_blocks_as_scipy(Q, monkeypatch):
    rng = np.random.default_rng()
    s = rng.random((50, 3))
    monkeypatch.setattr(Q, "_BLOCK", 7 * 50 * 3)  # 8 blocks of 7 rows and one of 1
    for method in ("CD", "L2-star"):
        np.testing.assert_allclose(np.asarray(Q.discrepancy(s, method=method)), sq.discrepancy(s, method=method), **_tol(3))


def test_discrepancy_errors_as_scipy(Q):
    s = np.random.default_rng().random((5, 2))
    for f in (Q.discrepancy, sq.discrepancy):
        with pytest.raises(ValueError, match="Sample is not a 2D array"):
            f(s[0])
        with pytest.raises(ValueError, match="Sample is not in unit hypercube"):
            f(s + 1)
        with pytest.raises(ValueError, match="Sample is not in unit hypercube"):
            f(-s, method="XX")  # the range checked first, as SciPy's
        with pytest.raises(ValueError, match="is not a valid method"):
            f(s, method="XX")
        with pytest.raises(ValueError, match="Invalid number of workers"):
            f(s, workers=0)
    np.testing.assert_allclose(np.asarray(Q.discrepancy(s, workers=-1)), sq.discrepancy(s), **_tol(2))


def test_scale_as_scipy(Q):
    rng = np.random.default_rng()
    s = rng.random((9, 3))
    for lo, hi in (([-2, 0, 1], [6, 5, 1.5]), (-1.0, [1, 2, 3]), (np.array([0.5]), 4)):
        got, want = Q.scale(s, lo, hi), sq.scale(s, lo, hi)
        np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15)
        back = Q.scale(want, lo, hi, reverse=True)
        np.testing.assert_allclose(back, sq.scale(want, lo, hi, reverse=True), rtol=1e-14, atol=1e-15)
    nan = s.copy()
    nan[0, 0] = np.nan  # passes SciPy's max/min check
    np.testing.assert_array_equal(Q.scale(nan, 0, 2), sq.scale(nan, 0, 2))


def test_scale_errors_as_scipy(Q):
    s = np.random.default_rng().random((4, 2))
    for f in (Q.scale, sq.scale):
        with pytest.raises(ValueError, match="Sample is not a 2D array"):
            f(s[0], 0, 1)
        with pytest.raises(ValueError, match="broadcastable"):
            f(s, [0, 0, 0], 1)
        with pytest.raises(ValueError, match="Bounds are not consistent"):
            f(s, [0, 2], [1, 1])
        with pytest.raises(ValueError, match="Sample is not in unit hypercube"):
            f(s * 2, 0, 1)
        with pytest.raises(ValueError, match="Sample is out of bounds"):
            f(s * 2, 0, 1, reverse=True)


_ENGINE_METHODS = ("random", "integers", "reset", "fast_forward")
NAMES = ["discrepancy", "scale", "QMCEngine", "Sobol", "Sobol.random_base2", "Halton", "LatinHypercube"] + [
    "{}.{}".format(c, m) for c in ("Sobol", "Halton", "LatinHypercube") for m in _ENGINE_METHODS]


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    def get(mod):
        obj = mod
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj

    ours, theirs = inspect.signature(get(cq)), inspect.signature(get(sq))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
