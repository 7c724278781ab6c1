"""cuarray.scipy.fft: the `scipy.fft` API on cuarray arrays: the functions of cuarray's scipy.fft
backend (`cuarray.fft._scipy_backend`) and the helpers of `cuarray.fft` (no second
implementation), the DCT/DST family (`_realtransforms`, on cuFFT) and the fast Hankel transform
(`_fftlog`). See `scipy.fft`. The backend-control functions are scipy.fft's own and `workers` is
recorded only (`_fft_control`); this module is itself a scipy.fft backend (`__ua_domain__`,
`__ua_function__`, as `cupyx.scipy.fft` is CuPy's)."""

import operator
import types as _types

import numpy as _numpy

from .._core.host_input import as_array as _as_array
from .._core.ndarray import ndarray as _ndarray
from .._core.shapes import normalize_axis_index as _axis_index
from .._creation.basic import ones as _ones
from .._creation.basic import zeros as _zeros
from .._creation.from_data import asarray as _asarray
from .._manipulation.joining import concatenate as _concatenate
from .._manipulation.transpose import moveaxis as _moveaxis
from .._math.complex import imag as _imag
from .._math.complex import real as _real
from ..fft import _fft
from ._fft_shapes import nd_shape_axes as _nd_shape_axes
from ._fftlog import fht as fht
from ._fftlog import fhtoffset as fhtoffset
from ._fftlog import ifht as ifht
from ._realtransforms import r2r as _r2r
from ._twiddle import rotate as _rotate
from ._twiddle import rotate_part as _rotate_part

from ..fft._scipy_backend import fft as fft
from ..fft._scipy_backend import ifft as ifft
from ..fft._scipy_backend import rfft as rfft
from ..fft._scipy_backend import irfft as irfft
from ..fft._scipy_backend import hfft as hfft
from ..fft._scipy_backend import ihfft as ihfft
from ..fft._scipy_backend import fft2 as fft2
from ..fft._scipy_backend import ifft2 as ifft2
from ..fft._scipy_backend import fftn as fftn
from ..fft._scipy_backend import ifftn as ifftn
from ..fft._scipy_backend import rfft2 as rfft2
from ..fft._scipy_backend import irfft2 as irfft2
from ..fft._scipy_backend import rfftn as rfftn
from ..fft._scipy_backend import irfftn as irfftn
from ..fft._scipy_backend import hfft2 as hfft2
from ..fft._scipy_backend import ihfft2 as ihfft2
from ..fft._scipy_backend import hfftn as hfftn
from ..fft._scipy_backend import ihfftn as ihfftn
from ..fft import fftfreq as _fftfreq
from ..fft import rfftfreq as _rfftfreq
from ..fft import fftshift as fftshift
from ..fft import ifftshift as ifftshift
from ._fft_control import get_workers as get_workers
from ._fft_control import register_backend as register_backend
from ._fft_control import set_backend as set_backend
from ._fft_control import set_global_backend as set_global_backend
from ._fft_control import set_workers as set_workers
from ._fft_control import skip_backend as skip_backend

# -- the DCT/DST family (cuFFT through `cuarray/scipy/_realtransforms.py`) -----------------------


# The operations `_realtransforms` is written over, on the GPU.
_CUARRAY = _types.SimpleNamespace(
    asarray=_asarray, concatenate=_concatenate, real=_real, imag=_imag, zeros=_zeros, ones=_ones,
    rotate=_rotate, rotate_part=_rotate_part,
    fft=lambda x, n=None, axis=-1: _fft.fft(x, n, axis),
    rfft=lambda x, n=None, axis=-1: _fft.rfft(x, n, axis),
    irfft=lambda x, n=None, axis=-1: _fft.irfft(x, n, axis))

_NORMS = (None, "backward", "ortho", "forward")


