"""Sparse direct solvers on cuDSS: `spsolve`, `splu`/`SuperLU`, `spilu`, `factorized`. See
`scipy.sparse.linalg`.

cuDSS (the optional extra `cuarray[cudss]`) reorders, analyses and factorises the CSR matrix
(`cuarray.cuda.libs.cudss.Factorization`) and solves against dense right-hand sides; without it
these functions raise ImportError naming the extra (no hand-written sparse LU stands in).

Differences from SciPy: cuDSS keeps its factors to itself, so `SuperLU.L`, `.U`, `perm_r` and
`perm_c` come from SciPy's SuperLU of the same matrix, made on the host on first use of any of
them (SciPy's contract holds: ``Pr @ A @ Pc == L @ U`` with these four; the solves stay on
cuDSS's factors); `nnz` is cuDSS's count of LU nonzeros; `spilu` returns the exact LU (a valid
incomplete factorisation with no entry dropped; `drop_tol` and friends are accepted and
unused); `permc_spec` and the SuperLU options reach only that host factorisation, and
`use_umfpack` is unused. A singular matrix is one where a pivot is zero (cuDSS's perturbed
pivots, see `cuarray.cuda.libs.cudss.Factorization`).
"""

from __future__ import annotations

import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import empty
from ..._creation.from_data import ascontiguousarray
from ..._core.transfer import from_host, to_host
from ...cuda.libs import cudss as _cudss
from .._sputils import issparse
from .._format_csc import csc_matrix
from .._format_csr import csr_matrix

__all__ = ["spsolve", "splu", "spilu", "factorized", "SuperLU", "MatrixRankWarning", "use_solver"]

# The options `use_solver` records (SciPy's defaults). Every direct solver here is cuDSS's, so
# they select nothing: they are kept so that a program can set and read them back.
SOLVER_OPTIONS = {"useUmfpack": True, "assumeSortedIndices": False}


class SparseEfficiencyWarning(UserWarning):
    """A sparse format a solver must convert first (SciPy's warning of that name)."""


class MatrixRankWarning(UserWarning):
    """See `scipy.sparse.linalg.MatrixRankWarning`: a singular matrix given to a direct solver."""


def _float_dtype(*dts):
    dt = numpy.result_type(*dts)
    if dt.kind in "biu":
        return numpy.dtype(numpy.float64)
    if dt == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dt


def _square_csr(A, fn):
    if not issparse(A) or A.format not in ("csr", "csc"):
        if not issparse(A):
            raise TypeError("{}: A must be a cuarray sparse matrix or array".format(fn))
        warnings.warn("{} requires A be CSC or CSR matrix format".format(fn), SparseEfficiencyWarning, stacklevel=3)
    M, N = A.shape
    if M != N:
        raise ValueError("matrix must be square (has shape {})".format((M, N)))
    return A


class SuperLU:
    """See `scipy.sparse.linalg.SuperLU`: a cuDSS factorisation of A (and, for a transposed
    solve, of A^T made on first use). `L`, `U`, `perm_r` and `perm_c` are SciPy's SuperLU of
    the same matrix, made on the host on first use (cuDSS does not expose its factors).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> lu = splinalg.splu(a.tocsc())
    >>> isinstance(lu, splinalg.SuperLU)
    True
    """

    def __init__(self, A, dtype, options=None):
        a = A.tocsr().astype(dtype)
        a.sum_duplicates()
        self.shape = a.shape
        self._a = a
        self._dtype = numpy.dtype(dtype)
        self._f = self._factor(a)
        self._ft = None
        self._options = dict(options or {})
        self._host_lu = None

    @staticmethod
    def _factor(a):
        return _cudss.Factorization(a.shape[0], a.indptr.astype(numpy.int32), a.indices.astype(numpy.int32),
                                    ascontiguousarray(a.data))

    def _singular(self):
        if not self.shape[0]:
            return False
        verdict = self._f.singular()
        return _probe_singular(self._f, self._a, self._dtype) if verdict is None else verdict

    def _host(self):
        """SciPy's SuperLU of the same matrix (made once): the factors and permutations cuDSS keeps."""
        if self._host_lu is None:
            # host work: cuDSS exposes neither L nor U; SciPy's SuperLU of this matrix gives the four together
            import scipy.sparse.linalg as host_linalg

            self._host_lu = host_linalg.splu(self._a.get().tocsc(), **self._options)
        return self._host_lu

    @property
    def nnz(self):
        return self._f.lu_nnz()

    @property
    def perm_r(self):
        return self._host().perm_r

    @property
    def perm_c(self):
        return self._host().perm_c

    @property
    def L(self):
        return csc_matrix(self._host().L)

    @property
    def U(self):
        return csc_matrix(self._host().U)

    def solve(self, rhs, trans="N"):
        """See `scipy.sparse.linalg.SuperLU.solve`."""
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        if not isinstance(rhs, ndarray):
            raise TypeError("rhs must be a cuarray array (call cuarray.asarray first)")
        n = self.shape[0]
        if rhs.ndim not in (1, 2) or rhs.shape[0] != n:
            raise ValueError("rhs has wrong shape (expected ({},) or ({}, k), got {})".format(n, n, rhs.shape))
        f = self._f
        if trans != "N":
            if self._ft is None:
                at = self._a.T.tocsr()
                self._ft = self._factor(at.conj() if trans == "H" and self._dtype.kind == "c" else at)
            f = self._ft
        dt = numpy.result_type(self._dtype, rhs.dtype)
        return _solve(f, rhs.astype(self._dtype, copy=False), self._dtype).astype(dt, copy=False)


