"""unique's bitmap route (integers spanning few values) on the device against NumPy, bit for bit,
and against the sort route: every integer dtype, negative values, the dtype's extremes, all-equal
values, the bitmap's cap boundary (range cap - 1 fits, cap falls back to the sort), the full int32
range (the sort), non-contiguous input, sizes at the route's threshold; return_* keep the sort."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._sets import unique_dense as ud  # noqa: E402

INTS = [np.dtype(c) for c in "bBhHiIqQ"]
rng = np.random.default_rng()
D = cuarray.asarray


def check(x):
    """unique(x) by both routes equals NumPy's, dtype and all."""
    want = np.unique(x)
    got = cuarray.unique(D(x)).get()
    np.testing.assert_array_equal(got, want, strict=True)
    prev = ud.dense_by("sort")
    try:
        srt = cuarray.unique(D(x)).get()
    finally:
        ud.dense_by(prev)
    np.testing.assert_array_equal(srt, want, strict=True)


@pytest.mark.parametrize("dt", INTS, ids=testing.dtype_id)
def test_dense_every_int_dtype(dt):
    info = np.iinfo(dt)
    n = 20000
    lo = max(info.min, -3000)
    check(rng.integers(lo, min(info.max, lo + 5000), n, endpoint=True).astype(dt))
    ext = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)  # the whole range
    ext[:2] = info.min, info.max
    check(ext)
    top = np.full(n, info.max, dt)
    top[::7] = info.max - 1
    check(top)
    check(np.full(n, info.min, dt))  # all equal


def test_dense_cap_boundary_and_sizes():
    n = 20000
    cap = ud.plan(n, np.dtype(np.int32), 132)[1] * ud.TILE_BITS
    for span in (cap - 1, cap, cap + 1, 31, 32, 33, ud.TILE_BITS - 1, ud.TILE_BITS):
        x = rng.integers(-50, -50 + span, n).astype(np.int32)
        x[0], x[1] = -50, -50 + span - 1
        check(x)
    for m in (ud.MIN_SIZE - 1, ud.MIN_SIZE, ud.MIN_SIZE + 1, 2**20 + 3):
        check(rng.integers(-(2**19), 2**19, m).astype(np.int32))
    check(rng.integers(-(2**31), 2**31, 50000, dtype=np.int64).astype(np.int32))  # full int32 range: the sort
    x = rng.integers(0, 2**20, 2**18).astype(np.int32)
    check(x[::3])
    check(x.reshape(512, 512).T)  # not contiguous: flattened in C order first
    np.testing.assert_array_equal(cuarray.unique(D(x.reshape(512, 512))).get(), np.unique(x), strict=True)


def test_dense_leaves_options_to_the_sort():
    x = rng.integers(0, 3000, 30000).astype(np.int64)
    for kw in ({"return_index": True}, {"return_inverse": True}, {"return_counts": True}):
        got = cuarray.unique(D(x), **kw)
        want = np.unique(x, **kw)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w, strict=True)
    np.testing.assert_array_equal(cuarray.unique_values(D(x)).get(), np.unique(x), strict=True)
    check(np.zeros(0, np.int32))
    check(np.array([5], np.int32))
