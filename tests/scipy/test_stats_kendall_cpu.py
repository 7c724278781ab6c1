"""kendalltau's host part without a GPU: the exact p-value from the inversion counts against
SciPy's exact p-values (public API) for every alternative; the signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _kendall  # noqa: E402


@pytest.mark.parametrize("n", [2, 3, 4, 7, 12, 33])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_p_is_scipys(n, alternative):
    rng = np.random.default_rng(n)
    for trial in range(5):
        x = np.arange(n, dtype=float)
        y = rng.permutation(n).astype(float) if trial else x.copy()
        dis = sum(1 for i in range(n) for j in range(i + 1, n) if (y[i] - y[j]) * (x[i] - x[j]) < 0)
        want = sst.kendalltau(x, y, method="exact", alternative=alternative).pvalue
        np.testing.assert_allclose(_kendall._exact_p(n, dis, alternative), want, rtol=1e-12)


def test_inversions_cdf_totals():
    assert _kendall.inversions_cdf(6, 15) == 1.0
    assert abs(_kendall.inversions_cdf(5, 0) - 1 / 120) < 1e-15


def test_signature_is_scipys():
    assert inspect.signature(cst.kendalltau) == inspect.signature(sst.kendalltau)
