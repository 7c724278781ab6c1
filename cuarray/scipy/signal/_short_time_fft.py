"""scipy.signal's `ShortTimeFFT` on the GPU. The window's bookkeeping (the slice and sample
ranges `p_min`, `k_max(n)`, ..., the dual window, the frequency and time axes, the scalings and
their setters) is host arithmetic on the window alone: a SciPy `ShortTimeFFT` object kept inside
does it, so every one of those answers is SciPy's own (SciPy is needed: the `cuarray[scipy]`
extra). The transforms run on the device: `stft` gathers every slice in one indexing step and makes
one batched FFT (SciPy transforms slice by slice), `istft` one batched inverse FFT and the
overlap-add of `istft` (a few strided adds).

Arrays (`win`, `dual_win`, `f`, `t(n)`, the transforms) are cuarray arrays; scalars and tuples stay
on the host."""

from __future__ import annotations

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..._padding.padding import pad as _pad
from ..ndimage import _support as _s
from . import _args
from . import _filtering
from ._spectral import overlap_add
from ._spectral import zeros_as as _zeros

__all__ = ["ShortTimeFFT", "closest_STFT_dual_window"]

_PAD_KWS = {"zeros": dict(mode="constant", constant_values=(0, 0)), "edge": dict(mode="edge"),
            "even": dict(mode="reflect", reflect_type="even"), "odd": dict(mode="reflect", reflect_type="odd")}


def _host_signal(what):
    """scipy.signal, for the host-side part of `what`: SciPy is optional at run time (the
    `cuarray[scipy]` extra), so an install without it gets an ImportError that says so."""
    try:
        import scipy.signal  # (function level: the optional host-side SciPy)
    except ImportError as e:
        raise ImportError("cuarray.scipy.signal.{}: its window bookkeeping is SciPy's, on the host; "
                          "pip install scipy".format(what)) from e
    return scipy.signal


def _scipy_class():
    return _host_signal("ShortTimeFFT").ShortTimeFFT


def _host(a):
    return None if a is None else _args.host_param(a)


def closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True):
    """See `scipy.signal.closest_STFT_dual_window`: SciPy's on the host (a computation the size of
    the window), the dual window returned as a cuarray array, `alpha` a host scalar.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> dual, alpha = signal.closest_STFT_dual_window(signal.get_window('hann', 4), 2)
    >>> dual.shape
    (4,)
    """
    host_dual = _host_signal("closest_STFT_dual_window").closest_STFT_dual_window
    dual, alpha = host_dual(_host(win), hop, _host(desired_dual), scaled=scaled)
    return _from_host(dual), alpha


class _Host:
    """A ShortTimeFFT attribute that is host bookkeeping: read (and set, where SciPy has a setter)
    on the SciPy object inside, so values, validation and errors are SciPy's."""

    def __set_name__(self, owner, name):
        self.name = name
        self.__doc__ = "See `scipy.signal.ShortTimeFFT.{}`.".format(name)

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj._host, self.name)

    def __set__(self, obj, value):
        setattr(obj._host, self.name, value)


