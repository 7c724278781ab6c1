/* bins.c: the free blocks of one (device, stream, size class) and the Bins type (see poolcore.h). */
#include "poolcore.h"

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
int pc_reserve(BinsObject *s, Py_ssize_t extra)
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
   Python pool's `free_block`, without the live-bytes count). Needs pc_reserve(s, 1). */
void pc_merge_free(BinsObject *s, u64 ptr, u64 size)
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
    if (pc_reserve(s, s->n_recent) < 0)
        return -1;
    for (k = 0; k < s->n_recent; k++)
        pc_merge_free(s, s->recent[k].b, s->recent[k].a);
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
int pc_take_core(BinsObject *s, u64 rsize, u64 *out)
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
    rc = pc_take_core(s, rsize, &ptr);
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

/* A live block comes back (a Block dies; `give` for tests). On MemoryError the block stays counted as
   live and is lost to the pool: never a corrupt structure. */
int pc_give_block(BinsObject *s, u64 ptr, u64 size)
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
        if (pc_reserve(s, 1) < 0)
            return -1;
        pc_merge_free(s, ptr, size);
    }
    s->dev->used -= (long long)size;
    return 0;
}

static PyObject *Bins_give(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 ptr, size;
    if (two_u64(args, nargs, &ptr, &size) < 0 || pc_give_block(s, ptr, size) < 0)
        return NULL;
    Py_RETURN_NONE;
}


static PyObject *Bins_insert(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    u64 ptr, size;
    if (two_u64(args, nargs, &ptr, &size) < 0 || pc_reserve(s, 1) < 0)
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
    if (!PyObject_TypeCheck(dev, (PyTypeObject *)pc_DevType)) {
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
    {"alloc", (PyCFunction)(void (*)(void))pc_Bins_alloc, METH_FASTCALL, "alloc(rsize, device_id): a MemoryPointer (MemoryPool.malloc's fast path)"},
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

PyType_Spec pc_Bins_spec = {"cuarray.cuda._poolcore.Bins", sizeof(BinsObject), 0, Py_TPFLAGS_DEFAULT, Bins_slots};
