/* block.c: MemoryPool.malloc's fast path, the block that frees itself, the module (see poolcore.h). */
#include "poolcore.h"

/* Set by memory.py (configure): the MemoryPointer class, the slow path `slow(bins, rsize, code) ->
   ptr`, and while memory hooks are active `free_hook(phase, device_id, size, ptr, pmem_id)`. */
static PyObject *pointer_type, *slow_path, *free_hook;
static PyObject *str_mem, *str_ptr, *str_device_id;
PyObject *pc_DevType, *pc_BinsType, *pc_BlockType;

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
        if (pc_give_block(b->bins, b->ptr, b->size) < 0)
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

PyType_Spec pc_Block_spec = {"cuarray.cuda._poolcore.Block", sizeof(BlockObject), 0, Py_TPFLAGS_DEFAULT, Block_slots};

/* MemoryPointer's fields (its `__slots__`: mem, ptr, device_id) as its member descriptors, written
   through them (configure): a write by name looks the class's MRO up first (~4x the instructions) */
enum { P_MEM, P_PTR, P_DEVICE, P_N };
static PyObject *pointer_field[P_N];
static descrsetfunc pointer_set[P_N];

/* pointer.<field i> = v (v stolen; 0, or -1 with an error set) */
static int set_pointer_field(PyObject *p, int i, PyObject *v)
{
    if (v == NULL)
        return -1;
    int rc = pointer_set[i] ? pointer_set[i](pointer_field[i], p, v)
                            : PyObject_SetAttr(p, i == P_MEM ? str_mem : i == P_PTR ? str_ptr : str_device_id, v);
    Py_DECREF(v);
    return rc;
}

/* A MemoryPointer whose `mem` is `mem` (a Block or an AsyncBlock; a new reference on success). */
PyObject *pc_wrap_pointer(PyObject *mem, u64 ptr, long long dev)
{
    PyObject *p = ((allocfunc)PyType_GetSlot((PyTypeObject *)pointer_type, Py_tp_alloc))((PyTypeObject *)pointer_type, 0);
    Py_XINCREF(mem);
    if (p == NULL || set_pointer_field(p, P_MEM, mem) < 0 ||
        set_pointer_field(p, P_PTR, PyLong_FromUnsignedLongLong(ptr)) < 0 ||
        set_pointer_field(p, P_DEVICE, PyLong_FromLongLong(dev)) < 0) {
        if (p == NULL)
            Py_XDECREF(mem);
        Py_XDECREF(p);
        return NULL;
    }
    return p;
}

/* The MemoryPointer for block (ptr, rsize): made only once the bookkeeping is done, since making
   objects may start a garbage collection whose frees come back into these bins. */
static PyObject *make_pointer(BinsObject *s, u64 ptr, u64 rsize, long long dev)
{
    PyObject *p;
    BlockObject *b = (BlockObject *)((allocfunc)PyType_GetSlot((PyTypeObject *)pc_BlockType, Py_tp_alloc))(
        (PyTypeObject *)pc_BlockType, 0);
    if (b == NULL) {
        if (pc_give_block(s, ptr, rsize) < 0)
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
    p = pc_wrap_pointer((PyObject *)b, ptr, dev);
    Py_DECREF((PyObject *)b);
    return p;
}

/* MemoryPool.malloc's fast path whole: take a block and wrap it. On a miss (-1: no block fits) or
   while held (-2), after the bookkeeping is consistent, the pool's Python slow path runs. */
PyObject *pc_bins_alloc(BinsObject *s, u64 rsize, long long dev)
{
    u64 ptr = 0;
    int rc;
    if (pointer_type == NULL || slow_path == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_poolcore.configure() was not called");
        return NULL;
    }
    rc = s->dev->root->hold ? -2 : pc_take_core(s, rsize, &ptr);
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

/* Bins.alloc(rsize, device_id) */
PyObject *pc_Bins_alloc(BinsObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "alloc(rsize, device_id)");
        return NULL;
    }
    u64 rsize = PyLong_AsUnsignedLongLong(args[0]);
    if (rsize == (u64)-1 && PyErr_Occurred())
        return NULL;
    long long dev = PyLong_AsLongLong(args[1]);
    if (dev == -1 && PyErr_Occurred())
        return NULL;
    return pc_bins_alloc(s, rsize, dev);
}

