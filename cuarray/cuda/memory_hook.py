"""Memory hooks: callbacks around every device allocation and free. See `cupy.cuda.MemoryHook`.

Zero cost while none is active: the allocator `alloc` calls, the pool's segment request and the
pool block's `__del__` are the plain ones. Registering the first hook (in any thread) swaps in
hooked versions (memory.py's `_wrap_allocator` and `_segment_malloc`, `_PooledMemory.__del__` and
the C core's free hook, `MemoryPool.malloc`); unregistering the last one swaps the plain ones back. Like CuPy, hooks are
registered per thread (a hook sees the allocations and frees its own thread makes); the profiler
and the memory snapshot use process-wide hooks (`_add_global`).

Order, as in CuPy: ``malloc_preprocess``; on a pool miss ``alloc_preprocess``, the driver
allocation, ``alloc_postprocess``; then ``malloc_postprocess``. A pool block going back to its
pool: ``free_preprocess``, the free, ``free_postprocess``. Hooks run in registration order.
Keyword arguments: ``device_id``, ``mem_size`` (bytes rounded as the pool rounds them),
``mem_ptr``; malloc hooks add ``size`` (bytes asked for), malloc_postprocess and free hooks add
``pmem_id`` (``id()`` of the pooled memory object). As in CuPy, hooks fire in `MemoryPool`
(the default allocator, or yours): an allocator of your own that is no pool is not hooked.
"""

from __future__ import annotations

import threading
import types

from . import device as _device
from . import memory as _memory

__all__ = ["MemoryHook", "get_memory_hooks"]

_tls = threading.local()
_global: dict = {}  # name -> hook, for every thread (profiler, snapshot)
_lock = threading.Lock()
_active = 0  # hooks registered in all threads plus global ones; the seam is installed while > 0

_plain: dict = {}  # the unhooked originals, saved at the first install


def get_memory_hooks() -> dict:
    """The memory hooks registered in this thread: an ordered dict, name -> hook."""
    d = getattr(_tls, "hooks", None)
    if d is None:
        d = _tls.hooks = {}
    return d


def _current() -> list:
    """Hooks that see this thread's allocations now: global ones first, then this thread's."""
    d = getattr(_tls, "hooks", None)
    if d:
        if _global:
            return list(_global.values()) + list(d.values())
        return list(d.values())
    return list(_global.values())


class MemoryHook:
    """Base class of memory hooks; use one as a context manager. See `cupy.cuda.MemoryHook`.

    Override any of the six callbacks (each receives keyword arguments, see the module docstring);
    the defaults do nothing. `name` identifies the hook: two hooks of one name cannot be active
    in one thread at once.
    """

    name = "MemoryHook"

    def __enter__(self):
        hooks = get_memory_hooks()
        if self.name in hooks:
            raise KeyError("memory hook {!r} already exists".format(self.name))
        hooks[self.name] = self
        _changed(+1)
        return self

    def __exit__(self, *exc):
        hooks = get_memory_hooks()
        if hooks.get(self.name) is self:
            del hooks[self.name]
            _changed(-1)

    def alloc_preprocess(self, **kwargs):
        """Before a pool asks the device for memory (a pool miss): device_id, mem_size."""

    def alloc_postprocess(self, **kwargs):
        """After a pool got memory from the device: device_id, mem_size, mem_ptr."""

    def malloc_preprocess(self, **kwargs):
        """Before an allocation: device_id, size, mem_size."""

    def malloc_postprocess(self, **kwargs):
        """After an allocation: device_id, size, mem_size, mem_ptr, pmem_id."""

    def free_preprocess(self, **kwargs):
        """Before a pool block goes back to its pool: device_id, mem_size, mem_ptr, pmem_id."""

    def free_postprocess(self, **kwargs):
        """After a pool block went back to its pool: device_id, mem_size, mem_ptr, pmem_id."""


def _add_global(hook) -> None:
    """Register `hook` for every thread (internal: the profiler, the memory snapshot)."""
    if hook.name in _global:
        raise KeyError("memory hook {!r} already exists".format(hook.name))
    _global[hook.name] = hook
    _changed(+1)


