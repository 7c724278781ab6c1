"""cholesky, qr, eigh, eigvalsh, eig, eigvals (cuSOLVER). svd and svdvals live in `_svd`.

Layouts: cuSOLVER reads a C-ordered block as the transpose. For Hermitian input the transpose is
the conjugate, so eigh factors the block as it lies (one plain copy) and reads the factors back
through a view: syevd of conj(A) gives conj(V), whose row-major view is V^H. cholesky always
factors a lower triangle (potrf's fast one), from a column-major copy for L and a plain copy for
U (see `cholesky`). qr and eig need A itself, so they copy into column-major blocks.
"""

from __future__ import annotations

import warnings

from typing import NamedTuple

import numpy

from .._core import reduction_ops as _r
from .._core.copying import copyto_where_unchecked
from .._creation.basic import empty, ones, zeros
from .._creation.from_data import asarray
from .._creation.matrices import triu
from .._logic.comparison import less
from .._logic.content import isfinite
from .._logic.truth import all as all_
from .._manipulation.rearranging import roll
from .._math.arithmetic import divide, multiply, negative
from .._math.complex import conj
from .._math.extrema import maximum
from .._math.floating import frexp, ldexp
from .._math.misc import absolute
from .._sorting.searching import where
from ..cuda.libs import cusolver as _cs
from ._util import (LinAlgError, as_array, assert_stacked_2d, assert_stacked_square, batch_of,
                    compute_char, info_array, pointers, raise_on_info, real_char, stacked_copy)

__all__ = ["cholesky", "qr", "eigh", "eigvalsh", "eig", "eigvals", "QRResult", "EighResult",
           "EigResult"]

# Stacks of more than one matrix of at most this order use the batched routines (potrfBatched,
# syevjBatched): one launch for the stack instead of one call per matrix.
BATCHED_MAX_N = _cs.BATCHED_MAX_N


class QRResult(NamedTuple):
    Q: object
    R: object


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


def _blocks(a):
    """(base pointer, bytes per matrix, batch) of a stack made by `stacked_copy`."""
    return a.data.ptr, a.shape[-1] * a.shape[-2] * a.dtype.itemsize, batch_of(a)


# -- Cholesky ----------------------------------------------------------------------------------
def cholesky(a, /, *, upper=False):
    """See `numpy.linalg.cholesky`. The lower factor (upper=False) comes back as column-major
    blocks (a transposed view, as PyTorch's), the upper factor C-ordered.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[4.0, 2.0], [2.0, 5.0]])
    >>> cuarray.round(cuarray.linalg.cholesky(a), 6)
    array([[2., 0.],
           [1., 2.]])
    >>> cuarray.round(cuarray.linalg.cholesky(a, upper=True), 6)
    array([[2., 1.],
           [0., 2.]])
    """
    a = as_array(a, "linalg.cholesky")
    assert_stacked_square(a)
    char = compute_char(a)
    # cuSOLVER's potrf is about twice as fast on the lower triangle as on the upper at n = 4096
    # (docs/perf-notes.md), so both forms factor the lower triangle of a column-major block:
    # upper=False copies A into column-major blocks (the block is A; NumPy reads A's lower
    # triangle; potrf leaves L with A = L L^H), upper=True copies A as it lies (the block is A^T,
    # whose lower triangle is A's upper one, the triangle NumPy reads; potrf leaves L' with
    # conj(A) = L' L'^H, so U = L'^T, which is the block read row-major).
    c = stacked_copy(a, char, "C" if upper else "F")
    n = a.shape[-1]
    if c.size == 0:
        return c
    base, step, batch = _blocks(c)
    infos = info_array(batch)
    if batch > 1 and n <= BATCHED_MAX_N:
        table = pointers(c)  # held until the launch is enqueued (see _solve._lu_solve)
        _cs.potrf_batched(char, _cs.LOWER, n, table.data.ptr, n, infos.data.ptr, batch)
    else:
        for i in range(batch):
            _cs.potrf(char, _cs.LOWER, n, base + i * step, n, infos.data.ptr + 4 * i)
    raise_on_info(infos, "Matrix is not positive definite")
    # The other triangle still holds A's entries: one kernel zeroes it, on the row-major view
    # (c.mT is C-contiguous in the lower case, and triu of it is tril of c).
    return triu(c) if upper else triu(c.mT).mT


