"""Loaded kernels: a `Module` (a cubin, PTX or fatbin loaded with cuLibraryLoadData, through the
driver alone: `_driver_objects.Library`, no cuda.core on a first launch) and its
`Function`s, and `convert_args`, the one place where Python kernel arguments become the C values
cuda.core's launch takes (for `RawKernel`/`RawModule` and `Function.__call__`).

`compiler.compile_module` builds Modules; everything that launches goes through `launch.py`.
"""

from __future__ import annotations

import os

import numpy as np

from . import _driver_objects
from . import device as _device
from . import launch as _launch
from ._observe import kernel_names as kernel_names

__all__ = ["Module", "Function", "convert_args", "kernel_names"]

# kernel_names: cuda.core Kernel -> the name it was looked up by (the profiler's and NVTX's row
# labels: a Kernel does not know its own name); the dict lives in _observe, which NVTX reads.


class Module:
    """A loaded cubin (or PTX/fatbin). `get_function(name)` takes a kernel name or name expression."""

    def __init__(self, code: bytes, symbol_mapping=None, *, name: str = "", code_type: str = "cubin"):
        if code_type not in ("cubin", "ptx", "fatbin"):
            raise ValueError("code_type must be 'cubin', 'ptx' or 'fatbin', got {!r}".format(code_type))
        _device._core_device()  # loading needs an initialised driver and a current context
        self.name = name
        self.symbol_mapping = dict(symbol_mapping or {})
        self.nbytes = len(code)  # the code's size (`cuarray.cuda.cache_info`)
        self._code = _driver_objects.Library(code, code_type)
        self._functions: dict = {}

    @classmethod
    def from_file(cls, path: str) -> "Module":
        """Load a .cubin, .fatbin or .ptx file."""
        ext = os.path.splitext(path)[1].lower()
        with open(path, "rb") as f:
            data = f.read()
        return cls(data, name=os.path.basename(path), code_type={".ptx": "ptx", ".fatbin": "fatbin"}.get(ext, "cubin"))

    def get_function(self, name: str) -> "Function":
        fn = self._functions.get(name)
        if fn is None:
            _device._core_device()
            # a name expression -> its mangled name (NVRTC's mapping), as cuda.core's get_kernel
            fn = self._functions[name] = Function(self._code.get_kernel(self.symbol_mapping.get(name, name)), name, self)
            kernel_names[fn.kernel] = name
        return fn

    def __repr__(self) -> str:
        return "<cuarray.cuda.Module {!r}>".format(self.name)


_ATTRIBUTES = ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
               "num_regs", "ptx_version", "binary_version", "max_dynamic_shared_size_bytes",
               "preferred_shared_memory_carveout")


class Function:
    """A kernel of a Module: ``f(grid, block, args, shared_mem=0, stream=None)`` launches it.

    `args` go through `convert_args`; `.kernel` is the kernel object `launch.launch` takes.
    """

    __slots__ = ("kernel", "name", "module", "_sizes", "cooperative")

    def __init__(self, kernel, name: str, module=None):
        self.kernel = kernel
        self.name = name
        self.module = module
        self.cooperative = False  # a cooperative launch (grid-wide sync); RawKernel/RawModule set it
        self._sizes = False  # parameter sizes, read on first call (None when the driver can't say)

    def __call__(self, grid, block, args, shared_mem: int = 0, stream=None, *,
                 enable_cooperative_groups: bool = False) -> None:
        sizes = self._sizes
        if sizes is False:
            sizes = self._sizes = _param_sizes(self.kernel)
        cargs = convert_args(args, self.name, sizes)
        if type(grid) is list:
            grid = tuple(grid)
        if type(block) is list:
            block = tuple(block)
        launch = _launch.launch
        for c in cargs:
            if type(c) is _launch.StructBytes:  # (a struct past 16 bytes: its own launch path)
                launch = _launch.launch_struct
                break
        launch(self.kernel, grid, block, cargs, shared_mem, stream, self.cooperative or enable_cooperative_groups)

    @property
    def attributes(self) -> dict:
        """Register count, max threads per block, static shared memory, ... on the current device."""
        _device._core_device()
        attrs = self.kernel.attributes
        out = {}
        for a in _ATTRIBUTES:
            try:
                out[a] = getattr(attrs, a)
            except Exception:  # an attribute this driver does not know
                pass
        return out

    def __repr__(self) -> str:
        return "<cuarray.cuda.Function {!r}>".format(self.name)


