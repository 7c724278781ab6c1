/* Thread-local state read and written from C: lazy mode's thread state, the attributes of a
   `threading.local`, and `tracing.install` / `uninstall` (the tracer switch every `with lazy():`
   block makes twice).

   A read of a `threading.local`'s attribute costs ~490 instructions on CPython 3.11 (callgrind,
   device stubbed): the thread's own dict found, the name compared with "__dict__", the class's MRO
   searched, then that dict. A replayed seed-logreg step made 20 of them (issue 57). Here the
   thread's own dict of a `threading.local` (`tls.__dict__`: the same object for the thread's
   life) is read once per thread and kept in the thread's state dict (PyThreadState_GetDict, "for
   extensions": it goes with the thread, and no other thread can see it), under `s_local_dicts`
   as {tls: its dict}. A name is then one look-up in that dict; one not in it (a class default such
   as `tracing._State.tracer`, or a missing name) is read as Python reads it. A write goes into
   that dict, as `threading.local.__setattr__` does for a name that is not a data descriptor of
   the class (the only names written here: `tracer`). */
#include <string.h>

#include "lazyops.h"

static PyObject *s_st, *s_local_dicts, *s___dict__, *s_tracer_name;
static PyObject *tracing_state, *tracing_active; /* `tracing.state`, `tracing.active` (configure_tracing) */

/* The calling OS thread's answers to `thread_state` and `own_dict`, kept in a C thread-local:
   each of those calls made two or three dict look-ups (the thread's state dict, then the entry);
   here it is two calls and a comparison. They are valid while the Python thread state is the one
   they were found in: the same PyThreadState and the same id (a thread state made later at the
   same address, in this OS thread, has another id; one of another interpreter another address
   while both live). Borrowed: the thread state's dict holds what they point to (and, as its keys,
   each `tls`, so no other object takes that address) until that thread state goes. */
#define CACHED_LOCALS 4
typedef struct {
    PyThreadState *ts;
    uint64_t id;
    PyObject *st_tls, *st;                                 /* thread_state's */
    PyObject *tls[CACHED_LOCALS], *own[CACHED_LOCALS];    /* own_dict's */
} ThreadCache;
static _Thread_local ThreadCache tcache;

static ThreadCache *thread_cache(void) {
    PyThreadState *ts = PyThreadState_Get();
    uint64_t id = PyThreadState_GetID(ts);
    if (tcache.ts != ts || tcache.id != id) {
        memset(&tcache, 0, sizeof tcache);
        tcache.ts = ts;
        tcache.id = id;
    }
    return &tcache;
}

/* `tls.st` (a new reference): the calling thread's lazy-mode state, read once per thread and kept
   in the thread's state dict keyed by `tls` (`_threads.st` is set once per thread), and in the
   thread cache above. */
PyObject *thread_state(PyObject *tls) {
    ThreadCache *c = thread_cache();
    if (c->st_tls == tls) {
        Py_INCREF(c->st);
        return c->st;
    }
    PyObject *d = PyThreadState_GetDict(), *st;
    if (d) {
        st = PyDict_GetItemWithError(d, tls);
        if (st) {
            c->st_tls = tls;
            c->st = st;
            Py_INCREF(st);
            return st;
        }
        if (PyErr_Occurred())
            return NULL;
    }
    if ((st = PyObject_GetAttr(tls, s_st)) && d && PyDict_SetItem(d, tls, st) < 0) {
        Py_DECREF(st);
        return NULL;
    }
    return st;
}

/* The calling thread's own dict of the threading.local `tls` (borrowed), or NULL: with an error
   set, or without one where there is no thread state dict or `tls.__dict__` is not a dict. */
static PyObject *own_dict(PyObject *tls) {
    ThreadCache *c = thread_cache();
    for (int i = 0; i < CACHED_LOCALS && c->tls[i]; i++)
        if (c->tls[i] == tls)
            return c->own[i];
    PyObject *td = PyThreadState_GetDict(), *dicts, *own;
    if (!td)
        return NULL;
    if (!(dicts = PyDict_GetItemWithError(td, s_local_dicts))) {
        if (PyErr_Occurred() || !(dicts = PyDict_New()))
            return NULL;
        int rc = PyDict_SetItem(td, s_local_dicts, dicts);
        Py_DECREF(dicts); /* (the thread's state dict holds it) */
        if (rc < 0)
            return NULL;
    }
    if (!PyDict_Check(dicts))
        return NULL;
    if (!(own = PyDict_GetItemWithError(dicts, tls))) {
        if (PyErr_Occurred() || !(own = PyObject_GetAttr(tls, s___dict__)))
            return NULL;
        int is_dict = PyDict_Check(own), rc = is_dict ? PyDict_SetItem(dicts, tls, own) : 0;
        Py_DECREF(own); /* (`tls` holds it for this thread, and `dicts` now too; not read again unless kept) */
        if (rc < 0 || !is_dict)
            return NULL;
    }
    for (int i = 0; i < CACHED_LOCALS; i++)
        if (!c->tls[i]) { /* (kept where there is room: `dicts` holds `tls` and `own`) */
            c->tls[i] = tls;
            c->own[i] = own;
            break;
        }
    return own;
}

