"""scipy.signal's `envelope`: the magnitude of the band-passed analytic signal, resampled to
`n_out` samples, and the residual of the band-pass, all on the device with cuarray.fft (SciPy's
steps in SciPy's order: one forward transform of every line, the band's bins cut or shifted, one
inverse transform of the band; the residual from the same spectrum)."""

from __future__ import annotations

from typing import Literal

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._creation.basic import zeros as _zeros
from ..._manipulation.joining import stack as _stack
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..ndimage import _support as _s
from . import _args
from ._resample import resample as _resample

__all__ = ["envelope"]


def _check(z, bp_in, n_out, residual, axis):
    """SciPy's argument checks, in its order, with its messages."""
    if not (-z.ndim <= axis < z.ndim):
        raise ValueError(f"Invalid parameter {axis=} for {z.shape=}!")
    if not (z.shape[axis] > 0):
        raise ValueError(f"z.shape[axis] not > 0 for {z.shape=}, {axis=}!")
    if len(bp_in) != 2 or not all((isinstance(b_, int) or b_ is None) for b_ in bp_in):
        raise ValueError(f"{bp_in=} isn't a 2-tuple of type (int | None, int | None)!")
    if not ((isinstance(n_out, int) and 0 < n_out) or n_out is None):
        raise ValueError(f"{n_out=} is not a positive integer or None!")
    if residual not in ('lowpass', 'all', None):
        raise ValueError(f"{residual=} not in ['lowpass', 'all', None]!")


def envelope(z, bp_in: tuple[int | None, int | None] = (1, None), *, n_out: int | None = None,
             squared: bool = False, residual: Literal['lowpass', 'all', None] = 'lowpass', axis: int = -1):
    """See `scipy.signal.envelope`. `z` is a cuarray array (real or complex, any axis); float32
    and complex64 stay in single precision, as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t = cuarray.arange(16.) * cuarray.pi / 8
    >>> x = cuarray.cos(2. * t) * (1. + 0.5 * cuarray.cos(t))
    >>> cuarray.round(signal.envelope(x, residual=None), 6)
    array([1.5     , 1.46194 , 1.353553, 1.191342, 1.      , 0.808658,
           0.646447, 0.53806 , 0.5     , 0.53806 , 0.646447, 0.808658,
           1.      , 1.191342, 1.353553, 1.46194 ])
    """
    z = _args.data(z, "envelope")
    _check(z, bp_in, n_out, residual, axis)
    n = z.shape[axis]
    n_out = n if n_out is None else n_out
    fak = n_out / n  # the resampling's scale
    bp = slice(bp_in[0] if bp_in[0] is not None else -(n // 2), bp_in[1] if bp_in[1] is not None else (n + 1) // 2)
    if not (-n // 2 <= bp.start < bp.stop <= (n + 1) // 2):
        raise ValueError("`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does not hold " +
                         f"for n={z.shape[axis]=} and {bp_in=}!")
    z = _moveaxis(z, axis, -1)
    complex_input = z.dtype.kind == "c"
    if complex_input:
        Z = _fft.fft(z)
    else:  # a real signal's negative frequencies are not computed (SciPy's rfft into a zeroed spectrum)
        half = _fft.rfft(z)
        Z = _zeros(z.shape, dtype=half.dtype)
        Z[..., :n // 2 + 1] = half
        if bp.start > 0:  # the band made analytic
            Z[..., bp] *= 2
        elif bp.stop > 0:
            Z[..., 1:bp.stop] *= 2
    if not (bp.start <= 0 < bp.stop):  # (the envelope does not change under a shift of frequency)
        z_bb = _fft.ifft(Z[..., bp], n=n_out) * fak
    else:
        bp_shift = slice(bp.start + n // 2, bp.stop + n // 2)
        z_bb = _fft.ifft(_fft.fftshift(Z, axes=-1)[..., bp_shift], n=n_out) * fak
    z_env = abs(z_bb) if not squared else z_bb.real ** 2 + z_bb.imag ** 2
    z_env = _moveaxis(z_env, -1, axis)
    if residual is None:
        return z_env
    if not (bp.start <= 0 < bp.stop):
        Z[..., bp] = 0
    else:
        Z[..., :bp.stop] = 0
        Z[..., bp.start:] = 0
    if residual == 'lowpass':
        if bp.stop > 0:
            Z[..., bp.stop:(n + 1) // 2] = 0
        else:
            Z[..., bp.start:] = 0
            Z[..., 0:(n + 1) // 2] = 0
    if complex_input:  # (resample pairs the unpaired bins)
        z_res = _resample(Z, n_out, axis=-1, domain='freq')
    else:  # the unpaired bin at m//2, before the real inverse
        m = min(n, n_out)
        if n_out != n and m % 2 == 0:
            Z[..., m // 2] *= 2 if n_out < n else 0.5
        z_res = fak * _fft.irfft(Z, n=n_out)
    return _stack((z_env, _moveaxis(z_res, -1, axis)), axis=0)
