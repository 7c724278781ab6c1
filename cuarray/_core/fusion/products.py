"""The matrix products of a lazy graph, as its Program runs them.

A lazy `dot`/`matmul` node runs the eager routine when its graph is computed. For the common
case, two C- or F-contiguous matrices of one cuBLAS dtype, the eager routine's own checks
(host-input conversion, dimension rules, loop dtype, layout derivation) were already done when
the node was built, by the same rules: `prepared` skips them and makes the one GEMM call the
eager routine would make (same cuBLAS call, same operands, same flags), so the result is the
eager one bit for bit. Anything else goes to the eager routine.
"""

from __future__ import annotations

from .. import device_check as _device_check
from ..ndarray import _new_c, ndarray

__all__ = ["prepared"]

_gemm = []  # `cuarray.cuda.libs.cublas.gemm`, imported on first use (import time of `cuarray`)


def prepared(general):
    """`general(a, b)` (the eager dot or matmul of two arrays) with its 2-D GEMM case direct."""

    def run(a, b):
        if type(a) is ndarray and type(b) is ndarray and not _device_check.active[0]:
            s1, s2 = a._shape, b._shape
            ct = a._dtype
            if len(s1) == 2 and len(s2) == 2 and b._dtype is ct and ct.char in "efdFD":
                m, k = s1
                n = s2[1]
                if k == s2[0] and m and n and k:
                    # The eager 2-D path's layouts (linalg/_matmul.py `_fast_2d`): a row-major C
                    # computed as C^T = B^T A^T in cuBLAS's column-major terms.
                    la = k if a._c else (-m if a._f else 0)
                    lb = n if b._c else (-k if b._f else 0)
                    if la and lb:
                        if not _gemm:
                            from ...cuda.libs import cublas

                            _gemm.append(cublas.gemm)
                        res = _new_c((m, n), ct)
                        _gemm[0](ct.char, "N" if lb > 0 else "T", "N" if la > 0 else "T", n, m, k,
                                 b.data.ptr, abs(lb), a.data.ptr, abs(la), res.data.ptr, n, 1, 0, 0, 0)
                        return res
        return general(a, b)

    return run