def _r2r_axis(kind, inverse, x, type, n, axis, norm, orthogonalize):  # noqa: A002
    if type not in (1, 2, 3, 4):
        raise ValueError("invalid {} type".format(kind.upper()))
    if norm not in _NORMS:
        raise ValueError('Invalid norm value {!r}, should be "backward", "ortho" or "forward"'.format(norm))
    x = _as_array(x, kind)
    if x.dtype.kind in "biu":
        x = x.astype(_numpy.float64)
    elif x.dtype.char == "e":
        x = x.astype(_numpy.float32)
    axis = _axis_index(axis, x.ndim)
    if n is not None:
        if n < 1:
            raise ValueError("invalid number of data points ({}) specified".format(n))
        n = operator.index(n)  # (a float n: TypeError, as SciPy's slicing gives)
        have = x.shape[axis]
        xm = _moveaxis(x, axis, -1)
        if n < have:
            xm = xm[..., :n]
        elif n > have:
            xm = _concatenate([xm, _zeros(xm.shape[:-1] + (n - have,), dtype=x.dtype)], axis=-1)
        x = _moveaxis(xm, -1, axis)
    if x.shape[axis] == 0:
        raise ValueError("invalid number of data points (0) specified")
    xm = _moveaxis(x, axis, -1)
    if xm.dtype.kind == "c":
        y = (_r2r(_CUARRAY, _real(xm), kind, type, norm, orthogonalize, inverse)
             + 1j * _r2r(_CUARRAY, _imag(xm), kind, type, norm, orthogonalize, inverse)).astype(xm.dtype)
    else:
        y = _r2r(_CUARRAY, xm, kind, type, norm, orthogonalize, inverse)
    return _moveaxis(y, -1, axis)


