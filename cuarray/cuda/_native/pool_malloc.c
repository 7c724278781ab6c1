/* pool_malloc.c: `MemoryPool.malloc`'s prologue in C (see poolcore.h). memory.py's `_allocator` (what
   every array's allocation calls) is `malloc_function(pool._tables, pool.malloc)` while the chosen
   allocator is a MemoryPool's own `malloc` with the C core and no memory hooks are installed: a
   builtin whose call is that method's steps for its common case, in its order: the thread's
   device, the size rounded up to 512 bytes, the thread's current stream on that device, that
   (device, stream, size class)'s Bins, then `Bins.alloc`. Anything else (a size that is not a
   positive int, the per-thread default stream, a device or bins not made yet, a stream table that
   is not a dict) calls the method itself, which stays the reference (tests/cuda/test_pool_malloc_cpu.py
   allocates both ways).

   Why: the method's Python, ~4.9k instructions of a cached 10-node lazy evaluation's ~66k, and a
   part of every eager operation's allocation (docs/perf-notes.md, "The memory pool"). */
#include "poolcore.h"

/* configure_malloc's: memory.SMALL_LIMIT */
static long long small_limit = -1;

PyObject *pc_configure_malloc(PyObject *m, PyObject *limit)
{
    long long v = PyLong_AsLongLong(limit);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    small_limit = v;
    Py_RETURN_NONE;
}

/* The key of the thread's current stream on device `dev` in a table of bins (a new reference: its
   handle), or NULL: with an error set, or without one where the method decides. */
static PyObject *stream_key(PyObject *dev)
{
    PyObject *s = pc_thread_stream(dev), *key = s ? pc_stream_ptr(s) : NULL;
    Py_XDECREF(s);
    return key;
}

/* malloc(size): the function `malloc_function` makes (self: the tuple (tables, method)) */
static PyObject *pool_malloc(PyObject *self, PyObject *size)
{
    PyObject *tables = PyTuple_GetItem(self, 0), *method = PyTuple_GetItem(self, 1);
    PyObject *dev = NULL, *key = NULL, *out = NULL;
    if (!method)
        return NULL;
    Py_ssize_t n = PyLong_CheckExact(size) ? PyLong_AsSsize_t(size) : 0;
    if (n == -1 && PyErr_Occurred())
        PyErr_Clear(); /* (past Py_ssize_t: the method raises what it raises) */
    if (n <= 0 || small_limit < 0)
        goto method;
    if (!(dev = pc_thread_device()))
        return NULL;
    if (!(key = stream_key(dev))) {
        if (PyErr_Occurred())
            goto done;
        goto method;
    }
    /* (the per-thread default stream's handle, 2, keys each thread's blocks apart: the method; a
       handle that is not a u64 too, its error cleared there) */
    if (!PyLong_CheckExact(key) || !PyLong_CheckExact(dev))
        goto method;
    u64 handle = AS_U64(key);
    if (handle == 2 || (handle == (u64)-1 && PyErr_Occurred()))
        goto method;
    u64 rsize = ((u64)n + 511) & ~(u64)511;
    PyObject *both = PyDict_GetItemWithError(tables, dev), *table, *bins; /* (borrowed) */
    if (!both || !PyTuple_Check(both) || PyTuple_Size(both) != 2)
        goto method;
    table = PyTuple_GetItem(both, (long long)rsize < small_limit ? 0 : 1);
    bins = table && PyDict_CheckExact(table) ? PyDict_GetItemWithError(table, key) : NULL;
    if (!bins || Py_TYPE(bins) != (PyTypeObject *)pc_BinsType)
        goto method;
    long long d = PyLong_AsLongLong(dev);
    if (d == -1 && PyErr_Occurred())
        goto done;
    Py_INCREF(bins); /* (held: a slow path runs Python code that may drop the table's reference) */
    out = pc_bins_alloc((BinsObject *)bins, rsize, d);
    Py_DECREF(bins);
    goto done;
method:
    if (PyErr_Occurred())
        PyErr_Clear(); /* (a look-up's error: the method meets it again and raises it) */
    out = PyObject_CallFunctionObjArgs(method, size, NULL);
done:
    Py_XDECREF(dev);
    Py_XDECREF(key);
    return out;
}

static PyMethodDef malloc_def = {"malloc", pool_malloc, METH_O,
                                 "malloc(size) -> MemoryPointer: MemoryPool.malloc's common case in C (pool_malloc.c)"};

/* malloc_function(tables, method): the builtin above for the pool whose `_tables` is `tables` and
   whose `malloc` is `method` */
PyObject *pc_malloc_function(PyObject *m, PyObject *args)
{
    PyObject *tables, *method;
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &tables, &method))
        return NULL;
    if (!PyCallable_Check(method)) {
        PyErr_SetString(PyExc_TypeError, "malloc_function(tables, method): a callable method");
        return NULL;
    }
    PyObject *self = PyTuple_Pack(2, tables, method);
    if (!self)
        return NULL;
    PyObject *f = PyCFunction_NewEx(&malloc_def, self, NULL);
    Py_DECREF(self);
    return f;
}
