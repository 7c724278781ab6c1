"""Run cuarray.sparse's logic on the CPU: NumPy stands in for the dense routines (`_xp`), for
the sort engine and for cuSPARSE (the integer fallback path serves every dtype), so format
planning, canonical form, indexing, arithmetic and the solvers' recurrences are checked against
SciPy without a GPU. The GPU tests run the same bodies on the device.
"""

from __future__ import annotations

import importlib
import pkgutil
import types

import numpy as np

import cuarray.sparse
from cuarray.sparse import _xp


class HostArray(np.ndarray):
    """A NumPy array with cuarray's `.get()`."""

    def get(self, stream=None):
        return np.asarray(self).copy()


def _wrap(x):
    if isinstance(x, np.ndarray) and not isinstance(x, HostArray):
        return x.view(HostArray)
    if isinstance(x, tuple):
        return tuple(_wrap(v) for v in x)
    return x


def _wrapped(fn):
    def f(*args, **kwargs):
        return _wrap(fn(*args, **kwargs))

    return f


def _asarray(a, dtype=None, **kw):
    if hasattr(a, "__array__") or isinstance(a, (list, tuple, int, float, complex, bool)):
        return np.array(a, dtype=dtype, copy=True).view(HostArray)
    return np.asarray(a, dtype=dtype).view(HostArray)


class _Sort:
    @staticmethod
    def sort_pairs(keys, values):
        p = np.argsort(keys, kind="stable")
        return keys[p], values[p]


def _modules():
    out = []
    for info in pkgutil.walk_packages(cuarray.sparse.__path__, "cuarray.sparse."):
        out.append(importlib.import_module(info.name))
    return [cuarray.sparse] + out


def install(monkeypatch):
    """Patch cuarray.sparse onto NumPy for the duration of a test."""
    for name in dir(_xp):
        if name.startswith("_"):
            continue
        target = getattr(np, name, None)
        if name == "asarray":
            target = _asarray
        if target is None:
            continue
        if isinstance(target, np.ufunc):
            monkeypatch.setattr(_xp, name, target)
        else:
            monkeypatch.setattr(_xp, name, _wrapped(target))
    for mod in _modules():
        if isinstance(getattr(mod, "ndarray", None), type):
            monkeypatch.setattr(mod, "ndarray", HostArray)
    from cuarray.sparse import _canonical, _data, _matmul
    from cuarray.sparse.linalg import _kernels

    def axpy2(num, den, p, q, x, r):
        a = num / den
        x += a * p
        r -= a * q

    def xpby(num, den, z, p):
        p *= num / den
        p += z

    monkeypatch.setattr(_kernels, "axpy2", axpy2)
    monkeypatch.setattr(_kernels, "xpby", xpby)

    monkeypatch.setattr(_canonical, "_engine", lambda: _Sort)
    monkeypatch.setattr(_matmul, "_cusparse", lambda: types.SimpleNamespace(supports=lambda dt: False))
    table = {k: getattr(np, k) for k in _data.UFUNCS}
    monkeypatch.setattr(_data, "UFUNCS", table)
    from cuarray.sparse._base import _spbase

    for k, uf in table.items():
        monkeypatch.setattr(_spbase, k, _data._method(k, uf))
