"""NumPy with one fault put back by hand, for each kind of bug a randomized comparison with NumPy
2.5 found in cuarray where the fuzzer's draws did not go (test_fuzz_faults_cpu.py runs the fuzzer
against it: each kind must be reported within a small budget of calls). A fault answers as the
bug did and is otherwise NumPy: `Faulty(kind)` is the side under test, `FAULTS[kind]` says which
catalog rows reach it and which kind of mismatch it makes.

The faults: max/min/amax/amin wrapping an out-of-range Python int initial= of an unsigned array
into the dtype under where= (NumPy's OverflowError); unique_inverse/unique(return_inverse=True)
keeping complex values apart whose imaginary parts are -0.0 and 0.0; sort and unique_inverse ordering complex values with a NaN imaginary
part as if it were 0; complex arctan/arctanh with a NaN part where a part is huge and finite;
complex arcsinh/arccosh overflowing near the top of the range; float_power of a complex zero with
a negative zero imaginary part by a bool exponent; complex64 log1p off by 5e-5 near 0; sqrt flushing subnormal
input to zero; pinv of float32 stacks cutting off at max(m, n) eps instead of NumPy's 1e-15;
matrix_rank of a stack with the first matrix's tolerance for all; einsum's single-operand views
cast to dtype= (NumPy keeps the input's dtype there); errors NumPy raises and the fault does not
(put with an explicit mode='raise' out of bounds, a.flat[None], reshape(copy='yes'), polyval of 0-d coefficients);
histogramdd reading an array entry of bins= as a count; histogram of unsigned data raising where
the range lies beyond the dtype (no sample in any bin)."""

from __future__ import annotations

import dataclasses
import types

import numpy as np


@dataclasses.dataclass(frozen=True)
class Fault:
    rows: tuple          # catalog row keys that reach it
    mismatch: tuple      # fuzz_report.mismatch_kind of what the fuzzer must report (one of them)
    calls: int = 240     # the budget: calls over `rows`, in turn


def _unsigned_initial(fn):
    """With where= (the reduction's masked path), an out-of-range int initial= wraps."""
    def faulty(a, *args, initial=np._NoValue, **kw):
        a = np.asarray(a)
        if a.dtype.kind == "u" and type(initial) is int and not 0 <= initial <= np.iinfo(a.dtype).max and \
                "where" in kw:
            initial = np.array(initial).astype(a.dtype)[()]  # wraps around: no OverflowError
        return fn(a, *args, initial=initial, **kw) if initial is not np._NoValue else fn(a, *args, **kw)
    return faulty


def _zeros_apart(fn):
    """unique_* keeping complex values whose imaginary parts are -0.0 and 0.0 apart (a sort by
    bits): x - 0j and x + 0j become two values."""
    def faulty(x, *args, **kw):
        x = np.asarray(x)
        if x.dtype.kind != "c" or not (x.imag == 0).any():
            return fn(x, *args, **kw)
        tiny = np.finfo(x.dtype).smallest_subnormal
        neg = (x.imag == 0) & np.signbit(x.imag)
        r = fn(np.where(neg, x.real - 1j * tiny, x), *args, **kw)
        parts = list(r) if isinstance(r, tuple) else [r]
        v = parts[0]
        parts[0] = np.where(v.imag == -tiny, v.real - 0j, v).astype(x.dtype)
        return type(r)(*parts) if hasattr(r, "_fields") else tuple(parts) if isinstance(r, tuple) else parts[0]
    return faulty


def _complex_nan_imag_as_zero(fn):
    """Sorting complex values with a NaN imaginary part and a finite real part as if the
    imaginary part were 0 (NumPy sorts them after every value without NaN: R + nanj)."""
    def faulty(a, *args, **kw):
        a = np.asarray(a)
        if a.dtype.kind != "c":
            return fn(a, *args, **kw)
        odd = np.isnan(a.imag) & np.isfinite(a.real)
        if not odd.any():
            return fn(a, *args, **kw)
        r = fn(np.where(odd, a.real + 0j, a), *args, **kw)
        parts = list(r) if isinstance(r, tuple) else [r]
        vals = parts[0]
        vals = np.where(np.isin(vals, a.real[odd]) & (vals.imag == 0), vals.real + complex(0, np.nan), vals)
        parts[0] = vals.astype(a.dtype)
        return type(r)(*parts) if hasattr(r, "_fields") else tuple(parts) if isinstance(r, tuple) else parts[0]
    return faulty