def _param_sizes(kernel):
    """The kernel's parameter sizes in bytes (cuKernelGetParamInfo, through the driver alone for
    our kernels), or None when the driver cannot say (it needs >= 12.4)."""
    try:
        if type(kernel) is not _driver_objects.Kernel:
            return tuple(int(p.size) for p in kernel.arguments_info)
        return _driver_objects.param_sizes(kernel)
    except Exception:
        return None


_C_NAMES = {bool: "C bool", int: "C long long", float: "C double", complex: "C complex<double>"}
_PY_SCALARS = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def convert_args(args, kernel_name: str = "kernel", sizes=None) -> tuple:
    """Kernel arguments as cuda.core takes them; see `RawKernel` for the rules.

    Arrays (our ndarray, `__cuda_array_interface__` objects, cuda.core Buffers) become pointers
    (Python ints). numpy scalars keep their exact C type; structured scalars (`numpy.void`) are
    passed as the C struct of their dtype's bytes (`launch.struct_arg`). Python ``bool``, ``int``, ``float`` and
    ``complex`` become ``bool``, ``long long``, ``double`` and ``complex<double>``. `sizes`, the
    kernel's parameter sizes in bytes, turns a mismatched count or width into a TypeError instead of
    a crashed context or silently misread arguments.
    """
    if not isinstance(args, (tuple, list)):
        raise TypeError("kernel arguments must be a tuple or list, got {}".format(type(args).__name__))
    if sizes is not None and len(args) != len(sizes):
        raise TypeError("kernel '{}' takes {} arguments, {} given".format(kernel_name, len(sizes), len(args)))
    out = []
    for i, a in enumerate(args):
        t = type(a)
        conv = _PY_SCALARS.get(t)
        if conv is not None:
            if sizes is not None and (t is int or t is float) and sizes[i] != 8:
                c = _narrow(a, sizes[i], i, kernel_name)  # int/short/char, float: the declared width
            else:
                try:
                    c = conv(a)
                except OverflowError:
                    raise OverflowError("argument {} of kernel '{}': {} does not fit a {}".format(
                        i, kernel_name, a, _C_NAMES[t])) from None
        elif isinstance(a, np.void):  # a structured scalar: the C struct of its dtype's layout
            c = _launch.struct_arg(a)
        elif isinstance(a, np.ndarray):  # host values by value: a struct, vector or matrix type
            c = _host_struct(a, None if sizes is None else sizes[i], i, kernel_name)
        elif isinstance(a, np.generic):
            c = a
        elif isinstance(a, (int, float, complex)):  # subclasses: IntEnum, ...
            t = next(k for k in _PY_SCALARS if isinstance(a, k))
            c = _PY_SCALARS[t](a)
        else:
            c = _pointer(a)
            if c is None:
                raise TypeError("argument {} of kernel '{}': unsupported type {} (pass a GPU array, a "
                                "numpy scalar or a Python scalar)".format(i, kernel_name, t.__name__))
        if sizes is not None:
            width = (8 if type(c) is int else a.itemsize if isinstance(a, np.void) else
                     a.nbytes if isinstance(a, np.ndarray) else c.itemsize)
            if width != sizes[i]:
                raise TypeError("argument {} of kernel '{}' is a {}-byte parameter but {} is {} bytes{}".format(
                    i, kernel_name, sizes[i], _describe(a, c), width,
                    "; pass a numpy scalar of the parameter's type" if t in _C_NAMES else ""))
        out.append(c)
    return tuple(out)


