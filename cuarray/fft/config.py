"""cuFFT plan-cache settings, in the shape of `cupy.fft.config`.

Each thread has its own plan cache per device (cuFFT plans must not be shared by concurrent
threads); these functions act on the calling thread's cache for the current device. A cache holds
at most `size` plans (default 16; -1: no limit; 0: caching off) whose work areas sum to at most
`memsize` bytes (default -1: no limit). Plans keep no work area between calls (it comes from the
memory pool on each call), so `memsize` bounds what one round of the cached plans asks the pool
for, not memory held while idle.
"""

from __future__ import annotations

from ..cuda.libs import cufft as _cufft

__all__ = ["get_plan_cache", "get_plan_cache_size", "set_plan_cache_size", "get_plan_cache_max_memsize",
           "set_plan_cache_max_memsize", "clear_plan_cache", "show_plan_cache_info", "enable_nd_planning",
           "use_multi_gpus", "set_cufft_gpus", "set_cufft_callbacks"]

# CuPy's switches. N-d plans are always used where the layout allows (there is no reason not to);
# the attribute exists so code written for CuPy runs.
enable_nd_planning = True
use_multi_gpus = False


def get_plan_cache():
    """The calling thread's `PlanCache` for the current device. See `cupy.fft.config.get_plan_cache`."""
    return _cufft.get_plan_cache()


def get_plan_cache_size() -> int:
    """See `cupy.fft.config.get_plan_cache_size`."""
    return _cufft.get_plan_cache().get_size()


def set_plan_cache_size(size: int) -> None:
    """See `cupy.fft.config.set_plan_cache_size`: -1 no limit, 0 disables caching."""
    _cufft.get_plan_cache().set_size(size)


def get_plan_cache_max_memsize() -> int:
    """See `cupy.fft.config.get_plan_cache_max_memsize`."""
    return _cufft.get_plan_cache().get_memsize()


def set_plan_cache_max_memsize(size: int) -> None:
    """See `cupy.fft.config.set_plan_cache_max_memsize`: bytes of work area, -1 no limit."""
    _cufft.get_plan_cache().set_memsize(size)


def clear_plan_cache() -> None:
    """Destroy every plan in the calling thread's cache for the current device."""
    _cufft.get_plan_cache().clear()


def show_plan_cache_info() -> None:
    """Print the calling thread's cache for the current device."""
    _cufft.get_plan_cache().show_info()


def set_cufft_gpus(gpus) -> None:
    """Multi-GPU cuFFT (cuFFT Xt) is not supported."""
    raise NotImplementedError("cuarray.fft: multi-GPU cuFFT plans are not supported")


def set_cufft_callbacks(*args, **kwargs):
    """cuFFT callbacks are not supported."""
    raise NotImplementedError("cuarray.fft: cuFFT callbacks are not supported")
