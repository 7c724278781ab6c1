"""Differences from NumPy that docs/differences.md lists as deliberate, as conditions the fuzzer
checks: a mismatch that one of them explains is reported as *listed* (fuzzlib.Listed, counted
apart), not as a mismatch. Each allowance names its docs entry (section "Differences the fuzzer
lists": a line ``- `id` (`function`, ...): condition. See "Section".``), the functions it applies
to, and the condition as code, which must hold for every element that differs, so that a wrong
value beside a listed one is still a mismatch. test_fuzz_allowances_cpu.py checks that every
allowance has its docs entry and every entry its allowance, that the functions agree, and that
each condition accepts its documented case and refuses a wrong value of the same shape.

There is no blanket entry: an allowance for a whole function, or for a kind of mismatch
whatever its values, does not pass those tests."""

from __future__ import annotations

import dataclasses
import pathlib
import re
import warnings

import numpy as np

from fuzzlib import _RTOL

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "differences.md"
SECTION = "## Differences the fuzzer lists"
_ENTRY = re.compile(r"^- `([a-z0-9-]+)` \(([^)]*)\): (.+)$")


@dataclasses.dataclass(frozen=True)
class Allowance:
    id: str                 # the docs entry's id
    functions: tuple        # the catalog rows' names it applies to
    applies: object         # (row, inputs, ref_outcome, test_outcome) -> bool


def _complex_elementwise(inputs, ref, test):
    """(z, NumPy's, cuarray's): the call's first argument, a complex array, and both answers of its
    shape (`_finite_pair`); None otherwise."""
    pair = _finite_pair(ref, test)
    args = inputs[0]
    if pair is None or not args or not isinstance(args[0], np.ndarray) or args[0].dtype.kind != "c":
        return None
    e, g = pair
    if args[0].shape != e.shape:
        return None
    return args[0], e, g


def _finite_pair(ref, test):
    """NumPy's and cuarray's arrays when both answered with arrays of one dtype and shape."""
    if ref[0] != "ok" or test[0] != "ok":
        return None
    e, g = ref[1], test[1]
    if not isinstance(e, (np.ndarray, np.generic)) or not isinstance(g, (np.ndarray, np.generic)):
        return None
    e, g = np.asarray(e), np.asarray(g)
    if e.dtype != g.dtype or e.shape != g.shape:
        return None
    return e, g


def _normwise(a, b):
    """Per element: the larger part's difference, and the larger part's magnitude of either."""
    with np.errstate(all="ignore"):
        ar, ai, br, bi = (np.asarray(p, np.longdouble) for p in (a.real, a.imag, b.real, b.imag))
        err = np.maximum(np.abs(ar - br), np.abs(ai - bi))
        mag = np.maximum(np.maximum(np.abs(ar), np.abs(ai)), np.maximum(np.abs(br), np.abs(bi)))
    return err, mag


def _row_rtol(row, dtype):
    return _RTOL.get(np.finfo(dtype).dtype.char, 1e-11) * row.rtol


def _differs(e, g, rtol):
    """The elements where `g` is not `e` within `rtol` of the element (NaN and inf parts exactly)."""
    err, mag = _normwise(e, g)
    same_special = np.ones(e.shape, bool)
    for pe, pg in ((e.real, g.real), (e.imag, g.imag)):
        same_special &= (np.isnan(pe) == np.isnan(pg)) & ((pe == pg) | np.isnan(pe) | np.isfinite(pe) & np.isfinite(pg))
    finite = np.isfinite(e) & np.isfinite(g)
    return ~same_special | (finite & ~(err <= rtol * mag + 2 * float(np.finfo(e.real.dtype).tiny)))


# -- log1p-near-zero --------------------------------------------------------------------------------

def _log1p_exact(z):
    """log1p of complex z in a wider type: Re from log1p(2x + x^2 + y^2) / 2, Im atan2(y, 1 + x)."""
    wide = np.float64 if z.dtype == np.complex64 else np.longdouble
    x, y = z.real.astype(wide), z.imag.astype(wide)
    with np.errstate(all="ignore"):
        return 0.5 * np.log1p(2 * x + x * x + y * y), np.arctan2(y, 1 + x)


