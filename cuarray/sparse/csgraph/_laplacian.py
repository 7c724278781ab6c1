"""The Laplacian of a graph. See `scipy.sparse.csgraph.laplacian`.

SciPy's algorithm step for step, on cuarray's own routines: the degrees are sums along an axis
(less the diagonal), the matrix is the graph negated with the degrees on its diagonal, each
entry divided by the square roots of its two degrees where `normed`. `form='function'` and
`form='lo'` apply the Laplacian to a block of vectors without forming it (the graph's product
with the block and a scaling). No device read: everything stays on the device."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_array
from ..._creation.from_data import array, asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import fill_diagonal, take
from ..._logic.comparison import equal
from ..._manipulation.transpose import transpose
from ..._math.arithmetic import subtract
from ..._math.complex import conjugate
from ..._math.misc import sqrt
from ..._sorting.searching import where
from .._sputils import issparse
from ..linalg._interface import LinearOperator

__all__ = ["laplacian"]


def laplacian(csgraph, normed=False, return_diag=False, use_out_degree=False, *, copy=True, form="array",
              dtype=None, symmetrized=False):
    """See `scipy.sparse.csgraph.laplacian`. A cuarray sparse matrix or array, or a dense cuarray
    array (a NumPy array is refused: call `cuarray.asarray`); the results are cuarray objects
    (`form='lo'` a `cuarray.sparse.linalg.LinearOperator`). As SciPy's, a sparse graph gives a
    COO Laplacian (DIA for a DIA graph that is not `normed`), and `copy=False` may overwrite the
    input."""
    if not issparse(csgraph):
        csgraph = as_array(csgraph, "scipy.sparse.csgraph.laplacian")
    if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("csgraph must be a square matrix or array")
    if normed and (numpy.issubdtype(csgraph.dtype, numpy.signedinteger)
                   or numpy.issubdtype(csgraph.dtype, numpy.uint)):
        csgraph = csgraph.astype(numpy.float64)
    axis = 1 if use_out_degree else 0
    if form == "array":
        make = _sparse if issparse(csgraph) else _dense
    else:
        make = _operator
    lap, d = make(csgraph, normed, axis, copy, form, dtype, symmetrized)
    return (lap, d) if return_diag else lap


def _sums(m, axis):
    return asarray(m.sum(axis=axis)).reshape(-1)  # a sparse matrix's sums are a (1, n) or (n, 1) matrix


def _scale(w):
    """(isolated, w): the vertices of degree 0, and the degrees' square roots (1 where 0)."""
    isolated = equal(w, 0)
    return isolated, where(isolated, 1, sqrt(w))


def _dense(graph, normed, axis, copy, form, dtype, symmetrized):
    del form
    dtype = graph.dtype if dtype is None else dtype
    m = array(graph) if copy else graph
    if symmetrized:
        m += conjugate(transpose(m)).copy()  # a copy: the transpose overlaps the sum
    fill_diagonal(m, 0)
    w = m.sum(axis=axis)
    n = m.shape[0]
    diag = (arange(n), arange(n))
    if normed:
        isolated, w = _scale(w)
        m /= w
        m /= w[:, None]
        m *= -1
        m[diag] = subtract(1, isolated.astype(numpy.int64))
    else:
        m *= -1
        m[diag] = w
    return m.astype(dtype, copy=False), w.astype(dtype, copy=False)


def _sparse(graph, normed, axis, copy, form, dtype, symmetrized):
    del form
    dtype = graph.dtype if dtype is None else dtype
    m, needs_copy = graph, bool(copy)
    if symmetrized:  # (SciPy's sum of two DIA matrices stays DIA; the format is the input's)
        m = m + m.T.conj()
        if graph.format == "dia" and m.format != "dia":
            m = m.todia()
    w = subtract(_sums(m, axis), m.diagonal())
    if normed:
        m = m.tocoo(copy=needs_copy)
        isolated, w = _scale(w)
        m.data /= take(w, m.row)
        m.data /= take(w, m.col)
        m.data *= -1
        m.setdiag(subtract(1, isolated.astype(numpy.int64)))
    else:
        m = m.copy() if m.format == "dia" else m.tocoo(copy=needs_copy)
        m.data *= -1
        m.setdiag(w)
    return m.astype(dtype, copy=False), w.astype(dtype)


def _operator(graph, normed, axis, copy, form, dtype, symmetrized):
    """form 'function' or 'lo': the Laplacian's product with a block v of shape (n, k)."""
    m = graph if issparse(graph) else (array(graph) if copy else graph)
    dtype = m.dtype if dtype is None else dtype
    total = _sums(m, axis)
    diagonal = m.diagonal()
    diag = subtract(total, diagonal)
    if symmetrized:
        total = total + _sums(m, 1 - axis)
        diag = subtract(subtract(total, diagonal), diagonal)

    adjoint = m.T.conj() if symmetrized else None

    def product(v):
        out = v * total[:, None] - m @ v
        if symmetrized:  # SciPy's (v^H m)^H, written m^H v: a product of the graph on the left
            out = out - adjoint @ v
        return out

    fn, d = product, diag
    if normed:
        _, w = _scale(diag)
        nd = 1.0 / w

        def fn(v):
            return nd[:, None] * product(v * nd[:, None])

        d = w
    if form == "function":
        return fn, d.astype(dtype, copy=False)
    if form == "lo":
        return LinearOperator(matvec=fn, matmat=fn, shape=graph.shape, dtype=dtype), d.astype(dtype, copy=False)
    raise ValueError(f"Invalid form: {form!r}")
