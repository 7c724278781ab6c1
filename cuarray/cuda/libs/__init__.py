"""Handles and plans of the CUDA math libraries (cuBLAS, cuSOLVER, cuFFT, cuSPARSE).

One module per library; each is the only importer of its `nvmath.bindings` module and imports it
lazily (importing nvmath costs 0.2-0.7 s: never at `import cuarray`). `_handles.PerThreadHandle`
keeps one handle per (device, thread), as the libraries' documentation asks (a handle must not be
used by two threads at once), destroyed when the thread ends. `_catalog` lists every library and
the wheel that ships it; `_workspace` bounds what handles keep between calls (docs/runtime.md,
"Math libraries: memory and first use").
"""

from __future__ import annotations

from .. import caches as _caches
from . import cublas as _cublas
from ._handles import LibraryNotFoundError as LibraryNotFoundError
from ._handles import prefetch as prefetch
from ._workspace import get_limit as get_workspace_limit
from ._workspace import set_limit as set_workspace_limit

__all__ = ["LibraryNotFoundError", "clear_plan_caches", "get_workspace_limit", "set_workspace_limit", "prefetch"]


def clear_plan_caches() -> None:
    """Destroy cached plans: cuBLASLt's (the process's), and the calling thread's cuFFT plans (every
    device) and cuSPARSE dense descriptors. Each is made again on its next use."""
    _cublas.clear_plan_cache()
    # (registered by cufft.py and cusparse.py: nothing to clear where they were never imported)
    _caches.clear(names=("cuFFT plans (calling thread)", "cuSPARSE dense descriptors (calling thread)"))