# -- QR ----------------------------------------------------------------------------------------
def qr(a, mode="reduced"):
    """See `numpy.linalg.qr`. One geqrf (and orgqr/ungqr for Q) per matrix of a stack.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> q, r = cuarray.linalg.qr(a)
    >>> q.shape, r.shape
    ((3, 2), (2, 2))
    >>> bool(cuarray.allclose(q @ r, a)), bool(cuarray.allclose(q.T @ q, cuarray.eye(2)))
    (True, True)
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        # NumPy 2 still takes the modes it deprecated in 1.8, with its DeprecationWarning.
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.", DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            mode = "economic"
        else:
            raise ValueError("Unrecognized mode '{}'".format(mode))
    a = as_array(a, "linalg.qr")
    assert_stacked_2d(a)
    char = compute_char(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch_shape = a.shape[:-2]
    h = stacked_copy(a, char, "F")  # column-major m x n blocks: geqrf needs A itself
    tau = empty(batch_shape + (k,), dtype=char)
    base, step, batch = _blocks(h)
    infos = info_array(batch)
    if k:
        for i in range(batch):
            _cs.geqrf(char, m, n, base + i * step, m, tau.data.ptr + i * k * tau.itemsize,
                      infos.data.ptr + 4 * i)
    if mode == "raw":
        return h.mT, tau
    if mode == "economic":  # the factored matrix itself (R above the diagonal, reflectors below)
        return h
    r = triu(h if mode == "complete" else h[..., :k, :])
    if mode == "r":
        return r
    qcols = m if mode == "complete" else k
    if qcols == n:
        q = h
    else:
        q = zeros(batch_shape + (qcols, m), dtype=char).mT  # column-major m x qcols blocks
        q[..., :, :k] = h[..., :, :k]
    if qcols:
        qbase, qstep, _ = _blocks(q)
        for i in range(batch):
            _cs.orgqr(char, m, qcols, k, qbase + i * qstep, m, tau.data.ptr + i * k * tau.itemsize,
                      infos.data.ptr + 4 * i)
    return QRResult(q, r)


# -- Hermitian eigenproblem --------------------------------------------------------------------
def _check_uplo(UPLO):
    """NumPy's reading of UPLO: either case of 'L' or 'U'; returns the upper-case letter."""
    UPLO = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


def _syev(a, UPLO, vectors: bool, fn: str):
    a = as_array(a, fn)
    assert_stacked_square(a)
    UPLO = _check_uplo(UPLO)
    char = compute_char(a)
    n = a.shape[-1]
    c = stacked_copy(a, char, "C")
    w = empty(a.shape[:-1], dtype=real_char(char))
    if c.size == 0:
        return w, c
    # NumPy's 'L' (row-major lower) is the column-major upper triangle of the block.
    uplo = _cs.UPPER if UPLO == "L" else _cs.LOWER
    jobz = _cs.VECTOR if vectors else _cs.NOVECTOR
    infos = _syev_run(char, jobz, uplo, n, c, w)
    if int(infos.get().max()) > 0:
        # cuSOLVER's heevd failed where LAPACK converges on c I plus subnormal off-diagonal
        # entries (complex64, 1e-6 on the diagonal, 1e-39 elsewhere): again on each matrix scaled
        # by a power of 2 to a largest entry in [0.5, 1) (exact), with the entries below eps of it
        # zeroed (within the algorithm's own backward error, n eps |A|), its eigenvalues scaled back.
        c, scale = _scaled_flushed(a, char)
        infos = _syev_run(char, jobz, uplo, n, c, w)
        raise_on_info(infos, "Eigenvalues did not converge")
        w = divide(w, scale.reshape(scale.shape[:-1]))
    return w, c


def _syev_run(char, jobz, uplo, n, c, w):
    """syevd (syevjBatched for stacks of small matrices) over the stack c into w: the infos."""
    base, step, batch = _blocks(c)
    infos = info_array(batch)
    if batch > 1 and n <= BATCHED_MAX_N:
        _cs.syevj_batched(char, jobz, uplo, n, base, n, w.data.ptr, infos.data.ptr, batch)
    else:
        wstep = n * w.itemsize
        for i in range(batch):
            _cs.syevd(char, jobz, uplo, n, base + i * step, n, w.data.ptr + i * wstep, infos.data.ptr + 4 * i)
    return infos


def _scaled_flushed(a, char):
    """(a copy of the stack a, each matrix times 2^-e, its largest |entry| in [0.5, 1), entries
    below eps zeroed; the factors 2^-e, shape (..., 1, 1))."""
    fi = numpy.finfo(real_char(char))
    c = stacked_copy(a, char, "C")
    big = _r.reduce("max", absolute(c), axis=(-2, -1), keepdims=True)
    # 2^-e, e >= 3 - maxexp so the factor is finite (a stack of subnormal matrices: near 1, not at
    # it); frexp(0) is 0, a factor of 1
    e = maximum(frexp(big)[1], 3 - fi.maxexp)
    scale = ldexp(ones((), fi.dtype), negative(e))
    multiply(c, scale, out=c)
    copyto_where_unchecked(c, numpy.zeros((), c.dtype)[()], less(absolute(c), fi.eps))
    return c, scale


