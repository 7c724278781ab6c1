"""NumPy with one fault put back by hand, for each kind of bug a randomized comparison with NumPy
2.5 found in cuarray where the fuzzer's draws did not go (test_fuzz_faults_cpu.py runs the fuzzer
against it: each kind must be reported within a small budget of calls). A fault answers as the
bug did and is otherwise NumPy: `Faulty(kind)` is the side under test, `FAULTS[kind]` says which
catalog rows reach it and which kind of mismatch it makes.

The faults: max/min/amax/amin wrapping an out-of-range Python int initial= of an unsigned array
into the dtype (NumPy's OverflowError); unique_inverse/unique(return_inverse=True) keeping -0.0
and 0.0 apart; sort putting NaNs first; complex arctan/arctanh with a NaN part where a part is
huge or infinite; complex arcsinh/arccosh overflowing near the top of the range; float_power of a
complex zero by a bool exponent; complex64 log1p off by 5e-5 near 0; sqrt flushing subnormal
input to zero; pinv of float32 stacks cutting off at max(m, n) eps instead of NumPy's 1e-15;
matrix_rank of a stack with the first matrix's tolerance for all; einsum's single-operand views
cast to dtype= (NumPy keeps the input's dtype there); errors NumPy raises and the fault does not
(put mode='raise' out of bounds, a.flat[None], reshape(copy='yes'), polyval of 0-d coefficients);
histogramdd reading an array entry of bins= as a count; histogram of unsigned data raising where
the range holds no sample."""

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
    def faulty(a, *args, initial=np._NoValue, **kw):
        a = np.asarray(a)
        if a.dtype.kind == "u" and type(initial) is int and not 0 <= initial <= np.iinfo(a.dtype).max:
            initial = np.array(initial).astype(a.dtype)[()]  # wraps around: no OverflowError
        return fn(a, *args, initial=initial, **kw) if initial is not np._NoValue else fn(a, *args, **kw)
    return faulty


def _zeros_apart(fn):
    """unique_* keeping -0.0 and 0.0 apart (a sort by bits)."""
    def faulty(x, *args, **kw):
        x = np.asarray(x)
        if x.dtype.kind != "f" or not (x == 0).any():
            return fn(x, *args, **kw)
        tiny = np.finfo(x.dtype).smallest_subnormal
        neg = (x == 0) & np.signbit(x)
        r = fn(np.where(neg, -tiny, x), *args, **kw)
        parts = list(r) if isinstance(r, tuple) else [r]
        parts[0] = np.where(parts[0] == -tiny, -0.0, parts[0]).astype(x.dtype)
        return type(r)(*parts) if hasattr(r, "_fields") else tuple(parts) if isinstance(r, tuple) else parts[0]
    return faulty


def _nan_first(a, axis=-1, **kw):
    r = np.sort(a, axis=axis, **kw)
    if r.dtype.kind != "f" or r.ndim == 0:
        return r
    ax = -1 if axis is None else axis
    return np.take_along_axis(r, np.argsort(~np.isnan(r), axis=ax, kind="stable"), ax)


def _huge_part(fn, nan_part):
    """A complex function answering NaN in part `nan_part` where the input has a part past max/4."""
    def faulty(z, *args, **kw):
        r = fn(z, *args, **kw)
        z = np.asarray(z)
        if z.dtype.kind != "c":
            return r
        top = np.finfo(z.dtype).max / 4
        with np.errstate(invalid="ignore"):
            big = (np.abs(z.real) > top) | (np.abs(z.imag) > top)
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
    zero = np.broadcast_to((a == 0) & b, r.shape)
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


def _put_clip(a, ind, v, mode="raise"):
    return np.put(a, ind, v, mode="clip" if mode == "raise" else mode)


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
    a = np.asarray(a)
    if a.dtype.kind == "u" and range is not None and a.size:
        with np.errstate(all="ignore"):
            lo, hi = (float(x) for x in range)
            if not ((a >= lo) & (a <= hi)).any():
                raise ValueError("no sample in the range")
    return np.histogram(a, bins=bins, range=range, **kw)


FAULTS = {
    "initial-overflow": Fault(tuple("{}(a){{initial,where,axis,keepdims}}".format(n) for n in ("max", "min", "amax", "amin")),
                              ("missing-error",)),
    "unique-zeros": Fault(("unique_inverse(a)", "unique(a){return_inverse,equal_nan}"), ("value", "shape"), calls=400),
    "sort-nan": Fault(("sort(a)", "sort(a){axis,kind}"), ("value",), calls=300),
    "complex-inf": Fault(("arctan(a)", "arctanh(a)"), ("value",)),
    "complex-top": Fault(("arcsinh(a)", "arccosh(a)"), ("value",)),
    "zero-power": Fault(("float_power(a bmix){}",), ("value",), calls=600),
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
    "sort-nan": {"sort": _nan_first},
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