/* -- module -------------------------------------------------------------------------------- */
static PyObject *configure(PyObject *m, PyObject *args)
{
    PyObject *ptype, *slow;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &ptype, &slow))
        return NULL;
    PyObject *field[P_N] = {NULL};
    descrsetfunc set[P_N] = {NULL};
    const char *names[P_N] = {"mem", "ptr", "device_id"};
    for (int i = 0; i < P_N; i++) {
        /* (a member descriptor of the class itself: its setter takes any instance of it) */
        if (!(field[i] = PyObject_GetAttrString(ptype, names[i]))) {
            for (int j = 0; j < i; j++)
                Py_DECREF(field[j]);
            return NULL;
        }
        set[i] = (descrsetfunc)PyType_GetSlot(Py_TYPE(field[i]), Py_tp_descr_set);
    }
    PyObject *old[2 + P_N] = {pointer_type, slow_path, pointer_field[0], pointer_field[1], pointer_field[2]};
    Py_INCREF(ptype);
    Py_INCREF(slow);
    pointer_type = ptype;
    slow_path = slow;
    for (int i = 0; i < P_N; i++) {
        pointer_field[i] = field[i];
        pointer_set[i] = set[i];
    }
    for (int i = 0; i < 2 + P_N; i++) /* (last: a dealloc may run Python code) */
        Py_XDECREF(old[i]);
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
    {"configure_malloc", pc_configure_malloc, METH_O, "configure_malloc(SMALL_LIMIT): pool_malloc.c's half"},
    {"malloc_function", pc_malloc_function, METH_VARARGS,
     "malloc_function(tables, method) -> malloc(size): a MemoryPool's malloc, its common case in C"},
    {"async_configure", pc_async_configure, METH_VARARGS, "async_configure(alloc address, free address)"},
    {"async_alloc", (PyCFunction)(void (*)(void))pc_async_alloc, METH_FASTCALL,
     "async_alloc(size, pool, stream, stream_owner, device_id) -> MemoryPointer, or a CUresult int"},
    {NULL, NULL, 0, NULL},
};

static int exec_module(PyObject *m)
{
    if (pc_DevType == NULL && (pc_DevType = PyType_FromSpec(&pc_Dev_spec)) == NULL)
        return -1;
    if (pc_BinsType == NULL && (pc_BinsType = PyType_FromSpec(&pc_Bins_spec)) == NULL)
        return -1;
    if (pc_BlockType == NULL && (pc_BlockType = PyType_FromSpec(&pc_Block_spec)) == NULL)
        return -1;
    if (pc_AsyncBlockType == NULL && (pc_AsyncBlockType = PyType_FromSpec(&pc_AsyncBlock_spec)) == NULL)
        return -1;
    if (str_mem == NULL && ((str_mem = PyUnicode_InternFromString("mem")) == NULL ||
                            (str_ptr = PyUnicode_InternFromString("ptr")) == NULL ||
                            (str_device_id = PyUnicode_InternFromString("device_id")) == NULL))
        return -1;
    if (PyModule_AddObjectRef(m, "Dev", pc_DevType) < 0 || PyModule_AddObjectRef(m, "Bins", pc_BinsType) < 0 ||
        PyModule_AddObjectRef(m, "Block", pc_BlockType) < 0 ||
        PyModule_AddObjectRef(m, "AsyncBlock", pc_AsyncBlockType) < 0)
        return -1;
    if (pc_current_stream_init(m) < 0)
        return -1;
    return PyModule_AddIntConstant(m, "RECENT_CAP", RECENT_CAP);
}

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, exec_module}, {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_poolcore", "Free-block bookkeeping of cuarray's MemoryPool (see memory.py).",
    0, module_methods, module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__poolcore(void) { return PyModuleDef_Init(&module_def); }
