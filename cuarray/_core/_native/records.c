/* Record classes with C fields: `record_class(name, names)` makes the base of a Python class whose
   instances hold up to RECORD_MAX object references. Python reads and writes them by name as it
   does `__slots__` (member descriptors by offset: the same speed, an unset one raises
   AttributeError); C reads and writes them by index (`RECORD_FIELDS`), without a name look-up.
   The class keeps its field names as `_fields`: a C reader checks them once, where it is configured.

   Why: steady.c reads and writes a replayed step's plan, graph entry and evaluation log ~45 times
   a step; as attributes that was ~8k of the step's 170k instructions (callgrind, stubbed). */
#include <stdio.h>

#include "lazyops.h"

FIELD_RUN_GC(record, RECORD_FIELDS, RECORD_MAX, NULL)

/* Whether `t` is, or is built on, a class made here (one whose dealloc is record_dealloc in its MRO) */
int is_record_class(PyTypeObject *t) {
    PyObject *mro = PyObject_GetAttrString((PyObject *)t, "__mro__");
    int found = 0;
    for (Py_ssize_t i = 0; mro && PyTuple_Check(mro) && i < PyTuple_Size(mro) && !found; i++) {
        PyObject *c = PyTuple_GetItem(mro, i);
        found = PyType_Check(c) && (PyType_GetFlags((PyTypeObject *)c) & Py_TPFLAGS_HEAPTYPE) &&
                PyType_GetSlot((PyTypeObject *)c, Py_tp_dealloc) == (void *)record_dealloc;
    }
    Py_XDECREF(mro);
    PyErr_Clear();
    return found;
}

/* record_class(name, names) -> a new base class with these fields, in this order */
static PyObject *record_class(PyObject *mod, PyObject *args) {
    const char *name;
    PyObject *names;
    if (!PyArg_ParseTuple(args, "sO!", &name, &PyTuple_Type, &names))
        return NULL;
    Py_ssize_t n = PyTuple_Size(names);
    if (n < 1 || n > RECORD_MAX) {
        PyErr_Format(PyExc_ValueError, "record_class: 1 to %d field names", RECORD_MAX);
        return NULL;
    }
    /* The class's name and member table live as long as the process: the type and its member
       descriptors point into them (a few classes, made once at import). */
    size_t len = strlen(name) + sizeof("cuarray._core._nodecore.");
    char *full = PyMem_Malloc(len);
    PyMemberDef *members = PyMem_Calloc((size_t)n + 1, sizeof(PyMemberDef));
    if (!full || !members) {
        PyMem_Free(full);
        PyMem_Free(members);
        return PyErr_NoMemory();
    }
    snprintf(full, len, "cuarray._core._nodecore.%s", name);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyTuple_GetItem(names, i);
        Py_ssize_t sl;
        const char *u = PyUnicode_Check(s) ? PyUnicode_AsUTF8AndSize(s, &sl) : NULL;
        char *copy = u ? PyMem_Malloc((size_t)sl + 1) : NULL;
        if (!copy) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, u ? "record_class: out of memory" : "record_class: names are str");
            return NULL; /* (what was allocated stays: a failed import) */
        }
        memcpy(copy, u, (size_t)sl + 1);
        members[i] = (PyMemberDef){copy, T_OBJECT_EX, offsetof(Record, f) + (Py_ssize_t)i * (Py_ssize_t)sizeof(PyObject *),
                                   0, NULL};
    }
    PyType_Slot slots[] = {{Py_tp_doc, "A record's fields as a C struct (records.c)."},
                           {Py_tp_traverse, record_traverse},
                           {Py_tp_clear, record_clear},
                           {Py_tp_dealloc, record_dealloc},
                           {Py_tp_members, members},
                           {0, NULL}};
    PyType_Spec spec = {full, sizeof(Record), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, slots};
    PyObject *cls = PyType_FromSpec(&spec);
    if (cls && PyObject_SetAttrString(cls, "_fields", names) < 0)
        Py_CLEAR(cls);
    return cls;
}

static PyMethodDef record_methods[] = {
    {"record_class", record_class, METH_VARARGS,
     "record_class(name, names) -> a base class whose instances hold these fields as C members"},
    {NULL, NULL, 0, NULL}};

int nc_records_init(PyObject *m) { return PyModule_AddFunctions(m, record_methods); }
