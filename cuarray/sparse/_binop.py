"""Elementwise operations between two sparse matrices (+, -, multiply, maximum, minimum) and
between a sparse matrix and a dense array (multiply).

Sparse with sparse: both sides' keys (`row * n + col`, see `_canonical`) are merged by one sort
into the union of their patterns; each side's values are scattered onto it (zero where absent),
`op` runs once on two dense vectors of the union's length, and explicit zeros of the result are
dropped, as SciPy's `_binopt` does. Result: canonical CSR. One synchronisation for the union's
size, one for the zeros dropped.
"""

from __future__ import annotations

from .._core.ndarray import ndarray
from .._creation.basic import ones, zeros
from .._logic import comparison as _comparison
from .._logic.comparison import not_equal
from .._manipulation.dims import broadcast_to
from .._manipulation.joining import concatenate
from .._math.arithmetic import multiply, remainder
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.searchsorted import searchsorted
from . import _canonical as canon
from . import _sputils
from ._sputils import issparse

__all__ = ["union_binop", "multiply_dense", "compare"]


def _canonical_copy(a):
    if a.has_canonical_format:
        return a
    c = a.copy()
    c.sum_duplicates()
    return c


def union_binop(a, b, op, drop_zeros=True):
    """op(a, b) elementwise over the union of the two patterns; `a`, `b` CSR of one shape."""
    m, n = a.shape
    a, b = _canonical_copy(a), _canonical_copy(b)
    ka = canon.keys_of(*a._coo_parts(), m, n)
    kb = canon.keys_of(*b._coo_parts(), m, n)
    keys = concatenate([ka, kb])
    if keys.size:
        skeys, _ = canon.sort_keys(keys)
        head = ones((skeys.size,), bool)
        head[1:] = not_equal(skeys[1:], skeys[:-1])
        union = skeys[flatnonzero(head)]
    else:
        union = keys
    va = zeros((union.size,), a.dtype)
    vb = zeros((union.size,), b.dtype)
    if ka.size:
        va[searchsorted(union, ka)] = a.data
    if kb.size:
        vb[searchsorted(union, kb)] = b.data
    data = op(va, vb)
    _sputils.check_dtype(data.dtype)
    idt = _sputils.get_index_dtype(maxval=max(m, n, union.size))
    indptr = canon.compress(union, m, n, idt)
    indices = remainder(union, union.dtype.type(n)).astype(idt, copy=False)
    out = a._container("csr")._from_parts(data, indices, indptr, (m, n), True, True)
    if drop_zeros:
        out.eliminate_zeros()
    return out


def multiply_dense(a, d):
    """a * d elementwise with `d` dense (broadcast to a's shape): a's pattern, a sparse result."""
    if d.ndim > 2:
        raise ValueError("inconsistent shapes")
    try:
        db = broadcast_to(d, a.shape)
    except ValueError:
        raise ValueError("inconsistent shapes ({} and {})".format(a.shape, d.shape)) from None
    if a.nnz == 0:
        return a._with_data(multiply(a.data, zeros((), d.dtype)), copy=True)
    row, col = a._coo_parts()
    return a._with_data(multiply(a.data, db[row, col]), copy=True)


# Comparison operators: (cuarray ufunc name, NumPy ufunc for the value at two implicit zeros).
_COMPARE = {"lt": "less", "gt": "greater", "le": "less_equal", "ge": "greater_equal", "eq": "equal",
            "ne": "not_equal"}


def compare(a, other, name):
    """a <op> other with SciPy's result kinds: sparse bool against a sparse matrix or a scalar,
    dense bool against a dense array. Where the comparison holds at an implicit zero (`A <= B`,
    `A == B`, `A > -1`) the result is sparse with every such cell stored (SciPy warns about the
    same inefficiency); it is built from the dense comparison."""
    import numpy

    fn = getattr(_comparison, _COMPARE[name])
    host_fn = getattr(numpy, _COMPARE[name])
    csr_cls = a._container("csr")
    if issparse(other):
        if other.shape != a.shape:
            raise ValueError("inconsistent shapes ({} and {})".format(a.shape, other.shape))
        if not host_fn(0, 0):
            return union_binop(a.tocsr(), other.tocsr(), fn, drop_zeros=True)
        return csr_cls(fn(a.toarray(), other.toarray()))
    if _sputils.isscalarlike(other):
        if not host_fn(0, other):
            c = _canonical_copy(a.tocsr())
            out = c._with_data(fn(c.data, other), copy=True)
            out.eliminate_zeros()
            return out
        return csr_cls(fn(a.toarray(), other))
    if isinstance(other, ndarray):
        return fn(a.toarray(), other)
    return NotImplemented