def eigh(a, UPLO="L"):
    """See `numpy.linalg.eigh`. Stacks of matrices up to 32 x 32 use syevjBatched.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[2.0, 1.0], [1.0, 2.0]])
    >>> w, v = cuarray.linalg.eigh(a)
    >>> cuarray.round(w, 6)            # ascending
    array([1., 3.])
    >>> cuarray.round(abs(v), 6)       # columns' signs may differ from LAPACK's
    array([[0.707107, 0.707107],
           [0.707107, 0.707107]])
    """
    w, c = _syev(a, UPLO, True, "linalg.eigh")
    # c holds conj(V) column-major; its row-major view is conj(V)^T, so V = conj(view)^T.
    v = (conj(c) if c.dtype.kind == "c" else c).mT
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """See `numpy.linalg.eigvalsh`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.linalg.eigvalsh(cuarray.array([[2.0, 1.0], [1.0, 2.0]])), 6)
    array([1., 3.])
    """
    return _syev(a, UPLO, False, "linalg.eigvalsh")[0]


# -- general eigenproblem ----------------------------------------------------------------------
def _geev(a, vectors: bool, fn: str):
    a = as_array(a, fn)
    assert_stacked_square(a)
    # NumPy checks finiteness before the type: a float16 matrix holding inf is its LinAlgError
    # (roots of float16 coefficients whose companion row overflows), a finite one its TypeError
    half = a.dtype.char == "e"
    char = None if half else compute_char(a)
    # NumPy checks eig's input (cuSOLVER's geev fails with INTERNAL_ERROR on NaN); the read-back
    # waits for the device, as the eigenvalue type check below does anyway.
    if a.size and not bool(all_(isfinite(a))):
        raise LinAlgError("Array must not contain infs or NaNs")
    if half:
        compute_char(a)  # (raises)
    n = a.shape[-1]
    batch_shape = a.shape[:-2]
    h = stacked_copy(a, char, "F")
    real = char in "fd"
    # Real input: cuSOLVER's all-real option (w = real parts then imaginary parts; LAPACK packing
    # of the vectors), unpacked below once the host knows which eigenvalues pair up.
    w = empty(batch_shape + ((2 * n,) if real else (n,)), dtype=char)
    vr = empty(batch_shape + (n, n), dtype=char).mT if vectors else None
    base, step, batch = _blocks(h)
    infos = info_array(batch)
    if h.size:
        for i in range(batch):
            _cs.geev(char, _cs.VECTOR if vectors else _cs.NOVECTOR, n, base + i * step, n,
                     w.data.ptr + i * w.shape[-1] * w.itemsize,
                     vr.data.ptr + i * step if vectors else 0, n, infos.data.ptr + 4 * i)
    raise_on_info(infos, "Eigenvalues did not converge")
    if not real:
        return w, vr
    wr, wi = w[..., :n], w[..., n:]
    wi_host = wi.get()
    if not wi_host.any() and not _numpy_eig_always_complex():  # all real: NumPy < 2.5 returns real
        return wr.copy(), (vr if vectors else None)
    cchar = "F" if char == "f" else "D"
    wc = (wr + 1j * wi).astype(cchar)
    if not vectors:
        return wc, None
    # LAPACK packing: for a pair (j, j+1) with wi[j] > 0, v_j = vr_j + i vr_{j+1}, v_{j+1} = conj(v_j).
    first = wi_host > 0
    second = numpy.zeros_like(first)
    second[..., 1:] = first[..., :-1]
    fd, sd = asarray(first)[..., None, :], asarray(second)[..., None, :]
    nxt, prv = roll(vr, -1, axis=-1), roll(vr, 1, axis=-1)
    v = where(fd, vr + 1j * nxt, where(sd, prv - 1j * vr, vr + 0j)).astype(cchar)
    return wc, v


_ALWAYS_COMPLEX = []


def _numpy_eig_always_complex() -> bool:
    """Whether the installed NumPy returns complex eigenvalues for real input even when all are real
    (newer NumPy does); asked once of NumPy itself, the oracle."""
    if not _ALWAYS_COMPLEX:
        _ALWAYS_COMPLEX.append(numpy.linalg.eigvals(numpy.eye(1)).dtype.kind == "c")
    return _ALWAYS_COMPLEX[0]


def eig(a):
    """See `numpy.linalg.eig`. Uses cuSOLVER's Xgeev (right eigenvectors, normalised like LAPACK);
    reading back whether every eigenvalue is real (NumPy's result type depends on it) waits for
    the device.

    Examples
    --------
    >>> import cuarray
    >>> w, v = cuarray.linalg.eig(cuarray.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> cuarray.round(cuarray.sort(w.real), 6)   # w is complex under NumPy >= 2.5, real before: as the installed NumPy
    array([1., 3.])
    >>> v.shape
    (2, 2)
    """
    w, v = _geev(a, True, "linalg.eig")
    return EigResult(w, v)


def eigvals(a):
    """See `numpy.linalg.eigvals`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.sort(cuarray.linalg.eigvals(cuarray.array([[1.0, 2.0], [0.0, 3.0]])).real), 6)
    array([1., 3.])
    >>> cuarray.linalg.eigvals(cuarray.array([[0.0, -1.0], [1.0, 0.0]])).dtype   # complex eigenvalues
    dtype('complex128')
    """
    return _geev(a, False, "linalg.eigvals")[0]
