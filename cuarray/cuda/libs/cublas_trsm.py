"""cuBLAS's triangular solve (trsm) for `cuarray.scipy.linalg.solve_triangular`.

A new module rather than an edit of cublas.py (another branch reworks that file): it uses the
handle and the host-pointer-mode scalars of `cublas` (one handle per (device, thread), bound to the
current stream there). Column-major, as cuBLAS is; `char` is the dtype's NumPy character.
"""

from __future__ import annotations

from . import cublas as _cublas

__all__ = ["trsm", "SIDE_LEFT", "FILL_LOWER", "FILL_UPPER", "DIAG_NON_UNIT", "DIAG_UNIT"]

SIDE_LEFT, SIDE_RIGHT = 0, 1            # cublasSideMode_t
FILL_LOWER, FILL_UPPER = 0, 1           # cublasFillMode_t
DIAG_NON_UNIT, DIAG_UNIT = 0, 1         # cublasDiagType_t
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def trsm(char, side, uplo, trans, diag, m, n, a, lda, b, ldb) -> None:
    """B = op(A)^-1 B (side left) in place, alpha = 1; `trans` 0/1/2 (N/T/C)."""
    lib = _cublas.bindings()
    getattr(lib, _PREFIX[char] + "trsm")(_cublas.handle(), side, uplo, trans, diag, m, n,
                                         _cublas._ONE_PTR[char], a, lda, b, ldb)
