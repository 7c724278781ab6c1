"""rq and qr_multiply from the device QR (cuSOLVER geqrf and orgqr/ungqr), batched over leading
dimensions as SciPy 1.18.

rq: cuSOLVER has no gerqf. With J the exchange matrix (ones on the anti-diagonal), the QR
factorisation J A^H J = Q1 R1 gives A = (J R1^H J)(J Q1^H J): an R that is upper trapezoidal as
gerqf's and a unitary Q. gerqf's reflectors are geqrf's reflectors of that matrix (xGERQ2 annihilates
the conjugated rows of A from the last one, pivoting on their last entry), so the factors are
LAPACK's, signs included (the CPU tests compare with SciPy's).

qr_multiply: Q from the QR (orgqr/ungqr), then one matmul (cuBLAS): cuSOLVER's ormqr would apply
the reflectors without forming Q, for the same order of work on the small problems this serves."""

from __future__ import annotations

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._creation.basic import empty, zeros
from ..._creation.matrices import eye
from ..._manipulation.dims import broadcast_to
from ..._math.complex import conj, real
from ...linalg._matmul import matmul
from ...linalg._util import as_array
from ._decomp_qr import qr
from ._validate import batch_shape, deprecate_dtypes, lapack_char, require_finite

__all__ = ["rq", "qr_multiply"]


def _flip_h(x):
    """J x^H J for a stack of matrices: the conjugate transpose with rows and columns reversed."""
    return conj(x.mT)[..., ::-1, ::-1]


def rq(a, overwrite_a=False, lwork=None, mode="full", check_finite=True):
    """See `scipy.linalg.rq`; leading dimensions are batches, as SciPy 1.18's. From the device QR
    of J A^H J (J reverses the order: see the module's notes); the factors are LAPACK gerqf's.
    `lwork` is accepted and not used (cuSOLVER sizes its own workspace, so no value is refused).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> r, q = linalg.rq(cuarray.array([[1., 2., 3.], [4., 5., 6.]]))
    >>> bool(cuarray.allclose(r @ q, cuarray.array([[1., 2., 3.], [4., 5., 6.]])))
    True
    >>> r.shape, q.shape
    ((2, 3), (3, 3))
    """
    if mode not in ("full", "r", "economic"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic']")
    a = as_array(a, "rq")
    deprecate_dtypes("rq", a)
    batch = batch_shape("rq", a.shape[:-2])
    require_finite(check_finite, a)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    m, n = a.shape[-2:]
    k = min(m, n)
    rcols = m if mode == "economic" and m <= n else n  # R is m x n but for 'economic' with m <= n
    if a.size == 0:  # SciPy's early return: the input's dtype, Q the identity for 'full' and 'r'
        r = empty(batch + (m, k if mode == "economic" else n), dtype=a.dtype)
        if mode == "r":
            return r
        if mode == "economic":
            return r, empty(batch + (k, n), dtype=a.dtype)
        return r, broadcast_to(eye(n, dtype=a.dtype), batch + (n, n)).copy()
    char = lapack_char(a.astype("f") if a.dtype.char == "e" else a)  # float16 in float32, as SciPy's
    c = _flip_h(a).astype(char)  # J_N A^H J_M, n x m
    if mode == "r":
        r1 = _la.qr(c, mode="r")
    else:
        q1, r1 = _la.qr(c, mode="complete" if mode == "full" else "reduced")
    r = zeros(batch + (m, rcols), dtype=char)
    r[..., :, rcols - k:] = _flip_h(r1[..., :k, :])
    if mode == "r":
        return r
    return r, _flip_h(q1).copy()


def qr_multiply(a, c, mode="right", pivoting=False, conjugate=False, overwrite_a=False, overwrite_c=False):
    """See `scipy.linalg.qr_multiply`; leading dimensions of `a` and `c` are batches, as SciPy
    1.18's (`c` one vector for every matrix when 1-D). Q from the device QR (`qr`), then one
    matmul: 'left' gives Q @ c (Q's first min(M, N) columns; all M with `overwrite_c` and M > N,
    as SciPy's), 'right' c @ Q[:, :min(M, N)], `conjugate` conj(Q) in place of Q. The result has
    the QR's dtype (`c` cast to it, a complex `c` losing its imaginary part against a real `a`, as
    SciPy's ormqr takes it).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[1., 2.], [3., 4.], [5., 6.]])
    >>> cq, r = linalg.qr_multiply(a, cuarray.eye(2), mode='left')
    >>> q, r2 = linalg.qr(a, mode='economic')
    >>> bool(cuarray.allclose(cq, q))
    True
    """
    if mode not in ("left", "right"):
        raise ValueError("Mode argument can only be 'left' or 'right' but not '{}'".format(mode))
    a, c = as_array(a, "qr_multiply"), as_array(c, "qr_multiply")
    deprecate_dtypes("qr_multiply", a, c)
    c_core = 2 if c.ndim >= 2 else 1
    batch = batch_shape("qr_multiply", a.shape[:-2], c.shape[:c.ndim - c_core])
    require_finite(True, c)
    onedim = c.ndim < 2
    if onedim:  # numpy.atleast_2d, then a column for 'left'
        c = c.reshape(1, -1)
        if mode == "left":
            c = c.mT
    if a.ndim < 2:
        a = a.reshape(1, -1)
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "left":
        if c.shape[-2] != min(m, n + overwrite_c * (m - n)):
            raise ValueError("Array shapes are not compatible for Q @ c operation: {} vs {}".format(
                a.shape[-2:], c.shape[-2:]))
    elif m != c.shape[-1]:
        raise ValueError("Array shapes are not compatible for c @ Q operation: {} vs {}".format(
            c.shape[-2:], a.shape[-2:]))
    full_q = mode == "left" and overwrite_c and m > n  # SciPy's ormqr then applies all of Q
    res = qr(a, mode="full" if full_q else "economic", pivoting=pivoting, check_finite=True)  # a, as SciPy's
    q, r = res[0], res[1][..., :k, :]
    if r.shape[:-2] != batch:  # one matrix against a stack of c: SciPy stacks its R per product
        r = broadcast_to(r, batch + r.shape[-2:]).copy()
    rest = (r,) + tuple(p if p.shape[:-1] == batch else broadcast_to(p, batch + p.shape[-1:]).copy()
                        for p in res[2:])
    if c.size == 0:  # SciPy's early return: c's (2-d) shape and dtype
        return (empty(batch + c.shape[-2:], dtype=c.dtype),) + rest
    char = q.dtype.char
    if c.dtype.kind == "c" and char in "fd":
        c = real(c)  # ormqr on a real Q takes the real part of c
    qm = conj(q) if conjugate else q
    out = matmul(qm, c.astype(char)) if mode == "left" else matmul(c.astype(char), qm)
    if out.shape[:-2] != batch:
        out = broadcast_to(out, batch + out.shape[-2:]).copy()
    if onedim:
        out = out.reshape(batch + (-1,))
    return (out,) + rest

