"""Optional NVTX ranges, so Nsight Systems shows cuarray's op names.

Uses the `nvtx` package (``pip install nvtx``) when it is importable; neither cuda.bindings nor
cuda.core binds NVTX, and without the package the functions here raise ImportError saying so.
`CUARRAY_NVTX=1` in the environment puts a range (the kernel's name) around every launch from the
first launch on; `cuarray.profile(nvtx=True)` does the same while profiling.
"""

from __future__ import annotations

import os

__all__ = ["available", "range_push", "range_pop", "launch_hook", "enable_from_env"]

_mod = None
_missing = None


def _nvtx():
    global _mod, _missing
    if _mod is None:
        if _missing is not None:
            raise ImportError(_missing)
        try:
            import nvtx
        except ImportError as exc:
            _missing = ("NVTX ranges need the optional `nvtx` package (pip install nvtx); "
                        "cuda.bindings and cuda.core do not bind NVTX ({})".format(exc))
            raise ImportError(_missing) from None
        _mod = nvtx
    return _mod


def available() -> bool:
    """True when the `nvtx` package can be imported."""
    try:
        _nvtx()
        return True
    except ImportError:
        return False


def range_push(message: str) -> None:
    """Open a range named `message` on this thread (domain "cuarray")."""
    _nvtx().push_range(message=message, domain="cuarray")


def range_pop() -> None:
    _nvtx().pop_range(domain="cuarray")


def launch_hook(prev=None):
    """A launch hook (see `launch.set_launch_hook`) that puts each launch in an NVTX range named
    after its kernel, calling `prev` (an earlier hook) inside the range when given."""
    from .module import kernel_names

    nv = _nvtx()
    push, pop = nv.push_range, nv.pop_range
    names = kernel_names

    def hook(raw, stream, config, kernel, args):
        push(message=names.get(kernel, "cuarray kernel"), domain="cuarray")
        try:
            if prev is None:
                raw(stream, config, kernel, *args)
            else:
                prev(raw, stream, config, kernel, args)
        finally:
            pop(domain="cuarray")

    return hook


def enable_from_env() -> None:
    """Install the NVTX launch hook if ``CUARRAY_NVTX`` is set to something other than 0/empty
    (called once, at the first launch). A missing `nvtx` package raises ImportError then."""
    if os.environ.get("CUARRAY_NVTX", "0") not in ("", "0"):
        from . import launch

        if launch.get_launch_hook() is None:
            launch.set_launch_hook(launch_hook())
