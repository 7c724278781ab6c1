"""RawKernel and RawModule: CUDA C++ source written by the user. See `cupy.RawKernel`.

Compilation is lazy (first call or first `get_function`), once per device architecture, through
`compiler.compile_module`, so it shares the per-process and on-disk kernel caches.

CuPy's keyword arguments are accepted. Differences from CuPy: only the NVRTC backend
(``backend='nvcc'`` raises ValueError); ``jitify=True`` and ``translate_cucomplex=True`` raise
ValueError (cuarray has no Jitify and no cuComplex bridge header; include headers with
``options=('-I<dir>',)``); a kernel name may be a C++ name (``"f"`` without ``extern "C"``, or a
template instance ``"f<float>"``): it is passed to NVRTC as a name expression.
``enable_cooperative_groups=True`` launches cooperatively (``grid.sync()`` works; the grid must fit
on the device at once, as CUDA requires).
"""

from __future__ import annotations

from . import _backend
from . import compiler as _compiler
from . import module as _module
from . import device as _device

__all__ = ["RawKernel", "RawModule"]


def _check_backend(backend: str, jitify=False, translate_cucomplex=False) -> None:
    if backend != "nvrtc":
        raise ValueError("only the 'nvrtc' backend is supported, got {!r}".format(backend))
    if jitify:
        raise ValueError("jitify=True cannot be honoured: cuarray compiles with NVRTC directly, without "
                         "Jitify; pass include directories in options=('-I<dir>',) instead")
    if translate_cucomplex:
        raise ValueError("translate_cucomplex=True cannot be honoured: cuarray has no cuComplex-to-complex "
                         "bridge; use cuda::std::complex (or cuComplex.h's functions) in the kernel")


class RawKernel:
    """A user CUDA kernel: ``RawKernel(code, name)(grid, block, args, shared_mem=0, stream=None)``.

    `grid` and `block` are ints or tuples of up to 3 ints. `args` is a tuple; each item becomes:

    - a GPU array (cuarray ndarray, any ``__cuda_array_interface__`` object, a cuda.core Buffer):
      a pointer to its first element;
    - a numpy scalar: exactly its C type (``numpy.float32`` is ``float``, ``numpy.int32`` is ``int``,
      ``numpy.float16`` is ``__half``, ``numpy.uint64`` is ``unsigned long long``);
    - Python ``bool`` / ``int`` / ``float`` / ``complex``: ``bool`` / ``long long`` / ``double`` /
      ``complex<double>``. Pass ``numpy.int32(n)`` to an ``int`` parameter, ``numpy.float32(x)`` to
      a ``float`` one.

    When the driver reports parameter sizes (>= 12.4), a wrong argument count or width raises
    TypeError before launching. Arrays are not synchronised with the stream named in their
    ``__cuda_array_interface__``: launch on the stream that produced them.
    """

    def __init__(self, code: str, name: str, options=(), backend: str = "nvrtc", translate_cucomplex=False, *,
                 enable_cooperative_groups=False, jitify=False, name_expressions=None):
        _check_backend(backend, jitify, translate_cucomplex)
        if not isinstance(code, str):
            raise TypeError("code must be a str, got {}".format(type(code).__name__))
        if not isinstance(name, str) or not name:
            raise TypeError("name must be a non-empty str")
        self.code = code
        self.name = name
        self.options = tuple(options)
        self.backend = backend
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.jitify = False
        self.translate_cucomplex = False
        # The kernel's own name as a name expression lets NVRTC find C++-mangled and template kernels.
        exprs = [name] + [e for e in (name_expressions or ()) if e != name]
        self.name_expressions = tuple(exprs)
        self._functions: dict = {}  # device id -> module.Function

    def _function(self) -> _module.Function:
        dev = _device.get_device_id()
        fn = self._functions.get(dev)
        if fn is None:
            mod = _compiler.compile_module(self.code, name_expressions=self.name_expressions,
                                           options=self.options, name=_label(self.name))
            fn = self._functions[dev] = mod.get_function(self.name)
            fn.cooperative = self.enable_cooperative_groups
        return fn

    def __call__(self, grid, block, args, shared_mem: int = 0, stream=None, *,
                 enable_cooperative_groups: bool = False) -> None:
        fn = self._functions.get(_device.get_device_id())
        if fn is None:
            fn = self._function()
        _backend.note_user_kernel(self.name)
        fn(grid, block, args, shared_mem, stream, enable_cooperative_groups=enable_cooperative_groups)

    def compile(self) -> None:
        """Compile (and load) now rather than on the first call."""
        self._function()

    @property
    def kernel(self):
        """cuda.core's Kernel on the current device (compiles on first use)."""
        return self._function().kernel

    @property
    def attributes(self) -> dict:
        """num_regs, max_threads_per_block, shared_size_bytes, ... on the current device."""
        return self._function().attributes

    @property
    def num_regs(self) -> int:
        return self.attributes["num_regs"]

    @property
    def max_threads_per_block(self) -> int:
        return self.attributes["max_threads_per_block"]

    @property
    def shared_size_bytes(self) -> int:
        return self.attributes["shared_size_bytes"]

    @property
    def local_size_bytes(self) -> int:
        return self.attributes["local_size_bytes"]

    def __repr__(self) -> str:
        return "<cuarray.RawKernel {!r}>".format(self.name)


class RawModule:
    """User CUDA source (or a compiled file) holding several kernels. See `cupy.RawModule`.

    Give `code` (CUDA C++) or `path` (a .cubin, .fatbin or .ptx file). `name_expressions` lists the
    template instances or C++ names that `get_function` may be asked for, e.g. ``("f<float>",)``.
    """

    def __init__(self, code: str | None = None, *, path: str | None = None, options=(), backend: str = "nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False, name_expressions=None,
                 jitify=False):
        _check_backend(backend, jitify, translate_cucomplex)
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.jitify = False
        self.translate_cucomplex = False
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code= and path=")
        self.code = code
        self.path = path
        self.options = tuple(options)
        self.backend = backend
        self.name_expressions = tuple(name_expressions or ())
        self._modules: dict = {}  # device id -> module.Module

    def _module(self) -> _module.Module:
        dev = _device.get_device_id()
        mod = self._modules.get(dev)
        if mod is None:
            if self.path is not None:
                mod = _module.Module.from_file(self.path)
            else:
                mod = _compiler.compile_module(self.code, name_expressions=self.name_expressions,
                                               options=self.options, name="raw_module")
            self._modules[dev] = mod
        return mod

    def compile(self) -> None:
        """Compile (and load) now rather than on the first `get_function`."""
        self._module()

    def get_function(self, name: str) -> _module.Function:
        """The kernel `name`: an ``extern "C"`` name or one of the module's name expressions.

        The result is called like a RawKernel: ``f(grid, block, args, shared_mem=0, stream=None)``.
        """
        mod = self._module()
        if "<" in name and name not in mod.symbol_mapping:
            raise ValueError("{!r} is not one of this RawModule's name_expressions {}".format(
                name, list(self.name_expressions)))
        fn = mod.get_function(name)
        fn.cooperative = self.enable_cooperative_groups
        return fn

    def __repr__(self) -> str:
        return "<cuarray.RawModule {}>".format(repr(self.path) if self.path else "(source)")


def _label(name: str) -> str:
    """A program name for NVRTC's messages (template arguments would make odd file labels)."""
    return name.split("<", 1)[0] or "raw_kernel"
