"""scipy.signal's `upfirdn` and `resample_poly` on the GPU (templates/upfirdn.cuh: one output
sample per thread, only the polyphase taps that meet a sample).

Every SciPy extension mode (`upfirdn`'s `mode` and `cval`, `resample_poly`'s `padtype`) is
computed inside the kernel (upfirdn.cuh's `ext_at`: no padded copy). Differences from SciPy: modes
'smooth', 'reflect', 'antireflect' and 'line' of a one-sample signal raise ValueError (SciPy reads
past the signal or divides by zero). Complex filters run as two real ones (complex signals as two
real passes). The default
window of `resample_poly` is designed by `scipy.signal.firwin` on the host (SciPy needed)."""

from __future__ import annotations

import math
import operator
import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from ..._statistics.median import median as _median
from ..ndimage import _support as _s
from . import _args
from . import _lfilter

__all__ = ["upfirdn", "resample_poly", "decimate", "source", "kernel_name", "output_len"]

_DIR = pathlib.Path(__file__).parent / "templates"
_BLOCK = 256


def source() -> str:
    return ("#define CUARRAY_DEVICE __device__\n" + (_DIR / "upfirdn.cuh").read_text()
            + (_DIR / "upfirdn.cu").read_text())


UPFIRDN = KernelFamily("cuarray_signal_upfirdn", source, namespace="cuarray_signal", kernels=(
    "upfirdn<T, O>(const O* h, long long nh, const T* x, long long n, O* y, long long nout, long long inner, "
    "long long total, long long up, long long down, int mode, O cval)",
))
# SciPy's extension modes, in its enum's order (upfirdn.cuh's ext_at numbers them so)
MODES = ("constant", "symmetric", "edge", "smooth", "wrap", "reflect", "antisymmetric", "antireflect", "line")
_TWO_SAMPLE_MODES = ("smooth", "reflect", "antireflect", "line")


def kernel_name(in_dt, out_dt) -> str:
    return "cuarray_signal::upfirdn<{}, {}>".format(_dtypes.ctype(in_dt), _dtypes.ctype(out_dt))


def output_len(len_h, in_len, up, down) -> int:
    return (((in_len - 1) * up + len_h) - 1) // down + 1


