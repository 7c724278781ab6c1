"""Text and raw-binary files through host copies (NumPy "Input and output": loadtxt, savetxt,
genfromtxt, fromfile, and `ndarray.tofile`/`dump`/`dumps`).

Files live on the host: reading parses with NumPy (the oracle) and copies the result to the
device once; writing copies the array to the host (synchronising) and lets NumPy write it. CuPy
offers the same names the same way. Masked results (`genfromtxt` with missing values and
`usemask=True`) have no device form and raise TypeError; structured ones (named fields) upload as
arrays of their structured dtype when every field is one cuarray holds (strings are not).
"""

from __future__ import annotations

import os
import pickle

import numpy

from .._core import transfer as _transfer
from .._core.ndarray import ndarray

__all__ = ["loadtxt", "savetxt", "genfromtxt", "fromfile", "tofile", "dump", "dumps"]


def _upload(host):
    if isinstance(host, numpy.ma.MaskedArray):
        raise TypeError("cuarray has no masked arrays; read this file with NumPy")
    return _transfer.from_host(host)  # (a structured dtype with a field cuarray lacks: TypeError)


def loadtxt(fname, *args, **kwargs) -> ndarray:
    """See `numpy.loadtxt` (parsed on the host, then copied to the device).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.loadtxt(['1 2', '3 4'])   # a file name, a file, or lines
    array([[1., 2.],
           [3., 4.]])
    """
    return _upload(numpy.loadtxt(fname, *args, **kwargs))


def genfromtxt(fname, *args, **kwargs) -> ndarray:
    """See `numpy.genfromtxt` (parsed on the host, then copied to the device).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.genfromtxt(['1,2', '3,'], delimiter=',')   # missing values become NaN
    array([[ 1.,  2.],
           [ 3., nan]])
    """
    return _upload(numpy.genfromtxt(fname, *args, **kwargs))


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None) -> ndarray:
    """See `numpy.fromfile` (read on the host, then copied to the device).

    Examples
    --------
    >>> import cuarray
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     cuarray.arange(4).tofile(os.path.join(d, 'x.bin'))
    ...     cuarray.fromfile(os.path.join(d, 'x.bin'), dtype=cuarray.int64)
    array([0, 1, 2, 3])
    """
    return _upload(numpy.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def _host(a):
    if not isinstance(a, ndarray):
        raise TypeError("expected a cuarray array, got {}".format(type(a).__name__))
    return a.get()


def savetxt(fname, X, *args, **kwargs) -> None:
    """See `numpy.savetxt` (of a host copy).

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.StringIO()
    >>> cuarray.savetxt(f, cuarray.array([[1, 2], [3, 4]]), fmt='%d')
    >>> print(f.getvalue(), end='')
    1 2
    3 4
    """
    numpy.savetxt(fname, X.get() if isinstance(X, ndarray) else X, *args, **kwargs)


def tofile(self, fid, sep="", format="%s") -> None:  # noqa: A002  (NumPy's name)
    """`ndarray.tofile`: a host copy written by NumPy. See `numpy.ndarray.tofile`."""
    _host(self).tofile(fid, sep=sep, format=format)


def dump(self, file) -> None:
    """`ndarray.dump`: pickle to a file (pickling copies to the host). See `numpy.ndarray.dump`."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def dumps(self) -> bytes:
    """`ndarray.dumps`: the pickle as bytes. See `numpy.ndarray.dumps`."""
    return pickle.dumps(self, protocol=2)
