"""Folded output vectors (`reduction_plan._OUT_FOLD`, issue 32) on the GPU against NumPy, fresh random
data: reductions along axis 0 of arrays whose row of outputs is 2-8 bytes ((n, 2) float32,
(n, 4) and (n, 2) float16, (n, 8), (n, 4) and (n, 2) int8/uint8, (n, 2) int16), so a 16-byte load
carries 2-8 rows; (n, 2) float64 (16-byte rows: plain output vectors) beside. sum, mean, max, min,
argmax/argmin (ties: the first index), var/std (ddof 0 and 1), nansum/nanmax/nanvar (all-NaN
columns), prod of integers; row counts with a tail (not a multiple of the fold), one chunk and
many, fewer rows than the fold, views whose offset breaks the alignment (the old plan), keepdims,
out=, the two-launch form (FUSE off). Every fold is on (`_OUT_FOLD = 8`) whatever the default.
CPU side: tests/_core/test_out_fold_cpu.py."""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray._core import reduction as _red  # noqa: E402


def _rng(request):
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()) + np.random.SeedSequence().entropy % 1000)


@pytest.fixture
def setting(setting):
    """This folder's `setting` (conftest.py) with every fold on."""
    setting("_OUT_FOLD", 8)
    return setting


def _fold_of(g) -> int:
    """The fold the planner gives `sum(g, axis=0)` (g 2-D)."""
    p = _red.plan(g.shape, [g.strides], [g.itemsize], (g.itemsize,), (0,), aligned=(g.data.ptr % 16 == 0,),
                  acc_size=8)
    return p.fold


def _host(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True).astype(dt)
    if dt.char == "e":
        return rng.standard_normal(shape).astype(dt)
    return (rng.standard_normal(shape) * 3 + 10).astype(dt)


