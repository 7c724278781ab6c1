"""qr_update, qr_insert, qr_delete: SciPy's QR updating API, batched over leading dimensions as
SciPy 1.18 (`k` too), with SciPy's argument checks and errors.

SciPy updates the factors with Givens rotations and Householder reflections (Golub & Van Loan;
Daniel, Gragg, Kaufman & Stewart 1976; Reichel & Gragg 1990): O(M^2)-O(MN) sequential steps of
vector work each, a poor fit for a GPU. Here the updated matrix (Q R plus the update, with the rows
or columns inserted or deleted) is formed on the device and factored again by cuarray.linalg.qr
(cuSOLVER geqrf + orgqr/ungqr): O(M N min(M, N)) work in a few large kernels. The result is a QR
factorisation of the updated matrix, full or economic as the input, of SciPy's shapes and dtype,
as accurate as SciPy's; the signs (complex phases) of R's rows and Q's columns are geqrf's and may
differ from SciPy's rotations' (SciPy promises no sign either). The 1 x N cases SciPy special-cases
(Q kept) give SciPy's factors exactly."""

from __future__ import annotations

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.transfer import asnumpy
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._indexing.inserting import take_along_axis
from ..._math.complex import conj
from ...linalg import _norms
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError, as_array
from ._validate import batch_shape, deprecate_dtypes, require_finite

__all__ = ["qr_update", "qr_insert", "qr_delete"]

def _core(x) -> int:
    """SciPy's '1|2' core dimensions of an operand: 2 from 2-d on, else its own (0 or 1)."""
    return min(x.ndim, 2)


def _batch(x, core):
    return x.shape[:x.ndim - core]


def _host_k(k):
    """`k` (an int, or an integer array of batch indices, on the host or the device) as a NumPy
    int64 array; a float is truncated, as SciPy's C int takes it."""
    return asnumpy(k).astype(numpy.int64)


def _validate_qr(Q, R, check_finite):
    """(m, n, economic) of the factors, with SciPy's errors (scipy/linalg/_decomp_update.pyx.in,
    validate_qr)."""
    if Q.ndim < 2 or R.ndim < 2:
        raise ValueError("Q and R must be 2-D")
    if Q.dtype != R.dtype:
        raise ValueError("Q and R must have the same dtype")
    if Q.dtype.char not in "fdFD":
        raise ValueError("Only arrays with dtypes float32, float64, complex64, and complex128 are supported.")
    (m, qn), (rm, n) = Q.shape[-2:], R.shape[-2:]
    if qn != rm:
        raise ValueError("Q and R do not have compatible shapes. Expected (M,M) (M,N) or (M,N) (N,N) but found "
                         "{} {} for Q and R respectively".format(Q.shape[-2:], R.shape[-2:]))
    economic = m != qn and rm == n
    if m != qn and not economic:
        raise ValueError("Expected (M,M) (M,N) or (M,N) (N,N) but found {} {} for Q and R respectively".format(
            Q.shape[-2:], R.shape[-2:]))
    require_finite(check_finite, Q, R)
    return m, n, economic


def _refactor(a, economic):
    """A QR factorisation of `a` (the updated matrix), economic or full as the input was."""
    return _la.qr(a, mode="reduced" if economic else "complete")


def _spliced(a, new, k, p, axis, batch):
    """`a` with the `p` slices of `new` inserted before index `k` along `axis` (-2: rows, -1:
    columns), or, `new` None, the `p` slices from `k` on removed; `k` a NumPy int array of
    (broadcastable) batch shape, one index per matrix. One gather on the device."""
    length = a.shape[axis]
    out = length - p if new is None else length + p
    i = numpy.arange(out)
    kk = k[..., None]
    if new is None:
        idx = i + p * (i >= kk)
        a = broadcast_to(a, batch + a.shape[-2:])
    else:
        idx = numpy.where(i < kk, i, numpy.where(i < kk + p, length + i - kk, i - p))
        a = concatenate([broadcast_to(x, batch + x.shape[-2:]) for x in (a, new)], axis=axis)
    idx = idx.reshape((1,) * (len(batch) - k.ndim) + idx.shape)
    idx = idx[..., :, None] if axis == -2 else idx[..., None, :]
    return take_along_axis(a, idx, axis)


def _whole(x, batch):
    return x if x.shape[:-2] == batch else broadcast_to(x, batch + x.shape[-2:]).copy()


