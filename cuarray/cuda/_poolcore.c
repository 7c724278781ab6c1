/* _poolcore: the free-block bookkeeping of cuarray's MemoryPool, in C (memory.py keeps the policy).

   memory.py's pure-Python `_Bins` is the reference: this file makes exactly the same choices (same
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
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

static PyObject *DevType, *BinsType, *BlockType;
/* Set by memory.py (configure): the MemoryPointer class, the slow path `slow(bins, rsize, code) ->
   ptr`, and while memory hooks are active `free_hook(phase, device_id, size, ptr, pmem_id)`. */
static PyObject *pointer_type, *slow_path, *free_hook;
static PyObject *str_mem, *str_ptr, *str_device_id;

/* -- sorted pairs ------------------------------------------------------------------------- */
static Py_ssize_t lower(const Pair *v, Py_ssize_t n, u64 a, u64 b)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (v[mid].a < a || (v[mid].a == a && v[mid].b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void pair_insert(Pair *v, Py_ssize_t n, u64 a, u64 b)
{
    Py_ssize_t i = lower(v, n, a, b);
    memmove(v + i + 1, v + i, (size_t)(n - i) * sizeof(Pair));
    v[i].a = a;
    v[i].b = b;
}

static void pair_remove_at(Pair *v, Py_ssize_t n, Py_ssize_t i)
{
    memmove(v + i, v + i + 1, (size_t)(n - i - 1) * sizeof(Pair));
}

/* -- blocks of one bins (callers reserve room first, so these cannot fail) ------------------ */
static int reserve(BinsObject *s, Py_ssize_t extra)
{
    Py_ssize_t want = s->n + extra, cap;
    Pair *p;
    if (want <= s->cap)
        return 0;
    cap = s->cap ? 2 * s->cap : 16;
    if (cap < want)
        cap = want;
    if ((size_t)cap > PY_SSIZE_T_MAX / sizeof(Pair)) {
        PyErr_NoMemory();
        return -1;
    }
    /* Each array is replaced only once its realloc succeeded; cap grows when both have. */
    p = PyMem_Realloc(s->by_size, (size_t)cap * sizeof(Pair));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->by_size = p;
    p = PyMem_Realloc(s->by_addr, (size_t)cap * sizeof(Pair));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->by_addr = p;
    s->cap = cap;
    return 0;
}

static void blk_add(BinsObject *s, u64 start, u64 size)
{
    pair_insert(s->by_size, s->n, size, start);
    pair_insert(s->by_addr, s->n, start, size);
    s->n++;
}

/* Remove the free block at `start` (of `size`); 0 if there is none. */
static int blk_del(BinsObject *s, u64 start, u64 size)
{
    Py_ssize_t i = lower(s->by_addr, s->n, start, 0), j;
    if (i == s->n || s->by_addr[i].a != start || s->by_addr[i].b != size)
        return 0;
    j = lower(s->by_size, s->n, size, start);
    pair_remove_at(s->by_addr, s->n, i);
    pair_remove_at(s->by_size, s->n, j);
    s->n--;
    return 1;
}

static int is_segment_start(DevObject *d, u64 a)
{
    Py_ssize_t lo = 0, hi = d->nseg;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (d->segs[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nseg && d->segs[lo] == a;
}

/* A block goes back, merged with its free neighbours unless a segment starts between them (the
   Python pool's `free_block`, without the live-bytes count). Needs reserve(s, 1). */
static void merge_free(BinsObject *s, u64 ptr, u64 size)
{
    u64 start = ptr, end = ptr + size;
    Py_ssize_t i = lower(s->by_addr, s->n, ptr, 0);
    if (i > 0) {
        Pair prev = s->by_addr[i - 1]; /* the last free block below ptr: it ends at ptr or is no neighbour */
        if (prev.a + prev.b == ptr && !is_segment_start(s->dev, ptr)) {
            blk_del(s, prev.a, prev.b);
            start = prev.a;
        }
    }
    i = lower(s->by_addr, s->n, end, 0);
    if (i < s->n && s->by_addr[i].a == end && !is_segment_start(s->dev, end)) {
        u64 nsize = s->by_addr[i].b;
        blk_del(s, end, nsize);
        end += nsize;
    }
    blk_add(s, start, end - start);
}

/* Merge every block kept for exact reuse (any order gives the same blocks: maximal runs per segment). */
static int flush_recent(BinsObject *s)
{
    int k;
    if (reserve(s, s->n_recent) < 0)
        return -1;
    for (k = 0; k < s->n_recent; k++)
        merge_free(s, s->recent[k].b, s->recent[k].a);
    s->n_recent = 0;
    return 0;
}

/* Best fit and split: 0 and the address in *out, or -1 when no block holds rsize. */
static int fit(BinsObject *s, u64 rsize, u64 *out)
{
    Py_ssize_t i = lower(s->by_size, s->n, rsize, 0);
    u64 size, ptr;
    if (i == s->n)
        return -1;
    size = s->by_size[i].a;
    ptr = s->by_size[i].b;
    blk_del(s, ptr, size);
    if (size > rsize) /* the tail stays free; one block out, one in: no room needed */
        blk_add(s, ptr + rsize, size - rsize);
    *out = ptr;
    return 0;
}

static void count_live(DevObject *d, u64 rsize)
{
    d->used += (long long)rsize;
    if (d->used > d->peak)
        d->peak = d->used;
}

/* The allocation fast path of MemoryPool.malloc: an exact-size kept block, else merge the kept
   ones and best fit. The credit rule: a run of misses turns keeping off (pool churn, where sizes
   rarely repeat), a probe every `probe` allocations turns it back on. -1: no block fits (grow). */
static int take_core(BinsObject *s, u64 rsize, u64 *out)
{
    int k;
    for (k = s->n_recent - 1; k >= 0; k--) { /* the one freed last, as the Python list's pop() */
        if (s->recent[k].a == rsize) {
            *out = s->recent[k].b;
            memmove(s->recent + k, s->recent + k + 1, (size_t)(s->n_recent - k - 1) * sizeof(Pair));
            s->n_recent--;
            s->credit = s->credit_max;
            count_live(s->dev, rsize);
            return 0;
        }
    }
    if (s->n_recent) {
        if (flush_recent(s) < 0)
            return -3;
        s->credit--;
    } else if (s->credit <= 0) {
        s->credit = s->credit <= -s->probe ? 1 : s->credit - 1;
    }
    if (fit(s, rsize, out) < 0)
        return -1;
    count_live(s->dev, rsize);
    return 0;
}

/* take_core's answer as Python sees it: the address, or -1 (grow); -3 is an error set. */
static PyObject *take_impl(BinsObject *s, PyObject *arg)
{
    u64 rsize = PyLong_AsUnsignedLongLong(arg), ptr = 0;
    int rc;
    if (rsize == (u64)-1 && PyErr_Occurred())
        return NULL;
    rc = take_core(s, rsize, &ptr);
    if (rc == -3)
        return NULL;
    return rc < 0 ? PyLong_FromLong(rc) : PyLong_FromUnsignedLongLong(ptr);
}

static PyObject *Bins_take(BinsObject *s, PyObject *arg)
{
    if (s->dev->root->hold)
        return PyLong_FromLong(-2); /* the slow path takes the pool's lock, then take_held */
    return take_impl(s, arg);
}

static PyObject *Bins_take_held(BinsObject *s, PyObject *arg)
{
    return take_impl(s, arg);
}

static PyObject *Bins_fit(BinsObject *s, PyObject *arg)
{
    u64 rsize = PyLong_AsUnsignedLongLong(arg), ptr;
    if (rsize == (u64)-1 && PyErr_Occurred())
        return NULL;
    if (fit(s, rsize, &ptr) < 0)
        return PyLong_FromLong(-1);
    count_live(s->dev, rsize);
    return PyLong_FromUnsignedLongLong(ptr);
}

static int two_u64(PyObject *const *args, Py_ssize_t nargs, u64 *x, u64 *y)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expected (ptr, size)");
        return -1;
    }
    *x = PyLong_AsUnsignedLongLong(args[0]);
    if (*x == (u64)-1 && PyErr_Occurred())
        return -1;
    *y = PyLong_AsUnsignedLongLong(args[1]);
    if (*y == (u64)-1 && PyErr_Occurred())
        return -1;
    return 0;
}

/* A live block comes back (`_PooledMemory.__del__`). On MemoryError the block stays counted as
   live and is lost to the pool: never a corrupt structure. */
static int give_block(BinsObject *s, u64 ptr, u64 size)
{
    DevObject *d = s->dev->root;
    if (d->hold) { /* a slow path is between edits: queue it for unhold() */
        if (d->npend == d->pendcap) {
            Py_ssize_t cap = d->pendcap ? 2 * d->pendcap : 8;
            Pending *p = PyMem_Realloc(d->pend, (size_t)cap * sizeof(Pending));
            if (p == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            d->pend = p;
            d->pendcap = cap;
        }
        Py_INCREF((PyObject *)s);
        d->pend[d->npend].bins = s;
        d->pend[d->npend].ptr = ptr;
        d->pend[d->npend].size = size;
        d->npend++;
        return 0;
    }
    if (s->credit > 0 && s->n_recent < s->recent_max) { /* kept for an exact-size reuse */
        s->recent[s->n_recent].a = size;
        s->recent[s->n_recent].b = ptr;
        s->n_recent++;
    } else {
        if (reserve(s, 1) < 0)
            return -1;
        merge_free(s, ptr, size);
    }
    s->dev->used -= (long long)size;
    return 0;
}

static PyObject *Bins_give(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 ptr, size;
    if (two_u64(args, nargs, &ptr, &size) < 0 || give_block(s, ptr, size) < 0)
        return NULL;
    Py_RETURN_NONE;
}


/* -- Block: a live block, the `mem` of the MemoryPointer that MemoryPool.malloc returns ------- */
/* Its deallocation gives the block back with no Python frame (the pure-Python pool's
   `_PooledMemory.__del__` costs one per free). ptr, size and device_id read as BaseMemory's. */
typedef struct {
    PyObject_HEAD
    u64 ptr, size;
    long long device_id;
    BinsObject *bins; /* strong reference */
    PyObject *weakrefs;
} BlockObject;

/* Run free_hook(phase, ...) (memory hooks are active); its errors are reported as unraisable, as
   those of a __del__ are. */
static void call_free_hook(PyObject *hook, int phase, BlockObject *b)
{
    PyObject *r = PyObject_CallFunction(hook, "iLKKn", phase, b->device_id, b->size, b->ptr,
                                        (Py_ssize_t)(size_t)b);
    if (r == NULL)
        PyErr_WriteUnraisable(hook);
    Py_XDECREF(r);
}

static void Block_dealloc(BlockObject *b)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)b);
    PyObject *et, *ev, *tb, *hook = free_hook;
    PyErr_Fetch(&et, &ev, &tb); /* a block may die while an exception propagates */
    if (b->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)b);
    if (b->bins != NULL) {
        Py_XINCREF(hook); /* the hook may unregister itself */
        if (hook != NULL)
            call_free_hook(hook, 0, b);
        /* MemoryError here leaves the block counted live: lost to the pool, nothing corrupt. */
        if (give_block(b->bins, b->ptr, b->size) < 0)
            PyErr_Clear();
        if (hook != NULL)
            call_free_hook(hook, 1, b);
        Py_XDECREF(hook);
        Py_DECREF((PyObject *)b->bins);
    }
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))((PyObject *)b);
    Py_DECREF(tp);
    PyErr_Restore(et, ev, tb);
}

