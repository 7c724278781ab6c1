"""solve_circulant (FFT), solve_toeplitz (Levinson's recursion, templates/levinson.cu, or the dense
matrix and LU, by the planner _toeplitz_plan.route), matmul_toeplitz (FFT), pinvh
(eigh), subspace_angles (orth and svdvals) and expm_frechet (expm of the 2n x 2n block matrix
[[A, E], [0, A]], whose upper-right block is the Frechet derivative), batched over leading
dimensions where SciPy 1.18 batches."""

from __future__ import annotations

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
import cuarray.linalg as _la  # (likewise)
from ..._core.host_input import as_parameter
from ..._creation.basic import empty, zeros
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import moveaxis, swapaxes
from ...cuda import device as _device
from ...lib.stride_tricks import sliding_window_view
from ..._math.complex import conj, real
from ..._math.misc import abs as abs_
from ..._math.misc import clip
from ..._math.trigonometric import arccos, arcsin
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ..._math.sums import sum as sum_
from ...linalg._matmul import matmul
from ._basic import eigh, orth, svdvals
from ._expm import expm
from . import _toeplitz_plan
from ._levinson import levinson
from ...linalg._util import as_array
from ._validate import as_lapack, batch_shape, deprecate_dtypes, require_finite

__all__ = ["solve_circulant", "solve_toeplitz", "matmul_toeplitz", "pinvh", "subspace_angles", "expm_frechet"]


def _axis_len(name, x, axis):
    try:
        return x.shape[axis]
    except IndexError:
        raise ValueError("{}axis={} is invalid for the {}-d array {}".format(name, axis, x.ndim, name)) from None


def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0):
    """See `scipy.linalg.solve_circulant`: two FFTs, a division and an inverse FFT on the GPU;
    the near-singularity test is one device read.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.solve_circulant(cuarray.array([2., 1., 1.]), cuarray.array([4., 4., 4.]))
    array([1., 1., 1.])
    """
    c, b = as_parameter(c, "solve_circulant"), as_parameter(b, "solve_circulant")
    c = c.reshape(1) if c.ndim == 0 else c
    b = b.reshape(1) if b.ndim == 0 else b
    nc, nb = _axis_len("c", c, caxis), _axis_len("b", b, baxis)
    if nc != nb:
        raise ValueError("Shapes of c {} and b {} are incompatible".format(c.shape, b.shape))
    if b.size == 0:  # SciPy: the dtype of the non-empty case (NumPy's FFT dtypes, real if both are)
        dt = numpy.result_type(*(numpy.fft.fft(numpy.ones(1, x.dtype)).dtype for x in (c, b)))
        return empty(b.shape, dtype=dt if c.dtype.kind == "c" or b.dtype.kind == "c" else dt.char.lower())
    fc = _fft.fft(moveaxis(c, caxis, -1), axis=-1)
    afc = abs_(fc)
    if tol is None:
        tol = max_(afc, axis=-1, keepdims=True) * (nc * numpy.finfo(numpy.float64).eps)
    near = afc <= tol
    singular_now = bool(any_(near).get())
    if singular_now:
        if singular == "raise":
            raise numpy.linalg.LinAlgError("near singular circulant matrix.")
        fc = where(near, 1, fc)
    q = _fft.fft(moveaxis(b, baxis, -1), axis=-1) / fc
    if singular_now:
        q = where(near, 0, q)
    x = _fft.ifft(q, axis=-1)
    if c.dtype.kind != "c" and b.dtype.kind != "c":
        x = real(x)
    return moveaxis(x, -1, outaxis) if outaxis != -1 else x


