"""find_best_blas_type, get_blas_funcs, get_lapack_funcs.

SciPy's get_blas_funcs/get_lapack_funcs return f2py wrappers of the host BLAS/LAPACK: they compute
on the host and take NumPy arrays only, and cuarray has no device counterparts of those raw
routines (its cuBLAS/cuSOLVER calls take device pointers, not arrays). So they raise
NotImplementedError naming the cuarray function that does each routine's job, where there is
one. find_best_blas_type looks only at dtypes and layout flags: it answers as SciPy's does, for
cuarray arrays as for NumPy ones."""

from __future__ import annotations

import numpy

__all__ = ["find_best_blas_type", "get_blas_funcs", "get_lapack_funcs"]

# SciPy's scores (scipy/linalg/blas.py): single precision for bool, 8/16-bit integers, float16/32;
# double for wider integers, float64 and longdouble; anything else counts as double.
_SCORE = {c: 1 for c in "?bBhHef"}
_SCORE.update({c: 2 for c in "iIlLqQdg"})
_SCORE.update({"F": 3, "D": 4, "G": 4})
_PREFIX = {1: ("s", numpy.dtype(numpy.float32)), 2: ("d", numpy.dtype(numpy.float64)),
           3: ("c", numpy.dtype(numpy.complex64)), 4: ("z", numpy.dtype(numpy.complex128))}

# The routine names (without the type prefix) a GPU user most often asks for, and what does the
# job on the device.
_INSTEAD = {
    "gemm": "a @ b (cuarray.matmul)", "gemv": "a @ x (cuarray.matmul)", "symm": "a @ b", "hemm": "a @ b",
    "dot": "cuarray.dot", "dotu": "cuarray.dot", "dotc": "cuarray.vdot", "axpy": "a * x + y", "scal": "a * x",
    "nrm2": "cuarray.linalg.norm", "ger": "cuarray.outer", "geru": "cuarray.outer", "gerc": "cuarray.outer",
    "syrk": "a @ a.T", "herk": "a @ a.conj().T", "trmm": "a @ b", "trsm": "cuarray.scipy.linalg.solve_triangular",
    "trsv": "cuarray.scipy.linalg.solve_triangular", "trtrs": "cuarray.scipy.linalg.solve_triangular",
    "gesv": "cuarray.scipy.linalg.solve", "getrf": "cuarray.scipy.linalg.lu_factor",
    "getrs": "cuarray.scipy.linalg.lu_solve", "getri": "cuarray.scipy.linalg.inv",
    "potrf": "cuarray.scipy.linalg.cholesky", "potrs": "cuarray.scipy.linalg.cho_solve",
    "potri": "cuarray.scipy.linalg.inv(a, assume_a='pos')", "posv": "cuarray.scipy.linalg.solve(a, b, assume_a='pos')",
    "geqrf": "cuarray.scipy.linalg.qr(a, mode='raw')", "orgqr": "cuarray.scipy.linalg.qr",
    "ungqr": "cuarray.scipy.linalg.qr", "ormqr": "cuarray.scipy.linalg.qr_multiply",
    "unmqr": "cuarray.scipy.linalg.qr_multiply", "geqp3": "cuarray.scipy.linalg.qr(a, pivoting=True)",
    "gerqf": "cuarray.scipy.linalg.rq", "gesdd": "cuarray.scipy.linalg.svd", "gesvd": "cuarray.scipy.linalg.svd",
    "syevd": "cuarray.scipy.linalg.eigh", "heevd": "cuarray.scipy.linalg.eigh", "syev": "cuarray.scipy.linalg.eigh",
    "heev": "cuarray.scipy.linalg.eigh", "syevr": "cuarray.scipy.linalg.eigh", "heevr": "cuarray.scipy.linalg.eigh",
    "sygvd": "cuarray.scipy.linalg.eigh(a, b)", "hegvd": "cuarray.scipy.linalg.eigh(a, b)",
    "geev": "cuarray.scipy.linalg.eig", "gels": "cuarray.scipy.linalg.lstsq", "gelsd": "cuarray.scipy.linalg.lstsq",
    "gelss": "cuarray.scipy.linalg.lstsq", "gelsy": "cuarray.scipy.linalg.lstsq",
    "gbsv": "cuarray.scipy.linalg.solve_banded", "pbsv": "cuarray.scipy.linalg.solveh_banded",
    "gees": "cuarray.scipy.linalg.schur", "gehrd": "cuarray.scipy.linalg.hessenberg",
    "trsyl": "cuarray.scipy.linalg.solve_sylvester", "sytrf": "cuarray.scipy.linalg.ldl",
    "hetrf": "cuarray.scipy.linalg.ldl", "stemr": "cuarray.scipy.linalg.eigh_tridiagonal",
    "gges": "cuarray.scipy.linalg.qz", "gebal": "cuarray.scipy.linalg.matrix_balance",
}


