"""Lazy expression graphs, kernel fusion and the `fuse` decorator (docs/fusion.md).

graph.py (nodes, shape/dtype inference) -> planner.py (kernels of a graph) -> codegen.py (fused
device functions into the elementwise and reduction engines) ; lazy_mode.py (lazy mode: the
thread's tracer, asked by each traceable operation through `_core/tracing.py`; NumPy leaves with
`evaluate="numpy"`), lazy_array.py (the `LazyArray` type), fuse.py (`cuarray.fuse`), numpy_eval.py
(the same graph evaluated by NumPy).
"""

from .fuse import Fusion, fuse
from .lazy_mode import LazyArray, is_lazy_mode, lazy

__all__ = ["Fusion", "fuse", "LazyArray", "is_lazy_mode", "lazy"]