def _probe_singular(f, a, dtype):
    """Whether the factorisation has a perturbed zero pivot, by one solve of a fixed random
    right-hand side: a pivot replaced by the dtype's smallest normal number makes |x| about
    1/tiny times the data's scale, far past 1/sqrt(tiny) (cuDSS counted pivots, but its diagonal
    did not show a perturbed one; see `cuarray.cuda.libs.cudss.Factorization.singular`)."""
    n = a.shape[0]
    b = numpy.random.default_rng(0).standard_normal(n).astype(dtype)
    x = numpy.abs(to_host(_solve(f, from_host(b), dtype)))
    scale = float(to_host(abs(a.data).max())) if a.nnz else 1.0
    limit = 1.0 / numpy.sqrt(float(numpy.finfo(dtype).tiny))
    with numpy.errstate(all="ignore"):
        return not bool((x * scale < limit * numpy.abs(b).max()).all())


def _solve(f, b, dtype):
    """x = A^-1 b through the factorisation f (b: (n,) or (n, k) of `dtype`)."""
    n = b.shape[0]
    cols = b.reshape(n, 1) if b.ndim == 1 else b
    k = cols.shape[1]
    bt = ascontiguousarray(cols.T.astype(dtype))  # (k, n) C order: n x k column-major
    xt = empty((k, n), dtype=dtype)
    if n and k:
        f.solve_into(bt.data.ptr, xt.data.ptr, k)
    x = xt.T
    return ascontiguousarray(x.reshape(n) if b.ndim == 1 else x)


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """See `scipy.sparse.linalg.spsolve`. One cuDSS analysis, factorisation and solve; a
    singular A gives SciPy's MatrixRankWarning and NaNs (one host read of cuDSS's status).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> cuarray.round(splinalg.spsolve(a, b), 4)
    array([0.0909, 0.6364])
    """
    A = _square_csr(A, "spsolve")
    b_sparse = issparse(b)
    if not b_sparse and not isinstance(b, ndarray):
        raise TypeError("b must be a cuarray array or sparse matrix (call cuarray.asarray first)")
    n = A.shape[0]
    if b.shape[0] != n:
        raise ValueError("matrix - rhs dimension mismatch ({} - {})".format(A.shape, b.shape[0]))
    dt = _float_dtype(A.dtype, b.dtype)
    bd = b.toarray() if b_sparse else b
    vector = bd.ndim == 1 or (bd.ndim == 2 and bd.shape[1] == 1)
    lu = SuperLU(A, dt)
    x = _solve(lu._f, bd.astype(dt, copy=False), dt)
    if lu._singular():
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=2)
        x.fill(numpy.nan)
    if vector:
        return x.reshape(n)
    if b_sparse:
        return (csr_matrix if A.format == "csr" else csc_matrix)(x)
    return x


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """See `scipy.sparse.linalg.splu`: a cuDSS factorisation (see the module for `L`/`U`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> lu = splinalg.splu(a.tocsc())
    >>> cuarray.round(lu.solve(b), 4)
    array([0.0909, 0.6364])
    """
    A = _square_csr(A, "splu")
    opts = {"permc_spec": permc_spec, "diag_pivot_thresh": diag_pivot_thresh, "relax": relax,
            "panel_size": panel_size, "options": options}
    lu = SuperLU(A, _float_dtype(A.dtype), {k: v for k, v in opts.items() if v is not None})
    if lu._singular():
        raise RuntimeError("Factor is exactly singular")
    return lu


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None, diag_pivot_thresh=None,
          relax=None, panel_size=None, options=None):
    """See `scipy.sparse.linalg.spilu`: the exact cuDSS LU (no entry dropped), which is the
    incomplete factorisation with drop tolerance 0.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> lu = splinalg.spilu(a.tocsc())
    >>> cuarray.round(lu.solve(b), 4)
    array([0.0909, 0.6364])
    """
    return splu(A)


def factorized(A):
    """See `scipy.sparse.linalg.factorized`: the solve of one cuDSS factorisation.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> solve = splinalg.factorized(a.tocsc())
    >>> cuarray.round(solve(b), 4)
    array([0.0909, 0.6364])
    """
    lu = splu(A)

    def solve(b):
        return lu.solve(b)

    return solve


def use_solver(**kwargs):
    """See `scipy.sparse.linalg.use_solver`. cuarray's direct solvers are cuDSS's whatever is
    chosen: `useUmfpack` and `assumeSortedIndices` are recorded (in `SOLVER_OPTIONS` of this
    module) and change nothing; other keywords are ignored, as SciPy ignores them.

    Examples
    --------
    >>> from cuarray.sparse import linalg as splinalg
    >>> splinalg.use_solver(useUmfpack=False)
    """
    for key in SOLVER_OPTIONS:
        if key in kwargs:
            SOLVER_OPTIONS[key] = kwargs[key]
