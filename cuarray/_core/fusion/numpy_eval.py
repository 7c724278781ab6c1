"""Evaluate a graph with NumPy on host copies of its inputs: `LazyArray.numpy()`.

The same nodes, the same scalars (Python scalars stay weak, as NEP 50 wants), NumPy's own
functions: the parity test of a lazy or fused computation is `numpy()` against the GPU value, and
the whole evaluation of a `lazy(evaluate="numpy")` graph, whose leaves are NumPy arrays.
"""

from __future__ import annotations

import numpy

from .. import reduction_ops as _rops

__all__ = ["evaluate"]


def evaluate(node) -> numpy.ndarray:
    """NumPy's value of `node` (a host ndarray)."""
    memo: dict = {}
    return numpy.asarray(_eval(node, memo))


def _eval(n, memo):
    v = memo.get(id(n))
    if v is not None:
        return v
    k = n.kind
    if k == "array" or (k != "scalar" and not n.args):
        v = n.value if type(n.value) is numpy.ndarray else n.value.get()  # (a NumPy leaf as it is)
    elif k == "scalar":  # (a strong Python scalar, `dot`'s: the NumPy scalar of its dtype)
        v = n.value if n.weak or isinstance(n.value, numpy.generic) else n.dtype.type(n.value)
    else:
        args = [_eval(a, memo) for a in n.args]
        if k == "ufunc":
            v = n.attr[0]._np(*args)
        elif k == "cast":
            v = numpy.asarray(args[0]).astype(n.dtype)
        elif k == "where":
            v = numpy.where(*args)
        elif k == "reduce":
            op_name, raxes, keepdims, dt = n.attr
            kw = {"axis": raxes, "keepdims": keepdims}
            if dt is not None:
                kw["dtype"] = dt
            v = _rops.OPS[op_name].np_fn(args[0], **kw)
        elif k == "call":
            v = n.attr[2](*args)
        else:
            raise AssertionError(k)
    memo[id(n)] = v
    return v
