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
_DENSE = ("swapaxes moveaxis empty empty_like zeros zeros_like ones ones_like full asarray copy asnumpy arange reshape ravel "
          "broadcast_to concatenate stack repeat take matmul dot vdot any all isfinite isnan logical_and "
          "logical_or logical_not greater less equal not_equal sum cumsum diff add subtract multiply divide "
          "true_divide floor_divide negative power real imag conj maximum minimum fmax fmin sqrt square "
          "absolute sign argsort nonzero flatnonzero where argmax argmin searchsorted count_nonzero max min "
          "bincount remainder less_equal greater_equal around unique mean eye exp roll").split()


def _host_version(name):
    if name == "asarray":
        return host_asarray
    target = getattr(np, name, None)
    if target is None or isinstance(target, np.ufunc):
        return target
    return _wrapped(target)


def _axpy2(num, den, p, q, x, r):
    a = num / den
    x += a * p
    r -= a * q


def _xpby(num, den, z, p):
    p *= num / den
    p += z


def _segment_rows(prod, indptr, dt):
    """_matmul's per-row sums, row by row in order as SciPy's CSR product sums them (the device's
    differences of one running sum lose digits to cancellation, which the solvers' tests on the
    host would see as a noisy operator; cuSPARSE serves float and complex on the GPU)."""
    acc = np.int64 if dt.kind == "b" else dt
    p = np.asarray(prod).astype(acc)
    ip = np.asarray(indptr).astype(np.int64)
    out = np.zeros((ip.size - 1,) + p.shape[1:], acc)
    np.add.at(out, np.repeat(np.arange(ip.size - 1), np.diff(ip)), p)
    return (out != 0 if dt.kind == "b" else out).view(HostArray)


# cuarray.linalg's routines the sparse modules import (under any name): NumPy's of the same name.
_LINALG = "qr svd solve inv eig eigh eigvals lstsq cholesky".split()


def _linalg_versions():
    import cuarray.linalg

    return {id(getattr(cuarray.linalg, n)): _wrapped(getattr(np.linalg, n)) for n in _LINALG}


def _standins(extra):
    """``{module: {name: stand-in}}`` of every cuarray.sparse module: NumPy's routines for the dense
    ones it imports, HostArray for ndarray, the sort engine, no cuSPARSE, the solvers' kernels."""
    from cuarray.sparse import _binop, _canonical, _data, _matmul
    from cuarray.sparse.linalg import _kernels

    from cuarray._core import host_input, transfer
    from cuarray._statistics import histograms

    linalg = _linalg_versions()
    out = {}
    for mod in _modules():
        names = out.setdefault(mod, {})
        for attr, value in list(vars(mod).items()):
            name = attr.rstrip("_")
            if name in _DENSE and value is getattr(cuarray, name, None) and _host_version(name) is not None:
                names[attr] = _host_version(name)
            elif id(value) in linalg:
                names[attr] = linalg[id(value)]
            elif value is transfer.to_host:
                names[attr] = np.asarray
            elif value is transfer.from_host:
                names[attr] = host_asarray
            elif value is host_input.as_array or value is host_input.as_parameter:
                names[attr] = lambda x, fn=None: np.asarray(x).view(HostArray)
            elif value is histograms.minmax:
                names[attr] = lambda x: (np.min(x), np.max(x))
        if isinstance(getattr(mod, "ndarray", None), type):
            names["ndarray"] = HostArray
    out[_binop]["_comparison"] = np  # compare() looks the comparison up by name
    out[_kernels].update(axpy2=_axpy2, xpby=_xpby)
    out[_canonical]["_engine"] = lambda: _Sort
    out[_matmul]["_cusparse"] = lambda: types.SimpleNamespace(supports=lambda dt: False)
    out[_matmul]["SPGEMM_METHOD"] = "expand-sort"  # the row-wise kernels need a GPU
    out[_matmul]["_segment_rows"] = _segment_rows
    out[_data]["UFUNCS"] = {k: getattr(np, k) for k in _data.UFUNCS}
    for mod, names in (extra or {}).items():
        out[mod].update(names)
    return out


_HOST: dict = {}  # the copies, one set per kind of extra stand-ins


def host_sparse(kind="", extra=None):
    """Private copies of every cuarray.sparse module (`cuarray.testing.fake_device.host_packages`:
    nothing of cuarray is patched) on the stand-ins of `_standins` and `extra` (``{module: {name:
    stand-in}}``, the copies of `kind`, made once): ``namespace(sp, cla, copies)``, `sp` and `cla`
    the copies of cuarray.sparse and cuarray.sparse.linalg."""
    from cuarray.sparse import _base, _data
    from cuarray.testing.fake_device import host_packages

    if kind not in _HOST:
        copies = host_packages([cuarray.sparse], _standins(extra))
        # the elementwise methods, bound when the package's copy ran, bound again to NumPy's table
        copies[_data].bind(copies[_base]._spbase)
        _HOST[kind] = types.SimpleNamespace(sp=copies[cuarray.sparse], cla=copies[sys.modules["cuarray.sparse.linalg"]],
                                            copies=copies)
    return _HOST[kind]


class Dev(str):
    """The device's name, with the cuarray.sparse and cuarray.sparse.linalg that run there."""

    def __new__(cls, name, sp, cla):
        self = super().__new__(cls, name)
        self.sp, self.cla = sp, cla
        return self


def on_host(monkeypatch, kind="", extra=None):
    """A `Dev` of the host shim's copies (see `_host_shim.host_sparse`); `D` makes host arrays."""
    monkeypatch.setattr(sys.modules[__name__], "active", True)
    host = host_sparse(kind, extra)
    return Dev("host", host.sp, host.cla)
