"""mannwhitneyu's host part without a GPU: the exact null distribution counted in integers
against SciPy's exact p-values (public API), and the signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _rank_tests  # noqa: E402


@pytest.mark.parametrize("m,n", [(1, 1), (1, 7), (3, 5), (8, 8), (2, 30), (8, 12), (5, 3)])
def test_exact_sf_is_scipys(m, n):
    rng = np.random.default_rng(m * 100 + n)
    for _ in range(6):
        v = rng.permutation(m + n).astype(float)
        x, y = v[:m], v[m:]
        u1 = np.sum(np.argsort(np.argsort(v))[:m] + 1) - m * (m + 1) / 2
        for alt, u, f in [("greater", u1, 1), ("less", m * n - u1, 1), ("two-sided", max(u1, m * n - u1), 2)]:
            want = sst.mannwhitneyu(x, y, alternative=alt, method="exact").pvalue
            got = min(1.0, f * float(_rank_tests.exact_sf(np.array(u), m, n)))
            np.testing.assert_allclose(got, want, rtol=1e-12)


def test_counts_sum_to_binomial():
    import math

    for m, n in [(3, 4), (8, 9), (6, 6)]:
        c = _rank_tests.u_counts(m, n)
        assert sum(c) == math.comb(m + n, m) and c == c[::-1] and len(c) == m * n + 1


def test_signature_is_scipys():
    assert inspect.signature(cst.mannwhitneyu) == inspect.signature(sst.mannwhitneyu)
