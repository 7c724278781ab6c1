"""NumPy binary files: `save`, `load`, `savez`, `savez_compressed` (NumPy "Input and output /
NumPy binary files").

Through host copies: saving copies each device array to the host (one synchronous copy per
array) and writes it with NumPy's own writer, so files are NumPy's `.npy`/`.npz`, byte for byte;
loading reads with NumPy and copies the arrays to the current device. `.npz` members are loaded
(and copied) when they are accessed, as NumPy reads them lazily. Dtypes cuarray does not support
(object, strings, datetimes) raise TypeError when loaded.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy

from .._core.ndarray import ndarray
from .._creation.from_data import asarray

__all__ = ["save", "load", "savez", "savez_compressed", "NpzFile"]


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def _device(x):
    if isinstance(x, numpy.ndarray):
        return asarray(x)
    return x


def save(file, arr, allow_pickle=True):
    """See `numpy.save`: the array is copied to the host and written by NumPy.

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.BytesIO()
    >>> cuarray.save(f, cuarray.arange(4))   # NumPy's .npy format, from a host copy
    >>> _ = f.seek(0)
    >>> cuarray.load(f)
    array([0, 1, 2, 3])
    """
    numpy.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """See `numpy.savez`.

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.BytesIO()
    >>> cuarray.savez(f, x=cuarray.arange(3), y=cuarray.ones(2))
    >>> _ = f.seek(0)
    >>> npz = cuarray.load(f)
    >>> sorted(npz.files), npz['x']
    (['x', 'y'], array([0, 1, 2]))
    """
    numpy.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """See `numpy.savez_compressed`.

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.BytesIO()
    >>> cuarray.savez_compressed(f, cuarray.zeros(1000))
    >>> _ = f.seek(0)
    >>> cuarray.load(f)['arr_0'].shape
    (1000,)
    """
    numpy.savez_compressed(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                           **{k: _host(v) for k, v in kwds.items()})


class NpzFile(Mapping):
    """The arrays of an `.npz` file, copied to the device as they are read. See
    `numpy.lib.npyio.NpzFile`; `npz.host` is NumPy's object.

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.BytesIO()
    >>> cuarray.savez(f, x=cuarray.arange(3))
    >>> _ = f.seek(0)
    >>> with cuarray.load(f) as npz:   # members are read and copied to the device when accessed
    ...     npz.files, npz['x']
    (['x'], array([0, 1, 2]))
    """

    def __init__(self, host):
        self.host = host

    @property
    def files(self) -> list:
        return self.host.files

    def __getitem__(self, key):
        return _device(self.host[key])

    def __iter__(self):
        return iter(self.host)

    def __len__(self) -> int:
        return len(self.host)

    def __contains__(self, key) -> bool:
        return key in self.host

    def close(self) -> None:
        self.host.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return "cuarray.NpzFile({!r})".format(self.host)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """See `numpy.load`: a `.npy` array comes back as a cuarray array, an `.npz` file as an
    `NpzFile` whose members are cuarray arrays (`mmap_mode` maps the file, then copies it).

    Examples
    --------
    >>> import cuarray
    >>> import io
    >>> f = io.BytesIO()
    >>> cuarray.save(f, cuarray.array([[1.5, 2.5]]))
    >>> _ = f.seek(0)
    >>> cuarray.load(f)   # a device array
    array([[1.5, 2.5]])
    """
    out = numpy.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                     encoding=encoding, max_header_size=max_header_size)
    if isinstance(out, numpy.lib.npyio.NpzFile):
        return NpzFile(out)
    return _device(out)
