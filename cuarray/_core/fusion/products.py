"""The matrix products of a lazy graph: their nodes (`product_node`, `tensordot_node`: NumPy's
shapes, dtypes and errors, the eager routine to run) and how its Program runs them.

A lazy `dot`/`matmul` node runs the eager routine when its graph is computed. For the common
case, two C- or F-contiguous matrices of one cuBLAS dtype, the eager routine's own checks
(host-input conversion, dimension rules, loop dtype, layout derivation) were already done when
the node was built, by the same rules: `prepared` skips them and makes the one GEMM call the
eager routine would make (same cuBLAS call, same operands, same flags), so the result is the
eager one bit for bit. Anything else goes to the eager routine.
"""

from __future__ import annotations

import numpy

from .. import device_check as _device_check
from .. import registry as _registry
from ..ndarray import _new_c, ndarray
from . import graph as _g

__all__ = ["prepared", "product_node", "tensordot_node"]

_NP = {"dot": numpy.dot, "matmul": numpy.matmul}
_eager: dict = {}  # name -> the eager routine a product node runs (the namespace's, found on first use)
_memo: dict = {}  # (name, shapes, dtypes of the operands) -> (shape, dtype, attr) of the product's node


def _eager_routine(name):
    fn = _eager.get(name)
    if fn is None:
        general = getattr(_registry.namespace(), name)
        fn = _eager[name] = prepared(general) if name != "tensordot" else general
    return fn


def product_node(name, na, nb) -> _g.Node:
    """`dot` or `matmul` of two nodes (a scalar or 0-d operand of `dot`: a multiplication)."""
    if name == "dot" and (na.kind == "scalar" or nb.kind == "scalar" or not na.shape or not nb.shape):
        # A Python scalar is an array to `dot` (NumPy's and the eager one's rule), not a weak one.
        na, nb = [_g.Node("scalar", (), (), n.dtype, None, n.value) if n.weak else n for n in (na, nb)]
        return _g.ufunc_node(_registry.ufuncs["multiply"], (na, nb))
    key = (name, na.shape, nb.shape, na.dtype, nb.dtype)
    hit = _memo.get(key)  # (a loop body multiplies the same shapes every iteration)
    if hit is None:
        shape = _g.matmul_shape(na.shape, nb.shape, name)
        dtype = _g._dtypes.normalize_dtype(numpy.result_type(na.dtype, nb.dtype))
        if len(_memo) > 1024:
            _memo.clear()
        hit = _memo[key] = (shape, dtype, (name, _eager_routine(name), _NP[name], (name,)))
    return _g.Node("call", (na, nb), hit[0], hit[1], hit[2])


def tensordot_node(na, nb, axes) -> _g.Node:
    """`tensordot` of two nodes (NumPy's axes rules and "shape-mismatch for sum")."""
    axes, shape = _g.tensordot_axes(na.shape, nb.shape, axes)
    dtype = numpy.result_type(na.dtype, nb.dtype)
    fn = _eager_routine("tensordot")
    return _g.call_node("tensordot", (na, nb), shape, dtype, lambda x, y: fn(x, y, axes),
                        lambda x, y: numpy.tensordot(x, y, axes), ("tensordot", axes))

_blas = []  # `cuarray.cuda.libs.cublas`, once a product has imported it (a list read on the hot path)


def _load_blas() -> list:
    from ...cuda.libs import cublas  # import time: cuBLAS's module (~5 ms), on a lazy product's first use

    _blas[:] = [cublas]
    return _blas


def prepared(general):
    """`general(a, b)` (the eager dot or matmul of two arrays) with its 2-D GEMM and its contiguous
    matrix-vector GEMV cases direct (the eager path's calls, without its dispatch)."""

    def run(a, b):
        if type(a) is ndarray and type(b) is ndarray and not _device_check.active[0]:
            s1, s2 = a._shape, b._shape
            ct = a._dtype
            if len(s1) == 2 and len(s2) == 2 and b._dtype is ct and ct.char in "efdFD":
                m, k = s1
                n = s2[1]
                if k == s2[0] and m and n and k:
                    # The eager 2-D path's layouts (linalg/_matmul.py `_fast_2d`): a row-major C
                    # computed as C^T = B^T A^T in cuBLAS's column-major terms.
                    la = k if a._c else (-m if a._f else 0)
                    lb = n if b._c else (-k if b._f else 0)
                    if la and lb:
                        res = _new_c((m, n), ct)
                        (_blas or _load_blas())[0].gemm(ct.char, "N" if lb > 0 else "T", "N" if la > 0 else "T", n, m, k,
                                 b.data.ptr, abs(lb), a.data.ptr, abs(la), res.data.ptr, n, 1, 0, 0, 0)
                        return res
            elif len(s1) == 2 and len(s2) == 1 and b._dtype is ct and ct.char in "fdFD":
                # The eager matrix-vector path (linalg/_matmul.py `_fast_mv`): one GEMV, without
                # the eager dot's dispatch (a lazy logistic-regression step runs two a step).
                m, k = s1
                if k == s2[0] and m and k and b._strides[0] == ct.itemsize and (a._c or a._f):
                    op, rows, cols, ld = ("T", k, m, k) if a._c else ("N", m, k, m)
                    res = _new_c((m,), ct)
                    if (_blas or _load_blas())[0].gemv(ct.char, op, rows, cols, a.data.ptr, ld, b.data.ptr, 1, res.data.ptr, 1):
                        return res
        return general(a, b)

    return run
