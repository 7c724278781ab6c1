/* _poolcore: the hot path of cuarray's MemoryPool in C (memory.py keeps the policy). Built by
   setup.py from bins.c (the free blocks of one bins), dev.c (a device's shared state and the hold),
   block.c (the allocation fast path, the block that frees itself, the module), pool_malloc.c
   (MemoryPool.malloc's prologue) and current_stream.c (the thread's device and current stream).

   memory.py's pure-Python `_Bins` is the reference: these files make exactly the same choices (same
   addresses for the same sequence; tests/cuda/test_memory_native.py replays both). `Dev` is one
   device's shared state (segment starts, live and peak bytes; the pool's root Dev has the hold
   flag and the frees that came while held); `Bins` is the free blocks of one (device, stream, size class).

   Thread and reentrancy safety: every method edits the structures without calling Python code
   (no object is freed, no Python function called, the GIL is never released while an edit is half
   done), so under the GIL each call is atomic and needs no lock. The pool's Python slow paths
   (segment growth, release, queries) run Python code between edits; they set `Dev.hold()` first:
   while held, `take` answers -2 (take the slow path, which waits for the pool's lock) and `give`
   queues the free, which `unhold()` merges.

   Built against the limited API of 3.11 (one abi3 build for 3.11+). Addresses and sizes are u64. */
#ifndef CUARRAY_POOLCORE_H
#define CUARRAY_POOLCORE_H
#include "limited_api.h" /* (Python.h: the limited API of 3.11) */
#include <structmember.h>
#include <stdio.h>
#include <string.h>

typedef unsigned long long u64;
typedef struct { u64 a, b; } Pair; /* by_size: (size, start); by_addr: (start, size) */

#define RECENT_CAP 16 /* room for memory.RECENT_MAX (8) and tests that raise it */

typedef struct BinsObject BinsObject;
typedef struct { BinsObject *bins; u64 ptr, size; } Pending; /* holds a reference to bins */

typedef struct DevObject DevObject;
struct DevObject {
    PyObject_HEAD
    /* The hold state is the pool's, shared by its devices (as the Python pool's one lock): a
       device's Dev points to the pool's `root` Dev (strong reference), whose hold and queue serve. */
    DevObject *root;
    PyObject *owner; /* set by memory.py: a weak reference to its _DevicePool (no cycle) */
    u64 *segs; /* sorted segment starts: a merge never crosses one (adjacent segments) */
    Py_ssize_t nseg, segcap;
    long long used, peak;
    long hold;
    Pending *pend;
    Py_ssize_t npend, pendcap;
};

struct BinsObject {
    PyObject_HEAD
    DevObject *dev; /* strong reference */
    u64 stream_ptr;
    /* The free blocks twice, each sorted: best fit is a binary search on by_size (smallest size,
       then lowest address, as the Python pool's `size << 64 | start` keys), neighbours one on
       by_addr. Blocks per bins are few (tens), so memmove'd arrays beat any tree here. */
    Pair *by_size, *by_addr;
    Py_ssize_t n, cap;
    Pair recent[RECENT_CAP]; /* (size, ptr) kept unmerged for exact reuse, in the order freed */
    int n_recent, recent_max;
    long credit, credit_max, probe;
};

extern PyObject *pc_DevType, *pc_BinsType, *pc_BlockType; /* made from the specs at module exec */
extern PyType_Spec pc_Dev_spec, pc_Bins_spec, pc_Block_spec;

/* bins.c */
int pc_reserve(BinsObject *s, Py_ssize_t extra);
void pc_merge_free(BinsObject *s, u64 ptr, u64 size);
int pc_take_core(BinsObject *s, u64 rsize, u64 *out);
int pc_give_block(BinsObject *s, u64 ptr, u64 size);
/* block.c */
PyObject *pc_Bins_alloc(BinsObject *s, PyObject *const *args, Py_ssize_t nargs);
PyObject *pc_bins_alloc(BinsObject *s, u64 rsize, long long dev); /* (Bins.alloc, its arguments in C) */
PyObject *pc_wrap_pointer(PyObject *mem, u64 ptr, long long dev);
/* current_stream.c: the thread's device (`device._tls.device_id`, a new reference, NULL with an
   error set), its current Stream on `dev` (a new reference; NULL, with an error set or, where the
   Python code decides, without one), a Stream's handle (`ptr`, a new reference), and the module's
   functions `configure_current_stream`, `current_core_stream` (0, or -1 with an error set) */
PyObject *pc_thread_device(void);
PyObject *pc_thread_stream(PyObject *dev);
PyObject *pc_stream_ptr(PyObject *s);
int pc_current_stream_init(PyObject *m);
/* pool_malloc.c: MemoryPool.malloc's prologue */
PyObject *pc_configure_malloc(PyObject *m, PyObject *limit);
PyObject *pc_malloc_function(PyObject *m, PyObject *args);
/* async.c: MallocAsyncMemoryPool's allocation and free */
extern PyObject *pc_AsyncBlockType;
extern PyType_Spec pc_AsyncBlock_spec;
PyObject *pc_async_configure(PyObject *m, PyObject *args);
PyObject *pc_async_alloc(PyObject *m, PyObject *const *args, Py_ssize_t nargs);

#endif /* CUARRAY_POOLCORE_H */