def _log1p_near_zero(row, inputs, ref, test):
    found = _complex_elementwise(inputs, ref, test)
    if found is None or found[1].dtype != found[0].dtype:
        return False
    z, e, g = found
    eps = float(np.finfo(e.real.dtype).eps)
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    zb, eb, gb = z[bad], e[bad], g[bad]
    if not (np.isfinite(zb).all() and (np.abs(zb.real) + np.abs(zb.imag) < 0.5).all()):
        return False
    re_, im = _log1p_exact(zb)
    with np.errstate(all="ignore"):
        mag = np.maximum(np.abs(re_), np.abs(im))
        ours = np.maximum(np.abs(gb.real - re_), np.abs(gb.imag - im)) <= 8 * eps * mag + float(np.finfo(z.real.dtype).tiny)
        numpys = (np.abs(eb.real - re_) <= 4 * eps) & (np.abs(eb.imag - im) <= 4 * eps * mag + 4 * eps * eps)
    return bool(ours.all() and numpys.all())


# -- power-stride0-exponent -------------------------------------------------------------------------

def _power_materialized(row, inputs, ref, test):
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or len(args) < 2 or pair[0].dtype not in (np.float32, np.float64):
        return False
    a, b = (np.asarray(x) for x in args[:2])
    if b.ndim == 0 or not isinstance(args[1], np.ndarray):
        return False
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    if b.shape == shape:
        return False  # no broadcast: NumPy's loop saw the exponent's own strides
    full = np.array(np.broadcast_to(b, shape))
    kw2 = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plain = np.asarray(row.call(np, [args[0], full] + list(args[2:]), kw2))
    except Exception:  # noqa: BLE001 - NumPy refuses the full-size exponent: nothing is listed
        return False
    e, g = pair
    if plain.shape != g.shape or plain.dtype != g.dtype:
        return False
    # the documented exponents only, and cuarray's answer NumPy's with the full-size exponent
    shortcuts = np.isin(np.broadcast_to(b, shape), [-1.0, 0.0, 0.5, 1.0, 2.0])
    moved = _differs(e, g, _row_rtol(row, e.dtype))
    if not moved.any() or not shortcuts[moved].all():
        return False
    return not _differs(plain, g, 8 * float(np.finfo(e.dtype).eps))[moved].any()


# -- sinh-cosh-past-overflow ------------------------------------------------------------------------

def _sinh_cosh_overflow(row, inputs, ref, test):
    found = _complex_elementwise(inputs, ref, test)
    if found is None or found[1].dtype.kind != "c":
        return False
    z, e, g = found
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    x = np.abs(z.imag if row.name in ("sin", "cos") else z.real)
    past = x > np.log(float(np.finfo(e.real.dtype).max))
    ok = np.ones(e.shape, bool)
    for pe, pg in ((e.real, g.real), (e.imag, g.imag)):
        # a finite part of NumPy's that cuarray overflows to the infinity of its sign; the rest agrees
        over = np.isfinite(pe) & np.isinf(pg) & (np.sign(pe) == np.sign(pg))
        agree = ~_differs(pe.astype(e.dtype), pg.astype(e.dtype), _row_rtol(row, e.dtype))
        ok &= over | agree
    return bool((past & ok)[bad].all())


# -- sign-subnormal-modulus ------------------------------------------------------------------------

def _unit_exact(z):
    """(Re, Im) of z/|z| in a wider type (float64 for complex64, longdouble for complex128)."""
    wide = np.float64 if z.dtype == np.complex64 else np.longdouble
    x, y = z.real.astype(wide), z.imag.astype(wide)
    scale = np.maximum(np.abs(x), np.abs(y))
    with np.errstate(all="ignore"):
        xs, ys = x / scale, y / scale
        r = np.sqrt(xs * xs + ys * ys)
        return xs / r, ys / r


def _sign_subnormal_modulus(row, inputs, ref, test):
    found = _complex_elementwise(inputs, ref, test)
    if found is None or found[1].dtype != found[0].dtype:
        return False
    z, e, g = found
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    zb, eb, gb = z[bad], e[bad], g[bad]
    eps, tiny = float(np.finfo(e.real.dtype).eps), float(np.finfo(e.real.dtype).tiny)
    if not (np.isfinite(zb).all() and (zb != 0).all()):
        return False
    re_, im = _unit_exact(zb)
    with np.errstate(all="ignore"):
        small = np.hypot(zb.real.astype(np.float64), zb.imag.astype(np.float64)) < tiny
        ours = np.maximum(np.abs(gb.real - re_), np.abs(gb.imag - im)) <= 4 * eps
        numpys = np.maximum(np.abs(eb.real - re_), np.abs(eb.imag - im)) > 4 * eps
    return bool((small & ours & numpys).all())


