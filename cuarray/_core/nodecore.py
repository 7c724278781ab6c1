"""The optional C extension `_nodecore` (`_core/_native/`, built by setup.py where a compiler
exists): lazy mode's node core (`fusion/graph.py` and the modules beside it) and the ufunc call's
dispatch point (`ufunc.py`). `native` is the module, or None: unbuilt, built from older sources, or
CUARRAY_PURE_PYTHON_NODES=1 (every user then takes its pure-Python reference)."""

from __future__ import annotations

import os

__all__ = ["native"]

# What these sources use of `_nodecore` (a build made from older sources lacks some: main's before issue 57).
_NEEDS = ("NodeFields", "TraceFields", "LazyFields", "StateFields", "Live", "memos_cleared", "configure_lazy",
          "configure_trace", "traced_call_operator", "reduce_operator", "UfuncCall", "bind_binary")


def _load():
    if os.environ.get("CUARRAY_PURE_PYTHON_NODES", "") not in ("", "0"):
        return None
    try:
        from . import _nodecore
    except ImportError:
        return None
    # (a build older than these sources lacks what they use: the Python fallback, not a mix)
    return _nodecore if all(hasattr(_nodecore, n) for n in _NEEDS) else None


native = _load()