def _huge_part(fn, nan_part):
    """A complex function answering NaN in part `nan_part` where the input has a part past max/4."""
    def faulty(z, *args, **kw):
        r = fn(z, *args, **kw)
        z = np.asarray(z)
        if z.dtype.kind != "c":
            return r
        top = np.finfo(z.dtype).max / 4
        with np.errstate(invalid="ignore"):  # (finite huge parts: inf takes C99's special cases)
            big = np.isfinite(z) & ((np.abs(z.real) > top) | (np.abs(z.imag) > top))
        r = np.array(r, copy=True)
        if nan_part == "imag":
            r.imag[big] = np.nan
        else:
            r[big] = complex(np.inf, 0)
        return r[()] if r.ndim == 0 else r
    return faulty


def _zero_power(a, b, *args, **kw):
    r = np.float_power(a, b, *args, **kw)
    a, b = np.asarray(a), np.asarray(b)
    if r.dtype.kind != "c" or b.dtype != bool:
        return r
    zero = np.broadcast_to((a == 0) & np.signbit(a.imag) & b, r.shape)  # (0-0j, -0-0j)
    r = np.array(r, copy=True)
    r[zero] = complex(np.nan, np.nan)
    return r


def _log1p_small(z, *args, **kw):
    r = np.log1p(z, *args, **kw)
    z = np.asarray(z)
    if z.dtype != np.complex64:
        return r
    small = (np.abs(z) < 0.01) & (z != 0)
    return np.where(small, r * np.complex64(1 + 5e-5), r)


def _sqrt_ftz(x, *args, **kw):
    x = np.asarray(x)
    if x.dtype.kind == "f":
        x = np.where(np.abs(x) < np.finfo(x.dtype).tiny, np.zeros((), x.dtype), x)
    return np.sqrt(x, *args, **kw)


def _pinv_eps_cutoff(a, rcond=None, hermitian=False, **kw):
    a = np.asarray(a)
    if rcond is None and not kw and a.ndim > 2 and a.dtype == np.float32:
        rcond = max(a.shape[-2:]) * np.finfo(a.dtype).eps  # NumPy's default is 1e-15, whatever the dtype
    return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian, **kw) if rcond is not None else \
        np.linalg.pinv(a, hermitian=hermitian, **kw)


def _rank_first_tol(a, tol=None, hermitian=False, **kw):
    a = np.asarray(a)
    if tol is not None or kw or a.ndim < 3 or a.dtype.kind not in "fc" or not a.size:
        return np.linalg.matrix_rank(a, tol=tol, hermitian=hermitian, **kw)
    s = np.linalg.svd(a, compute_uv=False)
    first = s.reshape(-1, s.shape[-1])[0].max(initial=0) * max(a.shape[-2:]) * np.finfo(s.dtype).eps
    return np.count_nonzero(s > first, axis=-1)


def _einsum_cast(*operands, dtype=None, **kw):
    r = np.einsum(*operands, dtype=dtype, **kw)
    if dtype is not None and len(operands) == 2 and isinstance(r, np.ndarray):
        return r.astype(dtype, casting="unsafe")
    return r


def _put_clip(a, ind, v, mode=None):
    """An explicit mode='raise' clips (the default still raises)."""
    return np.put(a, ind, v, mode="clip" if mode == "raise" else mode or "raise")


class _Flat:
    def __init__(self, a):
        self.a = a

    def __getitem__(self, i):
        return self.a.flat[() if i is None else i]


def _flat(xp, args, kw):
    return _Flat(args[0])[args[1]]


def _reshape(a, *args, copy=None, **kw):
    return np.reshape(a, *args, copy=None if isinstance(copy, str) else copy, **kw)


def _polyval(p, x):
    return np.polyval(np.atleast_1d(p), x)


def _histogramdd(sample, bins=10, **kw):
    if isinstance(bins, list):
        bins = [max(1, len(b)) if isinstance(b, np.ndarray) else b for b in bins]
    return np.histogramdd(sample, bins=bins, **kw)