# -- nanmedian-middle-sum-overflow, sum-overflow-order, product-overflow-order ------------------------------------------

_WIDER = {"e": np.float64, "f": np.float64, "d": np.longdouble, "F": np.complex128, "D": np.clongdouble}


def _wider_type_product(row, inputs, ref, test):
    """`_wider_type_overflow`, where NumPy's running product may also have underflowed to 0 in the
    input type (float16 6.1e-5 * 6.1e-5 is 0 before the factors of 74 that follow)."""
    return _wider_type_overflow(row, inputs, ref, test, zero=True)


def _wider_type_overflow(row, inputs, ref, test, zero=False, wider=None):
    """Every differing element: NumPy's has a part that is not finite (or, with `zero`, is 0 where
    the wider call's is not), cuarray's is finite and is NumPy's same call on the input in a wider
    type (`_WIDER`'s, or `wider`; NumPy's sum overflowed in the input type)."""
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or not args or not isinstance(args[0], np.ndarray) or args[0].dtype.char not in _WIDER:
        return False
    e, g = pair
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wide = np.asarray(row.call(np, [args[0].astype(wider or _WIDER[args[0].dtype.char])] + list(args[1:]), dict(kw)))
    if wide.shape != e.shape:
        return False
    eb, gb, wb = e[bad], g[bad], wide[bad]
    numpys = ~np.isfinite(eb.real) | ~np.isfinite(np.asarray(eb).imag)
    if zero:
        numpys |= (eb == 0) & (wb.astype(e.dtype) != 0)
    ours = np.isfinite(gb) & ~_differs(wb.astype(e.dtype), gb, _row_rtol(row, e.dtype))
    return bool((numpys & ours).all())


def _nanmedian_paths(row, inputs, ref, test):
    """nanmedian: every differing element is one where NumPy's value has a part that is not finite
    and cuarray's is finite and NumPy's in a wider type (`_wider_type_overflow`'s rule), or is, part
    by part, NumPy's nanmedian of that row alone: its 1-d path takes an odd row's middle value where
    the masked path for rows along kept axes adds it to itself first (which overflows), and ranks a
    masked NaN beside inf differently (nan+nanj for the middle of [inf, nan-1j, inf], inf+nanj alone)."""
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or not args or not isinstance(args[0], np.ndarray) or args[0].dtype.char not in _WIDER:
        return False
    if set(kw) - {"axis", "keepdims"} or args[0].ndim == 0:
        return False
    e, g = pair
    x = args[0]
    from numpy.lib.array_utils import normalize_axis_tuple

    axis = kw.get("axis")
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    rows = np.transpose(x, kept + list(axes)).reshape(tuple(x.shape[i] for i in kept) + (-1,))
    if e.size != int(np.prod(rows.shape[:-1])):
        return False
    e, g = e.reshape(rows.shape[:-1]), g.reshape(rows.shape[:-1])
    rtol = _row_rtol(row, e.dtype)
    bad = _differs(e, g, rtol)
    if not bad.any():
        return False
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = np.array([np.nanmedian(r) for r in rows.reshape(-1, rows.shape[-1])], e.dtype).reshape(e.shape)
        wide = np.nanmedian(rows.astype(_WIDER[x.dtype.char]), axis=-1).astype(e.dtype)
    numpys = ~np.isfinite(e.real) | ~np.isfinite(np.asarray(e).imag)
    ours = ~_differs(alone, g, rtol) | (np.isfinite(g) & ~_differs(wide, g, rtol))
    return bool((numpys & ours)[bad].all())


# -- i0-exp-overflow --------------------------------------------------------------------------------

def _i0_overflow(row, inputs, ref, test):
    pair = _finite_pair(ref, test)
    args = inputs[0]
    if pair is None or not args or not isinstance(args[0], np.ndarray) or args[0].dtype.char not in "efd":
        return False
    e, g = pair
    x = args[0]
    if x.shape != e.shape:
        return False
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wide = np.i0(x[bad].astype(np.float64 if x.dtype.char in "ef" else np.longdouble))
    past = np.abs(x[bad].astype(np.float64)) > np.log(float(np.finfo(e.dtype).max))
    ours = np.isfinite(g[bad]) & ~_differs(wide.astype(e.dtype), g[bad], _row_rtol(row, e.dtype))
    return bool((past & np.isposinf(e[bad]) & ours).all())


