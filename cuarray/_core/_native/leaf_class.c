/* cuarray._core._nodecore.leaf_class: lazy mode's Node and LazyArray classes made here, over
   their C field structs, so that an instance is freed by the fields' own dealloc.

   Why: a class made by a `class` statement gets CPython's generic dealloc (subtype_dealloc), which
   for every instance untracks it, enters the trashcan, looks for finalizers, clears the weak
   references, tracks it again and calls the base's dealloc. Lazy mode makes and frees a Node and a
   LazyArray for each operation: in a cached 10-node evaluation (device stubbed, callgrind) that
   generic step was ~4k of the build's ~42k instructions. Here the class's dealloc clears the weak
   references (where there are any) and calls the fields' dealloc, which keeps the instance for
   reuse (nodecore.h's FreeList).

   `leaf_class(kind, methods)`: the class over "node" (NodeFields) or "lazy" (LazyFields), with the
   Python class `methods` (`__slots__ = ()`: its methods, properties, docstring) before the fields'
   base in its MRO, as `class Node(methods, NodeFields)` would have it: the class's slots (init,
   repr, ...) come from `methods`, its fields and number slots from the base, and its instances
   take weak references (`__weakref__`). Its name is `name`, its `__doc__` the methods'. Classes
   built on it by a `class` statement work as on any base (they get the generic dealloc again).
   Limited API 3.11, as the rest of the module. */
#include "nodecore.h"

typedef struct {
    NodeFields fields;
    PyObject *weaklist;
} NodeLeaf;

typedef struct {
    LazyFields fields;
    PyObject *weaklist;
} LazyLeaf;

/* The fields' own dealloc, traverse and clear (NodeFields', LazyFields': read from the base when
   a class is made; a GC class made from a spec names its traverse, as it does not inherit it) */
typedef struct {
    destructor dealloc;
    traverseproc traverse;
    inquiry clear;
} FieldsGC;
static FieldsGC node_fields, lazy_fields;

static int node_leaf_traverse(PyObject *self, visitproc visit, void *arg) {
    return node_fields.traverse(self, visit, arg);
}
static int lazy_leaf_traverse(PyObject *self, visitproc visit, void *arg) {
    return lazy_fields.traverse(self, visit, arg);
}
static int node_leaf_clear(PyObject *self) { return node_fields.clear(self); }
static int lazy_leaf_clear(PyObject *self) { return lazy_fields.clear(self); }

/* Weak references first (their callbacks may run Python code: the instance is untracked, as the
   generic dealloc has it), then the fields' dealloc, which clears the fields and keeps or frees it. */
static inline void clear_weak(PyObject *self, PyObject *weaklist) {
    if (weaklist) {
        PyObject_GC_UnTrack(self);
        PyObject_ClearWeakRefs(self);
    }
}

static void node_leaf_dealloc(PyObject *self) {
    clear_weak(self, ((NodeLeaf *)self)->weaklist);
    node_fields.dealloc(self);
}

static void lazy_leaf_dealloc(PyObject *self) {
    clear_weak(self, ((LazyLeaf *)self)->weaklist);
    lazy_fields.dealloc(self);
}

static PyMemberDef node_leaf_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(NodeLeaf, weaklist), READONLY, NULL}, {NULL, 0, 0, 0, NULL}};
static PyMemberDef lazy_leaf_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(LazyLeaf, weaklist), READONLY, NULL}, {NULL, 0, 0, 0, NULL}};

static PyType_Slot node_leaf_slots[] = {{Py_tp_dealloc, node_leaf_dealloc},
                                        {Py_tp_traverse, node_leaf_traverse},
                                        {Py_tp_clear, node_leaf_clear},
                                        {Py_tp_members, node_leaf_members},
                                        {0, NULL}};
static PyType_Slot lazy_leaf_slots[] = {{Py_tp_dealloc, lazy_leaf_dealloc},
                                        {Py_tp_traverse, lazy_leaf_traverse},
                                        {Py_tp_clear, lazy_leaf_clear},
                                        {Py_tp_members, lazy_leaf_members},
                                        {0, NULL}};

#define LEAF_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC)
static PyType_Spec node_leaf_spec = {"cuarray._core.fusion.graph.Node", sizeof(NodeLeaf), 0, LEAF_FLAGS,
                                     node_leaf_slots};
static PyType_Spec lazy_leaf_spec = {"cuarray._core.fusion.lazy_array.LazyArray", sizeof(LazyLeaf), 0, LEAF_FLAGS,
                                     lazy_leaf_slots};

static PyObject *leaf_class(PyObject *mod, PyObject *args) {
    const char *kind;
    PyObject *methods, *base, *bases, *cls, *doc;
    PyType_Spec *spec;
    FieldsGC *gc;
    if (!PyArg_ParseTuple(args, "sO!", &kind, &PyType_Type, &methods))
        return NULL;
    if (strcmp(kind, "node") == 0 && nodefields_type) {
        spec = &node_leaf_spec, base = (PyObject *)nodefields_type, gc = &node_fields;
    } else if (strcmp(kind, "lazy") == 0 && lazyfields_type) {
        spec = &lazy_leaf_spec, base = (PyObject *)lazyfields_type, gc = &lazy_fields;
    } else {
        PyErr_Format(PyExc_ValueError, "leaf_class(kind, methods): kind is 'node' or 'lazy', not %R",
                     PyTuple_GetItem(args, 0));
        return NULL;
    }
    gc->dealloc = (destructor)PyType_GetSlot((PyTypeObject *)base, Py_tp_dealloc);
    gc->traverse = (traverseproc)PyType_GetSlot((PyTypeObject *)base, Py_tp_traverse);
    gc->clear = (inquiry)PyType_GetSlot((PyTypeObject *)base, Py_tp_clear);
    if (!gc->dealloc || !gc->traverse || !gc->clear) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_SystemError, "leaf_class: the fields' class has no GC slots");
        return NULL;
    }
    if (!(bases = PyTuple_Pack(2, methods, base)))
        return NULL;
    cls = PyType_FromSpecWithBases(spec, bases);
    Py_DECREF(bases);
    if (!cls)
        return NULL;
    doc = PyObject_GetAttrString(methods, "__doc__");
    if (!doc || PyObject_SetAttrString(cls, "__doc__", doc) < 0) {
        Py_XDECREF(doc);
        Py_DECREF(cls);
        return NULL;
    }
    Py_DECREF(doc);
    return cls;
}

static PyMethodDef leaf_methods[] = {
    {"leaf_class", leaf_class, METH_VARARGS,
     "leaf_class(kind, methods) -> type: lazy mode's Node ('node') or LazyArray ('lazy') class over its C fields, "
     "`methods` before them in the MRO, freed by the fields' own dealloc"},
    {NULL, NULL, 0, NULL}};

int nc_leaf_class_init(PyObject *m) { return PyModule_AddFunctions(m, leaf_methods); }
