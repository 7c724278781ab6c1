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

__all__ = ["native", "record_base", "leaf_class", "LAYOUTS", "C_ONLY", "members"]

# The one declaration of each C struct's fields that Python code reads (`_native/nodecore.h`, and
# `LazyBlock` in lazy_block.c), in their order in the struct: the C code indexes the run of fields
# (its TF_/SF_ enums, the GC loops, `Trace.__init__`'s values), so an order that differs from the
# Python names reads one field as another. The pure-Python fallbacks take these tuples as their
# `__slots__`; a built module whose members differ is not used (`_load`); the C sources are checked
# against them by tests/_core/test_node_layout_cpu.py (struct members, enums, member tables, counts).
# A struct's field is the Python name without its leading underscore (`_node` is `node`).
LAYOUTS = {
    "NodeFields": ("kind", "args", "shape", "dtype", "attr", "value", "weak", "cost", "seg", "pos"),
    "TraceFields": ("id", "ops", "leaves", "values", "by_value", "ordinal", "cacheable", "t0", "held", "expect"),
    "LazyFields": ("_node",),
    "StateFields": ("live", "trace", "internal", "depth", "host", "plans"),
    "LazyBlock": ("_fn", "_evaluate", "_host", "_track", "_saved", "_prev", "_host_saved"),
}
# Fields past those, C's own (no member: live.c's links of a LazyArray into its thread's live set)
C_ONLY = {"LazyFields": ("owner", "prev", "next")}

# What these sources use of `_nodecore` (a build made from older sources lacks some).
_NEEDS = ("NodeFields", "TraceFields", "LazyFields", "StateFields", "Live", "memos_cleared", "configure_lazy",
          "configure_trace", "traced_call_operator", "reduce_operator", "UfuncCall", "bind_binary",
          "record_class", "elementwise_run", "LazyBlock", "leaf_class")


def members(cls) -> tuple:
    """The names of a class's own member descriptors (a C type's `PyMemberDef`s, or `__slots__`),
    in their order."""
    return tuple(k for k, v in vars(cls).items() if type(v).__name__ == "member_descriptor")


def _layout_matches(mod) -> bool:
    """Whether the built types have LAYOUTS' members in order, and no more fields than it says."""
    for name, fields in LAYOUTS.items():
        t = getattr(mod, name)
        n = len(fields) + len(C_ONLY.get(name, ()))
        if members(t) != fields or t.__basicsize__ != object.__basicsize__ + n * 8:
            return False
    return True


def _load():
    if os.environ.get("CUARRAY_PURE_PYTHON_NODES", "") not in ("", "0"):
        return None
    if _nodecore is None:
        return None
    # (a build older than these sources lacks what they use, or lays its fields out otherwise: the
    # Python fallback, not a mix)
    ok = all(hasattr(_nodecore, n) for n in _NEEDS) and _layout_matches(_nodecore)
    return _nodecore if ok else None


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
