"""cdist/pdist of the expanded-form metrics (euclidean, sqeuclidean, minkowski p=2, seuclidean,
weighted, mahalanobis) on duplicates and near pairs against SciPy: both epilogues (the sm_90 tiles
and the cuBLAS product's) form the pairs that cancel again by SciPy's direct formula
(templates/sqdist_exact.cuh), so duplicates are exactly 0 (the expanded form left ~1.5e-8) and
near pairs SciPy's. Tolerances: up to DIRECT_K features every pair is direct, SciPy's to the last
bit but for the order of seuclidean's and mahalanobis's sums (rtol 1e-15); past it, the entries kept
from the expanded form are within _sqdist_plan.exact_threshold's bound 2^-46 + a few ulps
(rtol 1e-13)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy.spatial import _distance_pair, _sqdist_tiles  # noqa: E402
from cuarray.scipy.spatial import distance as cd  # noqa: E402

from . import _exact_cases  # noqa: E402


def _data(case):
    rng = np.random.default_rng(zlib.crc32(case.encode()) + np.random.SeedSequence().entropy % 1000)
    return {"random3": lambda r: r.standard_normal((40, 3)), "random16": lambda r: r.standard_normal((60, 16)),
            **_exact_cases.CASES}[case](rng)


@pytest.mark.parametrize("path", ["tiles", "cublas"])
@pytest.mark.parametrize("case", sorted(_exact_cases.CASES) + ["random3", "random16"])
def test_cancelling_pairs_are_scipys(case, path, monkeypatch):
    if path == "cublas":  # the product's epilogue: as on a device without the tiles
        monkeypatch.setattr(_sqdist_tiles, "plan_for", lambda m, n, k: None)
    X = _data(case)
    rtol = 1e-15 if X.shape[1] <= 4 else 1e-13
    _exact_cases.check(cd.cdist, cd.pdist, cuarray.asarray, X, rtol, "{} {}".format(case, path))


def test_blocks_of_rows_keep_their_offsets(monkeypatch):
    # pdist by several blocks (the exact rows of each block start at its own row and column)
    monkeypatch.setattr(_distance_pair, "BLOCK_ELEMENTS", 300)
    X = _exact_cases.integer_grid(np.random.default_rng(), 70, 2)
    _exact_cases.check(cd.cdist, cd.pdist, cuarray.asarray, X, 1e-15, "blocks")
