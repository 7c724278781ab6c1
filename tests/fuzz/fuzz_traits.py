"""The kinds of input a fuzz case drew, for the summary's counts per function and per kind (a kind
no row reached, or a row that never met NaN, is a gap the summary shows): read off the host
arguments after the draw, plus the tags a generator set (fuzz_values.matrix_values).

Kinds of values in arrays: float, complex (an argument of that dtype kind, not empty), nan, inf, -0.0, subnormal, min-normal (the smallest normals), huge
(past a quarter of the largest finite value), complex-mix (a complex element whose parts are of
different classes, at least one special: inf+nanj, huge+tinyj, 0+infj), dups (at least four
elements, at most half of them distinct), int-edge (an integer dtype's min or max), 0-d, empty.
Of host values: int-out-of-range (a Python int outside the first integer array's dtype, or
outside int64 when there is none), scalar-special (a Python/NumPy float or complex scalar that is
NaN, inf, huge, subnormal or -0.0), kw-edge (either of those in a keyword argument). Of matrices:
stack, lowrank, illcond, exactdiag, singular, scaled, hermitian (the generator's tags)."""

from __future__ import annotations

import numpy as np

VALUE_KINDS = ("float", "complex", "nan", "inf", "-0.0", "subnormal", "min-normal", "huge", "complex-mix", "dups", "int-edge", "0-d",
               "empty")
HOST_KINDS = ("int-out-of-range", "scalar-special", "kw-edge")
MATRIX_KINDS = ("stack", "lowrank", "illcond", "exactdiag", "singular", "scaled", "hermitian")
ALL_KINDS = VALUE_KINDS + HOST_KINDS + MATRIX_KINDS


def _arrays(values):
    for v in values:
        if isinstance(v, np.ndarray):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from _arrays(v)


def _float_classes(x, fi):
    """Per element of a real float array: 0 zero, 1 ordinary, 2 subnormal/min-normal, 3 huge,
    4 inf, 5 nan."""
    a = np.abs(x)
    c = np.ones(x.shape, np.int8)
    c[a == 0] = 0
    c[(a > 0) & (a < 4 * fi.tiny)] = 2
    c[(a >= fi.max / 4) & np.isfinite(a)] = 3
    c[np.isinf(a)] = 4
    c[np.isnan(a)] = 5
    return c


def _array_kinds(a, out):
    if a.ndim == 0:
        out.add("0-d")
    if a.size == 0:
        out.add("empty")
        return
    k = a.dtype.kind
    if k in "fc":
        out.add("complex" if k == "c" else "float")
        fi = np.finfo(a.dtype)
        parts = (a.real, a.imag) if k == "c" else (a,)
        classes = []
        for p in parts:
            ap = np.abs(p)
            if np.isnan(p).any():
                out.add("nan")
            if np.isinf(p).any():
                out.add("inf")
            if np.signbit(p[p == 0]).any():
                out.add("-0.0")
            if ((ap > 0) & (ap < fi.tiny)).any():
                out.add("subnormal")
            if ((ap >= fi.tiny) & (ap < 4 * fi.tiny)).any():
                out.add("min-normal")
            if ((ap >= fi.max / 4) & np.isfinite(ap)).any():
                out.add("huge")
            if k == "c":
                classes.append(_float_classes(p, fi))
        if k == "c":
            re, im = classes
            if ((re != im) & (np.maximum(re, im) >= 2)).any():
                out.add("complex-mix")
    elif k in "iu":
        info = np.iinfo(a.dtype)
        if ((a == info.min) | (a == info.max)).any():
            out.add("int-edge")
    if a.size >= 4 and k in "biufc":
        with np.errstate(all="ignore"):
            distinct = np.unique(a.ravel()).size
        if 2 * distinct <= a.size:
            out.add("dups")


def _host_kinds(v, bounds, out):
    """Kinds of one host value (scalars, and those inside lists and tuples)."""
    if isinstance(v, (list, tuple)):
        for x in v:
            _host_kinds(x, bounds, out)
        return
    if isinstance(v, (bool, np.bool_)) or isinstance(v, (np.ndarray, str)) or v is None:
        return
    if isinstance(v, (int, np.integer)):
        if not bounds[0] <= int(v) <= bounds[1]:
            out.add("int-out-of-range")
        return
    if isinstance(v, (float, complex, np.floating, np.complexfloating)):
        z = complex(v)
        for p in (z.real, z.imag):
            if p != p or abs(p) == float("inf") or abs(p) >= 1e300 or 0 < abs(p) < 2.3e-308 or (
                    p == 0 and np.signbit(p)):
                out.add("scalar-special")


def case_kinds(args, kwargs, tags=()) -> set:
    """The kinds of a case's host arguments `args` and `kwargs` (fuzzlib._host_value's) and its
    generators' `tags`."""
    out = set(t for t in tags if t in MATRIX_KINDS)
    arrays = list(_arrays(list(args) + list(kwargs.values())))
    for a in arrays:
        _array_kinds(a, out)
    ints = [a.dtype for a in arrays if a.dtype.kind in "iu"]
    info = np.iinfo(ints[0]) if ints else np.iinfo(np.int64)
    bounds = (int(info.min), int(info.max))
    for v in args:
        _host_kinds(v, bounds, out)
    kw = set()
    for v in kwargs.values():
        _host_kinds(v, bounds, kw)
    if kw:
        out |= kw | {"kw-edge"}
    return out
