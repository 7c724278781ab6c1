"""median/nanmedian without a GPU.

The selection of cuarray/_statistics/median.py replayed on the host: the same order-preserving
keys (a NumPy twin of `median_keys`), the same digit schedule (`_digits`) and rank words
(`_rank`), the same bisection rule (largest candidate with at most k keys below it), the same
finishing rule for rank k + 1 and numpy.mean's arithmetic, checked bit for bit against
numpy.median / numpy.nanmedian on random data with ties, NaN, +-0.0, +-inf and integer extremes.
Then every kernel the module generates compiles with NVRTC for sm_90."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray._core.reduction import Stage
from cuarray._statistics import median as M
from cuarray.cuda import compiler

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
_MAX = np.uint64(2**64 - 1)


# -- the host twin ---------------------------------------------------------------------------------
def _float_keys(x):
    """`median_float_keys::key_bits` for a float array: (uint64 keys of the float's width, the
    key of +inf)."""
    bits, ut = 8 * x.dtype.itemsize, "u{}".format(x.dtype.itemsize)
    u = x.view(ut).astype(np.uint64)
    sign, mask = np.uint64(1 << (bits - 1)), np.uint64((1 << bits) - 1)
    k = np.where(u & sign, ~u & mask, u | sign)
    inf_key = int(np.array([np.inf], x.dtype).view(ut)[0]) | (1 << (bits - 1))
    return np.where(np.isnan(x), mask, k), inf_key


def _float_value(k, dt):
    bits = 8 * dt.itemsize
    sign, mask = np.uint64(1 << (bits - 1)), np.uint64((1 << bits) - 1)
    u = np.where(k & sign, k ^ sign, ~k & mask)
    return u.astype("u{}".format(dt.itemsize)).view(dt)


def host_keys(v):
    """Keys of `v` as (hi, lo) uint64 arrays; hi is None for one-word keys."""
    dt = v.dtype
    if dt.kind == "b":
        return None, v.astype(np.uint64)
    if dt.kind in "iu":
        u = v.view("u{}".format(dt.itemsize)).astype(np.uint64)
        return None, u ^ np.uint64(1 << (8 * dt.itemsize - 1)) if dt.kind == "i" else u
    if dt.kind == "f":
        return None, _float_keys(v)[0]
    kre, inf_key = _float_keys(v.real)
    kre0, _ = _float_keys(v.real + 0.0)  # in hi, -0.0 is keyed as +0.0: ties fall through to imag
    kim, _ = _float_keys(v.imag)
    nr, ni = np.isnan(v.real), np.isnan(v.imag)
    wmax = np.uint64((1 << (4 * dt.itemsize)) - 1)
    hi = np.where(~nr, np.where(ni, np.uint64(inf_key + 1), kre0), np.where(ni, wmax, np.uint64(inf_key + 2)))
    lo = np.where(~nr & ni, kre, kim)
    if dt.itemsize == 8:  # complex64: one 64-bit word
        return None, (hi << np.uint64(32)) | lo
    return hi, lo


def host_values(hi, lo, dt):
    """Keys back to values (`median_keys::value`); float16 decodes to float32 as on the device."""
    if dt.kind == "b":
        return lo.astype(bool)
    if dt.kind in "iu":
        u = lo ^ np.uint64(1 << (8 * dt.itemsize - 1)) if dt.kind == "i" else lo
        return u.astype("u{}".format(dt.itemsize)).view(dt)
    if dt.kind == "f":
        v = _float_value(lo, dt)
        return v.astype(np.float32) if dt.char == "e" else v
    rdt = np.dtype(dt.char.lower())
    if hi is None:
        hi, lo = lo >> np.uint64(32), lo & np.uint64(2**32 - 1)
    inf_key = np.uint64(int(_float_keys(np.array([np.inf], rdt))[0][0]))
    v_hi, v_lo = _float_value(hi, rdt), _float_value(lo, rdt)
    nan = rdt.type(np.nan)
    out = np.empty(hi.shape, dt)
    out.real = np.where(hi <= inf_key, v_hi, np.where(hi == inf_key + np.uint64(1), v_lo, nan))
    out.imag = np.where(hi <= inf_key, v_lo, np.where(hi == inf_key + np.uint64(2), v_lo, nan))
    return out


def bisect(keys, k, bits):
    """`median_count` / `median_next` over rows: the key of rank k of each row of `keys`."""
    p = np.zeros(keys.shape[0], np.uint64)
    for shift, top in M._digits(bits):
        step = np.uint64(1 << shift)
        n = [(keys < (p + np.uint64(min(i, top)) * step)[:, None]).sum(1) for i in (1, 2, 3)]
        d = sum((ni <= k).astype(np.uint64) for ni in n)
        p = p + np.minimum(d, np.uint64(top)) * step
    return p


def host_median(a, axis, skipnan):
    """cuarray's algorithm on the host: median over `axis` (None or int) of a NumPy array."""
    dt = a.dtype
    x = a.reshape(1, -1) if axis is None else np.moveaxis(a, axis, -1).reshape(-1, a.shape[axis])
    rows, n = x.shape
    kdt, bits = M._KEYS[(dt.kind, dt.itemsize)]
    nans = np.isnan(x).sum(1) if dt.kind in "fc" else np.zeros(rows, int)
    r = np.array([M._rank(n, int(c), skipnan) for c in nans])
    k = r >> 1
    hi, lo = host_keys(x)
    if hi is None:
        p = bisect(lo, k, bits)
        le = lo <= p[:, None]
        m = np.where(le, _MAX, lo).min(1)
        h = None
    else:  # complex128: the high word, then the low word within it
        h = bisect(hi, k, 64)
        eff = np.where(hi < h[:, None], np.uint64(0), np.where(hi > h[:, None], _MAX, lo))
        p = bisect(eff, k, 64)
        le = (hi < h[:, None]) | ((hi == h[:, None]) & (lo <= p[:, None]))
        mh = np.where(le, _MAX, hi).min(1)
        ml = np.where(~le & (hi == mh[:, None]), lo, _MAX).min(1)
    up = le.sum(1) > k + 1
    upper_p = np.where(up, p, m if h is None else ml)
    upper_h = None if h is None else np.where(up, h, mh)
    v_lo = host_values(h, p, dt)
    v_hi = host_values(upper_h, upper_p, dt)
    mt = {"b": np.float64, "i": np.float64, "u": np.float64}.get(dt.kind, np.float32 if dt.char == "e" else dt.type)
    with np.errstate(all="ignore"):
        lo_m, hi_m = v_lo.astype(mt), v_hi.astype(mt)
        mean = np.where(r & 1, (lo_m + hi_m) / mt(2), lo_m / mt(1))
        mean = np.where(np.isnan(lo_m), lo_m, mean)
    res = mean.astype(np.float16 if dt.char == "e" else mt)
    shape = () if axis is None else tuple(d for i, d in enumerate(a.shape) if i != axis % a.ndim)
    return res.reshape(shape)


