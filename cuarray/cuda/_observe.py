"""The runtime's observer seam: host-device copies, cuBLAS calls, pool misses and compiles are
reported to one registered observer (the profiler), which is handed the plain call to make and
makes it itself (timing it, counting it). Kernel launches have their own seam
(`launch.set_launch_hook`), synchronisations theirs (`_sync_hooks`). Nothing swaps a module's or a
class's attributes; with no observer each seam costs one attribute read.

An observer has these methods, each of which must make the call it is given and return its result:
  copy(kind, call, dst, other, size, stream)     kind "HtoD", "DtoH" or "DtoD"; call(dst, other,
                                                 size, stream) is the plain MemoryPointer copy
  library(name, char, call, args, kwargs)        a cuBLAS wrapper ("gemm", "gemv") of dtype `char`
  segment(call, backing, size, device_id)        a pool miss: a segment from the driver
  compile(call, source, kwargs)                  `compiler.compile_module`
and nvrtc(), called before each NVRTC compile (`compiler.compile_cubin`).
"""

from __future__ import annotations

from . import backend as _seam

__all__ = ["set_observer", "get_observer", "kernel_names"]

observer = None
# The names of loaded kernels (kernel handle -> name), for the tools that watch launches (NVTX
# ranges, the profiler's report): `module.Module` fills it as it loads kernels.
kernel_names: dict = {}


def set_observer(obs):
    """Make `obs` the observer (None: none); returns the previous one, which an observer that
    nests over another passes its calls through."""
    global observer
    prev = observer
    observer = obs
    return prev


def get_observer():
    return observer


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): `new.observer` observes while it is selected."""
    new.swap(prev, "observer", observer, set_observer)


_seam.on_select(_select)
