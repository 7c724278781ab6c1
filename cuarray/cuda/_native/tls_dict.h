/* A `threading.local`'s attribute read from C without its ~490 instructions (CPython 3.11,
   callgrind: the thread's own dict found, the name compared with "__dict__", the class's MRO
   searched, then that dict). The thread's own dict of a `threading.local` (`tls.__dict__`: the
   same object for the thread's life) is read once per thread and kept in the thread's state dict
   (PyThreadState_GetDict, "for extensions": it goes with the thread, and no other thread can see
   it) under "cuarray.local_dicts" as {tls: its dict}, and in a C thread-local cache. A name is
   then one look-up in that dict; one not in it (a class default, a missing name) is read as
   Python reads it. Shared by the C extensions (each translation unit that includes this has its
   own cache; the thread state's dict is common to them).

   The cache is valid while the Python thread state is the one it was filled in: the same
   PyThreadState and the same id (a thread state made later at the same address, in this OS
   thread, has another id; one of another interpreter another address while both live). Borrowed:
   the thread state's dict holds what it points to (and, as its keys, each `tls`, so no other
   object takes that address) until that thread state goes. Include after limited_api.h. */
#ifndef CUARRAY_TLS_DICT_H
#define CUARRAY_TLS_DICT_H
#include <stdint.h>
#include <string.h>

#define TLS_CACHED 4
typedef struct {
    PyThreadState *ts;
    uint64_t id;
    PyObject *tls[TLS_CACHED], *own[TLS_CACHED];
} TlsDictCache;
static _Thread_local TlsDictCache tls_dict_cache;
static PyObject *tls_dicts_key, *tls_dunder_dict;

/* The calling thread's own dict of the threading.local `tls` (borrowed), or NULL: with an error
   set, or without one where there is no thread state dict or `tls.__dict__` is not a dict. */
static inline PyObject *tls_own_dict(PyObject *tls) {
    PyThreadState *ts = PyThreadState_Get();
    uint64_t id = PyThreadState_GetID(ts);
    TlsDictCache *c = &tls_dict_cache;
    if (c->ts != ts || c->id != id) {
        memset(c, 0, sizeof *c);
        c->ts = ts;
        c->id = id;
    }
    for (int i = 0; i < TLS_CACHED && c->tls[i]; i++)
        if (c->tls[i] == tls)
            return c->own[i];
    if (!tls_dicts_key && (!(tls_dicts_key = PyUnicode_InternFromString("cuarray.local_dicts")) ||
                           !(tls_dunder_dict = PyUnicode_InternFromString("__dict__"))))
        return NULL;
    PyObject *td = PyThreadState_GetDict(), *dicts, *own;
    if (!td)
        return NULL;
    if (!(dicts = PyDict_GetItemWithError(td, tls_dicts_key))) {
        if (PyErr_Occurred() || !(dicts = PyDict_New()))
            return NULL;
        int rc = PyDict_SetItem(td, tls_dicts_key, dicts);
        Py_DECREF(dicts); /* (the thread's state dict holds it) */
        if (rc < 0)
            return NULL;
    }
    if (!PyDict_Check(dicts))
        return NULL;
    if (!(own = PyDict_GetItemWithError(dicts, tls))) {
        if (PyErr_Occurred() || !(own = PyObject_GetAttr(tls, tls_dunder_dict)))
            return NULL;
        int is_dict = PyDict_Check(own), rc = is_dict ? PyDict_SetItem(dicts, tls, own) : 0;
        Py_DECREF(own); /* (`tls` holds it for this thread, and `dicts` now too) */
        if (rc < 0 || !is_dict)
            return NULL;
    }
    for (int i = 0; i < TLS_CACHED; i++)
        if (!c->tls[i]) { /* (kept where there is room: `dicts` holds `tls` and `own`) */
            c->tls[i] = tls;
            c->own[i] = own;
            break;
        }
    return own;
}

/* `tls.<name>` (a new reference, or NULL with an error set): from the thread's own dict, else as
   Python reads it (a class default, a missing name's AttributeError). */
static inline PyObject *tls_attr(PyObject *tls, PyObject *name) {
    PyObject *own = tls_own_dict(tls), *v;
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

/* tls.<name> = v (0, or -1 with an error set): into the thread's own dict, as
   `threading.local.__setattr__` does for a name that is not a data descriptor of the class. */
static inline int tls_set(PyObject *tls, PyObject *name, PyObject *v) {
    PyObject *own = tls_own_dict(tls);
    if (!own && PyErr_Occurred())
        return -1;
    return own ? PyDict_SetItem(own, name, v) : PyObject_SetAttr(tls, name, v);
}

#endif