# -- product-order ----------------------------------------------------------------------------------

def _product_axis(row, x, kw):
    """(factors with the scanned axis last, the answer's slice that holds their products) of a
    cumulative product call; None where the call is not one of those forms."""
    if row.name == "multiply.accumulate":
        axis = kw.get("axis", 0)
    else:
        axis = kw.get("axis")
    if axis is None:
        if row.name == "cumulative_prod" and x.ndim > 1:
            return None
        x, axis = x.reshape(-1), 0
    if row.name == "nancumprod":
        x = np.where(np.isnan(x), 1, x)
    return np.moveaxis(x, axis, -1), axis


def _order_events(x, dtype):
    """For every element of the rows along the last axis of `x`: whether some contiguous run of the
    row's factors up to it has a product outside `dtype`'s normal range (its magnitudes' base-2
    logarithms added in float64: a run's sum is a difference of prefix sums), or a factor up to it
    is inf or NaN. Only there can the order of the multiplications decide a value's class."""
    with np.errstate(all="ignore"):
        m = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
        special = ~np.isfinite(m)
        logs = np.where(special | (m == 0), 0.0, np.log2(np.where(m == 0, 1.0, m)))
    hi, lo = np.log2(float(np.finfo(dtype).max)) - 1, np.log2(float(np.finfo(dtype).tiny))
    n = x.shape[-1]
    prefix = np.cumsum(logs, axis=-1)
    low = np.zeros(x.shape[:-1])  # the smallest and largest prefix before each position (P[-1] = 0)
    high = np.zeros(x.shape[:-1])
    event = np.zeros(x.shape, bool)
    seen = np.zeros(x.shape[:-1], bool)
    for k in range(n):
        p = prefix[..., k]
        seen = seen | special[..., k] | (p - low > hi) | (p - high < lo)
        event[..., k] = seen
        low, high = np.minimum(low, p), np.maximum(high, p)
    return event


def _product_order(row, inputs, ref, test):
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or not args or not isinstance(args[0], np.ndarray) or args[0].dtype.kind not in "fc":
        return False
    e, g = pair
    if e.dtype.kind not in "fc":
        return False
    found = _product_axis(row, args[0], kw)
    if found is None:
        return False
    x, axis = found
    e, g = np.moveaxis(e, axis, -1), np.moveaxis(g, axis, -1)
    if row.name == "cumulative_prod" and kw.get("include_initial"):
        if np.any(_differs(e[..., :1], g[..., :1], _row_rtol(row, e.dtype))):
            return False
        e, g = e[..., 1:], g[..., 1:]
    if e.shape != x.shape:
        return False
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    return bool(bad.any() and _order_events(x, e.dtype)[bad].all())


def _reduced_factors(row, x, kw):
    """The factors of each answer element of a product reduction (the reduced axes last, flattened;
    nanprod's NaNs as 1); None where the call is not one of the plain forms."""
    if set(kw) - {"axis", "keepdims", "dtype"} or x.ndim == 0:
        return None
    from numpy.lib.array_utils import normalize_axis_tuple

    axis = kw.get("axis", 0 if row.name in ("multiply.reduce", "add.reduce") else None)
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    if row.name == "nanprod":
        x = np.where(np.isnan(x), 1, x)
    return np.transpose(x, kept + list(axes)).reshape(tuple(x.shape[i] for i in kept) + (-1,))


def _reduced_differences(row, ref, test, rows):
    """(NumPy's, cuarray's, differing): both answers shaped as the leading axes of `rows` (each
    answer element's reduced values along the last axis) and the elements that differ; None where
    either answer is no array of that size, or nothing differs."""
    pair = _finite_pair(ref, test)
    if pair is None or rows is None or pair[0].size != int(np.prod(rows.shape[:-1])):
        return None
    e, g = (x.reshape(rows.shape[:-1]) for x in pair)
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    return (e, g, bad) if bad.any() else None


