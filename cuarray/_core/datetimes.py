"""datetime64 / timedelta64: the one place that knows their rules (asked when a kernel is built; per
call only to convert a datetime scalar).

On the device a datetime64 or timedelta64 value is NumPy's own int64 (a count of the dtype's unit,
NaT = int64's minimum), so storage, copies, views, indexing and transfers need nothing of their
own: `dtypes` gives them the C type ``long long``. What differs from int64 is written here, as C
expressions over the functions of ``templates/cuarray/datetime.cuh``:

- `cast_expr`: conversions between units (NumPy's factors: linear with rounding toward -inf, the
  calendar for datetime64 between month/year units and day-based ones), floats to timedelta
  (NaN and out-of-range give NaT), everything else as int64;
- `ufunc_op`: the ufunc loops NumPy defines on these dtypes (NaT in, NaT out; comparisons with NaT
  false, != true; maximum/minimum propagate NaT, fmax/fmin skip it). Loop and unit resolution
  (``M8[s] - M8[ms] -> m8[ms]``) is NumPy's, through `ufunc_loop_dtypes`; a loop NumPy has and this
  table lacks raises TypeError naming it, never runs as int64;
- `scalar_converter`: a datetime64/timedelta64 (or Python int) operand as the kernel's int64 in
  the loop's unit;
- `REDUCE`: the sum/min/max/nanmin/nanmax rows of the reduction engine with NaT as NumPy treats it;
- `SORT_KEY`/`SORT_VALUE`: unsigned keys that sort NaT last, for the radix sort, and back.
"""

from __future__ import annotations

from fractions import Fraction

import numpy

__all__ = ["HEADER", "cast_expr", "ufunc_op", "scalar_converter", "involves", "NAT", "REDUCE", "SORT_KEY",
           "SORT_VALUE"]

HEADER = '#include "cuarray/datetime.cuh"'
NAT = -(2**63)

_DAY = 86400 * 10**18  # in attoseconds, NumPy's finest unit
# Unit lengths in attoseconds; a month and a year are NumPy's averages (400 Gregorian years are
# 146097 days), which is what timedelta64 conversions use (m8[Y] -> m8[D] is 1 -> 365).
_UNIT = {
    "as": Fraction(1), "fs": Fraction(10**3), "ps": Fraction(10**6), "ns": Fraction(10**9),
    "us": Fraction(10**12), "ms": Fraction(10**15), "s": Fraction(10**18), "m": Fraction(60 * 10**18),
    "h": Fraction(3600 * 10**18), "D": Fraction(_DAY), "W": Fraction(7 * _DAY),
    "M": Fraction(146097 * _DAY, 4800), "Y": Fraction(146097 * _DAY, 400),
}
_CALENDAR = ("Y", "M")
_INT64_MAX = 2**63 - 1


def involves(dtypes) -> bool:
    """Whether any of `dtypes` is datetime64 or timedelta64."""
    return any(d.kind in "Mm" for d in dtypes)


_ORDER = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as")


def _factor(src, dst, src_len, dst_len) -> tuple:
    """(num, den) of a linear conversion from unit `src` to `dst` (lengths with multipliers).

    OverflowError where NumPy's get_datetime_conversion_factor raises it: when the factor between
    the two base units (from the day for months and years, none between them and weeks) reaches
    2**56, NumPy's margin; or where the reduced factor leaves int64."""
    big, little = (src, dst) if _ORDER.index(src) < _ORDER.index(dst) else (dst, src)
    if big in _CALENDAR and little not in ("M", "W"):
        big = "D"
    f = src_len / dst_len
    if (big not in _CALENDAR and _UNIT[big] / _UNIT[little] >= 2**56) or max(f.numerator, f.denominator) > _INT64_MAX:
        raise OverflowError("Integer overflow while computing the conversion factor between NumPy "
                            "datetime units {} and {}".format(src, dst))
    return f.numerator, f.denominator


def _rescale(expr, num, den) -> str:
    if num == 1 and den == 1:
        return expr
    return "cuarray::dt::rescale({}, {}LL, {}LL)".format(expr, num, den)


def _unit_cast(expr: str, src, dst) -> str:
    """`expr` (a value of datetime dtype `src`) in the unit of `dst` (same kind)."""
    (su, sc), (du, dc) = numpy.datetime_data(src), numpy.datetime_data(dst)
    if su == "generic" or du == "generic" or (su, sc) == (du, dc):
        return expr  # a generic count takes any unit as is, as NumPy's cast does
    calendar = src.kind == "M" and ((su in _CALENDAR) != (du in _CALENDAR))
    if not calendar:
        return _rescale(expr, *_factor(su, du, _UNIT[su] * sc, _UNIT[du] * dc))
    if su in _CALENDAR:  # months/years -> days (the calendar) -> the day-based unit
        days = "cuarray::dt::{}_to_days({})".format("years" if su == "Y" else "months", _rescale(expr, sc, 1))
        return _rescale(days, *_factor(su, du, _UNIT["D"], _UNIT[du] * dc))
    days = _rescale(expr, *_factor(su, du, _UNIT[su] * sc, _UNIT["D"]))
    whole = "cuarray::dt::days_to_{}({})".format("years" if du == "Y" else "months", days)
    return _rescale(whole, 1, dc)


