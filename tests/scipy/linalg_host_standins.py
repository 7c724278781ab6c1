"""Private copies of the cuarray.scipy.linalg modules added for issue 50 with NumPy (and SciPy on
the host) standing in for the cuarray routines they call (`cuarray.testing.fake_device.host_modules`:
nothing of cuarray is patched), so their device code paths run on the CPU: argument checks,
shapes, dtypes, batching and values against scipy.linalg. Imported by the *_cpu.py tests beside it."""

from __future__ import annotations

import types

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps

from cuarray.scipy.linalg import (_blas_lapack, _decomp_forms, _decomp_rq, _decomp_update, _expm_cond, _host_lapack,
                                  _sketches, _solvers, _structured, _symmetry)
from cuarray.testing.fake_device import host_modules


def _as_array(x, fn):
    return np.asarray(x)


def _require_finite(check, *arrays):
    if check and not all(np.isfinite(a).all() for a in arrays if a is not None and a.dtype.kind in "fc"):
        raise ValueError("array must not contain infs or NaNs")


def _expm_frechet(A, E, compute_expm=True, check_finite=True):
    """SciPy's expm_frechet over a stack of E (SciPy 1.17's does not batch)."""
    e = np.asarray(E)
    out = np.stack([sla.expm_frechet(A, x, compute_expm=False, check_finite=False) for x in e.reshape(-1, *e.shape[-2:])])
    return out.reshape(e.shape)


COMMON = dict(as_array=_as_array, require_finite=_require_finite)


def copies():
    """{real module: its private copy} for the modules of issue 50."""
    return host_modules({
        _symmetry: dict(as_array=_as_array, eye=np.eye, isclose=np.isclose, all_=np.all, any_=np.any, conj=np.conj),
        _decomp_rq: dict(COMMON, _la=np.linalg, empty=np.empty, zeros=np.zeros, eye=np.eye, broadcast_to=np.broadcast_to,
                         conj=np.conj, real=np.real, matmul=np.matmul,
                         qr=lambda a, mode, pivoting, check_finite: sla.qr(a, mode=mode, pivoting=pivoting,
                                                                            check_finite=check_finite)),
        _decomp_update: dict(COMMON, _la=np.linalg, broadcast_to=np.broadcast_to, concatenate=np.concatenate,
                             stack=np.stack, take_along_axis=np.take_along_axis, conj=np.conj,
                             _norms=types.SimpleNamespace(norm=np.linalg.norm), matmul=np.matmul),
        _decomp_forms: dict(COMMON, as_parameter=_as_array, zeros=np.zeros, asarray=np.asarray, put=np.put,
                            take=np.take, take_along_axis=np.take_along_axis, broadcast_to=np.broadcast_to,
                            imag=np.imag, real=np.real),
        _structured: dict(COMMON, as_parameter=_as_array, _fft=np.fft, concatenate=np.concatenate,
                          broadcast_to=np.broadcast_to, conj=np.conj, empty=np.empty),
        _expm_cond: dict(COMMON, expm=sla.expm, expm_frechet=_expm_frechet,
                         _norms=types.SimpleNamespace(norm=np.linalg.norm), zeros=np.zeros, put=np.put,
                         concatenate=np.concatenate, stack=np.stack),
        _sketches: dict(as_array=_as_array, asarray=np.asarray, arange=np.arange, moveaxis=np.moveaxis,
                        _sparse=lambda: sps),
        _host_lapack: dict(_operand=lambda x, name: x, _results_to_device=lambda r: r),
        _solvers: {},
        _blas_lapack: {},
    })
