"""scipy.linalg routines whose LAPACK drivers have no cuSOLVER/cuBLAS counterpart (Schur, QZ,
Hessenberg, LDL^T, CS decomposition, balancing, tridiagonal and banded eigensolvers, banded
Cholesky) and the Schur-based matrix functions: one host step through SciPy on the host (the
operands copied to the host, SciPy's own batching, dtypes and errors, the results copied back to
the device). docs/scipy.md lists them; each is a synchronisation and two transfers."""

from __future__ import annotations

import numpy

from ..._core.host_input import reject
from ..._core.ndarray import ndarray
from ..._creation.from_data import asarray

__all__ = ["ldl", "schur", "rsf2csf", "hessenberg", "cossin", "qz", "ordqz", "matrix_balance", "funm", "signm",
           "fractional_matrix_power", "eigh_tridiagonal", "eig_banded", "cholesky_banded", "cho_solve_banded",
           "eigvalsh_tridiagonal", "eigvals_banded"]

_NOVALUE = object()  # "not passed" (SciPy's own sentinel would need scipy at import time)


def _to_host(x):
    if isinstance(x, ndarray):
        return x.get()
    if isinstance(x, tuple):
        return tuple(_to_host(v) for v in x)
    return x


def _results_to_device(r):
    if isinstance(r, numpy.ndarray) and r.dtype != object:
        return asarray(r)
    if isinstance(r, tuple):
        return type(r)(*(_results_to_device(v) for v in r)) if hasattr(r, "_fields") else tuple(_results_to_device(v) for v in r)
    return r


def _operand(x, name):
    """A positional array operand by the host-input policy (device arrays and scalars; a NumPy
    array or a list is refused as everywhere in cuarray), on the host."""
    if isinstance(x, (numpy.ndarray, list)):
        raise reject(x, "scipy.linalg." + name)
    return _to_host(x)


def _on_host(name, *args, **kwargs):
    # host work: SciPy's LAPACK driver (no cuSOLVER counterpart), on host copies of the operands
    from scipy import linalg as _sl

    return _results_to_device(getattr(_sl, name)(*(a if callable(a) else _operand(a, name) for a in args),
                                         **{k: _to_host(v) for k, v in kwargs.items()}))