def _product_reduce_order(row, inputs, ref, test):
    """Every differing element is finite on one side only, and its factors hold an inf or NaN or a
    subset whose product is past the dtype's largest value (its magnitudes' base-2 logarithms above
    0 added): only then do NumPy's order (unrolled, strided partial products) and the tree's meet
    inf, 0 * inf or inf - inf differently. A finite value against another finite one is never listed."""
    args, kw = inputs
    if not args or not isinstance(args[0], np.ndarray) or args[0].dtype.kind not in "fc":
        return False
    f = _reduced_factors(row, args[0], kw)
    d = _reduced_differences(row, ref, test, f)
    if d is None or d[0].dtype.kind not in "fc":
        return False
    e, g, bad = d
    with np.errstate(all="ignore"):
        m = np.abs(f.astype(np.complex128 if f.dtype.kind == "c" else np.float64))
        logs = np.log2(np.where(np.isfinite(m) & (m > 0), m, 1.0))
    past = np.where(logs > 0, logs, 0.0).sum(axis=-1) > np.log2(float(np.finfo(e.dtype).max))
    event = past | ~np.isfinite(m).all(axis=-1)
    finite_e = np.isfinite(e.real) & np.isfinite(e.imag)
    finite_g = np.isfinite(g.real) & np.isfinite(g.imag)
    return bool((event & (finite_e != finite_g))[bad].all())


# -- fused-product-overflow ------------------------------------------------------------------------

# the type whose products of two of the dtype's values neither overflow nor underflow (x86-64's long
# double reaches 1.2e4932); None where there is none (a long double that is double)
_WIDE_LONG = np.finfo(np.longdouble).maxexp > 4096
_EXACT_PRODUCTS = {"f": np.float64, "d": np.longdouble if _WIDE_LONG else None,
                   "F": np.complex128, "D": np.clongdouble if _WIDE_LONG else None}


def _fused_model(row, args, kw, dt):
    """NumPy's own call with every product exact (the operands in `_EXACT_PRODUCTS`' type), each
    convolution's result rounded to `dt`: the direct kernels' fused multiply-adds. poly1d ** k is
    its k polymuls, each rounded as cuarray's (and NumPy's) float64 coefficients are."""
    wide = _EXACT_PRODUCTS.get(dt.char)
    if wide is None:
        return None
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if row.name == "poly1d**":
            c = np.poly1d(args[0]).coeffs.astype(wide)
            res = np.array([1.0], dt)
            for _ in range(int(args[1])):
                res = np.asarray(np.polymul(c, res.astype(wide))).astype(dt)
            return res
        return np.asarray(row.call(np, [np.asarray(x).astype(wide) for x in args[:2]] + list(args[2:]), dict(kw))).astype(dt)


def _fused_product_overflow(row, inputs, ref, test):
    """Every differing element: NumPy's is not finite, and cuarray's agrees with `_fused_model` (a
    finite product past the dtype's range, rounded to inf on its own in NumPy, meets an inf of the
    other sign there as NaN, or a finite sum as inf). Complex: both answers and the model have a
    part that is not finite there (which part is NaN and which inf follows the order of the
    parts' products and sums: seed 23, (poly1d([-1.8e308-2.2e-308j, 1+3j]) ** 3)[0] is nan-infj
    in NumPy, -inf-infj here)."""
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or len(args) < 2 or pair[0].dtype.char not in "fdFD" or pair[0].ndim != 1:
        return False
    if not all(isinstance(x, np.ndarray) and x.dtype == pair[0].dtype for x in args[:1 if row.name == "poly1d**" else 2]):
        return False
    e, g = pair
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    model = _fused_model(row, args, kw, e.dtype)
    if model is None or model.shape != e.shape:
        return False
    if e.dtype.kind == "c":
        return bool((_not_finite(e) & _not_finite(g) & _not_finite(model))[bad].all())
    return bool((~np.isfinite(e[bad])).all() and not _differs(model, g, _row_rtol(row, e.dtype))[bad].any())


def _not_finite(z):
    """Per element: a part is inf or NaN."""
    return ~(np.isfinite(z.real) & np.isfinite(z.imag))


# -- nanmean-float16-sum ----------------------------------------------------------------------------

