"""einsum and einsum_path: every subscript form NumPy accepts, contracted pairwise along a path,
each pairwise contraction lowered to transposes + one (batched) GEMM.

Lowering of one pair A, B (labels classified against what later steps and the output need):
batch (in both, kept), contracted (in both, not kept), A-only, B-only. A is viewed as
(batch, A-only, contracted) and B as (batch, contracted, B-only) matrices -- without a copy when
the strides allow either grouping, since matmul takes a transposed operand as a flag -- and one
`matmul` does the pair. A pair with nothing to contract is a broadcast multiply. Repeated labels
in one operand are diagonals (a strided view), labels used nowhere else are summed first, and a
length-1 dim meeting a longer one of the same label is dropped (it broadcasts).

`contract` takes a small backend (cuarray's here; NumPy's in the CPU tests), so the lowering is
tested without a GPU. einsum always plans a path (greedy unless told otherwise) because it never
builds NumPy's one-pass nested loop; the numbers are the same.
"""

from __future__ import annotations

import math

import numpy

from .._core import copying as _copying
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._logic.ops import logical_and
from .._logic.truth import any as any_
from .._manipulation.shape import reshape
from .._math.arithmetic import multiply
from .._math.sums import sum as sum_
from . import _einsum_parse as _parse
from . import _einsum_path as _path
from ._matmul import matmul_into

__all__ = ["einsum", "einsum_path", "contract", "plan"]


class CuarrayBackend:
    """The array operations `contract` needs, on cuarray arrays."""

    @staticmethod
    def view(x, shape, strides):
        return ndarray._view(tuple(shape), tuple(strides), x._dtype, x.data, x)

    @staticmethod
    def can_reshape(x, shape):
        return _shapes.reshape_strides(x._shape, x._strides, x._dtype.itemsize, tuple(shape), "C") is not None

    @staticmethod
    def reshape(x, shape):
        return reshape(x, tuple(shape))

    @staticmethod
    def sum(x, axes):
        if not axes:
            return x
        if x._dtype == numpy.bool_:
            return any_(x, axis=tuple(axes))

        return sum_(x, axis=tuple(axes), dtype=x._dtype)

    @staticmethod
    def multiply(x, y):
        if x._dtype == numpy.bool_:
            return logical_and(x, y)
        return multiply(x, y)

    @staticmethod
    def matmul(x, y):
        return matmul_into(x, y)


def _drop_axes(be, x, keep_axes):
    return be.view(x, [x.shape[i] for i in keep_axes], [x.strides[i] for i in keep_axes])


def _prepare(be, x, t, sizes, keep):
    """Diagonals of repeated labels, broadcast length-1 dims dropped, private labels summed."""
    while len(set(t)) != len(t):
        c = next(c for c in t if t.count(c) > 1)
        pos = [i for i, l in enumerate(t) if l == c]
        dims = {x.shape[i] for i in pos}
        if len(dims) > 1:
            a, b = x.shape[pos[0]], next(x.shape[i] for i in pos if x.shape[i] != x.shape[pos[0]])
            raise ValueError("dimensions in single operand for collapsing index '{}' don't match "
                             "({} != {})".format(c, a, b))
        shape = [d for i, d in enumerate(x.shape) if i not in pos[1:]]
        strides = [s for i, s in enumerate(x.strides) if i not in pos[1:]]
        strides[pos[0]] = sum(x.strides[i] for i in pos)
        x = be.view(x, shape, strides)
        t = "".join(l for i, l in enumerate(t) if i not in pos[1:])
    drop = [i for i, c in enumerate(t) if x.shape[i] == 1 and sizes[c] != 1]
    if drop:
        x = _drop_axes(be, x, [i for i in range(len(t)) if i not in drop])
        t = "".join(c for i, c in enumerate(t) if i not in drop)
    return _sum_out(be, x, t, keep)


def _sum_out(be, x, t, keep):
    axes = [i for i, c in enumerate(t) if c not in keep]
    if not axes:
        return x, t
    return be.sum(x, axes), "".join(c for c in t if c in keep)


