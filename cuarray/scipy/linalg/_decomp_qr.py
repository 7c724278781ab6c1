"""qr: SciPy's QR API (modes 'full', 'r', 'economic', 'raw'; `pivoting`). Without pivoting the
factors are cuarray.linalg.qr's (cuSOLVER geqrf, batched over a stack); with pivoting, geqp3's
algorithm run here (`_qr_pivoted`), matrix by matrix. Q is formed from the Householder reflectors by
cuSOLVER's orgqr/ungqr in both cases."""

from __future__ import annotations

import types
import warnings

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ...cuda.libs import cusolver as _cs
from ...linalg._util import as_array, batch_of, info_array, stacked_copy
from ..._creation.basic import zeros
from ..._creation.ranges import arange
from ..._creation.from_data import asarray
from ..._creation.matrices import eye, triu
from ..._manipulation.dims import broadcast_to
from ..._math.complex import conj, imag, real
from ..._math.floating import copysign
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ...linalg._matmul import matmul
from ._qr_pivoted import geqp3
from ._validate import deprecate_dtypes, lapack_char, require_finite

__all__ = ["qr"]

_MODES = ("full", "r", "economic", "raw")

# The operations `_qr_pivoted.geqp3` is written over, on the GPU.
CUARRAY = types.SimpleNamespace(zeros=zeros, arange=arange, sum=sum_, real=real, imag=imag, conj=conj, argmax=argmax,
                                host=lambda x: x.get(), copysign=copysign, sqrt=sqrt, where=where,
                                matmul=matmul)


def _form_q(h, tau, qcols):
    """Q's first `qcols` columns (column-major blocks) from the reflectors in `h` (m x n,
    column-major blocks) and `tau` (..., k): cuSOLVER orgqr/ungqr, one call per matrix."""
    m, n = h.shape[-2:]
    k = tau.shape[-1]
    char = h.dtype.char
    batch = h.shape[:-2]
    q = zeros(batch + (qcols, m), dtype=char).mT  # column-major m x qcols blocks
    c = min(qcols, n)
    q[..., :, :c] = h[..., :, :c]
    if k == 0:
        return q + broadcast_to(eye(m, qcols, dtype=char), q.shape)
    infos = info_array(batch_of(q))
    step = m * qcols * q.itemsize
    for i in range(batch_of(q)):
        _cs.orgqr(char, m, qcols, k, q.data.ptr + i * step, m, tau.data.ptr + i * k * tau.itemsize,
                  infos.data.ptr + 4 * i)
    return q


# SciPy 1.18's default for the deprecated `lwork` (scipy._lib.deprecation._NoValue is a bare
# object() too): passing any value, None included, is what warns.
_NO_VALUE = object()


def qr(a, overwrite_a=False, lwork=_NO_VALUE, mode="full", pivoting=False, check_finite=True):
    """See `scipy.linalg.qr` (stacks too, as SciPy's). `lwork` is deprecated, as in SciPy 1.18
    (DeprecationWarning; ValueError for a value SciPy rejects; cuSOLVER sizes its own workspace). `pivoting=True` runs geqp3's
    column-pivoting algorithm on the GPU one column at a time (see `_qr_pivoted`): same P as
    SciPy, far slower than the unpivoted QR for large n. An empty input gives SciPy 1.18's
    pivots: one (n,) arange, whatever the batch shape.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[1., 2.], [3., 4.], [5., 6.]])
    >>> q, r = linalg.qr(a, mode='economic')
    >>> bool(cuarray.allclose(q @ r, a))
    True
    >>> cuarray.abs(cuarray.diag(r))   # R's signs are LAPACK's choice
    array([5.91607978, 0.82807867])
    """
    if mode not in _MODES:
        raise ValueError("Mode argument should be one of {}".format(list(_MODES)))
    a = as_array(a, "qr")
    deprecate_dtypes("linalg.qr", a)
    if a.ndim < 2:
        raise ValueError("expected a 2-D array")
    if lwork is not _NO_VALUE:
        if lwork is not None and lwork != -1 and lwork <= a.shape[-2]:
            raise ValueError("lwork should be None, -1 or > M, got {}".format(lwork))
        warnings.warn("scipy.linalg: the `lwork` keyword is deprecated and no longer in use as of SciPy 1.18.0 "
                      "and will be removed in SciPy 1.20.0", DeprecationWarning, stacklevel=2)
    require_finite(check_finite, a)
    if a.dtype == numpy.float16:
        a = a.astype(numpy.float32)
    char = lapack_char(a)  # SciPy's geqrf type: bool, int8/16, uint8/16 in float32
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    if pivoting:
        h = stacked_copy(a, char, "F")  # column-major blocks: geqp3 works on columns
        tau = zeros(batch + (k,), dtype=char)
        if a.size == 0:  # SciPy 1.18 returns one arange, not one per matrix of the stack
            jpvt = numpy.arange(n, dtype=numpy.int32)
        else:
            jpvt = numpy.broadcast_to(numpy.arange(n, dtype=numpy.int32), batch + (n,)).copy()
            for idx in numpy.ndindex(*batch):
                at = idx + (Ellipsis,)  # a view of one matrix (the whole array when not a stack)
                t, p = geqp3(CUARRAY, h[at])
                tau[at] = t
                jpvt[at] = p
        extra = (asarray(jpvt),)
    else:
        if a.size:
            raw_h, tau = _la.qr(a.astype(char, copy=False), mode="raw")
            h = raw_h.mT  # numpy's raw h is the transpose of LAPACK's column-major factors
        else:
            h, tau = stacked_copy(a, char, "F"), zeros(batch + (k,), dtype=char)
        extra = ()
    if mode == "raw":
        return ((h, tau), triu(h[..., :k, :])) + extra
    if mode == "r":
        return (triu(h),) + extra
    if mode == "economic":
        return (_form_q(h, tau, k), triu(h[..., :k, :])) + extra
    return (_form_q(h, tau, m), triu(h)) + extra