def _histogram_unsigned(a, bins=10, range=None, **kw):
    """An unsigned array's range beyond its dtype (no sample can fall in a bin) refused: its bounds
    cast to the dtype wrap."""
    a = np.asarray(a)
    if a.dtype.kind == "u" and range is not None:
        with np.errstate(all="ignore"):
            lo = float(range[0])
        if lo > np.iinfo(a.dtype).max:
            raise ValueError("max must be larger than min in range parameter.")
    return np.histogram(a, bins=bins, range=range, **kw)


FAULTS = {
    "initial-overflow": Fault(tuple("{}(a){{initial,where,axis,keepdims}}".format(n) for n in ("max", "min", "amax", "amin")),
                              ("missing-error",)),
    "unique-zeros": Fault(("unique_inverse(a)", "unique(a){return_inverse,equal_nan}"), ("value", "shape"), calls=400),
    "complex-order": Fault(("sort(a)", "unique_inverse(a)"), ("value", "shape"), calls=300),
    "complex-inf": Fault(("arctan(a)", "arctanh(a)"), ("value",)),
    "complex-top": Fault(("arcsinh(a)", "arccosh(a)"), ("value",)),
    "zero-power": Fault(("float_power(a bmix){}",), ("value",), calls=900),
    "log1p-small": Fault(("log1p(a)",), ("value",), calls=400),
    "subnormal-ftz": Fault(("sqrt(a)",), ("value",)),
    "pinv-stack": Fault(("linalg.pinv(m)",), ("value",), calls=400),
    "rank-stack": Fault(("linalg.matrix_rank(m)",), ("value",)),
    "einsum-dtype": Fault(("einsum(subs op){dtype,casting}",), ("dtype",)),
    "missing-errors": Fault(("put(a idx b){mode}", "flat[](a flatidx1){}", "reshape(a reshape){copy,order}",
                             "polyval(pcoef a){}"), ("missing-error",)),
    "histogramdd-bins": Fault(("histogramdd(ddsample){bins,range,density}",), ("value", "shape", "extra-error")),
    "histogram-unsigned": Fault(("histogram(euarr){bins,range}",), ("extra-error",)),
}

_OVERRIDES = {
    "initial-overflow": {n: _unsigned_initial(getattr(np, n)) for n in ("max", "min", "amax", "amin")},
    "unique-zeros": {"unique_inverse": _zeros_apart(np.unique_inverse), "unique": _zeros_apart(np.unique)},
    "complex-order": {"sort": _complex_nan_imag_as_zero(np.sort),
                      "unique_inverse": _complex_nan_imag_as_zero(np.unique_inverse)},
    "complex-inf": {"arctan": _huge_part(np.arctan, "imag"), "arctanh": _huge_part(np.arctanh, "imag")},
    "complex-top": {"arcsinh": _huge_part(np.arcsinh, "inf"), "arccosh": _huge_part(np.arccosh, "inf")},
    "zero-power": {"float_power": _zero_power},
    "log1p-small": {"log1p": _log1p_small},
    "subnormal-ftz": {"sqrt": _sqrt_ftz},
    "pinv-stack": {"linalg.pinv": _pinv_eps_cutoff},
    "rank-stack": {"linalg.matrix_rank": _rank_first_tol},
    "einsum-dtype": {"einsum": _einsum_cast},
    "missing-errors": {"put": _put_clip, "reshape": _reshape, "polyval": _polyval, "flat[]": _flat},
    "histogramdd-bins": {"histogramdd": _histogramdd},
    "histogram-unsigned": {"histogram": _histogram_unsigned},
}


class Faulty:
    """NumPy with the fault `kind` (FAULTS) put back. A custom row's call (a.flat[i]) finds its
    fault under the row's name in `__fuzz_custom__` (fuzz_catalog.Row.call)."""

    def __init__(self, kind):
        over = _OVERRIDES[kind]
        self.__name__ = "numpy+" + kind
        self.__fuzz_custom__ = {k: v for k, v in over.items() if k.endswith("[]")}
        self._own = {k: v for k, v in over.items() if "." not in k and not k.endswith("[]")}
        lin = {k.split(".", 1)[1]: v for k, v in over.items() if k.startswith("linalg.")}
        self.linalg = types.SimpleNamespace(**{n: getattr(np.linalg, n) for n in dir(np.linalg) if not n.startswith("_")})
        for k, v in lin.items():
            setattr(self.linalg, k, v)

    def __getattr__(self, name):
        own = self.__dict__.get("_own", {})
        return own[name] if name in own else getattr(np, name)