PyObject *local_attr(PyObject *tls, PyObject *name) {
    PyObject *own = own_dict(tls), *v;
    if (!own && PyErr_Occurred())
        return NULL;
    if (own) {
        if ((v = PyDict_GetItemWithError(own, name))) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred())
            return NULL;
    }
    return PyObject_GetAttr(tls, name);
}

/* tls.<name> = v (0, or -1 with an error set) */
static int local_set(PyObject *tls, PyObject *name, PyObject *v) {
    PyObject *own = own_dict(tls);
    if (!own && PyErr_Occurred())
        return -1;
    return own ? PyDict_SetItem(own, name, v) : PyObject_SetAttr(tls, name, v);
}

/* thread_state(tls): `tls.st`, lazy mode's state of the calling thread */
static PyObject *thread_state_fn(PyObject *mod, PyObject *tls) { return thread_state(tls); }

/* configure_tracing(state, active): `tracing.state` (a threading.local) and `tracing.active` */
static PyObject *configure_tracing(PyObject *mod, PyObject *args) {
    PyObject *state, *active;
    if (!PyArg_ParseTuple(args, "OO!", &state, &PyList_Type, &active))
        return NULL;
    PyObject **const slots[2] = {&tracing_state, &tracing_active};
    PyObject *const values[2] = {state, active};
    replace_refs(slots, values, 2);
    Py_RETURN_NONE;
}

/* install_tracer(tracer): `tracing.install`, step for step */
static PyObject *install_tracer(PyObject *mod, PyObject *tracer) {
    if (!tracing_state) {
        PyErr_SetString(PyExc_RuntimeError, "install_tracer: configure_tracing() first");
        return NULL;
    }
    PyObject *prev = local_attr(tracing_state, s_tracer_name);
    if (!prev || local_set(tracing_state, s_tracer_name, tracer) < 0 ||
        (prev == Py_None && PyList_Append(tracing_active, Py_None) < 0)) {
        Py_XDECREF(prev);
        return NULL;
    }
    return prev;
}

/* uninstall_tracer(prev): `tracing.uninstall`, step for step */
static PyObject *uninstall_tracer(PyObject *mod, PyObject *prev) {
    if (!tracing_state) {
        PyErr_SetString(PyExc_RuntimeError, "uninstall_tracer: configure_tracing() first");
        return NULL;
    }
    PyObject *cur = local_attr(tracing_state, s_tracer_name);
    if (!cur)
        return NULL;
    int pop = cur != Py_None && prev == Py_None;
    Py_DECREF(cur);
    if (pop) { /* (`active.pop()`: an empty list raises as it does) */
        Py_ssize_t n = PyList_Size(tracing_active);
        if (n == 0) {
            PyErr_SetString(PyExc_IndexError, "pop from empty list");
            return NULL;
        }
        if (PyList_SetSlice(tracing_active, n - 1, n, NULL) < 0)
            return NULL;
    }
    if (local_set(tracing_state, s_tracer_name, prev) < 0)
        return NULL;
    Py_RETURN_NONE;
}

PyObject *tracer_install(PyObject *tracer) { return install_tracer(NULL, tracer); }

int tracer_uninstall(PyObject *prev) {
    PyObject *r = uninstall_tracer(NULL, prev);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyMethodDef threadlocal_methods[] = {
    {"thread_state", thread_state_fn, METH_O, "thread_state(tls) -> tls.st, kept per thread"},
    {"configure_tracing", configure_tracing, METH_VARARGS, "configure_tracing(tracing.state, tracing.active)"},
    {"install_tracer", install_tracer, METH_O, "install_tracer(tracer) -> prev: tracing.install"},
    {"uninstall_tracer", uninstall_tracer, METH_O, "uninstall_tracer(prev): tracing.uninstall"},
    {NULL, NULL, 0, NULL}};

int nc_threadlocal_init(PyObject *m) {
    if (!(s_st = PyUnicode_InternFromString("st")) ||
        !(s_local_dicts = PyUnicode_InternFromString("cuarray._nodecore.local_dicts")) ||
        !(s___dict__ = PyUnicode_InternFromString("__dict__")) ||
        !(s_tracer_name = PyUnicode_InternFromString("tracer")))
        return -1;
    return PyModule_AddFunctions(m, threadlocal_methods);
}