def qr_update(Q, R, u, v, overwrite_qruv=False, check_finite=True):
    """See `scipy.linalg.qr_update` (rank-k updates, full and economic factors; leading dimensions
    are batches, as SciPy 1.18's). The factors of A + u v^H are recomputed on the device (see the
    module's notes: a valid QR of SciPy's shapes, the signs of R's rows geqrf's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[3., 1.], [1., 2.], [0., 1.]])
    >>> q, r = linalg.qr(a)
    >>> u, v = cuarray.array([1., 0., 1.]), cuarray.array([1., 2.])
    >>> q1, r1 = linalg.qr_update(q, r, u, v)
    >>> bool(cuarray.allclose(q1 @ r1, a + cuarray.outer(u, v)))
    True
    """
    Q, R, u, v = (as_array(x, "qr_update") for x in (Q, R, u, v))
    deprecate_dtypes("qr_update", Q, R, u, v)
    uc, vc = _core(u), _core(v)
    batch = batch_shape("qr_update", Q.shape[:-2], R.shape[:-2], _batch(u, uc), _batch(v, vc))
    m, n, economic = _validate_qr(Q, R, check_finite)
    if u.dtype != Q.dtype or v.dtype != Q.dtype:
        raise ValueError("u and v must have the same type as Q and R")
    if uc == 0:
        raise ValueError("u must be either 1- or 2-D.")
    if vc == 0:
        raise ValueError("v must be either 1- or 2-D.")
    if u.shape[-uc] != m:
        raise ValueError("u.shape[0] must equal Q.shape[0]")
    if v.shape[-vc] != n:
        raise ValueError("v.shape[0] must equal R.shape[1]")
    if uc != vc:
        raise ValueError("u and v must have the same number of dimensions")
    if uc == 2 and u.shape[-1] != v.shape[-1]:
        raise ValueError("Second dimension of u and v must be the same")
    p = 1 if uc == 1 else u.shape[-1]
    if p > n or p > m:
        raise ValueError("Update rank larger than np.dot(Q, R).")
    require_finite(check_finite, u, v)
    uv = matmul(u[..., :, None] if uc == 1 else u, conj(v[..., None, :] if vc == 1 else v.mT))
    if m == 1:  # Q is a 1 x 1 unitary: SciPy keeps it and updates R alone
        return _whole(Q.copy(), batch), _whole(R + conj(Q) * uv, batch)
    return _refactor(matmul(Q, R) + uv, economic)


def qr_insert(Q, R, u, k, which="row", rcond=None, overwrite_qru=False, check_finite=True):
    """See `scipy.linalg.qr_insert` (rows or columns, one or a block, before index `k`; full and
    economic factors; leading dimensions, and `k`, are batches as SciPy 1.18's). The factors of
    the enlarged matrix are recomputed on the device (see the module's notes). Inserting columns
    into economic factors checks, as SciPy's, that each new column is not in the span of Q and the
    columns before it (reciprocal condition number of Q augmented with u/||u|| at least `rcond`,
    the dtype's epsilon by default; LinAlgError otherwise): one device read.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[3., 1.], [1., 2.], [0., 1.]])
    >>> q, r = linalg.qr(a)
    >>> q1, r1 = linalg.qr_insert(q, r, cuarray.array([5., 6.]), 1)
    >>> r1.shape
    (4, 2)
    >>> bool(cuarray.allclose(q1 @ r1, cuarray.array([[3., 1.], [5., 6.], [1., 2.], [0., 1.]])))
    True
    """
    Q, R, u = (as_array(x, "qr_insert") for x in (Q, R, u))
    deprecate_dtypes("qr_insert", Q, R, u)
    k, uc = _host_k(k), _core(u)
    batch = batch_shape("qr_insert", Q.shape[:-2], R.shape[:-2], _batch(u, uc), k.shape)
    if which == "row":
        if rcond is not None:
            raise ValueError("'rcond' is unused when inserting rows and must be None")
    elif which != "col":
        raise ValueError("'which' must be either 'row' or 'col'")
    m, n, economic = _validate_qr(Q, R, check_finite)
    row = which == "row"
    if u.dtype != Q.dtype:
        raise ValueError("'u' must have the same type as 'Q' and 'R'" if row else "'u' must have the same type as Q and R")
    length = m if row else n
    if ((k < -length) | (k > length)).any():
        raise ValueError("'k' is out of bounds")
    k = numpy.where(k < 0, k + length, k)
    want = n if row else m
    if uc == 0:
        raise ValueError("'u' must be either 1- or 2-D")
    if u.shape[-1 if row or uc == 1 else -2] != want:
        raise ValueError("'u' should be either {} when inserting {}. Found {}.".format(
            "(N,) or (p,N)" if row else "(M,) or (M,p)", "rows" if row else "columns", u.shape[-uc:]))
    if not row and rcond is not None and not economic:
        raise ValueError("'rcond' is not used when updating full, (M,M) (M,N) decompositions and must be None.")
    require_finite(check_finite, u)
    if row:
        new = u[..., None, :] if uc == 1 else u
        return _refactor(_spliced(matmul(Q, R), new, k, new.shape[-2], -2, batch), economic)
    new = u[..., :, None] if uc == 1 else u
    p = new.shape[-1]
    if m == 1:  # Q is a 1 x 1 unitary: SciPy keeps it and inserts conj(Q) u into R
        return _whole(Q.copy(), batch), _spliced(R, conj(Q) * new, k, p, -1, batch)
    if economic and min(p, m - n) > 0:
        _check_span(Q, new, min(p, m - n), rcond if rcond is not None else numpy.finfo(Q.dtype).eps, batch)
    return _refactor(_spliced(matmul(Q, R), new, k, p, -1, batch), economic)