def _as3(be, x, t, g0, g1, g2):
    """`x` (labels t) as a (batch, rows, cols) array, or 2-D without batch labels; rows = g1."""
    shp = dict(zip(t, x.shape))
    nb, nr, nc = (math.prod(shp[c] for c in g) for g in (g0, g1, g2))
    lead = [nb] if g0 else []
    t1 = x.transpose([t.index(c) for c in g0 + g1 + g2])
    if be.can_reshape(t1, lead + [nr, nc]):
        return be.reshape(t1, lead + [nr, nc])
    t2 = x.transpose([t.index(c) for c in g0 + g2 + g1])
    if be.can_reshape(t2, lead + [nc, nr]):
        m = be.reshape(t2, lead + [nc, nr])
        return m.swapaxes(-1, -2)  # column-major matrices: matmul passes a transpose flag
    return be.reshape(t1, lead + [nr, nc])


def _pair(be, x, tx, y, ty, keep):
    x, tx = _sum_out(be, x, tx, keep | set(ty))
    y, ty = _sum_out(be, y, ty, keep | set(tx))
    batch = [c for c in tx if c in ty and c in keep]
    con = [c for c in tx if c in ty and c not in keep]
    a_only = [c for c in tx if c not in ty]
    b_only = [c for c in ty if c not in tx]
    shp = dict(zip(tx, x.shape))
    shp.update(zip(ty, y.shape))
    out_t = "".join(batch + a_only + b_only)
    out_shape = [shp[c] for c in out_t]
    if not con:
        xt = x.transpose([tx.index(c) for c in batch + a_only])
        yt = y.transpose([ty.index(c) for c in batch + b_only])
        nb, na, nn = len(batch), len(a_only), len(b_only)
        xv = be.view(xt, list(xt.shape) + [1] * nn, list(xt.strides) + [0] * nn)
        yv = be.view(yt, list(yt.shape[:nb]) + [1] * na + list(yt.shape[nb:]),
                     list(yt.strides[:nb]) + [0] * na + list(yt.strides[nb:]))
        return be.multiply(xv, yv), out_t
    a = _as3(be, x, tx, batch, a_only, con)
    b = _as3(be, y, ty, batch, con, b_only)
    return be.reshape(be.matmul(a, b), out_shape), out_t


def plan(inputs, output, sizes, optimize):
    """A path (list of position tuples) for `optimize` (False/True/'greedy'/'optimal'/a path,
    or a (kind, memory_limit) pair)."""
    sets = [frozenset(t) for t in inputs]
    n = len(sets)
    limit = None
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return _path.validate(optimize, n)
    if isinstance(optimize, tuple) and len(optimize) == 2:
        optimize, limit = optimize
        limit = None if limit is None else int(limit)
    if n <= 2 or frozenset().union(*sets) <= frozenset(output):
        return [tuple(range(n))]  # nothing to choose (NumPy's rule too)
    if optimize == "optimal" and n <= 8:
        return _path.optimal(sets, output, sizes, limit)
    if optimize in (False, True, "greedy", "optimal", None):
        return _path.greedy(sets, output, sizes, limit)
    raise TypeError("Did not understand the path (optimize): {!r}".format(optimize))


def contract(be, ops, inputs, output, sizes, path):
    """Run `path` over the operands (already of the result dtype); returns the result."""
    terms = list(inputs)
    given = ops = list(ops)
    for i in range(len(ops)):
        keep = set(output).union(*(terms[j] for j in range(len(terms)) if j != i))
        ops[i], terms[i] = _prepare(be, ops[i], terms[i], sizes, keep)
    for step in path:
        if len(step) == 1 and len(ops) == 1:
            break
        rest = [j for j in range(len(ops)) if j not in step]
        x, tx = ops[step[0]], terms[step[0]]
        for k, p in enumerate(step[1:], 1):
            keep = set(output).union(*(terms[j] for j in rest), *(terms[q] for q in step[k + 1:]))
            x, tx = _pair(be, x, tx, ops[p], terms[p], keep)
        ops = [ops[j] for j in rest] + [x]
        terms = [terms[j] for j in rest] + [tx]
    while len(ops) > 1:  # a path that stopped early: finish left to right
        x, tx = _pair(be, ops[0], terms[0], ops[1], terms[1], set(output).union(*terms[2:]))
        ops, terms = [x] + ops[2:], [tx] + terms[2:]
    x, tx = _sum_out(be, ops[0], terms[0], set(output))
    if tx != output:
        return x.transpose([tx.index(c) for c in output])
    if any(x is op for op in given):  # 'ij->ij': a new view, as NumPy's, never the operand itself
        return be.view(x, x.shape, x.strides)
    return x


