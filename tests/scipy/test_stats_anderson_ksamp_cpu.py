"""anderson_ksamp without a GPU: the module (`_anderson_ksamp`) run with NumPy in place of cuarray's
routines (stats_tests_host) against scipy.stats: every variant and the deprecated `midrank`, ties,
2 to 4 samples, SciPy's warnings (deprecation, capped and floored p-values), exact permutation
tests, the errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

KWARGS = ({}, {"midrank": False}, {"variant": "midrank"}, {"variant": "right"}, {"variant": "continuous"})


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_anderson_ksamp"]


def _recorded(f, *args, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(*args, **kw)
    return out, [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("ties", [False, True])
def test_as_scipy(H, k, ties):
    # the statistic: the same sums in another order (~1e-15 relative of terms O(N)); the p-value
    # SciPy's interpolation of the same host numbers in the statistic, smooth: ~1e-14 relative
    rng = np.random.default_rng()
    shift = rng.choice([0.0, 0.6, 1.5])
    samples = [rng.standard_normal(int(rng.integers(2, 30))) + i * shift for i in range(k)]
    if ties:
        samples = [np.round(s * 2) for s in samples]
    for kw in KWARGS:
        (got, got_w), (want, want_w) = _recorded(H.anderson_ksamp, samples, **kw), _recorded(sst.anderson_ksamp, samples, **kw)
        assert got_w == want_w
        np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-10, atol=1e-12, err_msg=str(kw))
        np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-9, err_msg=str(kw))
        if "variant" not in kw:  # the old result: a 3-tuple with the critical values
            stat, crit, p = got
            np.testing.assert_allclose(crit, want.critical_values, rtol=1e-15)
            assert float(got.significance_level) == float(p)
        else:
            assert type(got).__name__ == "SignificanceResult"


def test_capped_and_floored_as_scipy(H):
    rng = np.random.default_rng()
    x = rng.standard_normal(40)
    for samples in ([x[:20], x[20:]], [x[:20], x[20:] + 10]):
        (got, got_w), (want, want_w) = (_recorded(f, samples, variant="right") for f in (H.anderson_ksamp, sst.anderson_ksamp))
        assert got_w == want_w and float(got.pvalue) == want.pvalue


@pytest.mark.parametrize("sizes", [(3, 3, 2), (4, 5), (2, 2, 2, 2)])
def test_exact_permutation_test_as_scipy(H, sizes):
    # fewer partitions than n_resamples: both tests use every one, so the same null values (to the
    # order of their sums, well inside the tests' 100-ulp tie tolerance) and p-value
    rng = np.random.default_rng()
    samples = [rng.standard_normal(s) for s in sizes]
    for variant in ("midrank", "right", "continuous"):
        got = H.anderson_ksamp(samples, variant=variant, method=sst.PermutationMethod())
        want = sst.anderson_ksamp(samples, variant=variant, method=sst.PermutationMethod())
        np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-14, err_msg=variant)


def test_errors_as_scipy(H):
    for samples, match in (([[1.0, 2.0]], "at least two samples"), ([[1.0, 1.0], [1.0]], "more than one distinct"),
                           ([[1.0, 2.0], []], "without observations")):
        for f in (H.anderson_ksamp, sst.anderson_ksamp):
            with pytest.raises(ValueError, match=match):
                f(samples, variant="right")
    for f in (H.anderson_ksamp, sst.anderson_ksamp):
        with pytest.raises(ValueError, match="`variant` must be one of"):
            f([[1.0, 2.0], [3.0, 4.0]], variant="left")


def test_signature_as_scipy():
    # SciPy's `midrank` and `variant` default to its private no-value sentinel: ours is our own
    ours, theirs = inspect.signature(cst.anderson_ksamp), inspect.signature(sst.anderson_ksamp)
    assert [(p.name, p.kind) for p in ours.parameters.values()] == [(p.name, p.kind) for p in theirs.parameters.values()]
    for name in ("midrank", "variant"):
        assert type(ours.parameters[name].default).__name__ == "_NoValueType"
        assert theirs.parameters[name].default is not None
    assert ours.parameters["method"].default is None is theirs.parameters["method"].default