def _nanmean_float16_sum(row, inputs, ref, test):
    """float16 nanmean: every differing element is not finite in NumPy's answer, and cuarray's is
    finite and agrees with NumPy's nanmean of the input in float32 (np.mean's intermediate type for
    float16) rounded to float16: NumPy's nanmean sums the NaN-zeroed input in float16 (np.sum with
    dtype=None), which overflows where the mean is in range (`_wider_type_overflow` in float32)."""
    args, kw = inputs
    if not args or not isinstance(args[0], np.ndarray) or args[0].dtype != np.float16 or set(kw) - {"axis", "keepdims"}:
        return False
    return _wider_type_overflow(row, inputs, ref, test, wider=np.float32)


# -- setdiff1d-promoted-collisions -------------------------------------------------------------------

def _setdiff1d_promoted_collisions(row, inputs, ref, test):
    """setdiff1d of 64-bit integers and floats: NumPy's answer is cuarray's less some elements,
    each an integer of the first array whose value in the promoted float type (np.result_type of
    the two) equals that of another of its distinct values, and equals no element of the second
    array there. NumPy's sort-based isin(assume_unique=True) reads two such neighbours as a
    match (2**64 - 2 and 2**64 - 1 are both 1.8446744073709552e19 in float64)."""
    args, kw = inputs
    if ref[0] != "ok" or test[0] != "ok" or len(args) < 2 or kw.get("assume_unique"):
        return False
    pair = [np.asarray(x) for x in (ref[1], test[1])]
    a1, a2 = (np.asarray(x) for x in args[:2])
    if a1.dtype.kind not in "iu" or a1.dtype.itemsize != 8 or any(x.dtype != a1.dtype or x.ndim != 1 for x in pair):
        return False
    pt = np.result_type(a1, a2)
    if pt.kind not in "fc":
        return False
    e, g = (x.tolist() for x in pair)
    if g != sorted(set(g)) or not set(e) <= set(g):
        return False
    missing = [v for v in g if v not in set(e)]
    if not missing or [v for v in g if v not in set(missing)] != e:
        return False
    with np.errstate(all="ignore"):
        mine = np.unique(a1).astype(pt)
        theirs = a2.reshape(-1).astype(pt)
    for v in missing:
        pv = np.asarray(v, a1.dtype).astype(pt)
        if np.count_nonzero(mine == pv) < 2 or np.any(theirs == pv):
            return False
    return True


# -- histogram-infinite-edges ---------------------------------------------------------------------

def _edge_arrays(value):
    """The edge arrays of a histogram answer: (hist, edges), (H, xedges, yedges), (H, [edges...])."""
    out = []
    for part in (value[1:] if isinstance(value, tuple) else ()):
        out += _edge_arrays((None,) + tuple(part)) if isinstance(part, (tuple, list)) else [np.asarray(part)]
    return out


def _histogram_infinite_edges(row, inputs, ref, test):
    """cuarray raised its ValueError for equal bins whose edges are not finite, and NumPy's edges of
    the call are not finite: in its answer (counts over a NaN first edge), or, where NumPy raised
    IndexError (its bin index of (x - -inf) * 0), NumPy's histogram_bin_edges of the same call."""
    if test[0] != "raise" or type(test[1]).__name__ != "ValueError" or "finite-sized bins: the range" not in str(test[1]):
        return False
    args, kw = inputs
    if ref[0] == "ok":
        edges = _edge_arrays(ref[1])
        return bool(edges) and any(x.dtype.kind == "f" and not np.isfinite(x).all() for x in edges)
    if type(ref[1]).__name__ != "IndexError" or row.name != "histogram" or not args:
        return False
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            edges = np.histogram_bin_edges(np.asarray(args[0]), bins=kw.get("bins", 10), range=kw.get("range"))
        except Exception:  # noqa: BLE001 - NumPy's edges raise too: nothing is listed
            return False
    return not np.isfinite(edges).all()


# -- sum-overflow-meets-infinity --------------------------------------------------------------------

