"""scipy.signal's convolution on the GPU: `fftconvolve` (cuarray.fft), `convolve`/`correlate`
(direct or FFT), `choose_conv_method`, `convolve2d`/`correlate2d` (every boundary),
`correlation_lags`. The direct path is ndimage's any-footprint kernel (templates/filters.cu's
`filternd`) run over the zero- (or boundary-) padded input: one output point per thread.

Differences from SciPy: a direct correlation of complex operands runs as four real ones;
`choose_conv_method` decides from the operand sizes (a cost model, not SciPy's timing table).
"""

from __future__ import annotations

import math
import time

import numpy

from ..._core.ndarray import ndarray
from ..._core.ndarray import ndarray as _device_array  # (the host tests stand in for `ndarray`)
from ..._creation.ranges import arange as _arange
from ..._math import fft_convolve as _fc
from ..._padding.padding import pad as _pad
import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ...cuda import stream as _stream
from ..ndimage import _filter_kernels as _fk
from ..ndimage import _support as _s
from . import _args

__all__ = ["fftconvolve", "convolve", "correlate", "choose_conv_method", "convolve2d", "correlate2d",
           "correlation_lags"]

_MODES = ("full", "same", "valid")


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")


def _inputs_swap_needed(mode, shape1, shape2, axes=None):
    if mode != "valid" or not shape1:
        return False
    axes = range(len(shape1)) if axes is None else axes
    ok1 = all(shape1[i] >= shape2[i] for i in axes)
    ok2 = all(shape2[i] >= shape1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not ok1


def _centered(arr, newshape):
    start = [(c - n) // 2 for c, n in zip(arr.shape, newshape)]
    return arr[tuple(slice(s, s + n) for s, n in zip(start, newshape))]


def _next_fast_len(n: int, real: bool) -> int:
    """The smallest 2^a 3^b 5^c 7^d >= n (what cuFFT does fastest; SciPy's next_fast_len uses
    the same primes for complex and 2,3,5 for real, so the lengths can differ, not the results)."""
    if n <= 6:
        return max(n, 1)
    best = 1 << (n - 1).bit_length()
    primes = (3, 5) if real else (3, 5, 7)
    cands = [1]
    for p in primes:
        cands = [c * p ** k for c in cands for k in range(int(math.log(best, p)) + 1) if c * p ** k < best * 2]
    for c in cands:
        q = c
        while q < n:
            q *= 2
        best = min(best, q)
    return best


def _is_complex(x):
    return x.dtype.kind == "c"


def fftconvolve(in1, in2, mode="full", axes=None):
    """See `scipy.signal.fftconvolve`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.fftconvolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))
    array([1. , 3. , 5.5, 4. , 1.5])
    """
    in1 = _args.data(in1, "fftconvolve")
    in2 = _args.data(in2, "fftconvolve")
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if in1.size == 0 or in2.size == 0:
        return ndarray((0,), numpy.dtype(numpy.float64))  # SciPy's xp.asarray([])
    _check_mode(mode)
    s1, s2 = in1.shape, in2.shape
    if axes is None:
        axes = list(range(in1.ndim))
    else:
        axes = [a for a in (numpy.atleast_1d(numpy.asarray(axes)).tolist())]
        if not axes:
            raise ValueError("when provided, axes cannot be empty")
        axes = [_s.normalize_axis(a, in1.ndim) for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    axes = [a for a in axes if s1[a] != 1 and s2[a] != 1]
    if not all(s1[a] == s2[a] or s1[a] == 1 or s2[a] == 1 for a in range(in1.ndim) if a not in axes):
        raise ValueError("incompatible shapes for in1 and in2: {} and {}".format(s1, s2))
    if _inputs_swap_needed(mode, s1, s2, axes=axes):
        in1, in2 = in2, in1
        s1, s2 = s2, s1
    shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1 for i in range(in1.ndim)]
    if in1.ndim == 1 and axes and shape[0] >= _FUSED_MIN and isinstance(in1, _device_array):
        return _fftconvolve_1d(in1, in2, mode)
    if not axes:
        ret = in1 * in2
    else:
        cplx = _is_complex(in1) or _is_complex(in2)
        fshape = [_next_fast_len(shape[a], not cplx) for a in axes]
        if in1.dtype.kind in "iub":
            in1 = in1.astype(numpy.float64)
        if in2.dtype.kind in "iub":
            in2 = in2.astype(numpy.float64)
        if cplx:
            ret = _fft.ifftn(_fft.fftn(in1, fshape, axes=axes) * _fft.fftn(in2, fshape, axes=axes), fshape, axes=axes)
        else:
            ret = _fft.irfftn(_fft.rfftn(in1, fshape, axes=axes) * _fft.rfftn(in2, fshape, axes=axes), fshape,
                              axes=axes)
        ret = ret[tuple(slice(sz) for sz in shape)]
    if mode == "full":
        return ret.copy()
    if mode == "same":
        return _centered(ret, s1).copy()
    valid = [ret.shape[a] if a not in axes else s1[a] - s2[a] + 1 for a in range(ret.ndim)]
    return _centered(ret, valid).copy()


# Full lengths from which a 1-D fftconvolve takes `fft_convolve.convolve_full` (one batched forward
# transform, a fused product, an unprotected C2R; shorter ones: the general path's few microseconds).
_FUSED_MIN = 64
_FUSED_DTYPES = tuple(numpy.dtype(c) for c in "fdFD")


def _fftconvolve_1d(in1, in2, mode):
    """1-D fftconvolve: the full convolution as one fresh buffer, the mode's part a view of it
    (SciPy copies the slice; this one is contiguous already)."""
    dt = numpy.result_type(in1.dtype if in1.dtype.kind not in "iub" else numpy.float64,
                           in2.dtype if in2.dtype.kind not in "iub" else numpy.float64)
    if dt not in _FUSED_DTYPES:
        dt = numpy.result_type(dt, numpy.float32)
    a, b = in1.astype(dt, copy=False), in2.astype(dt, copy=False)
    n1, n2 = a.shape[0], b.shape[0]
    n = n1 + n2 - 1
    if _fc.use_blocks(max(n1, n2), min(n1, n2), dt.kind == "f", dt):
        length = n if mode == "full" else (n1 if mode == "same" else n1 - n2 + 1)
        long_, short = (a, b) if n1 >= n2 else (b, a)  # (convolution commutes)
        return _fc.convolve_blocks(long_, short, (n - length) // 2, length)  # (SciPy's _centered start)
    full = _fc.convolve_full(a, b)
    if mode == "full":
        return full
    if mode == "same":
        return _centered(full, in1.shape)
    return _centered(full, (n1 - n2 + 1,))


def choose_conv_method(in1, in2, mode="full", measure=False):
    """See `scipy.signal.choose_conv_method`. 'direct' for integer operands (exact), else by a
    cost model: direct costs ~ outputs x kernel elements, FFT ~ a few passes of n log n over the
    padded size. `measure=True` times both on the device and returns (method, times).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.choose_conv_method(cuarray.array([1, 2, 3]), cuarray.array([1, 1]))
    'direct'
    """
    volume = _args.data(in1, "choose_conv_method")
    kernel = _args.data(in2, "choose_conv_method")
    if measure:
        times = {}
        for method in ("fft", "direct"):
            _stream.get_current_stream().synchronize()
            t0 = time.perf_counter()
            convolve(volume, kernel, mode=mode, method=method)
            _stream.get_current_stream().synchronize()
            times[method] = time.perf_counter() - t0
        return min(times, key=times.get), times
    if volume.ndim != kernel.ndim or volume.ndim == 0:  # (convolve refuses these; SciPy answers)
        if volume.ndim == 1 and kernel.ndim == 0 and "b" not in (volume.dtype.kind, kernel.dtype.kind):
            raise IndexError("tuple index out of range")  # (SciPy's 1-D cost model reads the kernel's length)
        return "direct"
    if volume.dtype.kind in "iub" and kernel.dtype.kind in "iub":
        return "direct"
    full = [a + b - 1 for a, b in zip(volume.shape, kernel.shape)]
    n_full = math.prod(full) if full else 1
    out = n_full if mode == "full" else (volume.size if mode == "same" else max(
        math.prod(abs(a - b) + 1 for a, b in zip(volume.shape, kernel.shape)), 1))
    direct = float(out) * min(volume.size, kernel.size)
    fft = 40.0 * n_full * max(math.log2(max(n_full, 2)), 1.0)
    return "direct" if direct <= fft else "fft"


def _reverse_and_conj(x):
    r = x[(slice(None, None, -1),) * x.ndim]
    return r.conj() if _is_complex(r) else r


def _correlate_direct_real(p, w, out_dt, start, shape):
    """The part (`start`, `shape`) of the valid correlation of the (padded) real array p with the
    real host kernel w: out[k] = sum_j p[start + k + j] * w[j]. A fresh C-contiguous array, as
    SciPy's (the kernel's output has p's shape: a part smaller than it is copied out)."""
    fp = numpy.ones(w.shape, bool)
    origins = [-(s // 2) for s in w.shape]  # taps at offsets 0..len-1 from the output point
    res = _fk.filternd(p, out_dt, "correlate", fp, w[fp], origins, 4, 0.0)
    if tuple(shape) == tuple(res.shape):
        return res
    return res[tuple(slice(a, a + n) for a, n in zip(start, shape))].copy()


def _correlate_direct(in1, in2, mode, crop=None):
    """SciPy's direct correlate: in1 zero-padded, the kernel slid over it. `crop`: (start, shape)
    of the part of the 'valid' correlation wanted (mode 'valid' only)."""
    out_dt = numpy.result_type(in1.dtype, in2.dtype)
    if out_dt.kind == "c":  # four real correlations
        w = in2.conj()
        parts = []
        for a in (in1.real, in1.imag if _is_complex(in1) else None):
            for b in (w.real, w.imag if _is_complex(w) else None):
                parts.append(None if a is None or b is None else
                             _correlate_direct(a, b, mode, crop))
        rr, ri, ir, ii = parts
        re = rr if ii is None else rr - ii
        im = (ri if ri is not None else 0) + (ir if ir is not None else 0)
        res = ndarray(re.shape, out_dt)
        res.real[...] = re
        res.imag[...] = im
        return res
    w = _args.host_param(in2).astype(numpy.float64)
    if out_dt.char == "e":  # 1-D float16 (NumPy's convolve): sums in float32, rounded once to float16
        return _correlate_direct(in1.astype(numpy.float32), w.astype(numpy.float32), mode, crop).astype(out_dt)
    if mode == "valid":
        shape = [a - b + 1 for a, b in zip(in1.shape, in2.shape)]
        start, shape = crop if crop is not None else ([0] * in1.ndim, shape)
        return _correlate_direct_real(in1, w, out_dt, start, shape)
    p = _pad(in1, [(b - 1, b - 1) for b in in2.shape])
    full = [a + b - 1 for a, b in zip(in1.shape, in2.shape)]
    if mode == "full":
        return _correlate_direct_real(p, w, out_dt, [0] * in1.ndim, full)
    return _correlate_direct_real(p, w, out_dt, [(f - a) // 2 for f, a in zip(full, in1.shape)], in1.shape)


def correlate(in1, in2, mode="full", method="auto"):
    """See `scipy.signal.correlate`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.correlate(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))
    array([0.5, 2. , 4.5, 5. , 3. ])
    """
    in1 = _args.data(in1, "correlate")
    in2 = _args.data(in2, "correlate")
    if in1.ndim == in2.ndim == 0:
        return in1 * (in2.conj() if _is_complex(in2) else in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    if method in ("fft", "auto"):
        return convolve(in1, _reverse_and_conj(in2), mode, method)
    if method != "direct":
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    dt = numpy.result_type(in1.dtype, in2.dtype)
    numpy_path = in1.ndim == 1 and (mode != "same" or in1.size >= in2.size)  # SciPy's np.correlate cases
    if not numpy_path and (dt.kind == "b" or dt.char == "e"):  # (its N-D C core: no bool or float16 loop)
        raise ValueError("Unsupported type")
    swapped = (mode == "full" and in2.size > in1.size) or _inputs_swap_needed(mode, in1.shape, in2.shape)
    if swapped:
        in1, in2 = in2, in1
    z = _correlate_direct(in1, in2, mode)
    return _reverse_and_conj(z) if swapped else z


def convolve(in1, in2, mode="full", method="auto"):
    """See `scipy.signal.convolve`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.convolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))
    array([1. , 3. , 5.5, 4. , 1.5])
    """
    volume = _args.data(in1, "convolve")
    kernel = _args.data(in2, "convolve")
    if volume.ndim == kernel.ndim == 0:
        return volume * kernel
    if volume.ndim != kernel.ndim:
        raise ValueError("volume and kernel should have the same dimensionality")
    _check_mode(mode)
    if _inputs_swap_needed(mode, volume.shape, kernel.shape):
        volume, kernel = kernel, volume
    if method == "auto":
        method = choose_conv_method(volume, kernel, mode=mode)
    if method == "fft":
        out = fftconvolve(volume, kernel, mode=mode)
        rt = numpy.result_type(volume.dtype, kernel.dtype)
        if rt.kind in "iub":
            out = out.round()
        return out.astype(rt)
    if method == "direct":
        return correlate(volume, _reverse_and_conj(kernel), mode, "direct")
    raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


_BOUNDARY = {"fill": "constant", "pad": "constant", "circular": "wrap", "wrap": "wrap", "symmetric": "symmetric",
             "symm": "symmetric"}


_CAST_FILL = "could not cast `fillvalue` directly to the output type (it was first converted to complex)."


def _fill_value(fillvalue, dt):
    """SciPy's `fillvalue` for an output of dtype `dt`, as a Python scalar: an array (a cuarray or
    NumPy array, 0-d or of one element) must cast safely to `dt`; a scalar is converted by value
    (a complex one only for a complex output, a finite one in range for an integer output)."""
    if _s.is_array(fillvalue) or isinstance(fillvalue, numpy.ndarray):
        v = _args.host_param(fillvalue)
        if not numpy.can_cast(v.dtype, dt, "safe"):
            raise ValueError(_CAST_FILL)
        if v.size != 1:
            raise ValueError("`fillvalue` cannot be an empty array." if v.size == 0 else
                             "`fillvalue` must be scalar or an array with one element.")
        return v.reshape(()).astype(dt).item()
    c = complex(numpy.nan if fillvalue is None else fillvalue)
    if dt.kind == "c":
        return c
    if isinstance(fillvalue, (complex, numpy.complexfloating)):
        raise ValueError(_CAST_FILL)
    if dt.kind == "f":
        return c.real
    if not math.isfinite(c.real):
        raise ValueError(_CAST_FILL)
    v = int(c.real)
    info = numpy.iinfo(dt) if dt.kind in "iu" else None
    if info is not None and not info.min <= v <= info.max:
        raise ValueError(_CAST_FILL)
    return v


def _conv2d(in1, in2, mode, boundary, fillvalue, what, flip):
    in1 = _args.data(in1, what)
    in2 = _args.data(in2, what)
    if not in1.ndim == in2.ndim == 2:
        raise ValueError("{} inputs must both be 2-D arrays".format(what))
    _check_mode(mode)
    if boundary not in _BOUNDARY:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' "
                         "(or 'symm').")
    swapped = _inputs_swap_needed(mode, in1.shape, in2.shape)
    if swapped:
        in1, in2 = in2, in1
    # _correlate_direct slides the conjugate of its kernel (SciPy's correlate): the flipped kernel
    # conjugated for a convolution, the kernel itself for correlate2d (SciPy's in2.conj())
    w = _reverse_and_conj(in2) if flip else in2
    pad_mode = _BOUNDARY[boundary]
    widths = [(b - 1, b - 1) for b in in2.shape]
    out_dt = numpy.result_type(in1.dtype, in2.dtype)
    if out_dt.kind == "b" or out_dt.char == "e":  # (SciPy's C core has no bool or float16 loop)
        raise ValueError("convolve2d not available for this type.")
    fill = _fill_value(fillvalue, out_dt) if pad_mode == "constant" else None  # (checked in every mode, as SciPy)
    if mode == "valid":
        p = in1
    elif pad_mode == "constant":
        # padded in the output's type: SciPy's fill value is converted to it, not to in1's
        p = _pad(in1.astype(out_dt, copy=False), widths, mode="constant", constant_values=fill)
    else:
        p = _pad(in1, widths, mode=pad_mode)
    crop = None
    if mode == "same":
        crop = ([((b - 1) // 2 if flip else b - 1 - (b - 1) // 2) for b in in2.shape], in1.shape)
    full = _correlate_direct(p, w, "valid", crop)
    if swapped and not flip:
        full = full[::-1, ::-1]  # (SciPy's view: not C-contiguous either)
    return full


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """See `scipy.signal.convolve2d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.convolve2d(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[1, 1], [1, 1]]))
    array([[ 1,  3,  2],
           [ 4, 10,  6],
           [ 3,  7,  4]])
    """
    return _conv2d(in1, in2, mode, boundary, fillvalue, "convolve2d", True)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """See `scipy.signal.correlate2d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.correlate2d(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[1, 0], [0, 2]]))
    array([[2, 4, 0],
           [6, 9, 2],
           [0, 3, 4]])
    """
    return _conv2d(in1, in2, mode, boundary, fillvalue, "correlate2d", False)


def correlation_lags(in1_len, in2_len, mode="full"):
    """See `scipy.signal.correlation_lags`. A cuarray array (int64), as cupyx returns (SciPy's is a
    NumPy array): the lags index a correlation computed on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.correlation_lags(3, 3)
    array([-2, -1,  0,  1,  2])
    """
    if mode == "full":
        return _arange(-in2_len + 1, in1_len, dtype=numpy.int64)
    if mode == "same":
        lo = -in2_len + 1
        mid, bound = (in1_len + in2_len - 1) // 2, in1_len // 2
        stop = mid + bound + (in1_len % 2)
        return _arange(lo + mid - bound, lo + stop, dtype=numpy.int64)
    if mode == "valid":
        bound = in1_len - in2_len
        return _arange(bound + 1, dtype=numpy.int64) if bound >= 0 else _arange(bound, 1, dtype=numpy.int64)
    raise ValueError("Mode {} is invalid".format(mode))