def _norm(x):
    return _norms.norm(x, axis=(-2, -1), keepdims=True)


def _check_span(Q, new, count, rcond, batch):
    """SciPy's test before inserting columns into economic factors (`reorth`): for each of the
    first `count` new columns u, with s = Q^H u/||u|| over Q and the columns already added, the
    reciprocal condition number ||u/||u|| - Q s|| / (1 + ||s||) must reach `rcond`. The columns
    are orthonormalised in turn (two Gram-Schmidt passes) and every estimate read at once."""
    q = _whole(Q, batch)
    new = _whole(new, batch)
    estimates = []
    for j in range(count):
        un = new[..., :, j:j + 1]
        un = un / _norm(un)
        s = matmul(conj(q.mT), un)
        w = un - matmul(q, s)
        estimates.append((_norm(w) / (1 + _norm(s)))[..., 0, 0])
        w = w - matmul(q, matmul(conj(q.mT), w))
        q = concatenate((q, w / _norm(w)), axis=-1)
    rc = asnumpy(stack(estimates, axis=-1))
    bad = rc < rcond
    if bad.any():
        raise LinAlgError("One of the columns of u lies in the span of Q. Found reciprocal condition number of {} "
                          "for Q augmented with u/||u||.".format(rc[bad][0]))


def qr_delete(Q, R, k, p=1, which="row", overwrite_qr=False, check_finite=True):
    """See `scipy.linalg.qr_delete` (`p` rows or columns from index `k`; full and economic
    factors; leading dimensions, and `k`, are batches as SciPy 1.18's). The factors of the
    reduced matrix are recomputed on the device (see the module's notes).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[3., 1.], [1., 2.], [0., 1.]])
    >>> q, r = linalg.qr(a)
    >>> q1, r1 = linalg.qr_delete(q, r, 0, which='row')
    >>> bool(cuarray.allclose(q1 @ r1, a[1:]))
    True
    """
    Q, R = as_array(Q, "qr_delete"), as_array(R, "qr_delete")
    deprecate_dtypes("qr_delete", Q, R)
    k, p = _host_k(k), int(p)
    batch = batch_shape("qr_delete", Q.shape[:-2], R.shape[:-2], k.shape)
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")
    m, n, economic = _validate_qr(Q, R, check_finite)
    row = which == "row"
    length = m if row else n
    if ((k < -length) | (k >= length)).any():
        raise ValueError("'k' is out of bounds")
    k = numpy.where(k < 0, k + length, k)
    if (k + p > length).any() or p <= 0:
        raise ValueError("'p' is out of range")
    if row and economic and n == 1:  # SciPy's special case: the rows of Q dropped and renormalised
        q = _spliced(Q, None, k, p, -2, batch)
        scale = _norm(q)
        return q / scale, _whole(R * scale, batch)
    return _refactor(_spliced(matmul(Q, R), None, k, p, -2 if row else -1, batch), economic)