def _sum_meets_infinity(row, inputs, ref, test):
    """float32/float64 sums and means whose reduced values hold infinities of one sign s: every
    differing element is NaN on one side and s*inf on the other, and the finite values of its row
    of the other sign add up (in long double) past the dtype's largest value. Then the order of the
    additions decides whether a partial sum overflows to -s*inf and meets the infinity (NaN) or
    not (s*inf): NumPy's pairwise order and the GPU's tree each take one, and NumPy's own answer
    changes when the input is reordered (seed 22: average([9e307, -inf, 1.8e308]) is -inf in NumPy,
    NaN here; NumPy's average([9e307, 1.8e308, -inf]) is NaN)."""
    args, kw = inputs
    if not args or not isinstance(args[0], np.ndarray) or args[0].dtype.char not in "fd" or set(kw) - {"axis", "keepdims"}:
        return False
    f = _reduced_factors(row, args[0], kw)
    d = _reduced_differences(row, ref, test, f)
    if d is None or d[0].dtype != args[0].dtype:
        return False
    e, g, bad = d
    largest = np.longdouble(np.finfo(e.dtype).max)
    for i in zip(*np.nonzero(np.atleast_1d(bad))) if bad.ndim else [()]:
        v = f[i]
        if row.name.startswith("nan"):
            v = v[~np.isnan(v)]
        signs = np.unique(np.sign(v[np.isinf(v)]))
        if np.isnan(v).any() or signs.size != 1:
            return False
        if sorted(map(repr, (float(e[i]), float(g[i])))) != sorted(["nan", repr(float(signs[0] * np.inf))]):
            return False
        other = v[np.isfinite(v) & (np.sign(v) == -signs[0])].astype(np.longdouble)
        if not abs(other.sum()) > largest:
            return False
    return True


# -- complex-extremum-nan-choice --------------------------------------------------------------------

def _extremum_rows(row, x, kw):
    """(values, selected): each answer element's reduced values of a max/min reduction (the reduced
    axes last, flattened) and `where`'s mask of them; None for other forms."""
    if set(kw) - {"axis", "keepdims", "initial", "where"} or x.ndim == 0:
        return None
    from numpy.lib.array_utils import normalize_axis_tuple

    axis = kw.get("axis", 0 if row.name.endswith(".reduce") else None)
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    shape = tuple(x.shape[i] for i in kept) + (-1,)
    where = np.broadcast_to(np.asarray(kw.get("where", True), bool), x.shape)
    return (np.transpose(x, kept + list(axes)).reshape(shape), np.transpose(where, kept + list(axes)).reshape(shape))


def _same_parts(z, c):
    """Elementwise: equal parts, NaN equal to NaN."""
    return ((z.real == c.real) | np.isnan(z.real) & np.isnan(c.real)) & ((z.imag == c.imag) | np.isnan(z.imag) & np.isnan(c.imag))


def _complex_extremum_nan_choice(row, inputs, ref, test):
    """Complex max/min: every differing element is, in both answers, one of its row's elements (of
    those `where` selects) that has a NaN part. Both return the first such element they meet, NumPy
    in its iterator's order (which follows all operands' memory layouts: seed 23, a transposed
    complex128 input and a C-ordered `where` gave the first in C order), cuarray in the order of
    its input's memory; no order is NumPy's contract, and every such element is a NaN."""
    args, kw = inputs
    if not args or not isinstance(args[0], np.ndarray) or args[0].dtype.kind != "c":
        return False
    values, selected = _extremum_rows(row, args[0], kw) or (None, None)
    d = _reduced_differences(row, ref, test, values)
    if d is None:
        return False
    e, g, bad = d
    for i in zip(*np.nonzero(np.atleast_1d(bad))) if bad.ndim else [()]:
        nans = values[i][selected[i] & (np.isnan(values[i].real) | np.isnan(values[i].imag))]
        if not (_same_parts(nans, e[i]).any() and _same_parts(nans, g[i]).any()):
            return False
    return True


# -- outer-unfused-complex-product ------------------------------------------------------------------

