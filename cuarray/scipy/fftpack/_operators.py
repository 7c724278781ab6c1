"""scipy.fftpack's differential and pseudo-differential operators on the GPU (`_pseudo_diffs`
holds the computation, over `_namespace.XP`). SciPy's signatures; `_cache` (SciPy's per-thread
store of its last kernels) is accepted and unused: the kernels are made on the device each call."""

from __future__ import annotations

import threading

from ..._core.host_input import as_literal_or_array
from . import _pseudo_diffs as _pd
from ._namespace import XP

__all__ = ["diff", "tilbert", "itilbert", "hilbert", "ihilbert", "cs_diff", "sc_diff", "ss_diff", "cc_diff",
           "shift"]

_cache = threading.local()


def _in(x, fn):
    return as_literal_or_array(x, "scipy.fftpack." + fn)


def diff(x, order=1, period=None, _cache=_cache):
    """See `scipy.fftpack.diff` (float64 results, complex128 for complex input, as SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.diff(x), cuarray.cos(cuarray.arange(8) * 2 * cuarray.pi / 8)))
    True
    """
    x = _in(x, "diff")
    if order == 0:
        return x
    return _pd.diff(XP, x, order, period)


def tilbert(x, h, period=None, _cache=_cache):
    """See `scipy.fftpack.tilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.itilbert(fftpack.tilbert(x, 0.5), 0.5), x))
    True
    """
    return _pd.tilbert(XP, _in(x, "tilbert"), h, period)


def itilbert(x, h, period=None, _cache=_cache):
    """See `scipy.fftpack.itilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.tilbert(fftpack.itilbert(x, 0.5), 0.5), x))
    True
    """
    return _pd.itilbert(XP, _in(x, "itilbert"), h, period)


def hilbert(x, _cache=_cache):
    """See `scipy.fftpack.hilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.hilbert(x), cuarray.cos(cuarray.arange(8) * 2 * cuarray.pi / 8)))
    True
    """
    return _pd.hilbert(XP, _in(x, "hilbert"))


def ihilbert(x, _cache=_cache):
    """See `scipy.fftpack.ihilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.cos(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.ihilbert(x), cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)))
    True
    """
    return -_pd.hilbert(XP, _in(x, "ihilbert"))


def cs_diff(x, a, b, period=None, _cache=_cache):
    """See `scipy.fftpack.cs_diff`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.cs_diff(cuarray.ones(4), 0.5, 1.0).shape
    (4,)
    """
    return _pd.cs_diff(XP, _in(x, "cs_diff"), a, b, period)


def sc_diff(x, a, b, period=None, _cache=_cache):
    """See `scipy.fftpack.sc_diff`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.sc_diff(fftpack.cs_diff(x, 0.5, 1.0), 1.0, 0.5), x))
    True
    """
    return _pd.sc_diff(XP, _in(x, "sc_diff"), a, b, period)


def ss_diff(x, a, b, period=None, _cache=_cache):
    """See `scipy.fftpack.ss_diff`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.ss_diff(fftpack.ss_diff(x, 0.5, 1.0), 1.0, 0.5), x))
    True
    """
    return _pd.ss_diff(XP, _in(x, "ss_diff"), a, b, period)


def cc_diff(x, a, b, period=None, _cache=_cache):
    """See `scipy.fftpack.cc_diff`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.cc_diff(fftpack.cc_diff(x, 0.5, 1.0), 1.0, 0.5), x))
    True
    """
    return _pd.cc_diff(XP, _in(x, "cc_diff"), a, b, period)


def shift(x, a, period=None, _cache=_cache):
    """See `scipy.fftpack.shift`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.sin(cuarray.arange(8) * 2 * cuarray.pi / 8)
    >>> bool(cuarray.allclose(fftpack.shift(x, 2 * cuarray.pi / 8), cuarray.sin((cuarray.arange(8) + 1) * 2 * cuarray.pi / 8)))
    True
    """
    return _pd.shift(XP, _in(x, "shift"), a, period)