def _run(h: numpy.ndarray, x, out_dt, up, down, axis, mode=0, cval=0.0):
    """The real upfirdn of x (any layout) along axis, into a fresh array of out_dt; mode: the index
    in MODES, cval: the real constant of mode 0."""
    n = x.shape[axis]
    nout = output_len(len(h), n, up, down)
    shape = x.shape[:axis] + (nout,) + x.shape[axis + 1:]
    y = ndarray(shape, out_dt)
    if y.size == 0:
        return y
    x = astype(x, x.dtype, order="C", copy=False)
    inner = 1
    for s in x.shape[axis + 1:]:
        inner *= s
    k = UPFIRDN.kernel(kernel_name(x.dtype, out_dt))
    d_h = _from_host(numpy.ascontiguousarray(h, out_dt))
    k.launch(_launch.grid_one_pass(y.size, _BLOCK), _BLOCK, d_h.data.ptr, len(h), x.data.ptr, n, y.data.ptr, nout,
             inner, y.size, up, down, mode, cval)
    return y


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """See `scipy.signal.upfirdn`. Modes 'smooth', 'reflect', 'antireflect' and 'line' need two
    samples along the axis (ValueError; SciPy's results are undefined there).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.upfirdn(cuarray.array([1., 1., 1.]), cuarray.array([1., 2., 3.]), up=2)
    array([1., 1., 3., 2., 5., 3., 3.])
    """
    h = numpy.asarray(_args.host_param(h))
    x = _args.data(x, "upfirdn")
    if h.ndim != 1 or h.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    mode = str(mode).lower()
    if mode not in MODES:
        raise ValueError("Unknown mode: {}".format(mode))
    axis = _s.normalize_axis(axis, x.ndim)
    if mode in _TWO_SAMPLE_MODES and x.shape[axis] < 2:
        # (SciPy reads past the signal or divides by zero there)
        raise ValueError("mode {!r} needs at least 2 samples along the axis".format(mode))
    out_dt = numpy.result_type(h.dtype, x.dtype, numpy.float32)
    if out_dt.kind != "c" and numpy.iscomplexobj(cval):
        raise TypeError("must be real number, not complex")  # (SciPy's cast of cval to the output type)
    cval = complex(cval)
    if h.dtype.kind == "c":  # complex taps: real and imaginary taps as two filters (linear in h)
        if mode == "constant" and cval.imag and x.dtype.kind != "c":
            x = x.astype(out_dt)  # the extension is complex
        cval = (cval if cval.imag else cval.real) if mode == "constant" else 0.0
        yr = upfirdn(numpy.ascontiguousarray(h.real), x, up, down, axis, mode, cval)
        if not h.imag.any():
            return yr.astype(out_dt, copy=False)
        yi = upfirdn(numpy.ascontiguousarray(h.imag), x, up, down, axis, mode, cval)
        return (yr + 1j * yi).astype(out_dt, copy=False)
    m = MODES.index(mode)
    if out_dt.kind == "c":  # every extension is real-linear in x (the constant: cval's parts)
        rdt = numpy.dtype(out_dt.char.lower())
        re = _run(h, x.real, rdt, up, down, axis, m, cval.real)
        im = _run(h, x.imag if x.dtype.kind == "c" else x * 0, rdt, up, down, axis, m, cval.imag)
        y = ndarray(re.shape, out_dt)
        y.real[...] = re
        y.imag[...] = im
        return y
    return _run(h, x, out_dt, up, down, axis, m, cval.real)


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant", cval=None):
    """See `scipy.signal.resample_poly`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.resample_poly(cuarray.array([1., 2., 5., 3.]), 2, 1)
    array([1.00051747, 1.2226298 , 2.00103494, 3.62636326, 5.00258735,
           4.77406131, 3.00155241, 1.04337288])
    """
    x = _args.data(x, "resample_poly")
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, list) or hasattr(window, "shape"):
        h = numpy.array(_args.host_param(window), copy=True)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:
        from scipy.signal import firwin  # host-side filter design (optional dependency)

        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = firwin(2 * half_len + 1, 1.0 / max_rate, window=window)
        if x.dtype.kind in "fc":
            h = h.astype(x.dtype)
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while output_len(h.shape[0] + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = numpy.concatenate((numpy.zeros(n_pre_pad, dtype=h.dtype), h, numpy.zeros(n_post_pad, dtype=h.dtype)))
    background = None
    kwargs = {"mode": "constant", "cval": 0}
    if padtype in ("mean", "minimum", "maximum", "median"):
        if padtype == "median":
            background = _median(x, axis=axis, keepdims=True)
        else:
            background = getattr(x, {"mean": "mean", "minimum": "min", "maximum": "max"}[padtype])(axis=axis,
                                                                                                 keepdims=True)
        x = x - background
    elif padtype in MODES:
        kwargs = {"mode": padtype, "cval": (0 if cval is None else cval) if padtype == "constant" else 0}
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, " + ", ".join(MODES))
    y = upfirdn(h, x, up, down, axis=axis, **kwargs)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(keep)]
    if background is not None:
        y = y + background
    return y


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """See `scipy.signal.decimate` (ftype 'iir' or 'fir'; the filter is designed by SciPy on the
    host: `cheby1`/`firwin`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> signal.decimate(x, 2, ftype='fir')
    array([0.84769269, 4.01464711, 1.91153705, 3.97758391])
    """
    from scipy.signal import cheby1, firwin  # host-side filter design (optional dependency)

    x = _args.data(x, "decimate")
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    result_type = x.dtype if x.dtype.kind in "fc" and x.dtype.char != "e" else numpy.dtype(numpy.float64)
    sl = [slice(None)] * x.ndim
    if ftype == "fir":
        if n is None:
            n = 2 * (10 * q)
        b = numpy.asarray(firwin(n + 1, 1.0 / q, window="hamming"), dtype=result_type)
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=b)
        else:
            axis_n = x.shape[axis]
            y = upfirdn(b, x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, axis_n // q + bool(axis_n % q), None)
    elif ftype == "iir":
        sos = numpy.asarray(cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos"), dtype=result_type)
        y = _lfilter.sosfiltfilt(sos, x, axis=axis) if zero_phase else _lfilter.sosfilt(sos, x, axis=axis)
        sl[axis] = slice(None, None, q)
    else:
        raise ValueError("invalid ftype")  # SciPy's dlti systems are not taken here
    return y[tuple(sl)]
