"""Building sparse matrices: eye, identity, diags, spdiags, random, kron, kronsum, hstack,
vstack, bmat, block_diag. See `scipy.sparse` (construction functions).

Results are assembled as COO triplets on the device and converted once to the requested format.
Functions named `*_array` (and the stacking functions given any sparse array) return sparse
arrays; the others return sparse matrices, as in SciPy.
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty, ones, zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._manipulation.joining import concatenate
from .._math.arithmetic import add, floor_divide, multiply, remainder
from . import _sputils
from ._base import container, sparray
from ._sputils import issparse

__all__ = ["eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "random", "random_array",
           "rand", "kron", "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag"]

_I64 = numpy.dtype(numpy.int64)


def _coo(data, row, col, shape, is_array):
    m, n = shape
    idt = _sputils.get_index_dtype(maxval=max(m, n))
    return container("coo", is_array)._from_parts(data, row.astype(idt, copy=False), col.astype(idt, copy=False),
                                                  (m, n))


def _eye(m, n, k, dtype, format, is_array):  # noqa: A002
    n = m if n is None else n
    dtype = _sputils.check_dtype(dtype)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    r = arange(length, dtype=_I64)
    coo = _coo(ones((length,), dtype), add(r, max(-k, 0)), add(r, max(k, 0)), (m, n), is_array)
    coo._canon = coo._dedup = True
    return coo.asformat(format or "dia")


def eye(m, n=None, k=0, dtype=float, format=None):  # noqa: A002
    """See `scipy.sparse.eye` (a sparse matrix).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.eye(3, k=1).toarray()
    array([[0., 1., 0.],
           [0., 0., 1.],
           [0., 0., 0.]])
    """
    return _eye(m, n, k, dtype, format, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):  # noqa: A002
    """See `scipy.sparse.eye_array`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.eye_array(2, format='csr').toarray()
    array([[1., 0.],
           [0., 1.]])
    """
    return _eye(m, n, k, dtype, format, True)


def identity(n, dtype="d", format=None):  # noqa: A002
    """See `scipy.sparse.identity`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.identity(2).toarray()
    array([[1., 0.],
           [0., 1.]])
    """
    return _eye(n, n, 0, dtype, format, False)


def _diags(diagonals, offsets, shape, format, dtype, is_array):  # noqa: A002
    if _sputils.isscalarlike(offsets):
        if len(diagonals) == 0 or _sputils.isscalarlike(diagonals[0]) or \
                (isinstance(diagonals[0], ndarray) and diagonals[0].ndim == 0):
            diagonals = [diagonals]
        offsets = [offsets]
    offsets = [int(k) for k in offsets]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    diagonals = [d if isinstance(d, ndarray) else asarray(numpy.asarray(d)) for d in diagonals]
    if shape is None:
        m = diagonals[0].size + abs(offsets[0])
        shape = (m, m)
    m, n = _sputils.check_shape(shape)
    if dtype is None:
        dtype = numpy.result_type(*[d.dtype for d in diagonals])
    dtype = _sputils.check_dtype(dtype)
    data = zeros((len(offsets), n), dtype)
    for i, (d, k) in enumerate(zip(diagonals, offsets)):
        length = min(m + k, n) - max(0, k)
        if length <= 0:
            raise ValueError("Offset {} (index {}) out of bounds".format(k, i))
        d = d.reshape(-1)
        if d.size != length and d.size != 1:
            raise ValueError("Diagonal length (index {}: {} at offset {}) does not agree with array size "
                             "({}, {}).".format(i, d.size, k, m, n))
        data[i, max(0, k):max(0, k) + length] = d.astype(dtype)
    idt = _sputils.get_index_dtype(maxval=max(m, n))
    dia = container("dia", is_array)._from_parts(data, asarray(numpy.array(offsets, idt)), (m, n))
    return dia.asformat(format)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.diags` (diagonals: cuarray arrays or scalars).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.diags([1., -2., 1.], [-1, 0, 1], shape=(3, 3)).toarray()
    array([[-2.,  1.,  0.],
           [ 1., -2.,  1.],
           [ 0.,  1., -2.]])
    """
    return _diags(diagonals, offsets, shape, format, dtype, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.diags_array`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.diags_array([1., -2., 1.], offsets=[-1, 0, 1], shape=(3, 3)).toarray()
    array([[-2.,  1.,  0.],
           [ 1., -2.,  1.],
           [ 0.,  1., -2.]])
    """
    return _diags(diagonals, offsets, shape, format, dtype, True)


def spdiags(data, diags, m=None, n=None, format=None):  # noqa: A002
    """See `scipy.sparse.spdiags` (`data` a 2-D cuarray array, one row per diagonal).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> data = cuarray.array([[1., 2., 3.], [4., 5., 6.]])
    >>> sparse.spdiags(data, [0, 1], 3, 3).toarray()
    array([[1., 5., 0.],
           [0., 2., 6.],
           [0., 0., 3.]])
    """
    if m is None and n is None:
        m = n = data.shape[1]
    elif n is None:
        m, n = m
    offs = diags if isinstance(diags, ndarray) else asarray(numpy.atleast_1d(numpy.asarray(diags)))
    return container("dia", False)((data, offs), shape=(m, n)).asformat(format)


def _random(m, n, density, format, dtype, random_state, is_array):  # noqa: A002
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dtype = _sputils.check_dtype(numpy.float64 if dtype is None else dtype)
    mn = m * n
    k = int(round(density * mn))
    from ..random import default_rng  # import time: 40-120 ms of a first sparse product that draws nothing

    rng = random_state if hasattr(random_state, "choice") else default_rng(random_state)
    cells = rng.choice(mn, size=k, replace=False).astype(_I64) if k else empty((0,), _I64)
    if dtype.kind in "iu":
        vals = rng.integers(0 if dtype.kind == "u" else -100, 100, size=k).astype(dtype)
    elif dtype.kind == "b":
        vals = ones((k,), dtype)
    elif dtype.kind == "c":
        vals = add(rng.random(k), multiply(rng.random(k), 1j)).astype(dtype)
    else:
        vals = rng.random(k).astype(dtype)
    row, col = floor_divide(cells, n if n else 1), remainder(cells, n if n else 1)
    coo = _coo(vals, row, col, (m, n), is_array)
    coo._dedup = True
    return coo.asformat(format)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, *,  # noqa: A002
           random_state=None):
    """See `scipy.sparse.random`: `density * m * n` distinct cells, values uniform in [0, 1)
    (integers in [-100, 100)). `rng` (or SciPy's older `random_state`) is a seed or a cuarray
    Generator; `data_rvs` is not supported. Values differ from SciPy's (another generator).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> s = sparse.random(4, 5, density=0.25, format='csr')
    >>> s.shape, s.nnz
    ((4, 5), 5)
    """
    if data_rvs is not None:
        raise NotImplementedError("data_rvs is not supported; scale the result's data instead")
    return _random(m, n, density, format, dtype, _seed(rng, random_state), False)


def _seed(rng, random_state):
    """SciPy's `rng`, or its older name `random_state` (not both, as SciPy)."""
    if rng is not None and random_state is not None:
        raise TypeError("specify only one of `rng` and `random_state`")
    return random_state if rng is None else rng


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *, random_state=None):  # noqa: A002
    """See `scipy.sparse.rand`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> s = sparse.rand(4, 5, density=0.25, format='csr')
    >>> s.shape, s.nnz
    ((4, 5), 5)
    """
    return _random(m, n, density, format, dtype, _seed(rng, random_state), False)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None,  # noqa: A002
                 random_state=None):
    """See `scipy.sparse.random_array` (2-D).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> s = sparse.random_array((4, 5), density=0.25, format='csr')
    >>> s.shape, s.nnz
    ((4, 5), 5)
    """
    if data_sampler is not None:
        raise NotImplementedError("data_sampler is not supported")
    m, n = _sputils.check_shape(shape)
    return _random(m, n, density, format, dtype, _seed(rng, random_state), True)


def kron(A, B, format=None):  # noqa: A002
    """See `scipy.sparse.kron` (both operands sparse or cuarray 2-D arrays); COO by default.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.kron(sparse.eye(2), cuarray.array([[1., 2.], [3., 4.]])).toarray()
    array([[1., 2., 0., 0.],
           [3., 4., 0., 0.],
           [0., 0., 1., 2.],
           [0., 0., 3., 4.]])
    """
    is_array = isinstance(A, sparray) or isinstance(B, sparray)
    a = (A if issparse(A) else container("coo", is_array)(A)).tocoo()
    b = (B if issparse(B) else container("coo", is_array)(B)).tocoo()
    (ma, na), (mb, nb) = a.shape, b.shape
    shape = (ma * mb, na * nb)
    if a.nnz == 0 or b.nnz == 0:
        return container("coo", is_array)(shape, dtype=_sputils.upcast(a.dtype, b.dtype)).asformat(format)
    row = add(multiply(a.row.astype(_I64).reshape(-1, 1), mb), b.row.astype(_I64).reshape(1, -1)).reshape(-1)
    col = add(multiply(a.col.astype(_I64).reshape(-1, 1), nb), b.col.astype(_I64).reshape(1, -1)).reshape(-1)
    data = multiply(a.data.reshape(-1, 1), b.data.reshape(1, -1)).reshape(-1)
    return _coo(data, row, col, shape, is_array).asformat(format)


def kronsum(A, B, format=None):  # noqa: A002
    """See `scipy.sparse.kronsum`: kron(I_n, A) + kron(B, I_m) for square A (m x m), B (n x n).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))
    >>> sparse.kronsum(a, sparse.identity(2)).toarray()
    array([[2., 2., 0., 0.],
           [3., 5., 0., 0.],
           [0., 0., 2., 2.],
           [0., 0., 3., 5.]])
    """
    if A.shape[0] != A.shape[1] or B.shape[0] != B.shape[1]:
        raise ValueError("A and B must be square")
    is_array = isinstance(A, sparray) or isinstance(B, sparray)
    dt = _sputils.upcast(A.dtype, B.dtype)
    i_m = _eye(A.shape[0], None, 0, dt, "coo", is_array)
    i_n = _eye(B.shape[0], None, 0, dt, "coo", is_array)
    return (kron(i_n, A, "csr") + kron(B, i_m, "csr")).asformat(format)


def bmat(blocks, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.bmat` (blocks: a 2-D list of sparse matrices or None).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.]]))
    >>> sparse.bmat([[a, None], [None, a]]).toarray()
    array([[1., 2., 0., 0.],
           [0., 0., 1., 2.]])
    """
    return _blocks(blocks, format, dtype, False)


def block_array(blocks, *, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.block_array`: `bmat` whose result is a sparse array whatever the blocks.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.]]))
    >>> b = sparse.block_array([[a, None], [None, a]], format='csr')
    >>> type(b).__name__, b.shape
    ('csr_array', (2, 4))
    """
    return _blocks(blocks, format, dtype, True)


