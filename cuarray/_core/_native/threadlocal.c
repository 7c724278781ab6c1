/* Thread-local state read and written from C: lazy mode's thread state, the attributes of a
   `threading.local` (cuda/_native/tls_dict.h: the thread's own dict kept per thread, ~490
   instructions a read less; a replayed seed-logreg step made 20 of them), and
   `tracing.install` / `uninstall` (the tracer switch every `with lazy():` block makes twice). */
#include <string.h>

#include "lazyops.h"
#include "../../cuda/_native/tls_dict.h"

static PyObject *s_st, *s_tracer_name;
static PyObject *tracing_state, *tracing_active; /* `tracing.state`, `tracing.active` (configure_tracing) */

/* The calling OS thread's answer to `thread_state`, kept in a C thread-local (valid as tls_dict.h's
   cache is: the same PyThreadState and id; borrowed: the thread state's dict holds it). */
typedef struct {
    PyThreadState *ts;
    uint64_t id;
    PyObject *st_tls, *st;
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

PyObject *local_attr(PyObject *tls, PyObject *name) { return tls_attr(tls, name); }

#define local_set tls_set

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
    if (!(s_st = PyUnicode_InternFromString("st")) || !(s_tracer_name = PyUnicode_InternFromString("tracer")))
        return -1;
    return PyModule_AddFunctions(m, threadlocal_methods);
}
