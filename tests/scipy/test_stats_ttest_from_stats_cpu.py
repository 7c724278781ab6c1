"""ttest_ind_from_stats without a GPU: the function run with NumPy in place of cuarray's routines
(private copies of the stats package, nothing of cuarray patched) against scipy.stats on the host:
pooled and Welch, every alternative, broadcasting, samples of one, zero variances, dtypes; its
signature and argument errors."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
import scipy.special as sp  # noqa: E402

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _correlation, _ttests  # noqa: E402
from cuarray.testing.fake_device import host_packages  # noqa: E402

ALTS = ["two-sided", "less", "greater"]


@pytest.fixture(scope="module")
def host_stats():
    full = lambda shape, v, dtype=None: np.full(shape, v, dtype=dtype)  # noqa: E731
    standins = {_ttests: {"as_parameter": lambda x, fn: np.asarray(x), "full": full, "where": np.where,
                          "sqrt": np.sqrt, "isnan": np.isnan, "broadcast_to": np.broadcast_to, "stdtr": sp.stdtr},
                _correlation: {"abs_": np.abs}}
    return types.SimpleNamespace(stats=host_packages([cst], standins)[cst])


CASES = [
    ((1.0, 2.0, 10, 2.0, 3.0, 12), {}),
    ((0.2, np.sqrt(0.161073), 150, 0.225, np.sqrt(0.175251), 200), {}),
    ((np.array([1.0, 2.0, -3.0]), 2.0, 10, 2.0, 3.0, 12), {}),
    ((np.array([[1.0], [2.5]]), np.array([2.0, 0.5, 1.0]), np.array([10, 3, 7]), 2.0, 3.0, 12), {}),
    ((1.0, 0.0, 1, 2.0, 1.5, 5), {}),                      # a sample of one
    ((1.0, 0.0, 4, 1.0, 0.0, 6), {}),                      # both variances zero: t = 0/0
    ((np.float32([1.0, 2.0]), np.float32(2.0), 10, np.float32(2.0), np.float32(3.0), 12), {}),
    ((np.array([1, 2]), 2, 10, 2, 3, 12), {}),              # integers: float64
]


@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_values_are_scipys(host_stats, case, alternative, equal_var):
    args, kw = CASES[case]
    with np.errstate(all="ignore"):
        want = sst.ttest_ind_from_stats(*args, equal_var=equal_var, alternative=alternative, **kw)
        got = host_stats.stats.ttest_ind_from_stats(*args, equal_var=equal_var, alternative=alternative, **kw)
    assert type(got).__name__ == "Ttest_indResult" and got._fields == ("statistic", "pvalue")
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert np.shape(g) == w.shape and np.asarray(g).dtype == w.dtype, (np.shape(g), w.shape, g.dtype, w.dtype)
        tol = 1e-6 if w.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True)


def test_signature_and_errors():
    ours, theirs = inspect.signature(cst.ttest_ind_from_stats), inspect.signature(sst.ttest_ind_from_stats)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in theirs.parameters.values()]
    for mod in (cst, sst):
        with pytest.raises(ValueError, match="alternative"):
            mod.ttest_ind_from_stats(1.0, 2.0, 10, 2.0, 3.0, 12, alternative="bogus")
    with pytest.raises(TypeError):  # (a ragged host sequence: the host-input policy's TypeError)
        cst.ttest_ind_from_stats([1.0, [2.0]], 2.0, 10, 2.0, 3.0, 12)