def ldl(A, lower=True, hermitian=True, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.ldl`. One host step through SciPy (LAPACK sytrf/hetrf; cuSOLVER's sytrf
    pivots differently from LAPACK's, so the factors would not be SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> lu, d, perm = linalg.ldl(cuarray.array([[2., 1.], [1., 2.]]))
    >>> d
    array([[2. , 0. ],
           [0. , 1.5]])
    """
    return _on_host("ldl", A, lower=lower, hermitian=hermitian, check_finite=check_finite)


def schur(a, output="real", lwork=None, overwrite_a=False, sort=None, check_finite=True):
    """See `scipy.linalg.schur`. One host step through SciPy (LAPACK gees: cuSOLVER has no Schur
    decomposition); a callable `sort` is called on the host with NumPy arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> t, z = linalg.schur(cuarray.array([[1., 2.], [0., 3.]]))
    >>> t
    array([[1., 2.],
           [0., 3.]])
    """
    return _on_host("schur", a, output=output, lwork=lwork, sort=sort, check_finite=check_finite)


def rsf2csf(T, Z, check_finite=True):
    """See `scipy.linalg.rsf2csf`. One host step through SciPy (a sequence of 2 x 2 rotations).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> t, z = linalg.rsf2csf(cuarray.array([[1., 2.], [0., 3.]]), cuarray.eye(2))
    >>> t
    array([[1.+0.j, 2.+0.j],
           [0.+0.j, 3.+0.j]])
    """
    return _on_host("rsf2csf", T, Z, check_finite=check_finite)


def hessenberg(a, calc_q=False, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.hessenberg`. One host step through SciPy (LAPACK gehrd/orghr).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.hessenberg(cuarray.array([[1., 2.], [3., 4.]]))
    array([[1., 2.],
           [3., 4.]])
    """
    return _on_host("hessenberg", a, calc_q=calc_q, check_finite=check_finite)


def cossin(X, p=None, q=None, separate=False, swap_sign=False, compute_u=True, compute_vh=True):
    """See `scipy.linalg.cossin`. One host step through SciPy (LAPACK uncsd); `X` given as blocks
    is taken as SciPy takes it.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> u, cs, vdh = linalg.cossin(cuarray.eye(4), p=2, q=2)
    >>> cs.shape
    (4, 4)
    """
    if isinstance(X, (list, tuple)) and all(isinstance(x, ndarray) for x in X):
        X = tuple(X)  # the four blocks, each a device array
    return _on_host("cossin", X, p=p, q=q, separate=separate, swap_sign=swap_sign, compute_u=compute_u,
                    compute_vh=compute_vh)


def qz(A, B, output="real", lwork=None, sort=None, overwrite_a=False, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.qz`. One host step through SciPy (LAPACK gges).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> aa, bb, q, z = linalg.qz(cuarray.array([[1., 2.], [0., 3.]]), cuarray.eye(2))
    >>> aa.shape
    (2, 2)
    """
    return _on_host("qz", A, B, output=output, lwork=lwork, sort=sort, check_finite=check_finite)


def ordqz(A, B, sort="lhp", output="real", overwrite_a=False, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.ordqz`. One host step through SciPy (LAPACK gges and tgsen); a callable
    `sort` is called on the host with NumPy arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> aa, bb, alpha, beta, q, z = linalg.ordqz(cuarray.array([[1., 2.], [0., 3.]]), cuarray.eye(2))
    >>> alpha
    array([1.+0.j, 3.+0.j])
    """
    return _on_host("ordqz", A, B, sort=sort, output=output, check_finite=check_finite)


def matrix_balance(A, permute=True, scale=True, separate=False, overwrite_a=False):
    """See `scipy.linalg.matrix_balance`. One host step through SciPy (LAPACK gebal).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> b, t = linalg.matrix_balance(cuarray.array([[1., 100.], [0.01, 1.]]))
    >>> b
    array([[1.    , 1.5625],
           [0.64  , 1.    ]])
    """
    return _on_host("matrix_balance", A, permute=permute, scale=scale, separate=separate)


def funm(A, func, disp=True):
    """See `scipy.linalg.funm`. One host step through SciPy (Schur-Parlett on LAPACK's Schur
    form): `func` is called on the host with NumPy arrays (a NumPy function, not a cuarray one).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> import numpy
    >>> linalg.funm(cuarray.array([[1., 0.], [0., 2.]]), numpy.square)
    array([[1., 0.],
           [0., 4.]])
    """
    return _on_host("funm", A, func, disp=disp)


def signm(A):
    """See `scipy.linalg.signm` (SciPy 1.18's signature: its deprecated `disp` is gone). One host
    step through SciPy (its Schur-based iteration).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.signm(cuarray.array([[2., 0.], [0., -3.]]))
    array([[ 1.,  0.],
           [ 0., -1.]])
    """
    return _on_host("signm", A)


def fractional_matrix_power(A, t):
    """See `scipy.linalg.fractional_matrix_power`. One host step through SciPy (Higham and
    Lin's Schur-Pade algorithm on LAPACK's Schur form).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.fractional_matrix_power(cuarray.array([[4., 0.], [0., 9.]]), 0.5)
    array([[2., 0.],
           [0., 3.]])
    """
    return _on_host("fractional_matrix_power", A, t)


def eigh_tridiagonal(d, e, eigvals_only=False, select="a", select_range=None, check_finite=True, tol=0.0,
                     lapack_driver="auto"):
    """See `scipy.linalg.eigh_tridiagonal`. One host step through SciPy (LAPACK stemr/stebz:
    cuSOLVER has no tridiagonal eigensolver); the results are copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.eigh_tridiagonal(cuarray.array([2., 2.]), cuarray.array([1.]), eigvals_only=True)
    array([1., 3.])
    """
    return _on_host("eigh_tridiagonal", d, e, eigvals_only=eigvals_only, select=select, select_range=select_range,
                    check_finite=check_finite, tol=tol, lapack_driver=lapack_driver)


def eig_banded(a_band, lower=False, eigvals_only=False, overwrite_a_band=False, select="a", select_range=None,
               max_ev=0, check_finite=True):
    """See `scipy.linalg.eig_banded`. One host step through SciPy (LAPACK sbevd/hbevd).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.eig_banded(cuarray.array([[0., 1.], [2., 2.]]), eigvals_only=True)
    array([1., 3.])
    """
    return _on_host("eig_banded", a_band, lower=lower, eigvals_only=eigvals_only, select=select,
                    select_range=select_range, max_ev=max_ev, check_finite=check_finite)


def eigvalsh_tridiagonal(d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"):
    """See `scipy.linalg.eigvalsh_tridiagonal`: `eigh_tridiagonal`'s host step (LAPACK
    stemr/stebz), eigenvalues only; SciPy's batching.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.eigvalsh_tridiagonal(cuarray.array([2., 2., 2.]), cuarray.array([1., 1.]))
    array([0.58578644, 2.        , 3.41421356])
    """
    return _on_host("eigvalsh_tridiagonal", d, e, select=select, select_range=select_range,
                    check_finite=check_finite, tol=tol, lapack_driver=lapack_driver)


def eigvals_banded(a_band, lower=False, overwrite_a_band=False, select="a", select_range=None, check_finite=True):
    """See `scipy.linalg.eigvals_banded`: `eig_banded`'s host step (LAPACK sbevd/hbevd),
    eigenvalues only; SciPy's batching.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.eigvals_banded(cuarray.array([[0., 1., 1.], [2., 2., 2.]]))
    array([0.58578644, 2.        , 3.41421356])
    """
    return _on_host("eigvals_banded", a_band, lower=lower, select=select, select_range=select_range,
                    check_finite=check_finite)


def cholesky_banded(ab, overwrite_ab=False, lower=False, check_finite=True):
    """See `scipy.linalg.cholesky_banded`. One host step through SciPy (LAPACK pbtrf).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.cholesky_banded(cuarray.array([[0., 1.], [4., 5.]]))
    array([[0.        , 0.5       ],
           [2.        , 2.17944947]])
    """
    return _on_host("cholesky_banded", ab, lower=lower, check_finite=check_finite)


def cho_solve_banded(cb_and_lower, b, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.cho_solve_banded`. One host step through SciPy (LAPACK pbtrs).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> c = linalg.cholesky_banded(cuarray.array([[0., 1.], [4., 5.]]))
    >>> linalg.cho_solve_banded((c, False), cuarray.array([5., 6.]))
    array([1., 1.])
    """
    cb, lower = cb_and_lower
    return _on_host("cho_solve_banded", (_operand(cb, "cho_solve_banded"), lower), b, check_finite=check_finite)
