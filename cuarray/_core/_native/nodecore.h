/* cuarray._core._nodecore: what nodes.c (node fields, the trace's records) and lazyops.c (lazy
   mode's operators) share. Limited API 3.11. */
#ifndef CUARRAY_NODECORE_H
#define CUARRAY_NODECORE_H

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    /* (the order of `_NodeFields.__slots__` in graph.py) */
    PyObject *kind, *args, *shape, *dtype, *attr, *value, *weak, *cost, *seg, *pos;
} NodeFields;

/* nodes.c: the Node class (`configure`), its allocator, interned names and constants */
extern PyTypeObject *node_type;
extern allocfunc node_alloc;
extern PyObject *s_ufunc, *s_scalar, *s_ops, *s_leaves, *s_values, *s_id, *empty, *zero, *one;

/* `Trace.ufunc_scalar(trace, attr, dtype, x, v, t, reflected)` and `Trace.ufunc(trace, attr,
   dtype, shape, args)` (the module functions `ufunc_scalar`, `ufunc`). */
PyObject *nc_ufunc_scalar(PyObject *mod, PyObject *const *a, Py_ssize_t na);
PyObject *nc_ufunc(PyObject *mod, PyObject *const *a, Py_ssize_t na);
int trace_lists(PyObject *trace, PyObject **ops, PyObject **leaves, PyObject **values);

/* lazyops.c: its types and functions added to the module (0, or -1 with an error set) */
int nc_lazyops_init(PyObject *module);

#endif
