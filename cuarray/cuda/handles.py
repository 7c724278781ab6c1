"""The math libraries' handles by name, for the current device: the registry through which
`device.py` reaches them (it does not import this module or cuda/libs: the package's
`__init__` hands it this module, `device.set_library_registry`). CuPy's `get_cublas_handle` and
friends (`cuarray.cuda.device` and `Device` expose them) and the opt-in prefetch of the
libraries' bindings at the first context creation go through here.

Thin on purpose: the handles belong to `cuda/libs/` (one per device and thread, created on first
use, bound to the calling thread's current stream on each request); this module only asks for
them, loading a library's module on its first request. A handle returned here is the one
cuarray's own calls use on this thread: setting its stream or math mode affects them until the
next cuarray call binds the stream again.
"""

from __future__ import annotations

__all__ = ["cublas", "cusolver", "cusparse", "handle", "bindings", "prefetch"]


def cublas() -> int:
    from .libs import cublas as lib  # import time: cuda/libs loads on the first library call, not by `import cuarray`

    return int(lib.handle())


def cusolver() -> int:
    from .libs import cusolver as lib  # import time: cuda/libs loads on the first library call, not by `import cuarray`

    return int(lib.handle())


def cusparse() -> int:
    from .libs import cusparse as lib  # import time: cuda/libs loads on the first library call, not by `import cuarray`

    return int(lib.handle())


_BY_NAME = {"cublas": cublas, "cusolver": cusolver, "cusparse": cusparse}


def handle(library: str) -> int:
    """The calling thread's handle of `library` ("cublas", "cusolver", "cusparse") for the current
    device, as an int."""
    try:
        get = _BY_NAME[library]
    except KeyError:
        raise ValueError("no library handle named {!r}: one of {}".format(library, sorted(_BY_NAME))) from None
    return get()


def bindings(library: str):
    """`nvmath.bindings.<library>` (a catalog name: "cufft", "cublas", ...), imported now."""
    from .libs import _handles  # import time: cuda/libs loads on the first library call, not by `import cuarray`

    return _handles.nvmath_bindings(library)


def prefetch(names=None):
    """Start importing the cuBLAS bindings in the background (`libs._handles.prefetch`), or with
    `names` (catalog names, or ["all"]) loading those libraries' shared objects (`libs._preload`);
    returns the loading thread where one was started (None otherwise)."""
    from .libs import _handles, _preload  # import time: cuda/libs: most processes never load the libraries

    if names is None:
        _handles.prefetch()
        return None
    return _preload.start(names)