def _r2r_axes(kind, inverse, x, type, s, axes, norm, orthogonalize):  # noqa: A002
    x = _as_array(x, kind)
    s, axes = _nd_shape_axes(x.shape, s, axes)  # (SciPy's rules: a scalar s, -1 for the input's size)
    for ax, n in zip(axes, s):
        x = _r2r_axis(kind, inverse, x, type, n, ax, norm, orthogonalize)
    return x


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.dct` (cuFFT; `overwrite_x` and `workers` are ignored).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([1., 2., 5., 3.])
    >>> fft.dct(x)
    array([22.        , -5.99161872, -4.24264069,  4.01254347])
    >>> fft.dct(x, type=3, norm='ortho')
    array([ 5.11835712, -3.41864835, -0.58135165,  0.88164288])
    """
    return _r2r_axis("dct", False, x, type, n, axis, norm, orthogonalize)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.idct`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([1., 2., 5., 3.])
    >>> fft.idct(fft.dct(x))
    array([1., 2., 5., 3.])
    """
    return _r2r_axis("dct", True, x, type, n, axis, norm, orthogonalize)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.dst`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([1., 2., 5., 3.])
    >>> fft.dst(x)
    array([15.99578091, -7.07106781,  2.03346821,  2.        ])
    """
    return _r2r_axis("dst", False, x, type, n, axis, norm, orthogonalize)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.idst`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([1., 2., 5., 3.])
    >>> fft.idst(fft.dst(x))
    array([1., 2., 5., 3.])
    """
    return _r2r_axis("dst", True, x, type, n, axis, norm, orthogonalize)


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.dctn` (one 1-D transform per axis).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([[1., 2.], [5., 3.]])
    >>> fft.dctn(x)
    array([[ 44.        ,   2.82842712],
           [-14.14213562,  -6.        ]])
    """
    return _r2r_axes("dct", False, x, type, s, axes, norm, orthogonalize)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.idctn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([[1., 2.], [5., 3.]])
    >>> fft.idctn(fft.dctn(x))
    array([[1., 2.],
           [5., 3.]])
    """
    return _r2r_axes("dct", True, x, type, s, axes, norm, orthogonalize)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.dstn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([[1., 2.], [5., 3.]])
    >>> fft.dstn(x)
    array([[ 22.        ,   2.82842712],
           [-14.14213562, -12.        ]])
    """
    return _r2r_axes("dst", False, x, type, s, axes, norm, orthogonalize)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):  # noqa: A002
    """See `scipy.fft.idstn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> x = cuarray.array([[1., 2.], [5., 3.]])
    >>> fft.idstn(fft.dstn(x))
    array([[1., 2.],
           [5., 3.]])
    """
    return _r2r_axes("dst", True, x, type, s, axes, norm, orthogonalize)


def _smooth(n: int) -> bool:
    for p in (2, 3, 5, 7):
        while n % p == 0:
            n //= p
    return n == 1


def next_fast_len(target, real=False):
    """See `scipy.fft.next_fast_len`: the smallest 7-smooth (2^a 3^b 5^c 7^d) length >= target,
    cuFFT's fast sizes (SciPy's answer is pocketfft's: 11-smooth, 5-smooth for real), as CuPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.next_fast_len(1021)
    1024
    >>> fft.next_fast_len(1021, real=True)
    1024
    """
    return _fast_len(target, 1)


def prev_fast_len(target, real=False):
    """See `scipy.fft.prev_fast_len`: the largest 7-smooth length <= target (cuFFT's sizes).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.prev_fast_len(1021)
    1008
    """
    return _fast_len(target, -1)


def _fast_len(target, step: int) -> int:
    """The nearest 7-smooth length from `target` in the direction of `step` (0 stays 0)."""
    target = operator.index(target)
    if target < 0:
        raise ValueError("Target length must be positive")
    n = target
    while n and not _smooth(n):
        n += step
    return n



# -- fftfreq / rfftfreq: SciPy's `xp` and `device` ---------------------------------------------


def _freq(name, n, d, xp, device):
    """SciPy's rule: the result in `xp`'s namespace, cuarray's when `xp` is None (SciPy's default
    there is NumPy: the GPU analogue); NumPy takes no `device`."""
    if xp is None or getattr(xp, "__name__", None) == "cuarray":
        return (_fftfreq if name == "fftfreq" else _rfftfreq)(n, d, device=device)
    if hasattr(xp, "fft") and xp.__name__ != "numpy":
        return getattr(xp.fft, name)(n, d=d, device=device)
    if device is not None:
        raise ValueError("device parameter is not supported for input array type")
    return getattr(_numpy.fft, name)(n, d=d)


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """See `scipy.fft.fftfreq`: a cuarray array when `xp` is None (SciPy's default is NumPy's);
    another namespace's when `xp` names it.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.fftfreq(8, d=0.1)
    array([ 0.  ,  1.25,  2.5 ,  3.75, -5.  , -3.75, -2.5 , -1.25])
    """
    return _freq("fftfreq", n, d, xp, device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """See `scipy.fft.rfftfreq`: a cuarray array when `xp` is None (SciPy's default is NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.rfftfreq(8, d=0.1)
    array([0.  , 1.25, 2.5 , 3.75, 5.  ])
    """
    return _freq("rfftfreq", n, d, xp, device)


# -- this module as a scipy.fft backend ---------------------------------------------------------

__ua_domain__ = "numpy.scipy.fft"

_UA_NAMES = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2",
             "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn", "dct", "idct", "dst", "idst", "dctn", "idctn",
             "dstn", "idstn", "fht", "ifht")


def __ua_function__(method, args, kwargs):
    """The uarray protocol: scipy.fft's call on a cuarray array runs here, anything else answers
    NotImplemented (scipy.fft then tries its next backend)."""
    name = getattr(method, "__name__", None)
    fn = _UA_FUNCS.get(name)
    if fn is None:
        return NotImplemented
    x = args[0] if args else kwargs.get({"fht": "a", "ifht": "A"}.get(name, "x"))
    if not isinstance(x, _ndarray):
        return NotImplemented
    return fn(*args, **kwargs)


_UA_FUNCS = {name: globals()[name] for name in _UA_NAMES}  # this module's functions of those names
