"""`cuarray` standing for NumPy and SciPy in a docstring's Examples: the meaning an example has on
a machine without a GPU. tests/test_docstring_examples.py runs every example through it (the
printed answer must be NumPy's or SciPy's, the one cuarray promises) and
scripts/docstring_examples.py writes the examples' outputs with it: one definition for both."""

from __future__ import annotations

import importlib
import types

import numpy

# What each namespace stands for; cuarray's own (cuda, profiler, testing, distributed, bench) none.
COUNTERPART = {"cuarray": "numpy", "cuarray.scipy": "scipy", "cuarray.sparse": "scipy.sparse"}
_OWN = ("cuda", "profiler", "testing", "distributed", "bench")
# Names NumPy has dropped, spelled as cuarray's docstring says they are computed.
_GONE = {"cuarray.in1d": lambda ar1, ar2, **kw: numpy.isin(ar1, ar2, **kw).ravel()}


def counterpart(modname):
    """numpy.linalg for cuarray.linalg, scipy.special for cuarray.scipy.special, ...; None for
    cuarray's own namespaces."""
    for prefix in sorted(COUNTERPART, key=len, reverse=True):
        if modname == prefix or modname.startswith(prefix + "."):
            rest = modname[len(prefix):]
            if prefix == "cuarray" and rest.split(".")[1:2] in [[n] for n in _OWN]:
                return None
            return COUNTERPART[prefix] + rest
    return None


class AsNumPy(types.ModuleType):
    """`cuarray` (or one of its namespaces) standing for NumPy's or SciPy's module: attributes
    resolve there, namespaces to stand-ins of their own; `asnumpy` is NumPy's asarray."""

    def __init__(self, modname="cuarray"):
        super().__init__(modname)
        self._modname = modname

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        sub = self._modname + "." + name
        if isinstance(getattr(importlib.import_module(self._modname), name, None), types.ModuleType):
            return AsNumPy(sub)
        if sub == "cuarray.asnumpy":
            return numpy.asarray
        target = importlib.import_module(counterpart(self._modname))
        if sub in _GONE and not hasattr(target, name):
            return _GONE[sub]
        return getattr(target, name)
