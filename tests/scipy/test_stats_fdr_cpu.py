"""false_discovery_control without a GPU: the module on NumPy (stats_tests_host) against
scipy.stats (both methods, axes and None, ties, 0-d/one value, float32/int input); its errors and
signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_fdr"]


def _same(got, want, rtol=1e-13):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


@pytest.mark.parametrize("method", ["bh", "by", "BH"])
@pytest.mark.parametrize("shape,axis", [((50,), 0), ((8, 30), 1), ((30, 8), 0), ((4, 5, 6), None), ((4, 5, 6), -2)])
def test_as_scipy(H, method, shape, axis):
    rng = np.random.default_rng()
    ps = rng.uniform(0, 1, shape) ** 3
    ps.flat[::7] = np.round(ps.flat[::7], 1)  # ties, zeros and ones
    _same(H.false_discovery_control(ps, axis=axis, method=method), sst.false_discovery_control(ps, axis=axis, method=method))
    p32 = ps.astype(np.float32)
    _same(H.false_discovery_control(p32, axis=axis, method=method), sst.false_discovery_control(p32, axis=axis, method=method),
          rtol=1e-6)


def test_small_inputs_and_errors(H):
    for ps in (np.array(0.3), np.array([0.2]), np.zeros((3, 1))):
        _same(H.false_discovery_control(ps, axis=-1), sst.false_discovery_control(ps, axis=-1))
    for bad, kw in ((np.array([0.5, 1.5]), {}), (np.array([0.5, np.nan]), {}), (np.array([0.1, 0.2]), {"method": "x"}),
                    (np.array([0.1, 0.2]), {"axis": 0.5}), (np.array([0.1j, 0.2]), {})):
        for mod in (H, sst):
            with pytest.raises(ValueError):
                mod.false_discovery_control(bad, **kw)


def test_signature_is_scipys():
    ours, theirs = inspect.signature(cst.false_discovery_control), inspect.signature(sst.false_discovery_control)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