# Python int -> (signed, unsigned) NumPy type by parameter width: the kernel's parameter sizes are
# known (cuFuncGetParamInfo), its signedness is not, so an int fits when it fits either.
_INT_BY_WIDTH = {1: (np.int8, np.uint8), 2: (np.int16, np.uint16), 4: (np.int32, np.uint32)}


def _narrow(a, width: int, i: int, kernel_name: str):
    """A Python int or float for a parameter narrower than 8 bytes (`int`, `unsigned int`, `short`,
    `char`; `float`): converted to that width when the value fits, OverflowError when not (CuPy
    passes a C long and the kernel reads the low bytes; we know the width, so we check)."""
    if type(a) is float:
        if width != 4:
            raise TypeError("argument {} of kernel '{}' is a {}-byte parameter but Python float (as C "
                            "double) is 8 bytes".format(i, kernel_name, width))
        return np.float32(a)  # (a float parameter: rounded as C rounds double -> float)
    pair = _INT_BY_WIDTH.get(width)
    if pair is None:
        raise TypeError("argument {} of kernel '{}' is a {}-byte parameter but Python int (as C long "
                        "long) is 8 bytes".format(i, kernel_name, width))
    signed, unsigned = pair
    bits = 8 * width
    if -(1 << (bits - 1)) <= a < (1 << (bits - 1)):
        return signed(a)
    if 0 <= a < (1 << bits):
        return unsigned(a)
    raise OverflowError("argument {} of kernel '{}': {} does not fit its {}-byte integer parameter".format(
        i, kernel_name, a, width))


def _host_struct(a: np.ndarray, width, i: int, kernel_name: str):
    """A host NumPy array passed by value: its bytes (C order) are the parameter, as a structured
    scalar's are (`numpy.void`): a 0-d or one-element structured array (a struct), or any array
    whose bytes are one parameter (a `double3` as `x.view(double3)`, a packed 4x4 matrix). The
    parameter's size must be its `nbytes` (the driver places it at the declared offset, so the
    C type's alignment is the driver's business); without the kernel's sizes only a structured
    array of one element is taken."""
    if width is None and not (a.dtype.names is not None and a.size == 1):
        raise TypeError("argument {} of kernel '{}': a host numpy.ndarray is passed by value only as a "
                        "structured array of one element here (this driver cannot report parameter sizes); "
                        "pass device arrays as cuarray arrays".format(i, kernel_name))
    if width is not None and a.nbytes != width:
        raise TypeError("argument {} of kernel '{}' is a {}-byte parameter but the host NumPy array of dtype "
                        "{} and shape {} passed by value is {} bytes (device data must be a cuarray array; a "
                        "struct's dtype must have the C struct's size: use align=True or explicit "
                        "offsets/itemsize)".format(i, kernel_name, width, a.dtype, a.shape, a.nbytes))
    return _launch.struct_arg(np.ascontiguousarray(a).reshape(-1).view(np.dtype((np.void, a.nbytes)))[0])


def _describe(a, c) -> str:
    if type(a) in _C_NAMES:
        return "Python {} (as {})".format(type(a).__name__, _C_NAMES[type(a)])
    if type(c) is int:
        return "a pointer"
    if isinstance(a, np.void):
        return "a structured scalar of dtype {}".format(a.dtype)
    return "numpy.{}".format(type(c).__name__)


def _pointer(a):
    """The device address of an array-like, or None."""
    data = getattr(a, "data", None)
    ptr = getattr(data, "ptr", None)  # our ndarray: .data is a MemoryPointer
    if type(ptr) is int:
        if _device.multi_device[0]:  # an array of another device: CuPy refuses it too
            _device.check_operand_device(data.device_id)
        return ptr
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    handle = getattr(a, "handle", None)  # a cuda.core Buffer
    if handle is not None and type(a).__name__ == "Buffer":
        return int(handle)
    return None