def solve_toeplitz(c_or_cr, b, check_finite=True):
    """See `scipy.linalg.solve_toeplitz`; leading dimensions are batches (SciPy 1.18's: `c` and
    `r` 1-D cores, `b` 1-D or 2-D). Levinson's recursion as SciPy's, on the device (one kernel, a
    block per system, O(n^2) work and O(n) memory per system), or, where the planner predicts it
    twice as fast (few systems of order ~330 and more; `_toeplitz_plan`), the n x n matrix solved
    by LU with partial pivoting (cuSOLVER). A singular leading principal minor raises SciPy's
    LinAlgError (one read of the flags); by LU only c[0] == 0 and a singular matrix do, and a
    matrix with only an inner singular minor is solved. float64/complex128 results, as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.solve_toeplitz(cuarray.array([4., 1., 0.]), cuarray.array([5., 6., 5.]))
    array([1., 1., 1.])
    """
    if isinstance(c_or_cr, tuple):
        c, r = (as_parameter(v, "solve_toeplitz") for v in c_or_cr)
    else:
        c = as_parameter(c_or_cr, "solve_toeplitz")
        r = conj(c)
    b = as_parameter(b, "solve_toeplitz")
    core = 1 if b.ndim <= 1 else 2
    # (first, as SciPy's batch decorator: broadcast errors and zero-size batches before the values)
    batch = batch_shape("solve_toeplitz", c.shape[:-1], r.shape[:-1], b.shape[:b.ndim - core])
    require_finite(check_finite, c, r, b)
    if c.ndim == 0 or r.ndim == 0:
        raise IndexError("tuple index out of range")  # SciPy's, from the shape check
    b = b.reshape(1) if b.ndim == 0 else b
    n = c.shape[-1]
    if r.shape[-1] != n or b.shape[-core] != n:
        raise ValueError("Incompatible dimensions.")
    dt = numpy.dtype("D" if any(x.dtype.kind == "c" for x in (c, r, b)) else "d")
    out_shape = batch + b.shape[b.ndim - core:]
    if b.size == 0 or n == 0:
        return empty(out_shape, dtype=dt)
    rows = int(numpy.prod(batch))
    k = 1 if core == 1 else b.shape[-1]
    y = broadcast_to(b.astype(dt), batch + b.shape[b.ndim - core:]).reshape(rows, n, k)
    cc = c.astype(dt).reshape(-1, n) if not c.shape[:-1] else broadcast_to(c.astype(dt), batch + (n,)).reshape(rows, n)
    rr = r.astype(dt).reshape(-1, n) if not r.shape[:-1] else broadcast_to(r.astype(dt), batch + (n,)).reshape(rows, n)
    matrices = max(cc.shape[0], rr.shape[0])
    if _toeplitz_plan.route(n, k, rows, matrices, dt.kind == "c", _sm_count()) == _toeplitz_plan.DENSE_LU:
        return _dense_lu(cc, rr, y).reshape(out_shape)
    return levinson(cc, rr, y).reshape(out_shape)


def matmul_toeplitz(c_or_cr, x, check_finite=False, workers=None):
    """See `scipy.linalg.matmul_toeplitz`; leading dimensions are batches (SciPy 1.18's: `c` and
    `r` 1-D cores, `x` 1-D or 2-D). As SciPy: the Toeplitz matrix embedded in a circulant one of
    order len(c) + len(r) - 1 and the product taken by FFTs (cuFFT; real transforms for real
    input), in float64/complex128 as SciPy's. `c` and `r` may come from the host (small parameter
    vectors, as `solve_toeplitz`'s); `workers` is accepted and not used (cuFFT).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> c, r = cuarray.array([1., 3., 6.]), cuarray.array([1., -1., -2.])
    >>> linalg.matmul_toeplitz((c, r), cuarray.array([1., 2., 2.]))
    array([-5.,  3., 14.])
    """
    if x is None:
        raise ValueError("`b` must be an array, not None.")
    x = as_array(x, "matmul_toeplitz")  # (first: a host x is refused before c is copied)
    if isinstance(c_or_cr, tuple):
        c, r = (as_parameter(v, "matmul_toeplitz") for v in c_or_cr)
    else:
        c = as_parameter(c_or_cr, "matmul_toeplitz")
        r = conj(c)
    deprecate_dtypes("matmul_toeplitz", r, c, x)
    core = 2 if x.ndim >= 2 else 1
    batch = batch_shape("matmul_toeplitz", r.shape[:-1], c.shape[:-1], x.shape[:x.ndim - core])
    if c.ndim == 0 or r.ndim == 0 or x.ndim == 0:
        raise IndexError("tuple index out of range")  # SciPy's, from its shape check
    require_finite(check_finite, c, r, x)
    nc, nr = c.shape[-1], r.shape[-1]
    if x.shape[-core] != nr:
        raise ValueError("Incompatible dimensions.")
    dt = numpy.dtype("D" if any(v.dtype.kind == "c" for v in (c, r, x)) else "d")
    if x.size == 0:
        return empty(batch + ((nc,) if core == 1 else (nc, x.shape[-1])), dtype=dt)
    p = nc + nr - 1
    col = concatenate((broadcast_to(c, batch + (nc,)), broadcast_to(r, batch + (nr,))[..., :0:-1]), axis=-1)
    col, xx = col.astype(dt), x.astype(dt)
    if core == 1:
        xx = xx[..., None]
    if dt.kind == "c":
        y = _fft.ifft(_fft.fft(col, axis=-1)[..., :, None] * _fft.fft(xx, n=p, axis=-2), axis=-2)
    else:
        y = _fft.irfft(_fft.rfft(col, axis=-1)[..., :, None] * _fft.rfft(xx, n=p, axis=-2), n=p, axis=-2)
    y = y[..., :nc, :]
    return y[..., 0] if core == 1 else y


