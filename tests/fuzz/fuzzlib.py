"""The differential fuzzer's machinery: argument generators, the call of one case on two array
modules, the comparison, and the reproducer printed for a mismatch.

A case is (catalog row, seed, index): its arguments are drawn from ``numpy.random.default_rng((seed,
index, crc32(row)))``, so any case can be re-made from its three numbers (fuzz_regressions.py keeps
the ones that found bugs). An argument is a *spec* (what to build: `ArraySpec`, `Host`), built once
per side by a `Side`: NumPy arrays for the oracle, cuarray arrays (uploaded, or `empty` on the
host-only path) for the side under test, the same view (slices with steps, reversed axes, a
transpose) applied on both sides, so layouts match element for element.

Outcomes are ("ok", value, dtype, shape) or ("raise", exception); exceptions agree when cuarray's
class is NumPy's or a subclass of it. On the cuarray side
the call, a synchronisation and the read back of the result form one step: a device-side index
error surfaces there (docs/differences.md, "Advanced indexing"), and counts as the call's.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import warnings
import zlib

import numpy as np

from fuzz_report import Stats  # noqa: F401  (fuzz's result)
from fuzz_values import DTYPES, pick_dtype, random_shape, random_values  # noqa: F401  (the catalog's imports)


# -- argument specs -----------------------------------------------------------------------------

@dataclasses.dataclass
class ArraySpec:
    """An array: `base` (C-contiguous host data) viewed through `view` (a tuple of slices) and
    `perm` (a transpose, or None). `device`: built as the side's array type (else a NumPy array:
    host index arrays)."""
    base: np.ndarray
    view: tuple = ()
    perm: tuple | None = None
    device: bool = True
    index: bool = False  # an index argument: passed as a host array by a side without device values
    tags: frozenset = frozenset()  # how a generator shaped the values ("lowrank", "stack": fuzz_traits)

    def host(self) -> np.ndarray:
        v = self.base[self.view] if self.view else self.base  # (a 0-d array indexed by () is a scalar)
        return v.transpose(self.perm) if self.perm is not None else v

    def code(self, xp: str) -> str:
        data = "[{}]".format(", ".join(_literal(x) for x in self.base.ravel().tolist()))
        src = "numpy.array({}, dtype={!r}).reshape({})".format(data, self.base.dtype.name, self.base.shape)
        if self.device:
            src = "{}.asarray({})".format(xp, src)
        if self.view:
            src += "[{}]".format(", ".join(_slice_code(s) for s in self.view))
        if self.perm is not None:
            src += ".transpose({})".format(self.perm)
        return src


@dataclasses.dataclass
class Host:
    """A host value passed as is (scalars, axes, shapes, dtypes, lists)."""
    value: object

    def code(self, xp: str) -> str:
        v = self.value
        if isinstance(v, np.dtype):
            return "numpy.dtype({!r})".format(v.name)
        if isinstance(v, np.generic):
            return "numpy.{}({!r})".format(type(v).__name__, v.item())
        if isinstance(v, (float, complex)):
            return _literal(v)
        return repr(v)


@dataclasses.dataclass
class XpFn:
    """A function of the side's own module (``apply_along_axis``'s ``func1d``: ``xp.sum``)."""
    name: str

    def code(self, xp: str) -> str:
        return "{}.{}".format(xp, self.name)


@dataclasses.dataclass
class Seq:
    """A list of specs (``concatenate``'s arrays)."""
    items: list

    def code(self, xp: str) -> str:
        return "[{}]".format(", ".join(s.code(xp) for s in self.items))


def _literal(x) -> str:
    """Python source for one element (repr would print nan/inf, which are not Python names)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "float({!r})".format(repr(x))
    if isinstance(x, complex) and not (math.isfinite(x.real) and math.isfinite(x.imag)):
        return "complex({}, {})".format(_literal(x.real), _literal(x.imag))
    return repr(x)


def _slice_code(s) -> str:
    if isinstance(s, slice):
        parts = ["" if s.start is None else str(s.start), "" if s.stop is None else str(s.stop)]
        if s.step is not None:
            parts.append(str(s.step))
        return ":".join(parts)
    return repr(s)


# -- generators (values: fuzz_values.py) ------------------------------------------------------


def array_spec(rng, shape, dtype, *, edges=True, layout=None, device=True):
    """An ArraySpec of logical `shape`: contiguous, Fortran, strided (steps of 2), reversed axes or
    transposed, drawn at random unless `layout` says."""
    layout = layout or rng.choice(["C", "C", "F", "step", "neg", "T"])
    nd = len(shape)
    if layout == "F" and nd > 1:
        base_shape, perm = shape[::-1], tuple(range(nd - 1, -1, -1))
        return ArraySpec(random_values(rng, base_shape, dtype, edges), (), perm, device)
    if layout == "T" and nd > 1:
        perm = tuple(int(p) for p in rng.permutation(nd))
        inv = tuple(int(i) for i in np.argsort(perm))
        base_shape = tuple(shape[i] for i in inv)
        return ArraySpec(random_values(rng, base_shape, dtype, edges), (), perm, device)
    if layout in ("step", "neg") and nd:
        view, base_shape = [], []
        for d in shape:
            step = int(rng.choice([1, 2, 3])) if layout == "step" else int(rng.choice([1, -1, -2]))
            off = int(rng.integers(0, 2))
            n = off + d * abs(step) if d else off
            base_shape.append(n)
            if d == 0:
                view.append(slice(0, 0, step))
            elif step > 0:
                view.append(slice(off, off + d * step, step))
            else:
                start = n - 1 - off
                view.append(slice(start, None if start + d * step < 0 else start + d * step, step))
        spec = ArraySpec(random_values(rng, tuple(base_shape), dtype, edges), tuple(view), None, device)
        assert spec.host().shape == tuple(shape), (spec.host().shape, shape, view)
        return spec
    return ArraySpec(random_values(rng, shape, dtype, edges), (), None, device)


def broadcastable_shape(rng, shape):
    """A shape broadcasting with `shape` (fewer dims, ones), sometimes one that does not."""
    if rng.random() < 0.05 and shape:
        return tuple(d + 1 for d in shape)  # mismatch: both must raise
    nd = int(rng.integers(0, len(shape) + 1))
    out = list(shape[len(shape) - nd:])
    for i in range(nd):
        if rng.random() < 0.3:
            out[i] = 1
    return tuple(out)


def case_rng(row_name: str, seed: int, index: int):
    return np.random.default_rng((seed, index, zlib.crc32(row_name.encode())))


# -- sides --------------------------------------------------------------------------------------

class Side:
    """One array module under comparison: builds arguments, calls, returns an outcome."""

    def __init__(self, xp, *, name=None, upload=None, to_host=None, sync=None, values=True):
        # values=False: the side's arrays hold no values (the host-only path): index arguments,
        # whose values decide errors, are then passed as host arrays.
        self.xp = xp
        self.name = name or xp.__name__
        # a host array -> this side's array (a copy: an in-place row must not change the other side's input)
        self.upload = upload or (lambda host: host.copy())
        self.to_host = to_host or (lambda x: x)       # this side's array -> a NumPy array
        self.sync = sync or (lambda: None)            # surfaces deferred errors
        self.values = values                          # False: shapes/dtypes only (host-only path)

    def build(self, spec):
        if isinstance(spec, Seq):
            return [self.build(s) for s in spec.items]
        if isinstance(spec, Host):
            return spec.value
        if isinstance(spec, XpFn):
            return operator.attrgetter(spec.name)(self.xp)
        if not spec.device or (spec.index and not self.values):
            return spec.host()
        v = self.upload(spec.base)
        v = v[spec.view] if spec.view else v
        return v.transpose(spec.perm) if spec.perm is not None else v

    def outcome(self, row, args, kwargs):
        try:
            a = [self.build(s) for s in args]
            kw = {k: self.build(s) for k, s in kwargs.items()}
            if self.xp is np and _take_wrap_hangs(row, a, kw):
                kw["mode"] = "clip"
            with warnings.catch_warnings(record=True) as seen, np.errstate(all="ignore", invalid="warn"):
                warnings.simplefilter("always")
                r = row.call(self.xp, a, kw)
                if row.inplace:
                    r = a[0]
                self.sync()
                # A C cast of a NaN, an infinity or a value beyond the target type is undefined
                # (NumPy on x86-64 gives the conversion's 'integer indefinite', the GPU's cvt
                # saturates): NumPy says so with this warning, and then only dtype and shape are
                # compared (a narrower check: check_space_cast).
                undefined_cast = any("invalid value encountered in cast" in str(w.message) for w in seen)
                return ("ok", self._host(r), undefined_cast)
        except Exception as exc:  # noqa: BLE001 - the exception class is the outcome
            return ("raise", exc)

    def _host(self, r):
        if isinstance(r, (tuple, list)) and not isinstance(r, np.ndarray):
            return tuple(self._host(x) for x in r)
        if hasattr(r, "_fields"):  # named tuples (linalg results)
            return tuple(self._host(x) for x in r)
        if isinstance(r, (np.ndarray, np.generic, bool, int, float, complex)):
            return r
        if r is None:
            return None
        return self.to_host(r)


# NumPy's take(mode='wrap') can loop forever from an empty axis into an empty result that has
# outer rows and indices (it wraps an index by adding or subtracting the axis' length, 0): NumPy
# 2.4 here, and NumPy 2.5.2 on the GPU machine (a pytest worker killed by the timeout), while 2.5.5
# answers. On an empty array, wrap and clip read no element and raise alike, so the reference
# always asks clip there, whatever NumPy's version.
def _take_wrap_hangs(row, a, kw):
    return (row.name in ("take", "ndarray.take") and kw.get("mode") == "wrap"
            and isinstance(a[0], np.ndarray) and a[0].size == 0)


# -- comparison ---------------------------------------------------------------------------------

_RTOL = {"e": 4e-3, "f": 2e-5, "d": 1e-11}


def _close(exp, got, rtol_factor):
    """Values of equal dtype and shape: exact for bool/int, NaN-aware tolerance for floats."""
    if exp.dtype.kind not in "fc":
        return np.array_equal(exp, got)
    real = np.finfo(exp.dtype).dtype
    rtol = min(1.0, _RTOL.get(real.char, 1e-11) * rtol_factor)  # (a factor of 1e300: anything finite)
    parts = [(exp.real, got.real), (exp.imag, got.imag)] if exp.dtype.kind == "c" else [(exp, got)]
    # Complex values compare on the scale of their magnitude (the normwise bound of complex
    # arithmetic): an imaginary part of 1e13 beside a real part of 1e59 is rounding, not a wrong 0.
    # (The larger part's magnitude: |1e308 + 1e308j| would overflow.)
    zscale = None
    if exp.dtype.kind == "c":
        fin = np.isfinite(exp)
        zscale = float(np.max(np.maximum(np.abs(exp.real[fin]), np.abs(exp.imag[fin])))) if fin.any() else None
    for e, g in parts:
        e = e.astype(np.float64)
        g = g.astype(np.float64)
        if not np.array_equal(np.isnan(e), np.isnan(g)):
            return False
        fin = np.isfinite(e)
        if not np.array_equal(e[~fin & ~np.isnan(e)], g[~fin & ~np.isnan(e)]):
            return False
        if fin.any():
            scale = max(1.0, float(np.max(np.abs(e[fin]))) if zscale is None else zscale)
            with np.errstate(over="ignore"):
                atol = min(rtol * scale, float(np.finfo(np.float64).max))
                ok = np.isfinite(g[fin]).all() and np.all(np.abs(g[fin] - e[fin]) <= atol + rtol * np.abs(e[fin]))
            if not ok:
                return False
    return True


def compare_values(exp, got, row) -> str | None:
    """None when `got` matches `exp` (value, dtype, shape); else what differs."""
    if isinstance(exp, tuple) or isinstance(got, tuple):
        if not (isinstance(exp, tuple) and isinstance(got, tuple)) or len(exp) != len(got):
            return "result structure: expected {} got {}".format(_kind(exp), _kind(got))
        for i, (e, g) in enumerate(zip(exp, got)):
            d = compare_values(e, g, row)
            if d:
                return "[{}] {}".format(i, d)
        return None
    if exp is None or got is None:
        return None if exp is got else "expected {!r} got {!r}".format(exp, got)
    e, g = np.asarray(exp), np.asarray(got)
    if e.dtype != g.dtype:
        return "dtype: expected {} got {}".format(e.dtype, g.dtype)
    if e.shape != g.shape:
        return "shape: expected {} got {}".format(e.shape, g.shape)
    if row.values and not _close(e, g, row.rtol):
        return "values differ:\n  expected {}\n  got      {}".format(_short(e), _short(g))
    return None


def _kind(x):
    return "tuple of {}".format(len(x)) if isinstance(x, tuple) else type(x).__name__


def _short(a):
    return np.array2string(np.asarray(a), threshold=40, edgeitems=5, max_line_width=200)


@dataclasses.dataclass
class Mismatch:
    row: str
    seed: int
    index: int
    what: str
    reproducer: str

    def __str__(self):
        return "MISMATCH {} (seed={}, index={}): {}\n{}".format(self.row, self.seed, self.index, self.what,
                                                                self.reproducer)


class NoDevice(Exception):
    """The host-only path reached the device: nothing more to compare for this case."""


@dataclasses.dataclass
class Listed:
    """A mismatch that docs/differences.md lists as a deliberate difference (fuzz_allowances: the
    entry `allowance` names the function and the condition): reported and counted apart, not as a
    mismatch."""
    row: str
    seed: int
    index: int
    allowance: str
    what: str

    def __str__(self):
        return "LISTED {} (seed={}, index={}) as {}: {}".format(self.row, self.seed, self.index, self.allowance,
                                                               self.what.splitlines()[0])


def run_case(row, seed, index, ref: Side, test: Side, *, reached_device=(), record=None):
    """Run one case on both sides. Returns None (agreement), a Mismatch, a Listed (a difference
    docs/differences.md lists), or a string naming why the case is not comparable ("unsupported",
    "device", "memory"). `record(row, host_args, host_kwargs, tags, ref_outcome, result)`: told of
    every case (the summary's counts)."""
    args, kwargs = row.make(case_rng(row.key, seed, index))
    r = ref.outcome(row, args, kwargs)
    t = test.outcome(row, args, kwargs)
    host = ([_host_value(s) for s in args], {k: _host_value(s) for k, s in kwargs.items()})
    what = _judge(row, r, t, test, host, reached_device)
    if what in (None, "device", "unsupported", "memory"):
        result = what
    else:
        import fuzz_allowances  # (imports fuzz_checks, which imports this module)

        # (the host-only path's answers hold no values: only an exception of cuarray's is judged there)
        allowance = fuzz_allowances.listed(row, host, r, t, what) if test.values or t[0] == "raise" else None
        if allowance is not None:
            result = Listed(row.key, seed, index, allowance, what)
        else:
            result = Mismatch(row.key, seed, index, what, reproducer(row, args, kwargs, seed, index))
    if record is not None:
        record(row, host[0], host[1], _spec_tags(args, kwargs), r, result)
    return result


def _spec_tags(args, kwargs):
    tags = set()
    for s in list(args) + list(kwargs.values()):
        for x in (s.items if isinstance(s, Seq) else [s]):
            tags |= getattr(x, "tags", frozenset())
    return tags


def _judge(row, r, t, test, host, reached_device):
    """What differs between the outcomes `r` (NumPy's) and `t`, None, or why they are not compared."""
    if t[0] == "raise" and isinstance(t[1], reached_device):
        return "device"
    if t[0] == "raise" and type(t[1]) is NotImplementedError:
        return "unsupported"
    if t[0] == "raise" and r[0] != "raise" and _large_device_allocation_failed(t[1]):
        return "memory"
    outcome = getattr(row.check, "outcome", None)
    if r[0] != t[0] and outcome is not None and "raise" in (r[0], t[0]) and outcome(r, t, row, host) is None:
        # a row whose check excuses one side raising (fuzz_checks.check_singular: a matrix singular
        # to working precision); where it does not, the difference is reported below as any other
        return None
    if r[0] == "ok" and t[0] == "raise" and type(t[1]) is TypeError and _object_result(r[1]):
        # cuarray has no object dtype (docs/coverage.md): where NumPy's answer is an object array
        # (full(3, 2**64), kaiser(1, 2**64)), cuarray's is the TypeError that says so
        return None
    if r[0] == "raise" and t[0] == "raise":
        # a subclass of NumPy's class agrees: every handler of NumPy's catches it (AxisError where
        # NumPy's split fails on `shape[axis]` with a bare IndexError)
        if type(r[1]).__name__ != type(t[1]).__name__ and not isinstance(t[1], type(r[1])):
            return "exception: expected {}({}) got {}({})".format(type(r[1]).__name__, _msg(r[1]),
                                                                  type(t[1]).__name__, _msg(t[1]))
        return None
    if r[0] == "raise":
        return "expected {}({}), got a result".format(type(r[1]).__name__, _msg(r[1]))
    if t[0] == "raise":
        return "expected a result, got {}({})".format(type(t[1]).__name__, _msg(t[1]))
    if test.values and len(r) > 2 and r[2] and row.check is None:
        return compare_values(r[1], t[1], _Shapes(row))
    if test.values and row.check is not None:
        return row.check(r[1], t[1], row, host)
    if test.values:
        return compare_values(r[1], t[1], row)
    return compare_values(r[1], t[1], _Shapes(row))


def _object_result(x) -> bool:
    parts = x if isinstance(x, tuple) else (x,)
    return any(isinstance(p, np.ndarray) and p.dtype == object for p in parts)


def _host_value(spec):
    """What a check sees of one argument: host arrays, list arguments as lists of them (multi_dot's,
    concatenate's: None before, so a check saw no inf in them), other values as drawn."""
    if isinstance(spec, ArraySpec):
        return spec.host()
    if isinstance(spec, Seq):
        return [_host_value(s) for s in spec.items]
    if isinstance(spec, XpFn):  # (which function: a check may depend on it)
        return spec
    return getattr(spec, "value", None)


class _Shapes:
    """A row seen by the host-only path: structure, dtypes and shapes, no values."""

    def __init__(self, row):
        self.row, self.values, self.rtol = row, False, row.rtol


def _msg(exc):
    s = str(exc).splitlines()[0] if str(exc) else ""
    return s[:160]


# A case whose device allocation of this many bytes or more fails is not compared: the GPU is
# shared (14 fuzz processes on one 80 GB H100, each pool keeping its blocks), where NumPy had the
# host's memory. Seed 268: histogramdd of 7 columns into 16 bins counts 18**7 int64 bins (4.9 GB),
# as NumPy's own bincount does. A smaller request that fails is still a mismatch.
LARGE_ALLOCATION = 1 << 30


def _large_device_allocation_failed(exc) -> bool:
    return type(exc).__name__ == "OutOfMemoryError" and getattr(exc, "size", 0) >= LARGE_ALLOCATION


def reproducer(row, args, kwargs, seed, index) -> str:
    """A self-contained script running the case under NumPy and cuarray."""
    parts = [s.code("xp") for s in row.arrange(args)]
    a = ", ".join(parts)
    kw = ", ".join("{}={}".format(k, s.code("xp")) for k, s in kwargs.items())
    call = row.code(a + (", " if a and kw else "") + kw, parts + ["{}={}".format(k, s.code("xp")) for k, s in kwargs.items()])
    return "\n".join([
        "# fuzz case {!r} seed={} index={} (keep found bugs in tests/fuzz/fuzz_regressions.py)".format(
            row.key, seed, index),
        "import numpy, cuarray",
        "for xp in (numpy, cuarray):",
        "    try:",
        "        r = {}".format(call),
        "        r = r.get() if hasattr(r, 'get') else r",
        "        print(xp.__name__, getattr(r, 'dtype', type(r)), getattr(r, 'shape', ''), r)",
        "    except Exception as e:",
        "        print(xp.__name__, type(e).__name__, e)",
    ])


# -- the loop -----------------------------------------------------------------------------------

def chunk_cases(calls: int, chunks: int, k: int) -> tuple:
    """(first case, number of cases) of chunk `k` of `chunks` over cases 0 .. calls - 1: consecutive
    ranges, together each case once (the GPU run's xdist chunks)."""
    per = -(-calls // chunks)
    return k * per, max(0, min(per, calls - k * per))


def fuzz(rows, seed, ref: Side, test: Side, *, calls=None, seconds=None, reached_device=(), start=0):
    """Cases `start`, `start + 1`, ... of `seed`, rows in turn, until `calls` cases or `seconds`.
    Returns the Stats (fuzz_report): the mismatches, the listed differences, the counts."""
    import time

    st = Stats()
    t0 = time.perf_counter()
    i = start
    while True:
        if calls is not None and st.calls >= calls:
            break
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        row = rows[i % len(rows)]
        st.add(run_case(row, seed, i // len(rows), ref, test, reached_device=reached_device, record=st.record))
        i += 1
    st.seconds = time.perf_counter() - t0
    return st