def _show(text: str) -> str:
    """Private ellipsis labels printed as NumPy's path report would (as letters it did not use)."""
    return "".join(c if ord(c) < _parse.ELLIPSIS_BASE else "." for c in text)


def _setup(args):
    subscripts, ops = _parse.split_operands(args)
    ops = [as_array(x, "einsum") for x in ops]
    shapes = [x._shape for x in ops]
    inputs, output = _parse.parse(subscripts, shapes)
    sizes = _parse.label_sizes(inputs, shapes)
    return ops, inputs, output, sizes


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """See `numpy.einsum`. Every operand pair is one GEMM (see the module docstring); with
    ``optimize=False`` the order is still planned (greedy), as the result does not depend on it.
    One operand whose labels are all kept gives its view, whatever `dtype` and `casting` say (NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.einsum('ij->ji', a)
    array([[0, 3],
           [1, 4],
           [2, 5]])
    >>> cuarray.einsum('ij,j->i', a, cuarray.array([1, 0, 1]))
    array([2, 8])
    >>> int(cuarray.einsum('ii', cuarray.arange(9).reshape(3, 3)))
    12
    """
    ops, inputs, output, sizes = _setup(operands)
    if optimize in (False, True, "greedy", "optimal"):  # intermediates no larger than NumPy allows
        optimize = ("greedy" if optimize in (False, True) else optimize,
                    default_memory_limit(inputs, output, sizes))
    if len(ops) == 1 and out is None and set(inputs[0]) <= set(output):
        # One operand whose every label is kept (a transpose, a diagonal, '...'): NumPy returns its
        # view before it reads dtype= and casting= (einsum('ijk->kji', int32, dtype=uint8) is the
        # int32 view, datetime64 too); a sum over a label does take them.
        return contract(CuarrayBackend, ops, inputs, output, sizes, plan(inputs, output, sizes, optimize))
    ct = _dtypes.result_type(*[x._dtype for x in ops]) if dtype is None else _dtypes.normalize_dtype(dtype)
    if ct.kind in "Mm":  # NumPy's refusal (its einsum has no datetime loops)
        raise TypeError("invalid data type for einsum")
    for i, x in enumerate(ops):
        if x._dtype != ct:
            if not _dtypes.can_cast(x._dtype, ct, casting):
                raise TypeError("Cannot cast array data from dtype('{}') to dtype('{}') according to "
                                "the rule '{}'".format(x._dtype, ct, casting))
            ops[i] = _copying.astype(x, ct)
    path = plan(inputs, output, sizes, optimize)
    res = contract(CuarrayBackend, ops, inputs, output, sizes, path)
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray array")
    if out._shape != res._shape:
        raise ValueError("output operand has shape {}, the einsum result has {}".format(out._shape, res._shape))
    if not _dtypes.can_cast(ct, out._dtype, casting):
        raise TypeError("Cannot cast array data from dtype('{}') to dtype('{}') according to the "
                        "rule '{}'".format(ct, out._dtype, casting))
    _copying.copyto_unchecked(out, _copying.unaliased(res, out))
    return out


def default_memory_limit(inputs, output, sizes) -> int:
    """NumPy's: the largest input or output, each term sized by its labels' broadcast sizes (an
    operand of shape (2, 1) under 'ab' counts as 2 x size(b), not as 2)."""
    return max(math.prod(sizes[c] for c in t) for t in list(inputs) + [output])


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """See `numpy.einsum_path`: (path, report). The greedy planner follows NumPy's rules, with
    NumPy's default memory limit (the largest input or output).

    Examples
    --------
    >>> import cuarray
    >>> a, b, c = cuarray.ones((2, 30)), cuarray.ones((30, 40)), cuarray.ones((40, 5))
    >>> path, report = cuarray.einsum_path('ij,jk,kl->il', a, b, c, optimize='greedy')
    >>> path
    ['einsum_path', (1, 2), (0, 1)]
    """
    ops, inputs, output, sizes = _setup(operands)
    if optimize is True:
        optimize = "greedy"
    if optimize is False:
        path = [tuple(range(len(ops)))]
    else:
        if isinstance(optimize, str):
            limit = default_memory_limit(inputs, output, sizes)
            optimize = (optimize, limit)
        path = plan(inputs, output, sizes, optimize)
    text = _path.report(inputs, output, sizes, path, _show)
    return ["einsum_path"] + path, text