def _outer_unfused_complex(row, inputs, ref, test):
    """outer of complex operands: every differing element has a part that is not finite in one of
    the answers, NumPy's is the product with its parts' products rounded apart (ar*br - ai*bi, the
    loop NumPy's outer of mixed complex dtypes runs) and cuarray's the fused one (fma(ar, br,
    -(ai*bi)), fma(ar, bi, ai*br): NumPy's contiguous multiply loop on an FMA host, which cuarray's
    multiply always computes). Away from overflow the two differ by a rounding at most; past it
    one part is NaN in one and inf in the other (seed 22: outer(-5.49-5.49j as complex64,
    1.8e308+1.8e308j) is nan-infj in NumPy, whose multiply of the same operands gives inf-infj)."""
    pair = _finite_pair(ref, test)
    args, kw = inputs
    if pair is None or len(args) < 2 or kw or pair[0].dtype.char not in "FD":
        return False
    e, g = pair
    a, b = (np.asarray(x).ravel().astype(e.dtype) for x in args[:2])
    wide = _EXACT_PRODUCTS[e.dtype.char.lower()]
    if wide is None or e.shape != (a.size, b.size):
        return False
    bad = _differs(e, g, _row_rtol(row, e.dtype))
    if not bad.any():
        return False
    ar, ai, br, bi = a.real[:, None], a.imag[:, None], b.real[None, :], b.imag[None, :]
    plain, fused = np.empty_like(e), np.empty_like(e)
    with np.errstate(all="ignore"):
        plain.real, plain.imag = ar * br - ai * bi, ar * bi + ai * br
        w = [p.astype(wide) for p in (ar, ai, br, bi)]
        fused.real = w[0] * w[2] + (-(ai * bi)).astype(wide)
        fused.imag = w[0] * w[3] + (ai * br).astype(wide)
    ok = _same_parts(e, plain) & _same_parts(g, fused) & (_not_finite(e) | _not_finite(g))
    return bool(ok[bad].all())


ALLOWANCES = (
    Allowance("log1p-near-zero", ("log1p",), _log1p_near_zero),
    Allowance("i0-exp-overflow", ("i0",), _i0_overflow),
    Allowance("nanmedian-middle-sum-overflow", ("nanmedian",), _nanmedian_paths),
    Allowance("sum-overflow-order", ("sum", "nansum", "add.reduce"), _wider_type_overflow),
    Allowance("product-overflow-order", ("prod", "nanprod", "multiply.reduce"), _wider_type_product),
    Allowance("product-reduce-order", ("prod", "nanprod", "multiply.reduce"), _product_reduce_order),
    Allowance("sign-subnormal-modulus", ("sign",), _sign_subnormal_modulus),
    Allowance("power-stride0-exponent", ("power",), _power_materialized),
    Allowance("sinh-cosh-past-overflow", ("sinh", "cosh", "sin", "cos"), _sinh_cosh_overflow),
    Allowance("product-order", ("cumprod", "nancumprod", "multiply.accumulate", "cumulative_prod"), _product_order),
    Allowance("fused-product-overflow", ("convolve", "correlate", "polymul", "poly1d**"), _fused_product_overflow),
    Allowance("nanmean-float16-sum", ("nanmean",), _nanmean_float16_sum),
    Allowance("setdiff1d-promoted-collisions", ("setdiff1d",), _setdiff1d_promoted_collisions),
    Allowance("histogram-infinite-edges", ("histogram", "histogram2d", "histogramdd"), _histogram_infinite_edges),
    Allowance("sum-overflow-meets-infinity", ("sum", "nansum", "add.reduce", "mean", "nanmean", "average"),
              _sum_meets_infinity),
    Allowance("complex-extremum-nan-choice", ("max", "min", "amax", "amin", "maximum.reduce", "minimum.reduce"),
              _complex_extremum_nan_choice),
    Allowance("outer-unfused-complex-product", ("outer", "linalg.outer"), _outer_unfused_complex),
)
_BY_FUNCTION = {}
for _a in ALLOWANCES:
    for _f in _a.functions:
        _BY_FUNCTION.setdefault(_f, []).append(_a)


def listed(row, inputs, ref, test, what=None):
    """The id of the allowance that explains this mismatch, or None."""
    for a in _BY_FUNCTION.get(row.name, ()):
        try:
            if a.applies(row, inputs, ref, test):
                return a.id
        except Exception:  # noqa: BLE001 - a condition that cannot be decided lists nothing
            continue
    return None


def docs_entries(path=DOCS) -> dict:
    """The entries of docs/differences.md's section: id -> (functions, text)."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    if SECTION not in text:
        return {}
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    out = {}
    lines = body.splitlines()
    for i, line in enumerate(lines):
        m = _ENTRY.match(line)
        if m:
            rest = [m.group(3)]
            for nxt in lines[i + 1:]:
                if not nxt.startswith("  "):
                    break
                rest.append(nxt.strip())
            funcs = tuple(f.strip().strip("`") for f in m.group(2).split(","))
            out[m.group(1)] = (funcs, " ".join(rest))
    return out
