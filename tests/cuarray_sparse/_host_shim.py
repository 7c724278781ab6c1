"""Run cuarray.sparse's logic on the CPU: NumPy stands in for the dense routines each module imports, for
the sort engine and for cuSPARSE (the integer fallback path serves every dtype), so format
planning, canonical form, indexing, arithmetic and the solvers' recurrences are checked against
SciPy without a GPU. The GPU tests run the same bodies on the device.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types

import numpy as np

import cuarray
import cuarray.sparse


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


active = False  # True while a test runs on the host (install)


def host_asarray(a, dtype=None, **kw):
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


# The dense routines cuarray.sparse imports (each module binds NAME, or NAME_ where NAME is a
# builtin or taken): NumPy's function of the same name replaces each during a test.
_DENSE = ("empty empty_like zeros zeros_like ones ones_like full asarray copy asnumpy arange reshape ravel "
          "broadcast_to concatenate stack repeat take matmul dot vdot any all isfinite isnan logical_and "
          "logical_or logical_not greater less equal not_equal sum cumsum diff add subtract multiply divide "
          "true_divide floor_divide negative power real imag conj maximum minimum fmax fmin sqrt square "
          "absolute sign argsort nonzero flatnonzero where argmax argmin searchsorted count_nonzero max min "
          "bincount remainder less_equal greater_equal around unique mean").split()


def _host_version(name):
    if name == "asarray":
        return host_asarray
    target = getattr(np, name, None)
    if target is None or isinstance(target, np.ufunc):
        return target
    return _wrapped(target)


def install(monkeypatch):
    """Patch cuarray.sparse onto NumPy for the duration of a test."""
    monkeypatch.setattr(sys.modules[__name__], "active", True)
    for mod in _modules():
        for attr, value in list(vars(mod).items()):
            name = attr.rstrip("_")
            if name in _DENSE and value is getattr(cuarray, name, None) and _host_version(name) is not None:
                monkeypatch.setattr(mod, attr, _host_version(name))
        if isinstance(getattr(mod, "ndarray", None), type):
            monkeypatch.setattr(mod, "ndarray", HostArray)
    from cuarray.sparse import _binop, _canonical, _data, _matmul

    monkeypatch.setattr(_binop, "_comparison", np)  # compare() looks the comparison up by name
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
    monkeypatch.setattr(_matmul, "SPGEMM_METHOD", "expand-sort")  # the row-wise kernels need a GPU
    table = {k: getattr(np, k) for k in _data.UFUNCS}
    monkeypatch.setattr(_data, "UFUNCS", table)
    from cuarray.sparse._base import _spbase

    for k, uf in table.items():
        monkeypatch.setattr(_spbase, k, _data._method(k, uf))
