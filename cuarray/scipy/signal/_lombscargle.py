"""scipy.signal's `lombscargle` on the GPU (SciPy 1.15+: `weights`, `floating_mean`, `normalize` of
'power', 'normalize' or 'amplitude'; `precenter` deprecated as in SciPy 1.17). One kernel
(templates/lombscargle.cu): a block per frequency, two passes over the samples. SciPy's vectorised
form builds frequencies x samples matrices of cos and sin; on the GPU that is memory the size of
their product (80 GB at 1e5 x 1e5) and several passes over it, where the kernel reads only the
samples (from L2 for all but the largest inputs) and computes each sine once per pass."""

from __future__ import annotations

import pathlib
import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import full as _full
from ...cuda.kernel_family import KernelFamily
from ..ndimage import _support as _s
from . import _args

__all__ = ["lombscargle", "source", "NAME", "OPTIONS"]

_DIR = pathlib.Path(__file__).parent / "templates"
_BLOCK = 256
NAME = "cuarray_signal::lombscargle<{}>".format(_BLOCK)
# SciPy rounds f * x before subtracting tau, and every product before its sum; a contracted fma
# does not (-fmad=false keeps NumPy's roundings; the sums' order is the only difference).
OPTIONS = ("-fmad=false",)
_MODES = {"power": 0, "normalize": 1, "amplitude": 2}
_F8 = numpy.dtype(numpy.float64)
_NO_VALUE = object()  # SciPy's _NoValue: `precenter` given or not


def source() -> str:
    return ("#define CUARRAY_DEVICE __device__\n" + (_DIR / "lombscargle.cuh").read_text()
            + (_DIR / "lombscargle.cu").read_text())


LOMBSCARGLE = KernelFamily("cuarray_signal_lombscargle", source, namespace="cuarray_signal", kernels=(
    "lombscargle<BLOCK>(const double* x, const double* y, const double* w, long long n, const double* freqs, "
    "long long nf, int normalize, int floating_mean, double* out)",
))


def _kernel():
    return LOMBSCARGLE.kernel(NAME, options=OPTIONS)


def _launch_lombscargle(x, y, w, freqs, mode, floating_mean):
    nf = freqs.shape[0]
    out = ndarray((nf,), numpy.dtype(numpy.complex128) if mode == 2 else _F8)
    # one block per frequency, up to 2^20 blocks (a grid-stride loop beyond: 2^20 blocks fill any GPU)
    _kernel().launch(min(nf, 1 << 20), _BLOCK, x.data.ptr, y.data.ptr, w.data.ptr, x.shape[0], freqs.data.ptr, nf,
                     mode, bool(floating_mean), out.data.ptr)
    return out


def _weights_valid(w) -> bool:
    return bool(((w >= 0).all()) & (w.sum() > 0))  # synchronises once: SciPy raises on bad weights


def _float64(a):
    return a.astype(_F8, order="C", copy=False)  # the kernel reads contiguous float64 (SciPy casts too)


def lombscargle(x, y, freqs, *, precenter=_NO_VALUE, normalize=False, weights=None, floating_mean=False):
    """See `scipy.signal.lombscargle`. Validating user `weights` (non-negative, positive sum)
    synchronises once.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t = cuarray.array([0., 1., 2., 3., 5., 6.])
    >>> y = cuarray.array([1., 3., 1., -1., 1., 3.])
    >>> signal.lombscargle(t, y, cuarray.array([0.5, 1., 1.5]))
    array([1.14859799, 7.25546065, 7.30529493])
    """
    x = _float64(_args.data(x, "lombscargle"))
    y = _float64(_args.data(y, "lombscargle"))
    freqs = _float64(_args.device_param(freqs, "lombscargle"))  # (the output's grid: a parameter, as freqz's worN)
    w = None if weights is None else _float64(_args.data(weights, "lombscargle"))
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == (x.shape if w is None else w.shape)):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if w is not None and not _weights_valid(w):
        raise ValueError("Parameter weights must have only non-negative entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in tuple(_MODES):  # (a tuple: an unhashable value is a ValueError, as SciPy's list)
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")
    # SciPy's w * (1 / sum w); for its default weights (ones) that is exactly 1 / n
    w = _full(x.shape, 1.0 / x.shape[0]) if w is None else w * (1.0 / w.sum())
    if precenter is not _NO_VALUE:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in 1.19.0. "
                      "Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly substituted "
                      "by passing 'y = (y - y.mean())' into the input. Consider setting `floating_mean` to True "
                      "instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - y.mean()
    out = _launch_lombscargle(x, y, w, freqs, _MODES[normalize], floating_mean)
    return out.reshape(()) if out.shape[0] == 1 else out  # SciPy squeezes a single frequency
