"""Batched special matrices without a GPU: block_diag over stacks (SciPy >= 1.17 batches it:
leading dimensions broadcast across the arguments; a private copy of `_special_matrices` on NumPy
stand-ins), against SciPy 1.18's definition, which SciPy 1.17 shares."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

from cuarray.scipy.linalg import _special_matrices
from cuarray.testing.fake_device import host_modules


@pytest.fixture(scope="module")
def sm():
    return host_modules({_special_matrices: dict(as_parameter=lambda x, fn: np.asarray(x), zeros=np.zeros)})[
        _special_matrices]


def _want(*arrs):
    """SciPy 1.18's block_diag: each argument at least 2-D, the batches broadcast, the blocks on
    the last two axes' diagonal."""
    arrs = [np.asarray(a).reshape((1,) * (2 - np.ndim(a)) + np.shape(a)) if np.ndim(a) < 2 else np.asarray(a)
            for a in arrs]
    batch = np.broadcast_shapes(*[a.shape[:-2] for a in arrs])
    out = np.zeros(batch + tuple(np.sum([a.shape[-2:] for a in arrs], axis=0)), np.result_type(*arrs))
    r = c = 0
    for a in arrs:
        out[..., r:r + a.shape[-2], c:c + a.shape[-1]] = a
        r, c = r + a.shape[-2], c + a.shape[-1]
    return out


@pytest.mark.parametrize("shapes", [[(2, 3, 3), (4,)], [(2, 1, 2, 2), (3, 1, 1), ()], [(5, 2, 3), (5, 1, 1), (2, 2)],
                                    [(0, 2, 2), (3, 1)], [(2, 2), (1, 3)]])
def test_block_diag_batches(sm, shapes):
    rng = np.random.default_rng(len(shapes))
    arrs = [rng.integers(1, 9, s) if i % 2 else rng.normal(size=s) for i, s in enumerate(shapes)]
    got = sm.block_diag(*arrs)
    want = _want(*arrs)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(want, sla.block_diag(*arrs))  # SciPy (1.17 and 1.18) agrees
    with pytest.raises(ValueError):
        sm.block_diag(np.ones((2, 2, 2)), np.ones((3, 1, 1)))
