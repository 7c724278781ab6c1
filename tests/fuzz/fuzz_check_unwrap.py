"""The fuzzer's check of unwrap (a catalog row's `check`): NumPy's answer against cuarray's, the
corrections' cumulative sums compared within the recursive-summation bound, float16 against NumPy's
algorithm with cuarray's float32 cumulative sum."""

from __future__ import annotations

import numpy as np

from fuzz_checks import _RTOL, _Exact, _as, compare_values


def check_unwrap(exp, got, row, inputs):
    """unwrap adds a cumulative sum of corrections to the input: out[k] = p[k] + sum(c[:k]), with
    |c[j]| <= |diff(p)[j]| + |period|. NumPy sums in sequence, cuarray's scan in a fixed tree,
    and any order's error is within gamma(k) * sum(|c[:k]|) (the recursive-summation bound,
    gamma(m) = m u / (1 - m u), u half the working dtype's eps). Where the terms are large and the
    result small (int32 steps of 2**30 unwrapping to single digits: seed 7, index 63; int64 near
    4.6e18: seed 78) that bound, twice (one for each side), is added to the row's tolerance; on
    ordinary data it is far below it. A wrong correction (one period) still fails: a period is
    above the bound unless the terms reach ~1e15 periods. A zero period compares dtype and shape."""
    args, kw = inputs
    x = np.asarray(args[0])
    period = kw.get("period", 2 * np.pi)
    e, g = _as(exp, got)
    if e.dtype == np.float16 and x.dtype == np.float16 and x.ndim and kw.get("discont") is None:
        e = _unwrap_float32_sums(x, period, kw.get("axis", -1))
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values or e.dtype.kind != "f" or x.ndim == 0 or not e.size:
        return d or compare_values(exp, got, row)
    if float(np.abs(period)) == 0:
        return None
    axis = kw.get("axis", -1) % x.ndim
    if x.shape[axis] < 2:
        return compare_values(exp, got, row)
    with np.errstate(all="ignore"):
        steps = np.abs(np.diff(x, axis=axis).astype(np.float64)) + abs(float(np.real(period)))
        terms = np.cumsum(steps, axis=axis)
        shape = [1] * x.ndim
        shape[axis] = terms.shape[axis]
        m = np.arange(1, terms.shape[axis] + 1, dtype=np.float64).reshape(shape)
        u = np.finfo(e.dtype).eps / 2
        extra = 2 * (m * u / (1 - m * u)) * terms
        extra = np.concatenate([np.zeros_like(np.take(extra, [0], axis=axis)), extra], axis=axis)
    if not np.array_equal(np.isnan(e), np.isnan(g)):
        return compare_values(e, g, row)
    inf = np.isinf(e) | np.isinf(g)
    if not np.array_equal(e[inf], g[inf]):
        return compare_values(e, g, row)
    fin = np.isfinite(e) & np.isfinite(g)
    rtol = _RTOL.get(e.dtype.char, 1e-11) * row.rtol
    scale = max(1.0, float(np.max(np.abs(e[fin])))) if fin.any() else 1.0
    allowed = rtol * scale + np.where(np.isfinite(extra), extra, 0.0)
    diff = np.abs(g.astype(np.float64) - e.astype(np.float64))
    if np.all(diff[fin] <= allowed[fin]):
        return None
    k = np.flatnonzero(fin & (diff > allowed))[0]
    return "value at {}: expected {!r} got {!r} (allowed {:.3g}: the row's tolerance + the sums' bound)".format(
        np.unravel_index(k, e.shape), e.flat[k], g.flat[k], allowed.flat[k])


def _unwrap_float32_sums(x, period, axis):
    """NumPy's unwrap of float16 `x` with its corrections' cumulative sum in float32, rounded once
    per output: cuarray's float16 cumsum (docs/differences.md, "Numerics"), which unwrap calls.
    NumPy's float16 running sum overflows to inf where the float32 one stays in range (seed 22)."""
    with np.errstate(all="ignore"):
        dd = np.diff(x, axis=axis)
        high = period / 2
        ddmod = np.mod(dd + high, period) - high  # (dd - low with low = -high, as NumPy's)
        np.copyto(ddmod, high, where=(ddmod == -high) & (dd > 0))
        correct = ddmod - dd
        np.copyto(correct, 0, where=np.abs(dd) < high)
        out = np.array(x, copy=True, dtype=correct.dtype)
        rest = [slice(None)] * x.ndim
        rest[axis] = slice(1, None)
        out[tuple(rest)] = x[tuple(rest)] + np.cumsum(correct, axis=axis, dtype=np.float32).astype(correct.dtype)
    return out
