"""cuarray.cuda: the runtime layer (devices, streams, memory, compiler, raw kernels).

The only package that imports cuda.core and cuda.bindings, always lazily: importing this module
touches no driver. See `cupy.cuda` for the model.
"""

from ._backend import CUDARuntimeError as CUDARuntimeError
from ._backend import NoDeviceError as NoDeviceError
from ._backend import ForkedProcessError as ForkedProcessError
from ._backend import is_available as is_available
from .device import Device as Device
from .device import get_device_id as get_device_id
from .device import enable_peer_access as enable_peer_access
from .device import synchronize as synchronize
from .device import get_cublas_handle as get_cublas_handle
from .device import get_cusolver_handle as get_cusolver_handle
from .device import get_cusparse_handle as get_cusparse_handle
from .stream import Event as Event
from .stream import ExternalStream as ExternalStream
from .stream import Stream as Stream
from .stream import get_current_stream as get_current_stream
from .stream import get_elapsed_time as get_elapsed_time
from .stream import get_current_stream_ptr as get_current_stream_ptr
from .stream import get_default_stream_ptr as get_default_stream_ptr
from . import memory as memory
from .memory import MemoryPointer as MemoryPointer
from .memory import MemoryPool as MemoryPool
from .memory import OutOfMemoryError as OutOfMemoryError
from .memory import alloc as alloc
from .memory import set_allocator as set_allocator
from .memory import get_allocator as get_allocator
from .memory import using_allocator as using_allocator
from .memory import get_default_memory_pool as get_default_memory_pool
from .memory import BaseMemory as BaseMemory
from .memory import Memory as Memory
from .memory import UnownedMemory as UnownedMemory
from .memory import MallocAsyncMemoryPool as MallocAsyncMemoryPool
from .memory import memory_info as memory_info
from . import pinned_memory as pinned_memory
from .pinned_memory import PinnedMemoryPool as PinnedMemoryPool
from .pinned_memory import PinnedMemoryPointer as PinnedMemoryPointer
from .pinned_memory import alloc_pinned_memory as alloc_pinned_memory
from .pinned_memory import get_default_pinned_memory_pool as get_default_pinned_memory_pool
from .pinned_memory import set_pinned_memory_allocator as set_pinned_memory_allocator
from . import compiler as compiler
from .compiler import CompileError as CompileError
from .compiler import CacheWarning as CacheWarning
from .caches import clear as clear_caches
from .caches import info as cache_info
from . import graph as _graph_module
from .graph import CUDAGraph as CUDAGraph
from .graph import StreamCaptureError as StreamCaptureError
graph = _graph_module.graph  # the context manager (torch.cuda.graph); cuarray.cuda.graph
from . import device as _device_module
from . import handles as _handles

# device.py reaches the math libraries' handles through the registry, which it does not import.
_device_module.set_library_registry(_handles)

# Bound on first use (module __getattr__ below): what no array operation needs, so that
# `import cuarray` does not load it (docs/perf-notes.md "Import time").
_ON_FIRST_USE = {
    "runtime": (".runtime", None),
    "ManagedMemory": ("._managed", "ManagedMemory"),
    "malloc_managed": ("._managed", "malloc_managed"),
    "MemoryHook": (".memory_hook", "MemoryHook"),
    "memory_hook": (".memory_hook", None),
    "memory_hooks": (".memory_hooks", None),
    "enable_memory_snapshot": ("._snapshot", "enable_memory_snapshot"),
    "memory_snapshot": ("._snapshot", "memory_snapshot"),
    "RawKernel": (".raw", "RawKernel"),
    "RawModule": (".raw", "RawModule"),
    "initialize": (".startup", "initialize"),
}


def __getattr__(name):
    where = _ON_FIRST_USE.get(name)
    if where is None:
        raise AttributeError("module 'cuarray.cuda' has no attribute {!r}".format(name))
    import importlib

    module = importlib.import_module(where[0], __name__)
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_ON_FIRST_USE))
