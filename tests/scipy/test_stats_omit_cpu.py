"""scipy.stats `nan_policy='omit'` without a GPU: `_omit.omit_reduce` (rows, stable NaN-last
order, one read of the counts, one call per distinct count, results scattered back; keepdims and
axis=None) run with NumPy in place of cuarray's routines, against SciPy's omit results; which
functions omit, and their signatures."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _omit  # noqa: E402
from cuarray.testing.fake_device import host_module  # noqa: E402


class _H(np.ndarray):
    def get(self):
        return np.asarray(self)


def _h(x):
    return np.asarray(x).view(_H)


@pytest.fixture(scope="module")
def numpy_omit():
    """`_omit` with NumPy in place of cuarray's routines (a private copy: cuarray's is untouched)."""
    return host_module(_omit, {
        "as_literal_or_array": lambda x, fn: x, "empty": np.empty, "asarray": np.asarray, "isnan": np.isnan,
        "take": np.take, "take_along_axis": np.take_along_axis, "broadcast_to": np.broadcast_to,
        "expand_dims": np.expand_dims, "concatenate": np.concatenate, "moveaxis": np.moveaxis,
        "argsort": np.argsort, "sum_": lambda *a, **k: _h(np.sum(*a, **k)), "any_": lambda *a, **k: _h(np.any(*a, **k)),
    })


def _data(shape, seed, frac=0.3):
    rng = np.random.default_rng(seed)
    a = np.abs(rng.normal(size=shape)) + 0.5
    a[rng.random(shape) < frac] = np.nan
    return a


@pytest.mark.parametrize("shape,axis", [((7,), 0), ((4, 6), 0), ((4, 6), 1), ((3, 4, 5), 1), ((3, 4, 5), -1),
                                        ((3, 4, 5), None), ((2, 9), None)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_omit_reduce_matches_scipy(numpy_omit, shape, axis, keepdims):
    a = _data(shape, len(shape) * 10 + (axis or 0))
    for ours, theirs in [(lambda x: np.mean(x, axis=-1), lambda **k: sst.pmean(a, 1.0, nan_policy="omit", **k)),
                         (lambda x: sst.skew(x, axis=-1), lambda **k: sst.skew(a, nan_policy="omit", **k)),
                         (lambda x: sst.moment(x, [2, 3], axis=-1), lambda **k: sst.moment(a, [2, 3], nan_policy="omit", **k))]:
        got = numpy_omit.omit_reduce(ours, [a], axis, keepdims)
        want = theirs(axis=axis, keepdims=keepdims)
        assert np.shape(got) == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_omit_reduce_paired_and_tuples(numpy_omit):
    p, q = np.abs(_data((3, 8), 1)), np.abs(_data((3, 8), 2))
    got = numpy_omit.omit_reduce(lambda x, y: sst.entropy(x, y, axis=-1), [p, q], 1)
    np.testing.assert_allclose(got, sst.entropy(p, q, axis=1, nan_policy="omit"), rtol=1e-12)
    a = np.round(_data((4, 9), 3))
    m, c = numpy_omit.omit_reduce(lambda x: tuple(sst.mode(x, axis=-1)), [a], 1)
    want = sst.mode(a, axis=1, nan_policy="omit")
    np.testing.assert_array_equal(m, want.mode)
    np.testing.assert_array_equal(c, want.count)


def test_omit_reduce_calls_once_per_distinct_count(numpy_omit):
    a = np.ones((6, 4))
    a[0, 0] = a[3, 1] = a[5, 2] = np.nan  # counts 3, 4, 4, 3, 4, 3: two distinct
    seen = []
    numpy_omit.omit_reduce(lambda x: seen.append(x.shape) or np.sum(x, axis=-1), [a], 1)
    assert sorted(seen) == [(3, 3), (3, 4)]


OMITTING = "moment skew kurtosis gmean hmean pmean trim_mean boxcox_llf mode entropy zmap zscore rankdata describe".split()


@pytest.mark.parametrize("name", OMITTING)
def test_signatures_kept(name):
    assert list(inspect.signature(getattr(cst, name)).parameters) == list(inspect.signature(getattr(sst, name)).parameters)


NEW = "sem iqr median_abs_deviation variation gstd trimboth trim1 scoreatpercentile percentileofscore".split()


@pytest.mark.parametrize("name", NEW)
def test_new_signatures_are_scipys(name):
    assert inspect.signature(getattr(cst, name)) == inspect.signature(getattr(sst, name))


@pytest.mark.parametrize("name", ["ttest_1samp", "ttest_ind", "ttest_rel", "linregress"])
def test_test_signatures_are_scipys(name):
    assert inspect.signature(getattr(cst, name)) == inspect.signature(getattr(sst, name))


def test_ttest_ind_trim_and_method_argument_errors():
    """ttest_ind's `trim` outside [0, .5) is SciPy's ValueError, before any device work; a
    `method` that is not one of SciPy's resampling classes is SciPy's ValueError."""
    from cuarray.testing.fake_device import from_np

    a, b = from_np(np.ones(5)), from_np(np.arange(6.0))
    for bad in (-0.1, 0.5, 0.7):
        with pytest.raises(ValueError, match="Trimming percentage should be 0 <= `trim` < .5."):
            sst.ttest_ind(np.ones(5), np.arange(6.0), trim=bad)
        with pytest.raises(ValueError, match="Trimming percentage should be 0 <= `trim` < .5."):
            cst.ttest_ind(a, b, trim=bad)
    with pytest.raises(ValueError, match="method"):
        cst.ttest_ind(a, b, method="permutation")