def _blocks(blocks, format, dtype, is_array):  # noqa: A002
    """The block matrix of `blocks`, a sparse array where `is_array` or where a block is one."""
    # rows are sequences of blocks, as SciPy's object array of them is 2-D: a 1-D list of sparse
    # matrices is no block matrix (list() of one would iterate its rows)
    if not all(isinstance(r, (list, tuple, numpy.ndarray)) for r in blocks):
        raise ValueError("blocks must be 2-D")
    blocks = [list(r) for r in blocks]
    if not blocks or any(len(r) != len(blocks[0]) for r in blocks):
        raise ValueError("blocks must be 2-D")
    if format is None:
        # SciPy's default format: CSR where every block is a CSR matrix (no None), CSC likewise,
        # COO otherwise (a program that stacks CSR matrices reads the result's indptr)
        formats = {b._format if issparse(b) else None for r in blocks for b in r}
        format = formats.pop() if formats in ({"csr"}, {"csc"}) else None  # noqa: A001
    nr, nc = len(blocks), len(blocks[0])
    heights, widths = [None] * nr, [None] * nc
    for i in range(nr):
        for j in range(nc):
            b = blocks[i][j]
            if b is None:
                continue
            if not issparse(b):
                b = blocks[i][j] = container("coo", False)(b)
            is_array = is_array or isinstance(b, sparray)
            if heights[i] is None:
                heights[i] = b.shape[0]
            elif heights[i] != b.shape[0]:
                raise ValueError("blocks[{},:] has incompatible row dimensions. Got blocks[{},{}].shape[0] == {}, "
                                 "expected {}.".format(i, i, j, b.shape[0], heights[i]))
            if widths[j] is None:
                widths[j] = b.shape[1]
            elif widths[j] != b.shape[1]:
                raise ValueError("blocks[:,{}] has incompatible column dimensions. Got blocks[{},{}].shape[1] == "
                                 "{}, expected {}.".format(j, i, j, b.shape[1], widths[j]))
    if any(h is None for h in heights) or any(w is None for w in widths):
        raise ValueError("blocks has an empty row or column (every block None); its size is unknown")
    r_off = numpy.concatenate([[0], numpy.cumsum(heights)]).tolist()
    c_off = numpy.concatenate([[0], numpy.cumsum(widths)]).tolist()
    parts = [(blocks[i][j].tocoo(), r_off[i], c_off[j]) for i in range(nr) for j in range(nc)
             if blocks[i][j] is not None]
    dt = numpy.dtype(dtype) if dtype is not None else _sputils.upcast(*[p[0].dtype for p in parts])
    shape = (r_off[-1], c_off[-1])
    nz = [p for p in parts if p[0].nnz]
    if not nz:
        return container("coo", is_array)(shape, dtype=dt).asformat(format)
    data = concatenate([p.data.astype(dt, copy=False) for p, _, _ in nz])
    row = concatenate([add(p.row.astype(_I64), r) for p, r, _ in nz])
    col = concatenate([add(p.col.astype(_I64), c) for p, _, c in nz])
    return _coo(data, row, col, shape, is_array).asformat(format)


def hstack(blocks, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.hstack`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.]]))
    >>> sparse.hstack([a, a]).toarray()
    array([[1., 2., 1., 2.]])
    """
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.vstack`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.]]))
    >>> sparse.vstack([a, a]).toarray()
    array([[1., 2.],
           [1., 2.]])
    """
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):  # noqa: A002
    """See `scipy.sparse.block_diag`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 2.]]))
    >>> sparse.block_diag([a, a]).toarray()
    array([[1., 2., 0., 0.],
           [0., 0., 1., 2.]])
    """
    mats = list(mats)
    rows = [[m if i == j else None for j in range(len(mats))] for i, m in enumerate(mats)]
    for i, m in enumerate(mats):  # the off-diagonal sizes come from the diagonal blocks
        if not issparse(m):
            rows[i][i] = container("coo", False)(m)
    return bmat(rows, format=format, dtype=dtype)
