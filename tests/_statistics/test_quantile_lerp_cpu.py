"""The quantile interpolation kernel without a GPU: it compiles for sm_90 for float32 and float64
data (float64 weights), and its operation, evaluated step by step with NumPy (the data-type
difference, then float64 products and sums each rounded once), equals NumPy's own `_lerp` bit for
bit on random and edge values (t on both sides of 0.5, equal ends, infinities, NaN ends)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.lib import _function_base_impl as npq

from cuarray._statistics import quantiles
from cuarray.cuda import compiler


@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize("dt", ["f4", "f8"])
def test_lerp_compiles(nan, dt):
    d = quantiles.lerp_definition(False, nan, np.dtype(dt), np.dtype("f8"))
    cubin, _ = compiler.compile_cubin(d.source("flat", 1, np.int64)[1], arch="sm_90")
    assert cubin[:4] == b"\x7fELF"
    assert "__dmul_rn" in quantiles._LERP_OP and "__dadd_rn" in quantiles._LERP_OP


def _kernel_op(lo, hi, t, big=None):
    d = hi - lo                                      # T d = hi - lo
    omt = 1.0 - t                                    # G omt
    below = lo.astype(np.float64) + d.astype(np.float64) * t
    above = hi.astype(np.float64) - d.astype(np.float64) * omt
    r = np.where(t >= 0.5, above, below)
    if big is not None:
        r = np.where(np.isnan(big), big.astype(np.float64), r)
    return r


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_operation_is_numpys_lerp(dt):
    rng = np.random.default_rng(np.dtype(dt).itemsize)
    lo = rng.normal(size=(7, 50)).astype(dt) * 1e3
    hi = lo + np.abs(rng.normal(size=(7, 50))).astype(dt)
    hi[0] = lo[0]
    lo[1, :3], hi[1, :3] = -np.inf, np.inf
    t = np.array([0.0, 0.1, 0.3, 0.49999999999, 0.5, 0.77, 0.999])[:, None]
    with np.errstate(invalid="ignore"):
        want = npq._lerp(lo, hi, t)
        got = _kernel_op(lo, hi, t)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_array_equal(got, want, strict=True)
    big = hi[-1:].copy()
    big[0, 5] = np.nan
    got = _kernel_op(lo, hi, t, big)
    assert np.isnan(got[:, 5]).all() and np.array_equal(got[:, 6], want[:, 6])