def _sm_count() -> int:
    return _device._sm_count(_device.get_device_id())


def _read_any(x) -> bool:
    return bool(any_(x).get())


def _dense_lu(cc, rr, y):
    """solve_toeplitz's dense route: solutions (rows, n, k) of the Toeplitz systems with first
    columns `cc` and first rows `rr` ((rows or 1, n) each) for `y` (rows, n, k), the matrices built
    as strided views of one vector (no index array) and solved by cuarray.linalg.solve."""
    rows, n, k = y.shape
    if _read_any(cc[:, 0] == 0):  # SciPy's first check (the 1 x 1 leading minor)
        raise numpy.linalg.LinAlgError("Singular principal minor")
    m = max(cc.shape[0], rr.shape[0])
    u = concatenate((broadcast_to(cc, (m, n))[:, ::-1], broadcast_to(rr, (m, n))[:, 1:]), axis=-1)
    t = sliding_window_view(u, n, axis=-1)[:, ::-1]  # T[i, j] = u[n - 1 - i + j]: window n - 1 - i
    try:
        if m == 1:  # one matrix: one LU, every system's right-hand sides together
            x = _la.solve(t[0], moveaxis(y, 0, 1).reshape(n, rows * k))
            return moveaxis(x.reshape(n, rows, k), 1, 0)
        return _la.solve(t, y)
    except numpy.linalg.LinAlgError:  # a singular matrix: its last leading minor, SciPy's message
        raise numpy.linalg.LinAlgError("Singular principal minor") from None


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False, check_finite=True):
    """See `scipy.linalg.pinvh`; leading dimensions are batches (the rank of a stack is an int64
    device array; of one matrix an int, one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.pinvh(cuarray.array([[2., 0.], [0., 0.]]))
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = as_lapack(a, "pinvh")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    s, u = eigh(a, lower=lower, check_finite=check_finite)
    t = u.dtype.char.lower()
    atol = 0.0 if atol is None else atol
    rtol = max(a.shape[-2:]) * numpy.finfo(t).eps if rtol is None else rtol
    if atol < 0.0 or rtol < 0.0:
        raise ValueError("atol and rtol values must be positive.")
    abs_s = abs_(s)
    maxs = max_(abs_s, axis=-1, keepdims=True) if s.shape[-1] else zeros(s.shape[:-1] + (1,), s.dtype)
    above = abs_s > atol + maxs * rtol
    inv_s = where(above, 1.0 / where(above, s, 1), 0)
    b = matmul(u * inv_s[..., None, :], swapaxes(conj(u), -1, -2))
    if not return_rank:
        return b
    rank = sum_(above, axis=-1)
    return (b, int(rank.get())) if rank.ndim == 0 else (b, rank)


def subspace_angles(A, B):
    """See `scipy.linalg.subspace_angles` (the ranks and the sine branch are read from the
    device; a batch is solved pair by pair).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.subspace_angles(cuarray.array([[1.], [0.]]), cuarray.array([[0.], [1.]]))
    array([1.57079633])
    """
    A, B = as_lapack(A, "subspace_angles"), as_lapack(B, "subspace_angles")
    require_finite(True, A, B)
    for M in (A, B):
        if M.ndim < 2:
            raise ValueError("expected 2D array, got shape {}".format(M.shape))
    batch = batch_shape("subspace_angles", A.shape[:-2], B.shape[:-2])
    if not batch:
        return _subspace_angles(A, B)
    # leading dimensions are batches, as SciPy's: each pair's own ranks decide its number of
    # angles, so the pairs are solved one by one and stacked (unequal counts: stack's ValueError)
    A, B = broadcast_to(A, batch + A.shape[-2:]), broadcast_to(B, batch + B.shape[-2:])
    out = stack([_subspace_angles(A[i], B[i]) for i in numpy.ndindex(*batch)])
    return out.reshape(batch + out.shape[1:])


def _subspace_angles(A, B):
    """subspace_angles of two matrices."""
    if A.shape[0] != B.shape[0]:
        raise ValueError("A and B must have the same number of rows, got {} and {}".format(A.shape[0], B.shape[0]))
    qa, qb = orth(A), orth(B)
    qaqb = matmul(swapaxes(conj(qa), -1, -2), qb)
    sigma = svdvals(qaqb, check_finite=False)
    if qa.shape[1] >= qb.shape[1]:
        bb = qb - matmul(qa, qaqb)
    else:
        bb = qa - matmul(qb, swapaxes(conj(qaqb), -1, -2))
    mask = sigma ** 2 >= 0.5
    if bool(any_(mask).get()):
        mu = arcsin(clip(svdvals(bb, check_finite=False), -1.0, 1.0))
    else:
        mu = 0.0
    return where(mask, mu, arccos(clip(sigma[::-1], -1.0, 1.0)))


def expm_frechet(A, E, method=None, compute_expm=True, check_finite=True):
    """See `scipy.linalg.expm_frechet`; leading dimensions are batches. Both methods give the
    block-enlargement result: expm of [[A, E], [0, A]] (cuarray's Pade-13 expm) in float64 or
    complex128, as SciPy's result dtype. float32 input is computed in float64 throughout (SciPy's
    SPS runs its Pade products in float32 there, which leaves errors near 1e-7 in its answer).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> e, l = linalg.expm_frechet(cuarray.zeros((2, 2)), cuarray.eye(2))
    >>> l
    array([[1., 0.],
           [0., 1.]])
    """
    A, E = as_lapack(A, "expm_frechet"), as_lapack(E, "expm_frechet")
    require_finite(check_finite, A, E)
    if A.ndim < 2 or A.shape[-2] != A.shape[-1]:
        raise ValueError("expected A to be a square matrix")
    if E.ndim < 2 or E.shape[-2] != E.shape[-1]:
        raise ValueError("expected E to be a square matrix")
    if A.shape[-2:] != E.shape[-2:]:
        raise ValueError("expected A and E to be the same shape")
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError("Unknown implementation {}".format(method))
    dt = "D" if A.dtype.kind == "c" or E.dtype.kind == "c" else "d"
    batch = batch_shape("expm_frechet", A.shape[:-2], E.shape[:-2])
    n = A.shape[-1]
    a = A.astype(dt) if batch == A.shape[:-2] else (A + zeros(batch + (n, n), dt))
    e = E.astype(dt) if batch == E.shape[:-2] else (E + zeros(batch + (n, n), dt))
    top = concatenate((a, e), axis=-1)
    bottom = concatenate((zeros(batch + (n, n), dt), a), axis=-1)
    m = expm(concatenate((top, bottom), axis=-2))
    if compute_expm:
        return m[..., :n, :n], m[..., :n, n:]
    return m[..., :n, n:]
