/* dev.c: one device's shared state, the pool's hold and the frees queued meanwhile (see poolcore.h). */
#include "poolcore.h"

/* -- Dev ----------------------------------------------------------------------------------- */
/* Merge the frees queued while held. Each queued entry's reference is dropped only after all
   edits are done: dropping the last one frees a Bins (C only, but let nothing run mid-edit). */
static int drain(DevObject *d)
{
    Py_ssize_t k, done = 0;
    int rc = 0;
    for (k = 0; k < d->npend; k++) {
        Pending *p = &d->pend[k];
        if (pc_reserve(p->bins, 1) < 0) {
            rc = -1;
            break;
        }
        pc_merge_free(p->bins, p->ptr, p->size);
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
    if (!PyArg_ParseTuple(args, "|O!", (PyTypeObject *)pc_DevType, &root))
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

PyType_Spec pc_Dev_spec = {"cuarray.cuda._poolcore.Dev", sizeof(DevObject), 0, Py_TPFLAGS_DEFAULT, Dev_slots};
