"""The elementwise and reduction kernels of the fused spectral path (`_spectral_fused`), as the
engine's definitions: the frames of a strided signal, the power |X|^2 with SciPy's scale, the mean
power over the segments, the segment times, and a device window's sum and scaled copy. Each is a
row of parameters and C expressions; the engine writes, caches and launches the kernels."""

from __future__ import annotations

import numpy

from ..._core import dtypes as _dtypes
from ..._core import shapes as _shapes
from ..._core.copying import copy as _copy
from ..._core.elementwise import Definition, KernelParam
from ..._core.ndarray import _new_c
from ..._core.reduction import ReductionDef
from ..._core.reduction_ops import normalize_axes
from ...cuda import caches as _caches

__all__ = ["frames_strided", "power", "mean_power_reduce", "segment_times_into", "window_sum", "window_scale",
           "elementwise_definition", "reduction_definition", "ELEMENTWISE", "REDUCTIONS"]

_F8, _I4, _I8 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)

# y[r, j] of the frames (r = b * nseg + s, the flat segment of batch row b): the detrended,
# windowed segment, zero past nperseg (SciPy's detrend, then `win * seg`, in the signal's dtype).
# Sample t = s nstep + j - pre of the signal (zero outside its len samples: stft's zero boundary
# and padding, never stored).
_FRAME_OP = ("const long long j_ = (long long)i % nfft, r_ = (long long)i / nfft; "
             "if (j_ < nper) { const long long b_ = r_ / nseg, s_ = r_ - b_ * nseg, t_ = s_ * nstep + j_ - pre; "
             "T v_ = t_ >= 0 && t_ < len ? x[b_ * len + t_] : T(0); if (detrend) v_ = v_ - m[r_]; "
             "y = v_ * w[j_]; } else { y = T(0); }")
# SciPy's conj(X) * X * scale, doubled inside a one-sided spectrum (frequencies 1 .. hi - 1).
_POWER_OP = ("const long long f_ = (long long)i % nf; "
             "const R p_ = (R)X.real() * (R)X.real() + (R)X.imag() * (R)X.imag(); "
             "y = p_ * ((f_ >= 1 && f_ < hi) ? (R)(2.0 * s) : (R)s)")
# SciPy's segment times: arange(start, stop, step) / fs, less `off` with a boundary (the arange
# values are exact: halves of integers; each operation rounds as NumPy's does).
_TIMES_OP = "y = (start + (double)i * step) / fs; if (shift) y = y - off"
# w sqrt(scale): 1 / (fs S) for 'density' (S the sum of squares), 1 / S^2 for 'spectrum' (S the sum)
_SCALE_OP = "const double s_ = sq ? 1.0 / (fs * S[0]) : 1.0 / (S[0] * S[0]); y = (R)((double)w * sqrt(s_))"

# Elementwise rows: name -> (parameters as (kind, type, name): kind 'in', 'raw' or 'scalar', type a
# placeholder (C, R, T) or a dtype name; the output's (type, name); operation; kernel name).
_I64 = "int64"
ELEMENTWISE = {
    "frames": ((("raw", "T", "x"), ("raw", "T", "m"), ("raw", "T", "w"), ("scalar", _I64, "len"),
                ("scalar", _I64, "nstep"), ("scalar", _I64, "nper"), ("scalar", _I64, "nfft"),
                ("scalar", _I64, "nseg"), ("scalar", "int32", "detrend"), ("scalar", _I64, "pre")),
               ("T", "y"), _FRAME_OP, "cuarray_signal_frames"),
    "power": ((("in", "C", "X"), ("scalar", "float64", "s"), ("scalar", _I64, "nf"), ("scalar", _I64, "hi")),
              ("R", "y"), _POWER_OP, "cuarray_signal_power"),
    "times": ((("scalar", "float64", "start"), ("scalar", "float64", "step"), ("scalar", "float64", "fs"),
               ("scalar", "float64", "off"), ("scalar", "int32", "shift")),
              ("float64", "y"), _TIMES_OP, "cuarray_signal_segment_times"),
    "window_scale": ((("in", "T", "w"), ("raw", "float64", "S"), ("scalar", "float64", "fs"),
                      ("scalar", "int32", "sq")), ("R", "y"), _SCALE_OP, "cuarray_signal_window_scale"),
}
# Reductions (accumulated in double): name -> (inputs as (type, name), output type, map, post map, name).
REDUCTIONS = {
    # |X|^2 accumulated in double (SciPy rounds each term to the signal's precision first)
    "mean_power": ((("C", "X"), ("R", "c"), ("float64", "inv")), "R",
                   "((double)X.real() * (double)X.real() + (double)X.imag() * (double)X.imag()) * (double)c",
                   "y = (R)(a * inv)", "cuarray_signal_mean_power"),
    "window_sum": ((("T", "w"), ("int32", "sq")), "float64", "sq ? (double)w * (double)w : (double)w", "y = a",
                   "cuarray_signal_window_sum"),
}
_defs: dict = {}
_caches.register("fused spectral definitions", _defs)