def find_best_blas_type(arrays=(), dtype=None):
    """See `scipy.linalg.find_best_blas_type`. SciPy's answer (prefix, NumPy dtype,
    prefer_fortran) from the arrays' dtypes and layout flags; cuarray arrays are taken as NumPy
    ones (nothing is read from the device).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.find_best_blas_type((cuarray.ones((2, 3), dtype=cuarray.complex64),))
    ('c', dtype('complex64'), False)
    >>> linalg.find_best_blas_type(dtype='float32')
    ('s', dtype('float32'), False)
    """
    score = _SCORE.get(numpy.dtype(dtype).char, 5)
    prefer_fortran = False
    if arrays:
        scores = [_SCORE.get(a.dtype.char, 5) for a in arrays]
        score = max(scores)
        prefer_fortran = bool(arrays[scores.index(score)].flags["FORTRAN"])  # the leading array's layout
        if len(arrays) > 1 and score == 3 and 2 in scores:
            score = 4  # complex64 with a double operand: complex128, as SciPy
    prefix, dt = _PREFIX.get(score, ("d", numpy.dtype(numpy.float64)))
    return prefix, dt, prefer_fortran


def _not_on_device(kind, names):
    names = (names,) if isinstance(names, str) else tuple(names)
    hints = ["{} -> {}".format(n, _INSTEAD[n]) for n in names if isinstance(n, str) and n in _INSTEAD]
    return NotImplementedError(
        "cuarray.scipy.linalg.get_{0}_funcs: SciPy's {1} function objects run on the host and take NumPy arrays "
        "only; cuarray has no device counterparts of the raw routines. {2}Otherwise use the cuarray.scipy.linalg "
        "and cuarray.linalg functions, or scipy.linalg.get_{0}_funcs on host copies (x.get()).".format(
            kind, kind.upper(), "Instead: {}. ".format("; ".join(hints)) if hints else ""))


def get_blas_funcs(names, arrays=(), dtype=None, ilp64="preferred"):
    """See `scipy.linalg.get_blas_funcs` (SciPy 1.18's signature). Not available: SciPy's BLAS
    function objects compute on the host with NumPy arrays, so this raises NotImplementedError
    naming the cuarray function for each known routine (gemm: ``a @ b``, trsm:
    `solve_triangular`, ...). `find_best_blas_type` answers as SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> try:
    ...     linalg.get_blas_funcs('gemm')
    ... except NotImplementedError as e:
    ...     print('gemm -> a @ b' in str(e))
    True
    """
    raise _not_on_device("blas", names)


def get_lapack_funcs(names, arrays=(), dtype=None, ilp64="preferred"):
    """See `scipy.linalg.get_lapack_funcs` (SciPy 1.18's signature). Not available, as
    `get_blas_funcs`: NotImplementedError naming the cuarray function for each known routine
    (gesv: `solve`, getrf: `lu_factor`, geqrf: `qr`, gesdd: `svd`, syevd: `eigh`, ...).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> try:
    ...     linalg.get_lapack_funcs(('getrf', 'getrs'))
    ... except NotImplementedError as e:
    ...     print('getrf -> cuarray.scipy.linalg.lu_factor' in str(e))
    True
    """
    raise _not_on_device("lapack", names)