def _want(name, h, **kw):
    """NumPy's answer: floats summed in float64 (float16 in float32, NumPy's own intermediate for
    its float16 mean), rounded to NumPy's result dtype."""
    fn = getattr(np, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res_dtype = fn(h[:3], axis=0, **kw).dtype
        if h.dtype.kind == "f" and name not in ("max", "min", "argmax", "argmin", "nanmax", "nanmin"):
            wide = np.float32 if h.dtype.char == "e" and name in ("sum", "nansum") else np.float64
            return np.asarray(fn(h.astype(wide), axis=0, **kw)).astype(res_dtype)
        return np.asarray(fn(h, axis=0, **kw))


def _check(name, h, g, **kw):
    want = _want(name, h, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(cuarray, name)(g, axis=0, **kw)
    assert got.shape == want.shape and got.dtype == want.dtype, (name, got.dtype, want.dtype)
    got = got.get()
    if h.dtype.kind in "biu" and name not in ("mean", "var", "std"):
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    if name.startswith("arg") or name.endswith(("max", "min")):
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    tol = {"e": 2e-3, "f": 2e-5}.get(want.dtype.char, 1e-10)
    finite = np.abs(h[np.isfinite(h)].astype(np.float64))
    big = float(finite.max()) if finite.size else 1.0
    if name in ("sum", "nansum"):
        scale = big * np.sqrt(h.shape[0]) * (10 if want.dtype.char != "e" else 1)
    elif name in ("var", "nanvar"):
        scale = big * big * 5
    elif name in ("std",):
        scale = big * 5
    else:
        scale = big
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol * scale,
                               err_msg=name)


FLOAT_OPS = ("sum", "mean", "max", "min", "argmax", "argmin", "var", "std", "nansum", "nanmax", "nanvar")
INT_OPS = ("sum", "max", "min", "argmax", "argmin", "var", "mean")
SOME_OPS = ("sum", "max", "argmin", "var")  # each op, dtype and plan is a kernel: NVRTC time
# (dtype, columns, fold, ops): the row of outputs 8, 4 or 2 bytes
CASES = [("f4", 2, 2, FLOAT_OPS), ("f2", 4, 2, FLOAT_OPS[:6] + ("nansum", "nanmax")), ("f2", 2, 4, SOME_OPS[:3]),
         ("i1", 8, 2, INT_OPS), ("u1", 8, 2, SOME_OPS), ("i1", 4, 4, SOME_OPS), ("u1", 2, 8, INT_OPS),
         ("i1", 2, 8, SOME_OPS), ("i2", 2, 4, SOME_OPS), ("f8", 2, 0, ("sum", "argmax", "var"))]


@pytest.mark.parametrize("dt, cols, fold, ops", CASES, ids=["{}x{}".format(d, c) for d, c, _, _ in CASES])
def test_folded_columns_match_numpy(request, setting, dt, cols, fold, ops):
    rng = _rng(request)
    # many chunks with a tail row (fused second pass); one chunk (outputs written directly), a tail:
    # for a case of each fold (each op, dtype and plan is a kernel: NVRTC time)
    one_chunk = (dt, cols) in (("f4", 2), ("f2", 4), ("i1", 8), ("u1", 2), ("f2", 2))
    for n in (1_000_001, 4097) if one_chunk else (1_000_001,):
        h = _host(rng, (n, cols), dt)
        g = cuarray.asarray(h)
        assert _fold_of(g) == fold
        for name in ops:
            if dt == "f2" and name in ("sum", "nansum", "mean") and n > 5000:
                h32 = h[:5000]  # float16: a short sum (NumPy's float16 result of long sums is its own order)
                _check(name, h32, cuarray.asarray(h32))
                continue
            _check(name, h, g)
        if dt[0] == "f" and "std" in ops:
            _check("var", h, g, ddof=1)
            _check("std", h, g, ddof=1)


@pytest.mark.parametrize("dt, cols", [("f4", 2), ("i1", 8), ("f2", 4), ("u1", 2)])
def test_views_keepdims_out_and_fewer_rows_than_the_fold(request, setting, dt, cols):
    rng = _rng(request)
    h = _host(rng, (300_007, cols), dt)
    g = cuarray.asarray(h)
    row = cols * np.dtype(dt).itemsize
    for view in (np.s_[1:], np.s_[16 // row:], np.s_[3:-5], np.s_[::-1]):
        hv, gv = h[view], g[view]
        aligned = gv.data.ptr % 16 == 0 and view != np.s_[::-1]
        assert (_fold_of(gv) > 0) == aligned, view
        for name in ("max", "argmax") + (("sum",) if dt != "f2" else ()):
            _check(name, hv, gv)
    for n in (1, 3, 7):  # fewer rows than the fold (other plans), and fewer than one vector
        hs = _host(rng, (n, cols), dt)
        for name in ("sum", "max", "argmin"):
            _check(name, hs, cuarray.asarray(hs))
    want = _want("max", h, keepdims=True)
    got = cuarray.max(g, axis=0, keepdims=True)
    assert got.shape == (1, cols)
    np.testing.assert_array_equal(got.get(), want)
    out = cuarray.empty((cols,), dtype=np.int64)
    assert cuarray.argmin(g, axis=0, out=out) is out
    np.testing.assert_array_equal(out.get(), h.argmin(axis=0))
    if dt == "f4":
        out = cuarray.empty((cols,), dtype=np.float32)
        cuarray.var(g, axis=0, out=out)
        np.testing.assert_allclose(out.get(), h.astype(np.float64).var(axis=0), rtol=2e-5)
        out = cuarray.zeros((1, cols), dtype=np.float32)
        cuarray.sum(g, axis=0, keepdims=True, out=out)
        np.testing.assert_allclose(out.get(), h.astype(np.float64).sum(axis=0, keepdims=True), rtol=2e-5)


def test_nan_columns_and_ties(request, setting):
    """(n, 2) float32: a column all NaN, a column with one NaN (max/argmax: NaN and its first
    index), ties everywhere (argmax/argmin: the first index), -0.0 against 0.0."""
    rng = _rng(request)
    n = 200_003
    h = _host(rng, (n, 2), "f4")
    h[:, 1] = np.nan
    h[n // 3, 0] = np.nan
    g = cuarray.asarray(h)
    for name in ("max", "min", "argmax", "argmin", "nansum", "nanmax", "nanvar", "sum", "var"):
        _check(name, h, g)
    h2 = _host(rng, (n, 2), "f4")
    h2[n // 2:, 1] = np.nan  # half a column NaN: nan-variants over the other half
    for name in ("nansum", "nanmax", "nanvar", "nanmin"):
        _check(name, h2, cuarray.asarray(h2))
    for dt in ("f4", "i1", "u1", "f2"):
        t = rng.integers(0, 3, (n, 16 // np.dtype(dt).itemsize // 2)).astype(dt)  # fold 2, ties everywhere
        gt = cuarray.asarray(t)
        for name in ("argmax", "argmin"):
            _check(name, t, gt)
        t[-2:] = 5  # the last whole vector's row and the tail row tie at the maximum: the first wins
        _check("argmax", t, cuarray.asarray(t))
    z = np.zeros((n, 2), np.float32)
    z[::2] = -0.0
    np.testing.assert_array_equal(cuarray.argmax(cuarray.asarray(z), axis=0).get(), z.argmax(axis=0))


def test_one_round_a_thread(request, setting):
    """`_FOLD_ROUNDS = 1`: twice the chunks of the small cases (kept_fold.py's r1 column)."""
    setting("_FOLD_ROUNDS", 1)
    rng = _rng(request)
    for dt, cols in (("f4", 2), ("f2", 4)):
        h = _host(rng, (1_000_003, cols), dt)
        g = cuarray.asarray(h)
        for name in ("var", "argmax", "max") if dt == "f4" else ("max", "argmin"):
            _check(name, h, g)


def test_integer_products_and_the_two_launch_form(request, setting):
    rng = _rng(request)
    n = 100_003
    h = rng.choice(np.array([-1, 1, 1, 1], np.int8), (n, 8))
    h[rng.integers(0, n, 20), rng.integers(0, 8, 20)] = 3
    _check("prod", h, cuarray.asarray(h))
    hu = rng.choice(np.array([1, 1, 2], np.uint8), (n, 2))
    _check("prod", hu, cuarray.asarray(hu))  # wraps modulo 2**64 like NumPy's
    setting("FUSE", False)
    for dt, cols in (("f4", 2), ("i1", 8)):
        hh = _host(rng, (1_000_003, cols), dt)
        gg = cuarray.asarray(hh)
        for name in ("sum", "argmax", "var"):
            _check(name, hh, gg)


def _sm_count() -> int:
    from cuarray.cuda import device as _device

    return _device._sm_count(_device.get_device_id())


def _plan_of(g, acc_size, wide):
    """The plan of a reduction of `g` (2-D) along axis 0 on this device."""
    return _red.plan(g.shape, [g.strides], [g.itemsize], (g.itemsize,), (0,), aligned=(g.data.ptr % 16 == 0,),
                     sm_count=_sm_count(), acc_size=acc_size, wide=wide)


def _sets_of(g, acc_size, wide) -> int:
    """The accumulator sets the planner gives a reduction of `g` (2-D) along axis 0 on this device."""
    p = _plan_of(g, acc_size, wide)
    assert p.fold == 2, p
    return p.accs


def test_two_accumulator_sets(request, setting):
    """`_FOLD_WIDE_SETS_FROM = 1` (kept_fold.py's w columns): rows enough for 2 sets of var's moments
    and argmax's pairs; var/std (ddof 0 and 1) against NumPy in float64, argmax/argmin exactly, a
    tail row; (n, 4) float16 var."""
    setting("_FOLD_WIDE_SETS_FROM", 1)
    rng = _rng(request)
    for dt, cols, n in (("f4", 2, 2_000_003), ("f2", 4, 1_200_001)):
        h = _host(rng, (n, cols), dt)
        g = cuarray.asarray(h)
        assert _sets_of(g, 16, True) == 2 and _sets_of(g, 32, False) == 2
        for name in ("var", "std", "argmax", "argmin") if dt == "f4" else ("var", "argmax"):
            _check(name, h, g)
        _check("var", h, g, ddof=1)
        if dt == "f4":
            _check("nanvar", h, g)
    setting("_FOLD_WIDE_SETS_FROM", 0)
    assert _sets_of(cuarray.asarray(h), 16, True) == 1


def test_two_sets_ties_and_nans(request, setting):
    """With 2 sets a thread's vectors alternate between them (round load u: set u % 2), so thread t
    of chunk 0 holds vector t + 256 in set 1 and t + 512 in set 0: equal maxima (minima) there go
    to the lower index, the one in the set combined second; NaN: the first NaN's index (argmax,
    argmin), NaN var, nanvar over the rest; ties everywhere (small integers as float32)."""
    setting("_FOLD_WIDE_SETS_FROM", 1)
    rng = _rng(request)
    n = 2_000_001
    h = _host(rng, (n, 2), "f4")
    g0 = cuarray.asarray(h)
    assert _sets_of(g0, 32, False) == 2
    for t in (5, 200):
        lo, hi = 2 * (t + 256), 2 * (t + 512)  # rows of col 0 in vectors of set 1 and set 0
        h[lo, 0] = h[hi, 0] = 1e6
        h[lo + 1, 1] = h[hi + 1, 1] = -1e6
    g = cuarray.asarray(h)
    for name in ("argmax", "argmin"):
        _check(name, h, g)
    assert cuarray.argmax(g, axis=0).get()[0] == 2 * (5 + 256)
    assert cuarray.argmin(g, axis=0).get()[1] == 2 * (5 + 256) + 1
    hn = h.copy()
    hn[2 * (7 + 256), 0] = np.nan  # set 1 of thread 7
    hn[2 * (7 + 512), 0] = np.nan  # set 0 of thread 7, later
    hn[2 * (3 + 2560) + 1, 1] = np.nan  # a later round's set 0 alone
    gn = cuarray.asarray(hn)
    for name in ("argmax", "argmin", "nanargmax", "nanargmin", "var", "nanvar", "max", "nanmax"):
        _check(name, hn, gn)
    t = rng.integers(0, 3, (n, 2)).astype(np.float32)
    gt = cuarray.asarray(t)
    for name in ("argmax", "argmin", "var"):
        _check(name, t, gt)


def test_wide_accumulators_take_long_chunks(request):
    """`_FOLD_WIDE_BLOCKS_PER_SM` (2 blocks an SM for var's moments and argmax's pairs): (4e6, 2) and
    (1.6e7, 2) float32 split into ~2 chunks an SM of many rounds each; var/std/mean (ddof 0 and 1),
    argmax/argmin exactly, with equal extrema in two chunks (the first chunk's index wins), NaNs in
    a later chunk's first and last rows (nanargmax, nanvar skip them; argmax and var see them), a
    tail row past the last whole vector."""
    rng = _rng(request)
    for n in (4_000_003, 16_000_001):
        h = _host(rng, (n, 2), "f4")
        g = cuarray.asarray(h)
        p, sm = _plan_of(g, 32, False), _sm_count()
        assert p.fold == 2 and p.split <= 2 * sm + 2 and p.chunk > 2 * 2048, (p.split, p.chunk)  # was 2 rounds
        rows = 2 * p.chunk  # rows a chunk (2 rows a vector)
        h[3 * rows + 11, 0] = h[rows + 7, 0] = 1e6  # chunk 3 and chunk 1: chunk 1's row wins
        h[2 * rows + 5, 1] = h[rows - 1, 1] = -1e6  # chunk 2 and the last row of chunk 0
        g = cuarray.asarray(h)
        for name in ("var", "std", "mean", "argmax", "argmin"):
            _check(name, h, g)
        _check("var", h, g, ddof=1)
        assert cuarray.argmax(g, axis=0).get()[0] == rows + 7
        assert cuarray.argmin(g, axis=0).get()[1] == rows - 1
        hn = h.copy()
        hn[4 * rows, 0] = np.nan  # a later chunk's first row
        hn[5 * rows - 1, 1] = np.nan  # its last row
        hn[-1, 1] = np.nan  # the tail row (n odd: past the last whole vector)
        gn = cuarray.asarray(hn)
        for name in ("argmax", "nanargmax", "nanargmin", "var", "nanvar", "nanstd"):
            _check(name, hn, gn)