static PyObject *Block_int(BlockObject *b) { return PyLong_FromUnsignedLongLong(b->ptr); }

static PyObject *Block_repr(BlockObject *b)
{
    char buf[96]; /* PyUnicode_FromFormat has no %llx */
    snprintf(buf, sizeof buf, "<_PooledMemory %#llx size=%llu device=%lld>", b->ptr, b->size, b->device_id);
    return PyUnicode_FromString(buf);
}

static PyObject *Block_new_refused(PyTypeObject *t, PyObject *a, PyObject *k)
{
    PyErr_SetString(PyExc_TypeError, "pool blocks come from MemoryPool.malloc");
    return NULL;
}

static PyMemberDef Block_members[] = {
    {"ptr", T_ULONGLONG, offsetof(BlockObject, ptr), READONLY, "address"},
    {"size", T_ULONGLONG, offsetof(BlockObject, size), READONLY, "bytes (rounded up to 512)"},
    {"device_id", T_LONGLONG, offsetof(BlockObject, device_id), READONLY, NULL},
    {"bins", T_OBJECT, offsetof(BlockObject, bins), READONLY, "the bins it returns to"},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(BlockObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot Block_slots[] = {
    {Py_tp_new, Block_new_refused},
    {Py_tp_dealloc, Block_dealloc},
    {Py_tp_members, Block_members},
    {Py_tp_repr, Block_repr},
    {Py_nb_int, Block_int},
    {Py_nb_index, Block_int},
    {Py_tp_doc, "A live pool block (the C core's _PooledMemory); freed into its bins when it dies."},
    {0, NULL},
};

static PyType_Spec Block_spec = {"cuarray.cuda._poolcore.Block", sizeof(BlockObject), 0, Py_TPFLAGS_DEFAULT, Block_slots};

/* The MemoryPointer for block (ptr, rsize): made only once the bookkeeping is done, since making
   objects may start a garbage collection whose frees come back into these bins. */
static PyObject *make_pointer(BinsObject *s, u64 ptr, u64 rsize, long long dev)
{
    BlockObject *b = (BlockObject *)((allocfunc)PyType_GetSlot((PyTypeObject *)BlockType, Py_tp_alloc))(
        (PyTypeObject *)BlockType, 0);
    PyObject *p = NULL, *v = NULL;
    if (b == NULL) {
        if (give_block(s, ptr, rsize) < 0)
            PyErr_Clear(); /* keep the first error */
        PyErr_NoMemory();
        return NULL;
    }
    b->ptr = ptr;
    b->size = rsize;
    b->device_id = dev;
    Py_INCREF((PyObject *)s);
    b->bins = s;
    b->weakrefs = NULL; /* from here on, dropping b frees the block */
    p = ((allocfunc)PyType_GetSlot((PyTypeObject *)pointer_type, Py_tp_alloc))((PyTypeObject *)pointer_type, 0);
    if (p == NULL || PyObject_SetAttr(p, str_mem, (PyObject *)b) < 0)
        goto fail;
    v = PyLong_FromUnsignedLongLong(ptr);
    if (v == NULL || PyObject_SetAttr(p, str_ptr, v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyLong_FromLongLong(dev);
    if (v == NULL || PyObject_SetAttr(p, str_device_id, v) < 0)
        goto fail;
    Py_DECREF(v);
    Py_DECREF((PyObject *)b);
    return p;
fail:
    Py_XDECREF(v);
    Py_XDECREF(p);
    Py_DECREF((PyObject *)b);
    return NULL;
}

/* MemoryPool.malloc's fast path whole: take a block and wrap it. On a miss (-1: no block fits) or
   while held (-2), after the bookkeeping is consistent, the pool's Python slow path runs. */
static PyObject *Bins_alloc(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 rsize, ptr = 0;
    long long dev;
    int rc;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "alloc(rsize, device_id)");
        return NULL;
    }
    rsize = PyLong_AsUnsignedLongLong(args[0]);
    if (rsize == (u64)-1 && PyErr_Occurred())
        return NULL;
    dev = PyLong_AsLongLong(args[1]);
    if (dev == -1 && PyErr_Occurred())
        return NULL;
    if (pointer_type == NULL || slow_path == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_poolcore.configure() was not called");
        return NULL;
    }
    rc = s->dev->root->hold ? -2 : take_core(s, rsize, &ptr);
    if (rc == -3)
        return NULL;
    if (rc < 0) {
        PyObject *r = PyObject_CallFunction(slow_path, "OKi", (PyObject *)s, rsize, rc);
        if (r == NULL)
            return NULL;
        ptr = PyLong_AsUnsignedLongLong(r);
        Py_DECREF(r);
        if (ptr == (u64)-1 && PyErr_Occurred())
            return NULL;
    }
    return make_pointer(s, ptr, rsize, dev);
}

static PyObject *Bins_insert(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 ptr, size;
    if (two_u64(args, nargs, &ptr, &size) < 0 || reserve(s, 1) < 0)
        return NULL;
    blk_add(s, ptr, size);
    Py_RETURN_NONE;
}

static PyObject *Bins_remove(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 ptr, size;
    if (two_u64(args, nargs, &ptr, &size) < 0)
        return NULL;
    if (!blk_del(s, ptr, size)) {
        PyErr_SetString(PyExc_KeyError, "no such free block");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Bins_flush(BinsObject *s, PyObject *unused)
{
    if (flush_recent(s) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Bins_size_at(BinsObject *s, PyObject *arg)
{
    u64 a = PyLong_AsUnsignedLongLong(arg);
    Py_ssize_t i;
    if (a == (u64)-1 && PyErr_Occurred())
        return NULL;
    i = lower(s->by_addr, s->n, a, 0);
    if (i < s->n && s->by_addr[i].a == a)
        return PyLong_FromUnsignedLongLong(s->by_addr[i].b);
    Py_RETURN_NONE;
}

/* -- views for queries and tests (the Python pool's attribute names) ----------------------- */
/* A copy of the blocks, taken before any Python object is made: making objects may start a
   garbage collection whose frees come back into this bins. */
static Pair *snapshot(BinsObject *s, int by_size, Py_ssize_t *n)
{
    Pair *copy = PyMem_Malloc((size_t)(s->n ? s->n : 1) * sizeof(Pair));
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, by_size ? s->by_size : s->by_addr, (size_t)s->n * sizeof(Pair));
    *n = s->n;
    return copy;
}

static PyObject *Bins_get_fs(BinsObject *s, void *c)
{
    int end = c != NULL; /* fe: end -> start */
    Py_ssize_t i, n;
    Pair *v = snapshot(s, 0, &n);
    PyObject *d = v ? PyDict_New() : NULL;
    for (i = 0; d != NULL && i < n; i++) {
        PyObject *k = PyLong_FromUnsignedLongLong(end ? v[i].a + v[i].b : v[i].a);
        PyObject *x = PyLong_FromUnsignedLongLong(end ? v[i].a : v[i].b);
        if (k == NULL || x == NULL || PyDict_SetItem(d, k, x) < 0)
            Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(x);
    }
    PyMem_Free(v);
    return d;
}

static PyObject *Bins_get_keys(BinsObject *s, void *c)
{
    Py_ssize_t i, n;
    Pair *v = snapshot(s, 1, &n);
    PyObject *lst = v ? PyList_New(0) : NULL, *shift = PyLong_FromLong(64);
    if (shift == NULL)
        Py_CLEAR(lst);
    for (i = 0; lst != NULL && i < n; i++) {
        PyObject *sz = PyLong_FromUnsignedLongLong(v[i].a);
        PyObject *st = PyLong_FromUnsignedLongLong(v[i].b);
        PyObject *hi = sz ? PyNumber_Lshift(sz, shift) : NULL;
        PyObject *key = hi && st ? PyNumber_Or(hi, st) : NULL;
        if (key == NULL || PyList_Append(lst, key) < 0)
            Py_CLEAR(lst);
        Py_XDECREF(sz);
        Py_XDECREF(st);
        Py_XDECREF(hi);
        Py_XDECREF(key);
    }
    Py_XDECREF(shift);
    PyMem_Free(v);
    return lst;
}

static PyObject *Bins_get_recent(BinsObject *s, void *c)
{
    /* size -> [ptr, ...] in the order freed (the Python pool's `recent`); copied first. */
    Pair copy[RECENT_CAP];
    int k, n = s->n_recent;
    PyObject *d = PyDict_New();
    memcpy(copy, s->recent, (size_t)n * sizeof(Pair));
    if (d == NULL)
        return NULL;
    for (k = 0; k < n; k++) {
        PyObject *key = PyLong_FromUnsignedLongLong(copy[k].a);
        PyObject *ptr = PyLong_FromUnsignedLongLong(copy[k].b);
        PyObject *lst = key ? PyDict_GetItemWithError(d, key) : NULL; /* borrowed */
        int bad = key == NULL || ptr == NULL || PyErr_Occurred();
        if (!bad && lst == NULL) {
            lst = PyList_New(0);
            bad = lst == NULL || PyDict_SetItem(d, key, lst) < 0;
            Py_XDECREF(lst); /* the dict holds it now */
        }
        if (!bad)
            bad = PyList_Append(lst, ptr) < 0;
        Py_XDECREF(key);
        Py_XDECREF(ptr);
        if (bad) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

static PyObject *Bins_get_n_recent(BinsObject *s, void *c) { return PyLong_FromLong(s->n_recent); }
static PyObject *Bins_get_credit(BinsObject *s, void *c) { return PyLong_FromLong(s->credit); }
static PyObject *Bins_get_n_blocks(BinsObject *s, void *c) { return PyLong_FromSsize_t(s->n); }
static PyObject *Bins_get_stream_ptr(BinsObject *s, void *c) { return PyLong_FromUnsignedLongLong(s->stream_ptr); }
static PyObject *Bins_get_dev(BinsObject *s, void *c) { Py_INCREF((PyObject *)s->dev); return (PyObject *)s->dev; }

static PyObject *Bins_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *dev;
    unsigned long long stream_ptr;
    int recent_max;
    long credit, probe;
    BinsObject *s;
    if (!PyArg_ParseTuple(args, "OKill", &dev, &stream_ptr, &recent_max, &credit, &probe))
        return NULL;
    if (!PyObject_TypeCheck(dev, (PyTypeObject *)DevType)) {
        PyErr_SetString(PyExc_TypeError, "Bins(dev, stream_ptr, recent_max, credit, probe): dev must be a Dev");
        return NULL;
    }
    if (recent_max < 0 || recent_max > RECENT_CAP) {
        PyErr_SetString(PyExc_ValueError, "recent_max out of range");
        return NULL;
    }
    s = (BinsObject *)((allocfunc)PyType_GetSlot(type, Py_tp_alloc))(type, 0);
    if (s == NULL)
        return NULL;
    Py_INCREF(dev);
    s->dev = (DevObject *)dev;
    s->stream_ptr = stream_ptr;
    s->by_size = s->by_addr = NULL;
    s->n = s->cap = 0;
    s->n_recent = 0;
    s->recent_max = recent_max;
    s->credit = s->credit_max = credit;
    s->probe = probe;
    return (PyObject *)s;
}

static void Bins_dealloc(BinsObject *s)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)s);
    PyMem_Free(s->by_size);
    PyMem_Free(s->by_addr);
    Py_XDECREF((PyObject *)s->dev);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))((PyObject *)s);
    Py_DECREF(tp);
}

static PyMethodDef Bins_methods[] = {
    {"alloc", (PyCFunction)(void (*)(void))Bins_alloc, METH_FASTCALL, "alloc(rsize, device_id): a MemoryPointer (MemoryPool.malloc's fast path)"},
    {"take", (PyCFunction)Bins_take, METH_O, "take(rsize): address, -1 (no block fits: grow) or -2 (held: slow path)"},
    {"take_held", (PyCFunction)Bins_take_held, METH_O, "take(rsize) for the holder of the pool's lock"},
    {"fit", (PyCFunction)Bins_fit, METH_O, "best fit and split only (after a segment was added)"},
    {"give", (PyCFunction)(void (*)(void))Bins_give, METH_FASTCALL, "give(ptr, size): a live block comes back"},
    {"insert", (PyCFunction)(void (*)(void))Bins_insert, METH_FASTCALL, "insert(ptr, size): a new free block"},
    {"remove", (PyCFunction)(void (*)(void))Bins_remove, METH_FASTCALL, "remove(ptr, size): drop a free block"},
    {"flush", (PyCFunction)Bins_flush, METH_NOARGS, "merge the blocks kept for exact reuse"},
    {"size_at", (PyCFunction)Bins_size_at, METH_O, "size of the free block starting at addr, or None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Bins_getset[] = {
    {"fs", (getter)Bins_get_fs, NULL, "free blocks, start -> size (a copy)", NULL},
    {"fe", (getter)Bins_get_fs, NULL, "free blocks, end -> start (a copy)", (void *)1},
    {"keys", (getter)Bins_get_keys, NULL, "sorted size << 64 | start (a copy)", NULL},
    {"recent", (getter)Bins_get_recent, NULL, "kept blocks, size -> [ptr] (a copy)", NULL},
    {"n_recent", (getter)Bins_get_n_recent, NULL, NULL, NULL},
    {"credit", (getter)Bins_get_credit, NULL, NULL, NULL},
    {"n_blocks", (getter)Bins_get_n_blocks, NULL, NULL, NULL},
    {"stream_ptr", (getter)Bins_get_stream_ptr, NULL, NULL, NULL},
    {"dev", (getter)Bins_get_dev, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Bins_slots[] = {
    {Py_tp_new, Bins_new},
    {Py_tp_dealloc, Bins_dealloc},
    {Py_tp_methods, Bins_methods},
    {Py_tp_getset, Bins_getset},
    {Py_tp_doc, "Bins(dev, stream_ptr, recent_max, credit, probe): free blocks of one (device, stream, size class)"},
    {0, NULL},
};

static PyType_Spec Bins_spec = {"cuarray.cuda._poolcore.Bins", sizeof(BinsObject), 0, Py_TPFLAGS_DEFAULT, Bins_slots};

/* -- Dev ----------------------------------------------------------------------------------- */
/* Merge the frees queued while held. Each queued entry's reference is dropped only after all
   edits are done: dropping the last one frees a Bins (C only, but let nothing run mid-edit). */
static int drain(DevObject *d)
{
    Py_ssize_t k, done = 0;
    int rc = 0;
    for (k = 0; k < d->npend; k++) {
        Pending *p = &d->pend[k];
        if (reserve(p->bins, 1) < 0) {
            rc = -1;
            break;
        }
        merge_free(p->bins, p->ptr, p->size);
        p->bins->dev->used -= (long long)p->size;
        done++;
    }
    {
        Pending *copy = NULL;
        Py_ssize_t ndone = done;
        if (ndone) {
            copy = PyMem_Malloc((size_t)ndone * sizeof(Pending));
            if (copy == NULL) { /* drop the references in place; dealloc of a Bins runs no Python */
                for (k = 0; k < ndone; k++)
                    Py_DECREF((PyObject *)d->pend[k].bins);
            } else {
                memcpy(copy, d->pend, (size_t)ndone * sizeof(Pending));
            }
        }
        memmove(d->pend, d->pend + ndone, (size_t)(d->npend - ndone) * sizeof(Pending));
        d->npend -= ndone;
        if (copy != NULL) {
            for (k = 0; k < ndone; k++)
                Py_DECREF((PyObject *)copy[k].bins);
            PyMem_Free(copy);
        }
    }
    return rc;
}

static PyObject *Dev_hold(DevObject *d, PyObject *unused)
{
    d = d->root;
    d->hold++;
    Py_RETURN_NONE;
}

static PyObject *Dev_unhold(DevObject *d, PyObject *unused)
{
    d = d->root;
    if (d->hold > 0)
        d->hold--;
    if (d->hold == 0 && d->npend && drain(d) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Dev_add_segment(DevObject *d, PyObject *arg)
{
    u64 a = PyLong_AsUnsignedLongLong(arg);
    Py_ssize_t i;
    if (a == (u64)-1 && PyErr_Occurred())
        return NULL;
    if (d->nseg == d->segcap) {
        Py_ssize_t cap = d->segcap ? 2 * d->segcap : 16;
        u64 *p = PyMem_Realloc(d->segs, (size_t)cap * sizeof(u64));
        if (p == NULL)
            return PyErr_NoMemory();
        d->segs = p;
        d->segcap = cap;
    }
    for (i = d->nseg; i > 0 && d->segs[i - 1] > a; i--)
        d->segs[i] = d->segs[i - 1];
    d->segs[i] = a;
    d->nseg++;
    Py_RETURN_NONE;
}

static PyObject *Dev_remove_segment(DevObject *d, PyObject *arg)
{
    u64 a = PyLong_AsUnsignedLongLong(arg);
    Py_ssize_t i;
    if (a == (u64)-1 && PyErr_Occurred())
        return NULL;
    for (i = 0; i < d->nseg && d->segs[i] != a; i++)
        ;
    if (i == d->nseg) {
        PyErr_SetString(PyExc_KeyError, "no such segment");
        return NULL;
    }
    memmove(d->segs + i, d->segs + i + 1, (size_t)(d->nseg - i - 1) * sizeof(u64));
    d->nseg--;
    Py_RETURN_NONE;
}

static PyObject *Dev_get_used(DevObject *d, void *c) { return PyLong_FromLongLong(c ? d->peak : d->used); }

static int Dev_set_used(DevObject *d, PyObject *v, void *c)
{
    long long x;
    if (v == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete");
        return -1;
    }
    x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (c)
        d->peak = x;
    else
        d->used = x;
    return 0;
}

static PyObject *Dev_get_owner(DevObject *d, void *c)
{
    PyObject *o = d->owner ? d->owner : Py_None;
    Py_INCREF(o);
    return o;
}

static int Dev_set_owner(DevObject *d, PyObject *v, void *c)
{
    PyObject *old = d->owner;
    Py_XINCREF(v);
    d->owner = v;
    Py_XDECREF(old);
    return 0;
}

static PyObject *Dev_get_n_pending(DevObject *d, void *c) { return PyLong_FromSsize_t(d->root->npend); }
static PyObject *Dev_get_held(DevObject *d, void *c) { return PyBool_FromLong(d->root->hold > 0); }

static PyObject *Dev_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    DevObject *d, *root = NULL;
    if (!PyArg_ParseTuple(args, "|O!", (PyTypeObject *)DevType, &root))
        return NULL;
    d = (DevObject *)((allocfunc)PyType_GetSlot(type, Py_tp_alloc))(type, 0);
    if (d == NULL)
        return NULL;
    if (root != NULL) {
        root = root->root; /* one level: the root of a root is itself */
        Py_INCREF((PyObject *)root);
        d->root = root;
    } else {
        d->root = d; /* no reference to itself */
    }
    d->owner = NULL;
    d->segs = NULL;
    d->nseg = d->segcap = 0;
    d->used = d->peak = 0;
    d->hold = 0;
    d->pend = NULL;
    d->npend = d->pendcap = 0;
    return (PyObject *)d;
}

static void Dev_dealloc(DevObject *d)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)d);
    Py_ssize_t k;
    /* Queued Bins hold a reference to their Dev, which holds its root: npend is 0 here. */
    for (k = 0; k < d->npend; k++)
        Py_DECREF((PyObject *)d->pend[k].bins);
    if (d->root != d)
        Py_DECREF((PyObject *)d->root);
    Py_XDECREF(d->owner);
    PyMem_Free(d->pend);
    PyMem_Free(d->segs);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))((PyObject *)d);
    Py_DECREF(tp);
}

