"""`cuarray.fuse`: CuPy's decorator on the lazy-mode engine.

The first call with a new signature (per argument: dtype and shape of an array, type of a
scalar) runs the function once in lazy mode with its arguments as graph inputs, which traces
it (Python control flow runs then, on real shapes and dtypes), plans the graph into a
`Program` and keeps it. Every later call with that signature is one dictionary look-up, then
the Program's launches: one kernel for an elementwise function, one reduction kernel when it
ends in a reduction (the elementwise part computed in the reduction's load).

Scalar arguments are graph inputs too (kernel arguments), never constants of the trace: a
second call with another value reuses the kernel. With NumPy arrays and no device array among
its arguments, a fused function runs on any machine: its graph with NumPy leaves, evaluated by
NumPy (`lazy(evaluate="numpy")`), as CuPy's fuse runs the plain function there.
"""

from __future__ import annotations

import functools

import numpy

from ..host_input import reject
from ..ndarray import ndarray
from . import graph as _g
from . import lazy_mode as _lazy
from .planner import _Call, plan
from ..dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["fuse", "Fusion"]

_NUMPY = object()  # the signature entry of a NumPy array argument


class Fusion:
    """A fused function (see `cuarray.fuse`). `explain(*args)` shows the graph, the plan and
    the generated CUDA of the call with those arguments."""

    def __init__(self, func, kernel_name=None):
        self._func = func
        self._name = kernel_name
        self._cache = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        return "<Fusion '{}'>".format(self.__name__)

    def __call__(self, *args):
        key = []
        for a in args:
            if type(a) is ndarray:
                key.append((a._dtype, a._shape))
            elif type(a) in _PY_SCALARS:
                key.append(type(a))
            elif a is None:  # passed through as None, as cupy.fuse does (`def f(x, y=None)`)
                key.append(None)
            else:
                key.append(self._key_of(a))
        key = tuple(key)
        if _NUMPY in key:  # no device array: the function on NumPy data, evaluated by NumPy
            return self._numpy_call(args)
        if not any(type(k) is tuple for k in key):
            # Python and NumPy scalars only: the plain function, as CuPy's fuse runs it (so code
            # written with get_array_module gives NumPy's scalar, with no device involved).
            return self._func(*args)
        run = self._cache.get(key)
        if run is None:
            run = self._cache[key] = self._trace(args)
        return run(args)

    @staticmethod
    def _key_of(a):
        if isinstance(a, ndarray):
            return (a._dtype, a._shape)
        if isinstance(a, numpy.generic):
            return a.dtype
        if type(a) is _lazy.LazyArray:
            raise TypeError("cuarray.fuse: pass computed arrays (a lazy array was given)")
        if type(a) is numpy.ndarray:
            return _NUMPY
        raise reject(a, "fuse")

    def _numpy_call(self, args):
        """A call with NumPy arrays and no device array: the same graph, with NumPy arrays as its
        leaves, evaluated by NumPy (`lazy(evaluate="numpy")`); NumPy arrays come back. (CuPy's
        fuse runs the plain function on such arguments.) With a device array too: TypeError, the
        host-input policy."""
        if any(isinstance(a, ndarray) for a in args):
            raise reject(next(a for a in args if type(a) is numpy.ndarray), "fuse")
        return _lazy.lazy(self._func, evaluate="numpy")(*args)

    def _graph(self, args):
        nodes = [None if a is None else _g.array_node(a) if isinstance(a, ndarray) else _g.scalar_node(a)
                 for a in args]
        with _lazy.lazy(_track=False):
            out = self._func(*[None if n is None else _lazy.LazyArray(n) for n in nodes])
            # Results are taken before leaving the context (which would compute them).
            outs = out if isinstance(out, tuple) else (out,)
            res = [o._node if type(o) is _lazy.LazyArray else _lazy.as_node(o) for o in outs]
        return nodes, res, isinstance(out, tuple)

    def _trace(self, args):
        nodes, res, is_tuple = self._graph(args)
        prog = plan(res, kernel_name=self._name, dedupe=False)
        pos = {id(n): k for k, n in enumerate(nodes) if n is not None}
        binders = tuple((pos.get(id(n), -1), n.value) for n in prog.inputs)
        steps = prog.steps
        outputs = prog.outputs
        # (A step that calls an eager routine, a product, goes through `Program.run`, which
        # suspends tracing: a fused function called inside lazy mode launches it.)
        if len(steps) == 1 and len(outputs) == 1 and outputs[0] == len(binders) and not isinstance(steps[0], _Call):
            # The common case, one kernel: launched from the arguments, constants converted once.
            bound = getattr(steps[0], "bind", lambda b: None)(binders)
            if bound is not None:
                return bound
            step_run = steps[0].run

            def run(args):
                return step_run([args[k] if k >= 0 else v for k, v in binders])

            return run

        def run_general(args):
            out = prog.run([args[k] if k >= 0 else v for k, v in binders])
            return tuple(out) if is_tuple else out[0]

        return run_general

    def explain(self, *args) -> str:
        nodes, res, _ = self._graph(args)
        return plan(res, kernel_name=self._name, dedupe=False).explain()


def fuse(*args, kernel_name=None):
    """See `cupy.fuse`: `@cuarray.fuse()` or `@cuarray.fuse(kernel_name=...)` (or plain `@fuse`)
    compiles a function of elementwise operations, optionally ending in reductions, into one
    kernel per signature. GPU notes: the trace is per (dtype, shape) of each array argument;
    in-place updates of arguments (`x += y` inside) are not written back.

    Examples
    --------
    >>> import numpy as np
    >>> import cuarray
    >>> @cuarray.fuse
    ... def axpb(x, a, b):
    ...     return a * x + b
    >>> axpb(np.arange(3.0), 2.0, 1.0)            # NumPy arrays: the function runs on NumPy
    array([1., 3., 5.])

    On cuarray arrays the same call is one kernel: ``axpb(cuarray.arange(3.0), 2.0, 1.0)``.
    """
    if len(args) == 1 and callable(args[0]):
        return Fusion(args[0], kernel_name)
    return lambda f: Fusion(f, kernel_name)
