"""scipy.fftpack's DCT and DST: `cuarray.scipy.fft`'s transforms (cuFFT, `_realtransforms`) under
scipy.fftpack's conventions: its inverses are the forward transforms of the inverse type
(unnormalised: ``idct(dct(x)) == 2 N x`` for type 2, as SciPy's), its n-d `shape` argument
(`_layout.shape_axes`), `orthogonalize` left at scipy.fft's default."""

from __future__ import annotations

from ..._core.host_input import as_literal_or_array
from .. import fft as _sfft
from . import _layout

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"]

# scipy.fftpack's `_inverse_typemap` (an unknown type raises its KeyError)
_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def _n(f, x, type, shape, axes, norm, fn):  # noqa: A002
    x = as_literal_or_array(x, "scipy.fftpack." + fn)
    sizes, axes = _layout.shape_axes(list(x.shape), shape, axes)
    if not axes:
        return x
    return f(x, type, sizes, axes, norm)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.dct` (cuFFT; the input is never overwritten).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.dct(cuarray.array([1., 2., 5., 3.]))
    array([22.        , -5.99161872, -4.24264069,  4.01254347])
    """
    return _sfft.dct(as_literal_or_array(x, "scipy.fftpack.dct"), type, n, axis, norm)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.idct`: the DCT of the inverse type (unnormalised unless 'ortho').

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.idct(cuarray.array([1., 2., 5., 3.]))
    array([ 14.06268654, -10.08361128,  -2.05852435,   2.07944909])
    """
    return _sfft.dct(as_literal_or_array(x, "scipy.fftpack.idct"), _INVERSE_TYPE[type], n, axis, norm)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.dst`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.dst(cuarray.array([1., 2., 5., 3.]))
    array([15.99578091, -7.07106781,  2.03346821,  2.        ])
    """
    return _sfft.dst(as_literal_or_array(x, "scipy.fftpack.dst"), type, n, axis, norm)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.idst`: the DST of the inverse type.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.idst(cuarray.array([1., 2., 5., 3.]))
    array([15.83258931, -2.15064813, -1.80750238,  4.17573507])
    """
    return _sfft.dst(as_literal_or_array(x, "scipy.fftpack.idst"), _INVERSE_TYPE[type], n, axis, norm)


def dctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.dctn` (one 1-D transform per axis).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.dctn(cuarray.array([[1., 2.], [5., 3.]]))
    array([[ 44.        ,   2.82842712],
           [-14.14213562,  -6.        ]])
    """
    return _n(_sfft.dctn, x, type, shape, axes, norm, "dctn")


def idctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.idctn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.idctn(cuarray.array([[1., 2.], [5., 3.]]))
    array([[16.89949494, -0.75735931],
           [-9.24264069, -2.89949494]])
    """
    return _n(_sfft.dctn, x, _INVERSE_TYPE[type], shape, axes, norm, "idctn")


def dstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.dstn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.dstn(cuarray.array([[1., 2.], [5., 3.]]))
    array([[ 22.        ,   2.82842712],
           [-14.14213562, -12.        ]])
    """
    return _n(_sfft.dstn, x, type, shape, axes, norm, "dstn")


def idstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):  # noqa: A002
    """See `scipy.fftpack.idstn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.idstn(cuarray.array([[1., 2.], [5., 3.]]))
    array([[14.89949494,  3.24264069],
           [-5.24264069, -4.89949494]])
    """
    return _n(_sfft.dstn, x, _INVERSE_TYPE[type], shape, axes, norm, "idstn")
