"""Matrices built from a decomposition's parts: diagsvd (the Sigma of an SVD) and cdf2rdf (the real
block-diagonal form of a real matrix's complex eigendecomposition), on the device."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import asnumpy
from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ..._indexing.inserting import put, take, take_along_axis
from ..._manipulation.dims import broadcast_to
from ..._math.complex import imag, real
from ...linalg._util import as_array
from ._validate import batch_shape, deprecate_dtypes, require_finite

__all__ = ["diagsvd", "cdf2rdf"]


def _set_diagonal(out, d):
    """out[..., i, i] = d[..., i] for i < d.shape[-1], through a strided view of the C-contiguous
    `out` (no index array)."""
    m, n = out.shape[-2:]
    k = d.shape[-1]
    if k:
        flat = out.reshape(out.shape[:-2] + (m * n,))
        flat[..., 0:(k - 1) * (n + 1) + 1:n + 1] = d


def diagsvd(s, M, N):
    """See `scipy.linalg.diagsvd`; leading dimensions of `s` are batches, as SciPy 1.18's. The
    M x N matrix is built on the device in `s`'s dtype; `s` may come from the host (a small
    parameter vector, as the special matrices' defining vectors).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.diagsvd(cuarray.array([3., 2.]), 3, 2)
    array([[3., 0.],
           [0., 2.],
           [0., 0.]])
    """
    s = as_parameter(s, "diagsvd")
    deprecate_dtypes("diagsvd", s)
    batch = batch_shape("diagsvd", s.shape[:-1])
    if s.ndim == 0:
        raise ValueError("Input must be 1- or 2-d.")  # numpy.diag's, as SciPy's first step
    k = s.shape[-1]
    if k not in (M, N):
        raise ValueError("Length of s must be M or N.")
    if (k == M and N < M) or (k != M and M < N):
        raise ValueError("negative dimensions are not allowed")  # SciPy's zero padding, as NumPy
    out = zeros(batch + (M, N), dtype=s.dtype)
    _set_diagonal(out, s)
    return out


def _pairs(cmask):
    """SciPy's pairing of complex eigenvalues (consecutive complex entries of each row of the host
    mask `cmask`): (stack indices, j, k) of each pair's first and second entry."""
    if not (cmask.sum(axis=-1) % 2 == 0).all():
        raise ValueError("expected complex-conjugate pairs of eigenvalues")
    idx = numpy.nonzero(cmask)
    stack = tuple(i[0::2] for i in idx[:-1])
    return stack, idx[-1][0::2], idx[-1][1::2]


def cdf2rdf(w, v):
    """See `scipy.linalg.cdf2rdf` (stacks too, as SciPy's). Which eigenvalues are complex is read
    from the device (one read, for complex `w` only) and paired on the host as SciPy pairs them;
    the real block-diagonal `wr` and the real eigenvectors `vr` are built on the device with
    SciPy's arithmetic (each column of `vr` a combination of two columns of `v` in complex128:
    bit for bit SciPy's values).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> w = cuarray.array([1. + 2.j, 1. - 2.j])
    >>> v = cuarray.array([[1. + 2.j, 1. - 2.j], [3. - 1.j, 3. + 1.j]])
    >>> wr, vr = linalg.cdf2rdf(w, v)
    >>> wr
    array([[ 1.,  2.],
           [-2.,  1.]])
    >>> vr
    array([[-2.,  1.],
           [ 1.,  3.]])
    """
    w, v = as_array(w, "cdf2rdf"), as_array(v, "cdf2rdf")
    require_finite(True, w, v)
    deprecate_dtypes("cdf2rdf", w, v)
    if w.ndim < 1:
        raise ValueError("expected w to be at least 1D")
    if v.ndim < 2:
        raise ValueError("expected v to be at least 2D")
    if v.ndim != w.ndim + 1:
        raise ValueError("expected eigenvectors array to have exactly one dimension more than eigenvalues array")
    n, batch = w.shape[-1], w.shape[:-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError("expected v to be a square matrix or stacked square matrices: v.shape[-2] = v.shape[-1]")
    if v.shape[-1] != n:
        raise ValueError("expected the same number of eigenvalues as eigenvectors")
    wre = real(w)
    wr = zeros(batch + (n, n), dtype=wre.dtype)
    _set_diagonal(wr, wre)
    if w.dtype.kind == "c":
        stack, j, k = _pairs(asnumpy(imag(w) != 0))
    else:
        stack, j, k = (), numpy.empty(0, numpy.intp), numpy.empty(0, numpy.intp)
    v = broadcast_to(v, batch + (n, n))  # SciPy's einsum broadcasts v against the pairs' stack
    if not j.size:
        return wr, real(v).astype(numpy.float64)
    shape = batch + (n, n)
    wim = imag(w).reshape(-1)
    put(wr, numpy.ravel_multi_index(stack + (j, k), shape), take(wim, numpy.ravel_multi_index(stack + (j,), w.shape)))
    put(wr, numpy.ravel_multi_index(stack + (k, j), shape), take(wim, numpy.ravel_multi_index(stack + (k,), w.shape)))
    # vr[..., c] = Re(v[..., a_c] u_a + v[..., b_c] u_b): u's two nonzeros in column c of SciPy's
    # u (1 and 0 for a real eigenvalue; 0.5j, -0.5j at j and 0.5, 0.5 at k for a pair (j, k)).
    a_col = numpy.broadcast_to(numpy.arange(n), batch + (n,)).copy()
    b_col = a_col.copy()
    ua = numpy.ones(batch + (n,), numpy.complex128)
    ub = numpy.zeros(batch + (n,), numpy.complex128)
    a_col[stack + (k,)] = j
    b_col[stack + (j,)] = k
    ua[stack + (j,)], ub[stack + (j,)] = 0.5j, -0.5j
    ua[stack + (k,)], ub[stack + (k,)] = 0.5, 0.5
    vc = v.astype(numpy.complex128)
    ga = take_along_axis(vc, a_col[..., None, :], axis=-1)
    gb = take_along_axis(vc, b_col[..., None, :], axis=-1)
    vr = real(ga * asarray(ua)[..., None, :] + gb * asarray(ub)[..., None, :])
    return wr, vr
