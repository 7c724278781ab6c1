"""cuarray.cuda: the runtime layer (devices, streams, memory, compiler, raw kernels).

The only package that imports cuda.core and cuda.bindings, always lazily: importing this module
touches no driver. See `cupy.cuda` for the model.
"""

from ._backend import CUDARuntimeError as CUDARuntimeError
from ._backend import NoDeviceError as NoDeviceError
from ._backend import is_available as is_available
from . import runtime as runtime
from .device import Device as Device
from .device import get_device_id as get_device_id
from .device import enable_peer_access as enable_peer_access
from .device import synchronize as synchronize
from .stream import Event as Event
from .stream import ExternalStream as ExternalStream
from .stream import Stream as Stream
from .stream import get_current_stream as get_current_stream
from .stream import get_elapsed_time as get_elapsed_time
from . import memory as memory
from .memory import MemoryPointer as MemoryPointer
from .memory import MemoryPool as MemoryPool
from .memory import OutOfMemoryError as OutOfMemoryError
from .memory import alloc as alloc
from .memory import set_allocator as set_allocator
from .memory import get_allocator as get_allocator
from .memory import get_default_memory_pool as get_default_memory_pool
from .memory import BaseMemory as BaseMemory
from .memory import Memory as Memory
from .memory import UnownedMemory as UnownedMemory
from .memory import MallocAsyncMemoryPool as MallocAsyncMemoryPool
from .memory import memory_info as memory_info
from ._managed import ManagedMemory as ManagedMemory
from ._managed import malloc_managed as malloc_managed
from .memory_hook import MemoryHook as MemoryHook
from . import memory_hook as memory_hook
from . import memory_hooks as memory_hooks
from ._snapshot import enable_memory_snapshot as enable_memory_snapshot
from ._snapshot import memory_snapshot as memory_snapshot
from . import pinned_memory as pinned_memory
from .pinned_memory import PinnedMemoryPool as PinnedMemoryPool
from .pinned_memory import PinnedMemoryPointer as PinnedMemoryPointer
from .pinned_memory import alloc_pinned_memory as alloc_pinned_memory
from .pinned_memory import get_default_pinned_memory_pool as get_default_pinned_memory_pool
from .pinned_memory import set_pinned_memory_allocator as set_pinned_memory_allocator
from . import compiler as compiler
from .compiler import CompileError as CompileError
from .compiler import CacheWarning as CacheWarning
from .raw import RawKernel as RawKernel
from . import graph as _graph_module
from .graph import CUDAGraph as CUDAGraph
from .graph import StreamCaptureError as StreamCaptureError
graph = _graph_module.graph  # the context manager (torch.cuda.graph); cuarray.cuda.graph
from .raw import RawModule as RawModule