def _dtype(tname, bound):
    return bound[tname] if tname in bound else numpy.dtype(tname)


def _preamble(bound) -> str:
    return "".join("typedef {} {};\n".format(_dtypes.ctype(dt), tv) for tv, dt in sorted(bound.items()))


def _types(params) -> str:
    return "_".join(p.compute.name for p in params)


def elementwise_definition(name, bound) -> Definition:
    """Row `name` of `ELEMENTWISE`, its placeholders bound to dtypes by `bound` ({"T": ...})."""
    key = ("elementwise", name, tuple(sorted(bound.items())))
    d = _defs.get(key)
    if d is None:
        ins, (otype, oname), op, kname = ELEMENTWISE[name]
        params = [KernelParam(n, kind, _dtype(t, bound), _dtype(t, bound)) for kind, t, n in ins]
        odt = _dtype(otype, bound)
        params.append(KernelParam(oname, "out", odt, odt, by_ref=True))
        d = _defs[key] = Definition("{}_{}".format(kname, _types(params)), params, op, preamble=_preamble(bound))
    return d


def reduction_definition(name, bound) -> ReductionDef:
    """Reduction `name` of `REDUCTIONS` (into double), its placeholders bound by `bound`."""
    key = ("reduction", name, tuple(sorted(bound.items())))
    d = _defs.get(key)
    if d is None:
        ins, otype, mapped, post, kname = REDUCTIONS[name]
        params = [KernelParam(n, "in" if t in bound else "scalar", _dtype(t, bound), _dtype(t, bound)) for t, n in ins]
        odt = _dtype(otype, bound)
        d = _defs[key] = ReductionDef("{}_{}".format(kname, _types(params)), params, KernelParam("y", "out", odt, odt),
                                      "double", 8, "_acc_t({})".format(mapped), "a + b", "_acc_t(0)", post,
                                      preamble=_preamble(bound))
    return d


def _c(a):
    """`a` as a C-contiguous buffer (a raw parameter is read by flat index)."""
    return a if a.flags.c_contiguous else _copy(a)


def frames_strided(x, m, w, n, nstep, nperseg, nfft, nseg, detrend, pre, out) -> None:
    """The frames of a signal of any strides into the C-contiguous `out` (`m`: the segment means)."""
    d = elementwise_definition("frames", {"T": x.dtype})
    scalars = (numpy.int64(n), numpy.int64(nstep), numpy.int64(nperseg), numpy.int64(nfft), numpy.int64(nseg),
               numpy.int32(detrend), numpy.int64(pre))
    d.run([out], scalars, out.shape, raw=(_c(x), _c(m), _c(w)))


def power(spec, scale, nf, hi, out) -> None:
    """`out` = |spec|^2 times `scale`, doubled for frequencies 1 .. hi - 1 (of `nf`)."""
    d = elementwise_definition("power", {"C": spec.dtype, "R": out.dtype})
    shape = _shapes.broadcast_shapes(spec.shape, out.shape)
    d.run([spec, out], (numpy.float64(scale), numpy.int64(nf), numpy.int64(hi)), shape)


def mean_power_reduce(spec, c, inv):
    """sum over the segments (axis -2) of |spec|^2 c, times `inv`, in c's dtype: a new array."""
    d = reduction_definition("mean_power", {"C": spec.dtype, "R": c.dtype})
    shape = _shapes.broadcast_shapes(spec.shape, c.shape)
    raxes = normalize_axes(-2, len(shape))
    y = _new_c(tuple(k for i, k in enumerate(shape) if i not in raxes), c.dtype)
    d.run(shape, [spec, c], (numpy.float64(inv),), y, raxes)
    return y


def segment_times_into(start, step, fs, off, shift, out) -> None:
    """`out[i]` = (start + i step) / fs, less `off` where `shift`."""
    scalars = (numpy.float64(start), numpy.float64(step), numpy.float64(fs), numpy.float64(off), numpy.int32(shift))
    elementwise_definition("times", {}).run([out], scalars, out.shape)


def window_sum(win, sq):
    """A 0-d float64 array: the sum of `win` (its squares where `sq`), in double."""
    d = reduction_definition("window_sum", {"T": win.dtype})
    y = _new_c((), _F8)
    d.run(win.shape, [win], (numpy.int32(sq),), y, tuple(range(win.ndim)))
    return y


def window_scale(win, s, fs, sq, out) -> None:
    """`out` = win sqrt(scale), the scale from the 0-d sum `s` (1 / (fs s) where `sq`, else 1 / s^2)."""
    d = elementwise_definition("window_scale", {"T": win.dtype, "R": out.dtype})
    shape = _shapes.broadcast_shapes(win.shape, out.shape)
    d.run([win, out], (numpy.float64(fs), numpy.int32(sq)), shape, raw=(_c(s),))
