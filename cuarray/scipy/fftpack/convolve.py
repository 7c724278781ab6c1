"""cuarray.scipy.fftpack.convolve: scipy.fftpack.convolve's four functions on the GPU (the
computation is `_pseudo_diffs`'s, which the pseudo-differential operators use too).
`init_convolution_kernel` calls its Python `kernel_func` once per frequency on the host, as SciPy's
does, and returns the kernel as a device array; `convolve`/`convolve_z` take a kernel as a device
array or a host one (a parameter: copied)."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import from_host
from . import _pseudo_diffs as _pd
from ._namespace import XP

__all__ = ["destroy_convolve_cache", "convolve", "convolve_z", "init_convolution_kernel"]

_F8 = numpy.dtype(numpy.float64)
_SHAPES = "inout and omega must be 1-dimensional arrays of the same length"


def destroy_convolve_cache():
    """See `scipy.fftpack.convolve.destroy_convolve_cache`: nothing is cached (as SciPy's).

    Examples
    --------
    >>> from cuarray.scipy.fftpack import convolve
    >>> convolve.destroy_convolve_cache()
    """


def _arrays(inout, omegas):
    x = as_literal_or_array(inout, "scipy.fftpack.convolve").astype(_F8, copy=False)
    ws = [as_parameter(w, "scipy.fftpack.convolve").astype(_F8, copy=False) for w in omegas]
    n = x.shape[0] if x.ndim == 1 else -1
    if any(w.ndim != 1 or w.shape[0] != n for w in ws):
        raise ValueError(_SHAPES)
    return x, ws


def convolve(inout, omega, swap_real_imag=False, overwrite_x=False):
    """See `scipy.fftpack.convolve.convolve` (`inout` is never overwritten).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.fftpack import convolve
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> omega = convolve.init_convolution_kernel(4, lambda k: 1.0)
    >>> convolve.convolve(x, omega)
    array([1., 2., 3., 4.])
    """
    x, (w,) = _arrays(inout, (omega,))
    return _pd.convolve(XP, x, w, bool(swap_real_imag))


def convolve_z(inout, omega_real, omega_imag, overwrite_x=False):
    """See `scipy.fftpack.convolve.convolve_z`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.fftpack import convolve
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> wr = convolve.init_convolution_kernel(4, lambda k: 1.0, zero_nyquist=0)
    >>> wi = convolve.init_convolution_kernel(4, lambda k: 0.0, d=1, zero_nyquist=0)
    >>> convolve.convolve_z(x, wr, wi)
    array([1., 2., 3., 4.])
    """
    x, (wr, wi) = _arrays(inout, (omega_real, omega_imag))
    return _pd.convolve_z(XP, x, wr, wi)


def init_convolution_kernel(n, kernel_func, d=0, zero_nyquist=None, kernel_func_extra_args=()):
    """See `scipy.fftpack.convolve.init_convolution_kernel`: `kernel_func` called on the host for
    k = 0 .. n // 2, as SciPy's; the kernel returned as a device array.

    Examples
    --------
    >>> from cuarray.scipy.fftpack import convolve
    >>> convolve.init_convolution_kernel(4, lambda k: float(k), d=1)
    array([ 0.  ,  0.25, -0.25,  0.  ])
    """
    return from_host(host_kernel(n, kernel_func, d, zero_nyquist, kernel_func_extra_args))


def host_kernel(n, kernel_func, d=0, zero_nyquist=None, kernel_func_extra_args=()):
    """`init_convolution_kernel`'s NumPy array, computed on the host as SciPy's."""
    n = int(n)
    if n < 0:
        raise OverflowError("can't convert negative value to size_t")
    if zero_nyquist is None:
        zero_nyquist = d % 2 != 0
    omega = numpy.empty(n, dtype=_F8)
    last = n if n % 2 else n - 1
    v = kernel_func(0, *kernel_func_extra_args)
    if n == 0:
        raise ZeroDivisionError("float division")
    omega[0] = v / n
    d %= 4
    sr = 1.0 / n if d in (0, 1) else -1.0 / n
    si = 1.0 / n if d in (0, 3) else -1.0 / n
    k = 1
    for j in range(1, last, 2):
        v = kernel_func(k, *kernel_func_extra_args)
        omega[j], omega[j + 1] = sr * v, si * v
        k += 1
    if n % 2 == 0:
        omega[n - 1] = 0.0 if zero_nyquist else sr * kernel_func(k, *kernel_func_extra_args)
    return omega
