"""The optional C extension `_nodecore` (`_core/_native/`, built by setup.py where a compiler
exists): lazy mode's node core (`fusion/graph.py` and the modules beside it) and the ufunc call's
dispatch point (`ufunc.py`). `native` is the module, or None: unbuilt, built from older sources, or
CUARRAY_PURE_PYTHON_NODES=1 (every user then takes its pure-Python reference)."""

from __future__ import annotations

import os

try:  # the C extension (cuarray/_core/_native, built by setup.py where a compiler exists)
    from . import _nodecore
except ImportError:
    _nodecore = None

__all__ = ["native", "record_base", "leaf_class"]

# What these sources use of `_nodecore` (a build made from older sources lacks some).
_NEEDS = ("NodeFields", "TraceFields", "LazyFields", "StateFields", "Live", "memos_cleared", "configure_lazy",
          "configure_trace", "traced_call_operator", "reduce_operator", "UfuncCall", "bind_binary",
          "record_class", "elementwise_run", "LazyBlock", "leaf_class")


def _load():
    if os.environ.get("CUARRAY_PURE_PYTHON_NODES", "") not in ("", "0"):
        return None
    if _nodecore is None:
        return None
    # (a build older than these sources lacks what they use: the Python fallback, not a mix)
    return _nodecore if all(hasattr(_nodecore, n) for n in _NEEDS) else None


native = _load()


def record_base(name: str, fields: tuple):
    """The base of a record class with these fields (its `_fields`): `_nodecore.record_class`'s C
    members where the node core is built (read by index from C: `_native/steady.c` reads a replayed
    step's plan, graph entry and log so), else a class with them as slots. Either way an unset
    field raises AttributeError when read, as a slot does."""
    if native is not None:
        return native.record_class(name, fields)
    return type(name, (), {"__slots__": fields, "_fields": fields})


def leaf_class(kind: str, name: str, methods: type, fields: type) -> type:
    """Lazy mode's `Node` (kind "node") or `LazyArray` ("lazy"): the class `methods` (its methods,
    properties and docstring; `__slots__ = ()`) over its fields. Made in C where the node core is
    built (`_native/leaf_class.c`, over `NodeFields` / `LazyFields`: an instance is freed by the
    fields' own dealloc, not CPython's generic one, and lazy mode frees one or two an operation),
    else `class name(methods, fields)` on the Python slots `fields`. Either way `methods` comes
    first in the MRO and the instances take weak references."""
    if native is not None:
        return native.leaf_class(kind, methods)
    return type(name, (methods, fields), {"__slots__": ("__weakref__",), "__doc__": methods.__doc__,
                                          "__module__": methods.__module__})