class ShortTimeFFT:
    """See `scipy.signal.ShortTimeFFT`. `win` and `dual_win` may be host or cuarray arrays (they are
    kept on the host as well: the bookkeeping reads them); a callable `detr` of `stft_detrend` and
    `spectrogram` receives all slices at once, shape ``(..., p1 - p0, m_num)``, and must act along
    the last axis (SciPy calls it once per slice).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sft = signal.ShortTimeFFT(signal.get_window('hann', 4), hop=2, fs=1.)
    >>> sft.m_num, sft.hop
    (4, 2)
    >>> sft.stft(cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])).shape
    (3, 5)
    """

    def __init__(self, win, hop, fs, *, fft_mode="onesided", mfft=None, dual_win=None, scale_to=None, phase_shift=0):
        self._host = _scipy_class()(_host(win), hop, fs, fft_mode=fft_mode, mfft=mfft, dual_win=_host(dual_win),
                                    scale_to=scale_to, phase_shift=phase_shift)
        self._device = {}  # name -> (host array it was copied from, device copy)

    @classmethod
    def _wrap(cls, host):
        sft = cls.__new__(cls)
        sft._host, sft._device = host, {}
        return sft

    @classmethod
    def from_dual(cls, dual_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None, phase_shift=0):
        """See `scipy.signal.ShortTimeFFT.from_dual`."""
        return cls._wrap(_scipy_class().from_dual(_host(dual_win), hop, fs, fft_mode=fft_mode, mfft=mfft,
                                                  scale_to=scale_to, phase_shift=phase_shift))

    @classmethod
    def from_window(cls, win_param, fs, nperseg, noverlap, *, symmetric_win=False, fft_mode="onesided", mfft=None,
                    scale_to=None, phase_shift=0):
        """See `scipy.signal.ShortTimeFFT.from_window`."""
        return cls._wrap(_scipy_class().from_window(win_param, fs, nperseg, noverlap, symmetric_win=symmetric_win,
                                                    fft_mode=fft_mode, mfft=mfft, scale_to=scale_to,
                                                    phase_shift=phase_shift))

    @classmethod
    def from_win_equals_dual(cls, desired_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None,
                             phase_shift=0):
        """See `scipy.signal.ShortTimeFFT.from_win_equals_dual`."""
        return cls._wrap(_scipy_class().from_win_equals_dual(_host(desired_win), hop, fs, fft_mode=fft_mode,
                                                             mfft=mfft, scale_to=scale_to, phase_shift=phase_shift))

    # host bookkeeping, SciPy's
    hop = _Host()
    T = _Host()
    fs = _Host()
    fft_mode = _Host()
    mfft = _Host()
    scaling = _Host()
    scale_to = _Host()
    phase_shift = _Host()
    invertible = _Host()
    fac_magnitude = _Host()
    fac_psd = _Host()
    m_num = _Host()
    m_num_mid = _Host()
    k_min = _Host()
    p_min = _Host()
    k_max = _Host()
    p_max = _Host()
    p_num = _Host()
    lower_border_end = _Host()
    upper_border_begin = _Host()
    delta_t = _Host()
    p_range = _Host()
    nearest_k_p = _Host()
    delta_f = _Host()
    f_pts = _Host()
    onesided_fft = _Host()
    extent = _Host()

    def _on_device(self, name, host_array):
        """The device copy of a host array of the SciPy object, made again when SciPy replaced the
        array (scale_to rescales the windows; the frequency axis follows fs, mfft and fft_mode)."""
        cached = self._device.get(name)
        if cached is None or cached[0] is not host_array:
            cached = self._device[name] = (host_array, _from_host(numpy.ascontiguousarray(host_array)))
        return cached[1]

    @property
    def win(self):
        """See `scipy.signal.ShortTimeFFT.win` (a cuarray array)."""
        return self._on_device("win", self._host.win)

    @property
    def dual_win(self):
        """See `scipy.signal.ShortTimeFFT.dual_win` (a cuarray array)."""
        return self._on_device("dual_win", self._host.dual_win)

    @property
    def f(self):
        """See `scipy.signal.ShortTimeFFT.f` (a cuarray array)."""
        return self._on_device("f", self._host.f)

    def t(self, n, p0=None, p1=None, k_offset=0):
        """See `scipy.signal.ShortTimeFFT.t` (a cuarray array)."""
        return _from_host(self._host.t(n, p0, p1, k_offset))

    def _fft_func(self, x):
        """SciPy's _fft_func over a batch of windowed slices (last axis)."""
        h = self._host
        if h.phase_shift is not None:
            if x.shape[-1] < h.mfft:
                x = _concatenate((x, _zeros(x.shape[:-1] + (h.mfft - x.shape[-1],), x.dtype, x)), -1)
            p_s = (h.phase_shift + h.m_num_mid) % h.m_num
            x = _concatenate((x[..., p_s:], x[..., :p_s]), -1)  # numpy.roll(x, -p_s, axis=-1)
        if h.fft_mode == "twosided":
            return _fft.fft(x, n=h.mfft, axis=-1)
        if h.fft_mode == "centered":
            return _fft.fftshift(_fft.fft(x, h.mfft, axis=-1), axes=-1)
        X = _fft.rfft(x, n=h.mfft, axis=-1)
        if h.fft_mode == "onesided2X":
            view = X[..., 1:-1 if h.mfft % 2 == 0 else None]
            view *= numpy.sqrt(2) if h.scaling == "psd" else 2
        return X

    def _ifft_func(self, X):
        """SciPy's _ifft_func over a batch of slices' spectra (last axis)."""
        h = self._host
        if h.fft_mode == "twosided":
            x = _fft.ifft(X, n=h.mfft, axis=-1)
        elif h.fft_mode == "centered":
            x = _fft.ifft(_fft.ifftshift(X, axes=-1), n=h.mfft, axis=-1)
        elif h.fft_mode == "onesided":
            x = _fft.irfft(X, n=h.mfft, axis=-1)
        else:
            Xc = X.copy()
            view = Xc[..., 1:-1 if h.mfft % 2 == 0 else None]
            view /= numpy.sqrt(2) if h.scaling == "psd" else 2
            x = _fft.irfft(Xc, n=h.mfft, axis=-1)
        if h.phase_shift is None:
            return x[..., :h.m_num]
        cut = x.shape[-1] - (h.phase_shift + h.m_num_mid) % h.m_num
        return _concatenate((x[..., cut:], x[..., :cut]), -1)[..., :h.m_num]  # numpy.roll(x, p_s, axis=-1)

    def stft(self, x, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """See `scipy.signal.ShortTimeFFT.stft`."""
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset, padding=padding, axis=axis)

    def stft_detrend(self, x, detr, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """See `scipy.signal.ShortTimeFFT.stft_detrend` (a callable `detr` gets all slices at once)."""
        h = self._host
        x = _args.data(x, "stft")
        if h.onesided_fft and x.dtype.kind == "c":
            raise ValueError(f"Complex-valued `x` not allowed for self.fft_mode={h.fft_mode!r}'! Set property "
                             "`fft_mode` to 'twosided' or 'centered'.")
        if not (detr is None or callable(detr) or isinstance(detr, str)):
            raise ValueError(f"Parameter detr={detr!r} is not a str, function or None!")
        n = x.shape[axis]
        m2p = h.m_num - h.m_num_mid
        if not n >= m2p:
            e_str = f"len(x)={len(x)!r}" if x.ndim == 1 else f"of axis={axis!r} of {x.shape}"
            raise ValueError(f"{e_str} must be >= ceil(m_num/2) = {m2p}!")
        if x.ndim > 1:
            x = _moveaxis(x, axis, -1)
        p0, p1 = h.p_range(n, p0, p1)
        if padding not in _PAD_KWS:
            raise ValueError(f"Parameter padding={padding!r} not in {tuple(_PAD_KWS)}!")
        # SciPy's _x_slices: the signal with the padding the slices p0..p1 reach into, then every slice
        # gathered at once
        n1 = (p1 - p0) * h.hop
        k0 = p0 * h.hop - h.m_num_mid + k_offset
        k1 = k0 + n1 + h.m_num
        i0, i1 = max(k0, 0), min(k1, n)
        pad_width = [(0, 0)] * (x.ndim - 1) + [(-min(k0, 0), max(k1 - n, 0))]
        x1 = _pad(x[..., i0:i1], pad_width, **_PAD_KWS[padding])
        idx = numpy.arange(p1 - p0)[:, None] * h.hop + numpy.arange(h.m_num)[None, :]
        seg = x1[..., _from_host(idx) if _s.is_array(x1) else idx]
        if isinstance(detr, str):
            seg = _filtering.detrend(seg, type=detr, axis=-1)
        elif detr is not None:
            seg = detr(seg)
        win = self.win  # the cached device copy
        S = self._fft_func(seg * (win.conj() if win.dtype.kind == "c" else win))
        # SciPy fills a complex128 array, frequencies before slices
        S = S.swapaxes(-1, -2).astype(numpy.complex128, order="C")
        if x.ndim > 1:
            return _moveaxis(S, -2, axis if axis >= 0 else axis - 1)
        return S

    def spectrogram(self, x, y=None, detr=None, *, p0=None, p1=None, k_offset=0, padding="zeros", axis=-1):
        """See `scipy.signal.ShortTimeFFT.spectrogram`."""
        Sx = self.stft_detrend(x, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        if y is None or y is x:
            return Sx.real ** 2 + Sx.imag ** 2
        Sy = self.stft_detrend(y, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        return Sx * Sy.conj()

    def istft(self, S, k0=0, k1=None, *, f_axis=-2, t_axis=-1):
        """See `scipy.signal.ShortTimeFFT.istft`."""
        h = self._host
        S = _args.data(S, "istft")
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis!r} may not be equal to t_axis={t_axis!r}!")
        if S.shape[f_axis] != h.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]!r} must be equal to self.f_pts={h.f_pts!r} "
                             f"(S.shape={S.shape!r})!")
        n_min = h.m_num - h.m_num_mid
        q_num = h.p_num(n_min)
        if not S.shape[t_axis] >= q_num:
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]!r} needs to have at least {q_num} slices "
                             f"(S.shape={S.shape!r})!")
        if t_axis != S.ndim - 1 or f_axis != S.ndim - 2:
            t_axis = S.ndim + t_axis if t_axis < 0 else t_axis
            f_axis = S.ndim + f_axis if f_axis < 0 else f_axis
            S = _moveaxis(S, (f_axis, t_axis), (-2, -1))
        q_max = S.shape[-1] + h.p_min
        k_max = (q_max - 1) * h.hop + h.m_num - h.m_num_mid
        k1 = k_max if k1 is None else k1
        if not h.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"(self.k_min={h.k_min!r}) <= (k0={k0!r}) < (k1={k1!r}) <= (k_max={k_max!r}) is false!")
        if not (num_pts := k1 - k0) >= n_min:
            raise ValueError(f"(k1={k1!r}) - (k0={k0!r}) = {num_pts} has to be at least the half the window length "
                             f"{n_min}!")
        q0 = k0 // h.hop + h.p_min if k0 >= 0 else k0 // h.hop
        q1 = min(h.p_max(k1), q_max)
        dual = self.dual_win  # SciPy's ValueError here when the STFT is not invertible, before any device work
        rdt = numpy.dtype(numpy.float64 if h.onesided_fft else numpy.complex128)
        if q1 <= q0:  # no slice reaches k0..k1 (SciPy's loop adds nothing)
            x = _zeros(S.shape[:-2] + (k1 - k0,), rdt, S)
            return _moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis) if x.ndim > 1 else x
        # slices q0..q1 (SciPy adds them one by one): one batched inverse FFT, then one overlap-add
        Sq = S[..., :, q0 - h.p_min:q1 - h.p_min]
        xs = self._ifft_func(Sq.swapaxes(-1, -2)) * dual
        y = overlap_add(xs, h.hop).astype(rdt, copy=False)
        start = q0 * h.hop - h.m_num_mid  # the sample of y[..., 0]
        lo, hi = max(k0, start), min(k1, start + y.shape[-1])
        parts = [_zeros(y.shape[:-1] + (lo - k0,), rdt, y)] if lo > k0 else []
        parts.append(y[..., lo - start:max(hi, lo) - start])
        if k1 > max(hi, lo):
            parts.append(_zeros(y.shape[:-1] + (k1 - max(hi, lo),), rdt, y))
        x = _concatenate(parts, -1) if len(parts) > 1 else parts[0]
        if x.ndim > 1:
            x = _moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x

