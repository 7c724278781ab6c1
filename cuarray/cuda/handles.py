"""Library handles as ints, for users who call cuBLAS, cuSOLVER or cuSPARSE themselves (CuPy's
`get_cublas_handle` and friends; `cuarray.cuda.device` and `Device` expose them).

Thin on purpose: the handles belong to `cuda/libs/` (one per device and thread, created on first
use, bound to the calling thread's current stream on each request); this module only asks for
them. A handle returned here is the one cuarray's own calls use on this thread: setting its
stream or math mode affects them until the next cuarray call binds the stream again.
"""

from __future__ import annotations

from .libs import cublas as _cublas
from .libs import cusolver as _cusolver
from .libs import cusparse as _cusparse

__all__ = ["cublas", "cusolver", "cusparse"]


def cublas() -> int:
    return int(_cublas.handle())


def cusolver() -> int:
    return int(_cusolver.handle())


def cusparse() -> int:
    return int(_cusparse.handle())