static PyMethodDef Dev_methods[] = {
    {"hold", (PyCFunction)Dev_hold, METH_NOARGS, "a slow path begins: take() answers -2, give() queues"},
    {"unhold", (PyCFunction)Dev_unhold, METH_NOARGS, "the slow path ends: queued frees are merged"},
    {"add_segment", (PyCFunction)Dev_add_segment, METH_O, NULL},
    {"remove_segment", (PyCFunction)Dev_remove_segment, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Dev_getset[] = {
    {"used", (getter)Dev_get_used, (setter)Dev_set_used, "bytes in live blocks", NULL},
    {"peak", (getter)Dev_get_used, (setter)Dev_set_used, "highest used", (void *)1},
    {"owner", (getter)Dev_get_owner, (setter)Dev_set_owner, "memory.py's handle on its _DevicePool", NULL},
    {"n_pending", (getter)Dev_get_n_pending, NULL, "frees queued while held", NULL},
    {"held", (getter)Dev_get_held, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Dev_slots[] = {
    {Py_tp_new, Dev_new},
    {Py_tp_dealloc, Dev_dealloc},
    {Py_tp_methods, Dev_methods},
    {Py_tp_getset, Dev_getset},
    {Py_tp_doc, "Dev(root=None): one device's segment starts and live/peak bytes; hold state is root's"},
    {0, NULL},
};

static PyType_Spec Dev_spec = {"cuarray.cuda._poolcore.Dev", sizeof(DevObject), 0, Py_TPFLAGS_DEFAULT, Dev_slots};

/* -- module -------------------------------------------------------------------------------- */
static PyObject *configure(PyObject *m, PyObject *args)
{
    PyObject *ptype, *slow;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &ptype, &slow))
        return NULL;
    PyObject *old_type = pointer_type, *old_slow = slow_path;
    Py_INCREF(ptype);
    Py_INCREF(slow);
    pointer_type = ptype;
    slow_path = slow;
    Py_XDECREF(old_type);
    Py_XDECREF(old_slow);
    Py_RETURN_NONE;
}

static PyObject *set_free_hook(PyObject *m, PyObject *hook)
{
    PyObject *old = free_hook;
    if (hook == Py_None) {
        free_hook = NULL;
    } else {
        Py_INCREF(hook);
        free_hook = hook;
    }
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "configure(MemoryPointer, slow_path): memory.py's half"},
    {"set_free_hook", set_free_hook, METH_O, "set_free_hook(fn or None): called around each Block's free"},
    {NULL, NULL, 0, NULL},
};

static int exec_module(PyObject *m)
{
    if (DevType == NULL && (DevType = PyType_FromSpec(&Dev_spec)) == NULL)
        return -1;
    if (BinsType == NULL && (BinsType = PyType_FromSpec(&Bins_spec)) == NULL)
        return -1;
    if (BlockType == NULL && (BlockType = PyType_FromSpec(&Block_spec)) == NULL)
        return -1;
    if (str_mem == NULL && ((str_mem = PyUnicode_InternFromString("mem")) == NULL ||
                            (str_ptr = PyUnicode_InternFromString("ptr")) == NULL ||
                            (str_device_id = PyUnicode_InternFromString("device_id")) == NULL))
        return -1;
    if (PyModule_AddObjectRef(m, "Dev", DevType) < 0 || PyModule_AddObjectRef(m, "Bins", BinsType) < 0 ||
        PyModule_AddObjectRef(m, "Block", BlockType) < 0)
        return -1;
    return PyModule_AddIntConstant(m, "RECENT_CAP", RECENT_CAP);
}

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, exec_module}, {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_poolcore", "Free-block bookkeeping of cuarray's MemoryPool (see memory.py).",
    0, module_methods, module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__poolcore(void) { return PyModuleDef_Init(&module_def); }
