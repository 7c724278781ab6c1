"""A `scipy.fft` backend: ``scipy.fft.set_backend(cuarray.fft_backend)`` runs scipy.fft's
transforms on cuarray arrays (the uarray protocol: `__ua_domain__`, `__ua_function__`).

This module is the backend object (as `cupyx.scipy.fft` is CuPy's). Calls whose array argument is
not a cuarray array, and scipy.fft functions not listed here (the DCT/DST family, fht), answer
NotImplemented, so scipy tries its next backend. scipy's dtype rule differs from NumPy's in one
place, followed here: float16 input is computed and returned in float32. `overwrite_x`, `workers`
and `plan` are accepted and ignored (plans are cached; see `cuarray.fft.config`).
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._math.complex import conjugate as _conjugate
from . import _fft

__ua_domain__ = "numpy.scipy.fft"

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn"]


def _x(x):
    return x.astype(numpy.float32) if x.dtype.char == "e" else x


def fft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.fft`."""
    return _fft.fft(_x(x), n, axis, norm)


def ifft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ifft`."""
    return _fft.ifft(_x(x), n, axis, norm)


def rfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.rfft`."""
    return _fft.rfft(_x(x), n, axis, norm)


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.irfft`."""
    return _fft.irfft(_x(x), n, axis, norm)


def hfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.hfft`."""
    return _fft.hfft(_x(x), n, axis, norm)


def ihfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ihfft`."""
    return _fft.ihfft(_x(x), n, axis, norm)


def _axes(x, s, axes):
    # scipy: with `s` and no `axes`, the last len(s) axes (NumPy 2 warns about this; scipy does not).
    if axes is None and s is not None:
        axes = tuple(range(-len(s), 0))
    return axes


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.fftn`."""
    return _fft.fftn(_x(x), s, _axes(x, s, axes), norm)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ifftn`."""
    return _fft.ifftn(_x(x), s, _axes(x, s, axes), norm)


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.rfftn`."""
    return _fft.rfftn(_x(x), s, _axes(x, s, axes), norm)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.irfftn`."""
    return _fft.irfftn(_x(x), s, _axes(x, s, axes), norm)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.hfftn`: irfftn of the conjugate with the opposite normalisation."""
    x = _x(x)
    x = _conjugate(x) if x.dtype.kind == "c" else x
    return _fft.irfftn(x, s, _axes(x, s, axes), _fft._swap_direction(norm))


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ihfftn`: the conjugate of rfftn with the opposite normalisation."""
    res = _fft.rfftn(_x(x), s, _axes(x, s, axes), _fft._swap_direction(norm))
    return _conjugate(res, out=res)


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.fft2`."""
    return fftn(x, s, axes, norm)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ifft2`."""
    return ifftn(x, s, axes, norm)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.rfft2`."""
    return rfftn(x, s, axes, norm)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.irfft2`."""
    return irfftn(x, s, axes, norm)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.hfft2`."""
    return hfftn(x, s, axes, norm)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """See `scipy.fft.ihfft2`."""
    return ihfftn(x, s, axes, norm)


_FUNCS = {name: globals()[name] for name in __all__}


def __ua_function__(method, args, kwargs):
    fn = _FUNCS.get(getattr(method, "__name__", None))
    if fn is None:
        return NotImplemented
    x = args[0] if args else kwargs.get("x")
    if not isinstance(x, ndarray):
        return NotImplemented  # scipy's own backend takes NumPy input
    return fn(*args, **kwargs)