def cast_expr(expr: str, src, dst):
    """The C expression converting `expr`, a value of dtype `src` (in its C type), to dtype `dst`'s
    C type, where datetime rules make it differ from `cuarray::cast`; None where they do not (a
    datetime to or from an integer or bool, or to a float, is int64's conversion, NaT included, as
    NumPy's)."""
    sk, dk = src.kind, dst.kind
    if sk in "Mm" and dk in "Mm":
        if sk != dk:
            return expr  # datetime64 <-> timedelta64 keeps the count (NumPy's unsafe cast)
        return _unit_cast(expr, src, dst)
    if dk in "Mm" and sk in "fc":
        return "cuarray::dt::from_float(cuarray::cast<double>({}))".format(expr)
    return None


# -- ufunc loops -------------------------------------------------------------------------------------
# (ufunc name, kinds of the loop's inputs -> outputs) -> the operation. Kinds, not type characters:
# NumPy's loop 'mq->m' resolves to an int64 whose character is 'l' on Linux.
_OPS = {
    ("add", "Mm->M"): "out0 = cuarray::dt::add(in0, in1)",
    ("add", "mM->M"): "out0 = cuarray::dt::add(in0, in1)",
    ("add", "mm->m"): "out0 = cuarray::dt::add(in0, in1)",
    ("subtract", "Mm->M"): "out0 = cuarray::dt::sub(in0, in1)",
    ("subtract", "MM->m"): "out0 = cuarray::dt::sub(in0, in1)",
    ("subtract", "mm->m"): "out0 = cuarray::dt::sub(in0, in1)",
    ("multiply", "mi->m"): "out0 = cuarray::dt::mul(in0, in1)",
    ("multiply", "im->m"): "out0 = cuarray::dt::mul(in1, in0)",
    ("multiply", "mf->m"): "out0 = cuarray::dt::mul_float(in0, in1)",
    ("multiply", "fm->m"): "out0 = cuarray::dt::mul_float(in1, in0)",
    ("divide", "mi->m"): "out0 = cuarray::dt::div_int(in0, in1)",
    ("divide", "mf->m"): "out0 = cuarray::dt::div_float(in0, in1)",
    ("divide", "mm->f"): "out0 = cuarray::dt::div(in0, in1)",
    ("negative", "m->m"): "out0 = cuarray::dt::neg(in0)",
    ("positive", "m->m"): "out0 = in0",
    ("absolute", "m->m"): "out0 = cuarray::dt::abs(in0)",
    ("isnat", "M->b"): "out0 = cuarray::dt::isnat(in0)",
    ("isnat", "m->b"): "out0 = cuarray::dt::isnat(in0)",
    ("isfinite", "M->b"): "out0 = !cuarray::dt::isnat(in0)",
    ("isfinite", "m->b"): "out0 = !cuarray::dt::isnat(in0)",
    ("isinf", "M->b"): "out0 = false",
    ("isinf", "m->b"): "out0 = false",
}
for _name, _fn in (("equal", "eq"), ("not_equal", "ne"), ("less", "lt"), ("less_equal", "le"),
                   ("greater", "gt"), ("greater_equal", "ge")):
    for _k in "Mm":
        _OPS[(_name, _k + _k + "->b")] = "out0 = cuarray::dt::{}(in0, in1)".format(_fn)
for _name in ("maximum", "minimum", "fmax", "fmin"):
    for _k in "Mm":
        _OPS[(_name, _k + _k + "->" + _k)] = "out0 = cuarray::dt::{}(in0, in1)".format(_name)
del _name, _fn, _k


def ufunc_op(name: str, in_dtypes, out_dtypes) -> str:
    """The operation of ufunc `name` on a loop with a datetime dtype (NumPy resolved it); TypeError
    for a loop NumPy has that cuarray does not run on these dtypes."""
    sig = "".join(d.kind for d in in_dtypes) + "->" + "".join(d.kind for d in out_dtypes)
    op = _OPS.get((name, sig.replace("u", "i")))
    if op is None:
        raise TypeError("ufunc '{}' is not supported on the GPU for datetime64/timedelta64 operands "
                        "(loop {} -> {})".format(name, ", ".join(map(str, in_dtypes)),
                                                 ", ".join(map(str, out_dtypes))))
    return op


def scalar_converter(loop_dtype):
    """value -> numpy.int64: the count of a datetime64/timedelta64 scalar (or of a Python int, a
    weak timedelta) in `loop_dtype`'s unit, as the kernel takes it by value."""
    def convert(value):
        return numpy.asarray(value).astype(loop_dtype).view(numpy.int64)[()]
    return convert


# -- reductions -------------------------------------------------------------------------------------
# op name -> (combine, neutral element) over the int64 count. NaT is the smallest int64, so max's
# neutral element is the one above it; min/max/sum propagate NaT as NumPy's do, nanmin/nanmax
# skip it (NaT is their neutral element: an all-NaT slice gives NaT, as NumPy's).
REDUCE = {
    "sum": ("cuarray::dt::add(a, b)", "_acc_t(0)"),
    "max": ("cuarray::dt::maximum(a, b)", "(cuarray::dt::NaT + 1)"),
    "min": ("cuarray::dt::minimum(a, b)", "9223372036854775807LL"),
    "nanmax": ("cuarray::dt::fmax(a, b)", "cuarray::dt::NaT"),
    "nanmin": ("cuarray::dt::fmin(a, b)", "cuarray::dt::NaT"),
}


# -- sorting ----------------------------------------------------------------------------------------
# The radix sort orders unsigned keys. count + 2**63 - 1 (mod 2**64) keeps the order of the counts
# and sends NaT (-2**63) to the largest key: NaT sorts last, as in NumPy. Over int64/uint64 views.
SORT_KEY = "out0 = (unsigned long long)in0 + 0x7fffffffffffffffULL"
SORT_VALUE = "out0 = (long long)(in0 - 0x7fffffffffffffffULL)"
