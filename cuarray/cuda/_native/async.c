/* async.c: MallocAsyncMemoryPool's allocation and free in C (see _malloc_async.py).

   Why: through cuda.core a driver-pool allocation is a Buffer made and closed by Python layers, and
   through cuda.bindings each call converts its arguments and builds a CUresult enum: 9-13 us per
   allocation and free on the H100 (pool-churn: 92 ms and 129 ms for 10 000 allocations, against
   32 ms through MemoryPool's C core). Here cuMemAllocFromPoolAsync and cuMemFreeAsync are called
   through the addresses the driver gives (cuGetProcAddress, as launch.c does), and the memory is an
   `AsyncBlock` whose deallocation frees it, with no Python frame, on the stream it was allocated on.

   An AsyncBlock holds a strong reference to the cuda.core Stream it was allocated on, so that the
   stream's handle outlives the memory (as cuda.core's Buffer does). No CUDA header: handles are
   opaque pointers, CUresult an int. */
#include "poolcore.h"

typedef int CUresult;
typedef u64 CUdeviceptr;
typedef CUresult (*alloc_fn_t)(CUdeviceptr *, size_t, void *, void *);
typedef CUresult (*free_fn_t)(CUdeviceptr, void *);

static alloc_fn_t alloc_fn;
static free_fn_t free_fn;
PyObject *pc_AsyncBlockType;

typedef struct {
    PyObject_HEAD
    u64 ptr, size, stream_ptr;
    long long device_id;
    PyObject *stream; /* strong reference: the allocation stream's owner */
    PyObject *weakrefs;
} AsyncBlockObject;

static void AsyncBlock_dealloc(AsyncBlockObject *b)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)b);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    if (b->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)b);
    if (b->ptr != 0 && free_fn != NULL)
        (void)free_fn((CUdeviceptr)b->ptr, (void *)(uintptr_t)b->stream_ptr); /* an error: nothing to give back */
    Py_XDECREF(b->stream);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))((PyObject *)b);
    Py_DECREF(tp);
    PyErr_Restore(et, ev, tb);
}

static PyObject *AsyncBlock_int(AsyncBlockObject *b) { return PyLong_FromUnsignedLongLong(b->ptr); }

static PyObject *AsyncBlock_repr(AsyncBlockObject *b)
{
    char buf[96];
    snprintf(buf, sizeof buf, "<_AsyncMemory %#llx size=%llu device=%lld>", b->ptr, b->size, b->device_id);
    return PyUnicode_FromString(buf);
}

static PyObject *AsyncBlock_new_refused(PyTypeObject *t, PyObject *a, PyObject *k)
{
    PyErr_SetString(PyExc_TypeError, "async blocks come from MallocAsyncMemoryPool.malloc");
    return NULL;
}

static PyMemberDef AsyncBlock_members[] = {
    {"ptr", T_ULONGLONG, offsetof(AsyncBlockObject, ptr), READONLY, "address"},
    {"size", T_ULONGLONG, offsetof(AsyncBlockObject, size), READONLY, "bytes"},
    {"device_id", T_LONGLONG, offsetof(AsyncBlockObject, device_id), READONLY, NULL},
    {"stream", T_OBJECT, offsetof(AsyncBlockObject, stream), READONLY, "the allocation stream (cuda.core)"},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(AsyncBlockObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot AsyncBlock_slots[] = {
    {Py_tp_new, AsyncBlock_new_refused},
    {Py_tp_dealloc, AsyncBlock_dealloc},
    {Py_tp_members, AsyncBlock_members},
    {Py_tp_repr, AsyncBlock_repr},
    {Py_nb_int, AsyncBlock_int},
    {Py_nb_index, AsyncBlock_int},
    {Py_tp_doc, "Memory of a device's driver pool; freed (cuMemFreeAsync) on its allocation stream when it dies."},
    {0, NULL},
};

PyType_Spec pc_AsyncBlock_spec = {"cuarray.cuda._poolcore.AsyncBlock", sizeof(AsyncBlockObject), 0,
                                  Py_TPFLAGS_DEFAULT, AsyncBlock_slots};

/* async_configure(cuMemAllocFromPoolAsync address, cuMemFreeAsync address) */
PyObject *pc_async_configure(PyObject *m, PyObject *args)
{
    unsigned long long a, f;
    if (!PyArg_ParseTuple(args, "KK", &a, &f))
        return NULL;
    alloc_fn = (alloc_fn_t)(uintptr_t)a;
    free_fn = (free_fn_t)(uintptr_t)f;
    Py_RETURN_NONE;
}

/* async_alloc(size, pool handle, stream handle, stream owner, device_id) -> MemoryPointer, or the
   CUresult (an int) when the driver refuses: the caller turns it into the error (OOM: retry). */
PyObject *pc_async_alloc(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    u64 size, pool, stream;
    long long dev;
    CUdeviceptr ptr = 0;
    CUresult rc;
    AsyncBlockObject *b;
    PyObject *p;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "async_alloc(size, pool, stream, stream_owner, device_id)");
        return NULL;
    }
    if (alloc_fn == NULL || free_fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_poolcore.async_configure() was not called");
        return NULL;
    }
    size = PyLong_AsUnsignedLongLong(args[0]);
    pool = PyLong_AsUnsignedLongLong(args[1]);
    stream = PyLong_AsUnsignedLongLong(args[2]);
    dev = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    b = (AsyncBlockObject *)((allocfunc)PyType_GetSlot((PyTypeObject *)pc_AsyncBlockType, Py_tp_alloc))(
        (PyTypeObject *)pc_AsyncBlockType, 0);
    if (b == NULL)
        return PyErr_NoMemory();
    rc = alloc_fn(&ptr, (size_t)size, (void *)(uintptr_t)pool, (void *)(uintptr_t)stream);
    if (rc != 0) {
        Py_DECREF((PyObject *)b); /* ptr 0: nothing to free */
        return PyLong_FromLong(rc);
    }
    b->ptr = ptr;
    b->size = size;
    b->stream_ptr = stream;
    b->device_id = dev;
    Py_INCREF(args[3]);
    b->stream = args[3];
    b->weakrefs = NULL;
    p = pc_wrap_pointer((PyObject *)b, ptr, dev);
    Py_DECREF((PyObject *)b);
    return p;
}