# -- data ------------------------------------------------------------------------------------------
def _special(dt, huge=True):
    """Values that stress the keys: extremes, zeros of both signs, infinities, NaN classes
    (without the largest and the subnormal floats unless `huge`)."""
    if dt.kind == "b":
        return [False, True]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [info.min, info.min + 1, -1 if dt.kind == "i" else 1, 0, 1, info.max - 1, info.max]
    fin = np.finfo(dt.char.lower() if dt.kind == "c" else dt)
    reals = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.25, fin.tiny]
    if huge:
        reals += [fin.max, -fin.max, -fin.smallest_subnormal]
    if dt.kind == "f":
        return reals
    return [complex(r, i) for r in reals[:6] for i in (0.0, -0.0, np.inf, np.nan, 1.5, -2.0)]


def data(dt, shape, seed, nan_rate, huge=True):
    """Random rows with many ties and 20% special values; NaNs at `nan_rate` (first row all NaN
    when `nan_rate` > 0.2). `huge=False` leaves out the largest and the subnormal floats."""
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    special = np.array(_special(dt, huge), dtype=dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dt)
    else:
        base = np.round(rng.uniform(-20, 20, shape), 1).astype(dt)  # rounded: many ties
        if dt.kind == "c":
            base = (base + 1j * np.round(rng.uniform(-3, 3, shape))).astype(dt)
    pick = rng.random(shape) < 0.2
    base[pick] = rng.choice(special, size=int(pick.sum()))
    if dt.kind in "fc":
        base[np.isnan(base)] = 1
        base[rng.random(shape) < nan_rate] = np.nan
        if nan_rate > 0.2:
            base[0] = np.nan
        if nan_rate:  # the other NaN classes too (complex: R + nan j, nan + R j)
            base.flat[rng.integers(0, base.size, 3)] = special[np.isnan(special)][:3]
    return base


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
@pytest.mark.parametrize("skipnan", [False, True], ids=["median", "nanmedian"])
def test_host_twin_matches_numpy(dt, skipnan):
    fn = np.nanmedian if skipnan else np.median
    for seed, (shape, nan_rate) in enumerate([((6, 9), 0.0), ((6, 8), 0.0), ((5, 7), 0.15), ((4, 10), 0.3),
                                               ((3, 1), 0.0), ((3, 2), 0.3), ((2, 4), 1.0), ((1, 33), 0.05)]):
        # nanmedian: NumPy's path for rows under 600 adds the middle values in the input type
        # (the odd case: the middle value twice), which overflows where median's does not.
        a = data(dt, shape, seed, nan_rate, huge=not skipnan)
        for axis in (None, 0, 1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = np.asarray(fn(a, axis=axis))
            got = host_median(a, axis, skipnan)
            assert got.dtype == want.dtype and got.shape == want.shape
            msg = "{} seed {} axis {}\n{}".format(dt, seed, axis, a)
            np.testing.assert_array_equal(got, want, err_msg=msg)
            if dt.kind == "c" and not skipnan:  # NaN parts too: a NaN row gives NumPy's largest element
                np.testing.assert_array_equal(got.real, want.real, err_msg=msg)
                np.testing.assert_array_equal(got.imag, want.imag, err_msg=msg)


def test_keys_follow_numpy_sort_order():
    for dt in ALL:
        a = np.unique(np.concatenate([np.array(_special(dt), dtype=dt), data(dt, (200,), 7, 0.1)]))
        s = np.sort(a)
        hi, lo = host_keys(s)
        order = np.lexsort((lo,) if hi is None else (lo, hi))
        assert (order == np.arange(len(s))).all() or _nan_ties(s, order), dt
        back = host_values(hi, lo, dt)
        same = (back == s) | (np.isnan(back) & np.isnan(s)) if dt.kind in "fc" else back == s
        assert same.all(), dt


def _nan_ties(s, order):
    """Sorted equal-key runs may permute only NaN payloads (one key for every NaN)."""
    return (np.isnan(s[order]) == np.isnan(s)).all() and (s[order][~np.isnan(s)] == s[~np.isnan(s)]).all()


def test_digits_and_rank():
    assert M._digits(1) == [(0, 1)]
    assert M._digits(8) == [(6, 3), (4, 3), (2, 3), (0, 3)]
    assert M._digits(5) == [(4, 1), (2, 3), (0, 3)]
    assert sum(1 for _ in M._digits(64)) == 32
    assert M._rank(5, 0, False) == 4 and M._rank(6, 0, False) == 5  # k 2 odd; k 2, pair even
    assert M._rank(6, 1, False) == 10  # a NaN: the largest element
    assert M._rank(6, 1, True) == 4 and M._rank(6, 6, True) == 0


@pytest.mark.nvrtc_fast
def test_every_kernel_compiles():
    stage = Stage("map", "out", 32, 8, 1, 1, 1, np.int32)
    sources, values = [], []
    for dt in ALL:
        kdt, bits = M._KEYS[(dt.kind, dt.itemsize)]
        inexact = dt.kind in "fc"
        res = np.dtype("f8") if dt.kind in "biu" else dt
        cdts = [M._I4, M._I8] if dt.char in "fD" else [M._I4]
        for cdt in cdts:
            for phase in (["hi", "lo"] if bits == 128 else ["one"]):
                sources.append(M._bisect_def(dt, kdt, cdt, inexact, phase).source(stage)[1])
            if inexact:
                sources += [M._rank_def(dt, cdt, s).source(stage)[1] for s in (False, True)]
            sources.append(M._upper_def(dt, cdt, inexact, res).source(stage)[1])
        values.append(M._value_def(dt, res).source("flat", 1, np.int32)[1])
    values.append(M._value_def(np.dtype("e"), np.dtype("f4")).source("nd", 2, np.int32)[1])
    sources.append(M._upper_def(np.dtype("F"), M._I4, True, np.dtype("e")).source(stage)[1])
    assert all("${" not in s for s in sources + values)
    sources.sort(key=lambda s: "CUARRAY_HAS_HALF" not in s)  # cuda_fp16.h before common.cuh
    cubin, _ = compiler.compile_cubin("\n".join(sources), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"
    for src in values:  # elementwise preambles are not namespaced: one translation unit each
        compiler.compile_cubin(src, arch="sm_90")


def test_kernel_source_is_readable():
    d = M._bisect_def(np.dtype("f4"), M._U4, M._I4, True, "one")
    name, src = d.source(Stage("map", "out", 256, 8, 4, 0, 1, np.int32))
    assert name.startswith("cuarray_median_bisect_float32")
    assert "median_count(Keys::key(x), p, r, step, top)" in src and "q = median_next(a, step, top)" in src