def _remove_global(hook) -> None:
    if _global.get(hook.name) is hook:
        del _global[hook.name]
        _changed(-1)


def _changed(delta: int) -> None:
    global _active
    with _lock:
        _active += delta
        if _active == 1 and delta > 0:
            _install()
        elif _active == 0:
            _uninstall()


# -- the hooked entries ----------------------------------------------------------------------
def _rounded(size: int) -> int:
    return (size + 511) & -512 if size > 0 else 0


def _hooked_pool_malloc(pool, size, stream_ptr=None):
    hooks = _current()
    if not hooks:
        return _plain["pool_malloc"](pool, size, stream_ptr)
    return _run_malloc(hooks, lambda: _plain["pool_malloc"](pool, size, stream_ptr), size, _rounded(size))


def _run_malloc(hooks, call, size: int, mem_size: int):
    dev = _device.get_device_id()
    for h in hooks:
        h.malloc_preprocess(device_id=dev, size=size, mem_size=mem_size)
    p = call()
    mem = p.mem
    for h in hooks:
        h.malloc_postprocess(device_id=dev, size=size, mem_size=mem.size, mem_ptr=p.ptr, pmem_id=id(mem))
    return p


def _wrap_allocator(allocator):
    """What `alloc` calls while hooks are active, for the allocator `set_allocator` chose: a pool's
    malloc bound before the hooks came is replaced by its hooked twin; any other allocator is
    called as it is (if it calls a pool's malloc, that call is hooked: the class method is)."""
    if isinstance(allocator, types.MethodType) and isinstance(allocator.__self__, _memory.MemoryPool):
        return types.MethodType(_hooked_pool_malloc, allocator.__self__)
    return allocator


def _hooked_segment_malloc(backing, size, device_id):
    hooks = _current()
    for h in hooks:
        h.alloc_preprocess(device_id=device_id, mem_size=size)
    ptr = _plain["segment_malloc"](backing, size, device_id)
    for h in hooks:
        h.alloc_postprocess(device_id=device_id, mem_size=size, mem_ptr=ptr)
    return ptr


def _hooked_del(self):
    hooks = _current() if self.ptr else ()
    if hooks:
        kw = dict(device_id=self.device_id, mem_size=self.size, mem_ptr=self.ptr, pmem_id=id(self))
        for h in hooks:
            h.free_preprocess(**kw)
        _plain["del"](self)
        for h in hooks:
            h.free_postprocess(**kw)
    else:
        _plain["del"](self)


def _native_free_hook(phase, device_id, mem_size, mem_ptr, pmem_id):
    """The free hooks of a C-core pool block (`_poolcore.Block` frees itself in C, no `__del__`)."""
    hooks = _current()
    if hooks:
        kw = dict(device_id=device_id, mem_size=mem_size, mem_ptr=mem_ptr, pmem_id=pmem_id)
        for h in hooks:
            (h.free_postprocess if phase else h.free_preprocess)(**kw)


def _install() -> None:
    m = _memory
    if not _plain:  # the originals, saved once and never dropped (a racing __del__ may still want them)
        _plain.update(pool_malloc=m.MemoryPool.malloc, segment_malloc=m._segment_malloc,
                      wrap=m._wrap_allocator, **{"del": m._PooledMemory.__del__})
    m.MemoryPool.malloc = _hooked_pool_malloc
    m._segment_malloc = _hooked_segment_malloc
    m._PooledMemory.__del__ = _hooked_del
    m._set_native_free_hook(_native_free_hook)
    m._wrap_allocator = _wrap_allocator
    m._refresh_allocator()


def _uninstall() -> None:
    if not _plain:
        return
    m = _memory
    m.MemoryPool.malloc = _plain["pool_malloc"]
    m._segment_malloc = _plain["segment_malloc"]
    m._PooledMemory.__del__ = _plain["del"]
    m._set_native_free_hook(None)
    m._wrap_allocator = _plain["wrap"]
    m._refresh_allocator()
