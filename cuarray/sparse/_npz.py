"""save_npz and load_npz: SciPy's file format, through the host. See `scipy.sparse.save_npz`."""

from __future__ import annotations

from ._base import container

__all__ = ["save_npz", "load_npz"]


def save_npz(file, matrix, compressed=True):
    """See `scipy.sparse.save_npz` (copies the matrix to the host, then writes SciPy's file).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'a.npz')
    >>> sparse.save_npz(path, sparse.csr_matrix(cuarray.array([[0., 3.], [4., 0.]])))
    >>> sparse.load_npz(path).toarray()
    array([[0., 3.],
           [4., 0.]])
    """
    import scipy.sparse as host

    host.save_npz(file, matrix.get(), compressed=compressed)


def load_npz(file):
    """See `scipy.sparse.load_npz`: the same format and kind (matrix or array) on the device
    (every format SciPy writes: CSR, CSC, BSR, DIA, COO).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'a.npz')
    >>> sparse.save_npz(path, sparse.csr_matrix(cuarray.array([[0., 3.], [4., 0.]])))
    >>> sparse.load_npz(path).toarray()
    array([[0., 3.],
           [4., 0.]])
    """
    import scipy.sparse as host

    h = host.load_npz(file)
    fmt = h.format if h.format in ("csr", "csc", "coo", "dia", "bsr") else "csr"
    return container(fmt, isinstance(h, host.sparray))(h.asformat(fmt))
