"""scipy.fft's backend control and worker count, for `cuarray.scipy.fft`.

The backend functions are scipy.fft's own, called on the host (the optional `cuarray[scipy]`
extra, imported on first use): they choose the uarray backend of scipy.fft's multimethods, so
``with cuarray.scipy.fft.set_backend(b): scipy.fft.fft(x)`` behaves as SciPy's does. cuarray's
own transforms are not multimethods and run on cuFFT in every context. `cuarray.scipy.fft` itself
is a backend (as `cupyx.scipy.fft` is CuPy's): ``scipy.fft.set_backend(cuarray.scipy.fft)`` sends
scipy.fft calls on cuarray arrays, the DCT/DST family and the Hankel transform included, to
cuarray.

`workers` is a host-thread count for SciPy's pocketfft. `set_workers`/`get_workers` keep SciPy's
contract (a per-thread default of 1, SciPy's checks: 0 and counts below -os.cpu_count() raise
ValueError) and record the number; cuFFT takes no thread count, so it changes nothing here.
"""

from __future__ import annotations

import contextlib
import operator
import os
import threading

__all__ = ["set_backend", "skip_backend", "set_global_backend", "register_backend", "get_workers",
           "set_workers"]

_config = threading.local()


def _scipy_fft():
    try:
        import scipy.fft  # import time: SciPy on first use only (the optional `cuarray[scipy]` extra)
    except ImportError as exc:  # pragma: no cover - SciPy is installed wherever the tests run
        raise ImportError("cuarray.scipy.fft's backend control is scipy.fft's: install SciPy "
                          "(pip install 'cuarray[scipy]')") from exc
    return scipy.fft


def set_backend(backend, coerce=False, only=False):
    """See `scipy.fft.set_backend`: scipy.fft's context manager itself (it governs scipy.fft's
    functions; cuarray's run on cuFFT in any context). `cuarray.scipy.fft` is a backend.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> with fft.set_backend('scipy'):
    ...     pass
    """
    return _scipy_fft().set_backend(backend, coerce=coerce, only=only)


def skip_backend(backend):
    """See `scipy.fft.skip_backend`: scipy.fft's context manager itself.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> with fft.skip_backend('scipy'):
    ...     pass
    """
    return _scipy_fft().skip_backend(backend)


def set_global_backend(backend, coerce=False, only=False, try_last=False):
    """See `scipy.fft.set_global_backend`: sets scipy.fft's global backend.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.set_global_backend('scipy')
    """
    _scipy_fft().set_global_backend(backend, coerce=coerce, only=only, try_last=try_last)


def register_backend(backend):
    """See `scipy.fft.register_backend`: registers a backend with scipy.fft.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.register_backend('scipy')
    """
    _scipy_fft().register_backend(backend)


def _checked_workers(workers):
    """SciPy's rule: negative counts wrap around os.cpu_count(), 0 is an error."""
    cpus = os.cpu_count() or 1
    if workers < 0:
        if workers >= -cpus:
            return workers + 1 + cpus
        raise ValueError("workers value out of range; got {}, must not be less than {}".format(workers, -cpus))
    if workers == 0:
        raise ValueError("workers must not be zero")
    return workers


def get_workers():
    """See `scipy.fft.get_workers` (recorded only: cuFFT takes no thread count).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> fft.get_workers()
    1
    >>> with fft.set_workers(4):
    ...     fft.get_workers()
    4
    """
    return getattr(_config, "default_workers", 1)


@contextlib.contextmanager
def set_workers(workers):
    """See `scipy.fft.set_workers`: SciPy's checks, the count recorded for `get_workers` in this
    thread; cuarray's transforms run on cuFFT whatever it is.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> with fft.set_workers(2):
    ...     fft.get_workers()
    2
    """
    old = get_workers()
    _config.default_workers = _checked_workers(operator.index(workers))
    try:
        yield
    finally:
        _config.default_workers = old
