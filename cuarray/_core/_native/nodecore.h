/* cuarray._core._nodecore: what nodes.c (node fields, the trace's records) and lazyops.c (lazy
   mode's operators) share. Limited API 3.11. */
#ifndef CUARRAY_NODECORE_H
#define CUARRAY_NODECORE_H

#include "../../cuda/_native/limited_api.h" /* (Python.h: the limited API of 3.11) */
#include <stddef.h>
#include <structmember.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    /* (the order of `LAYOUTS["NodeFields"]` in nodecore.py, which `_NodeFields` in graph.py takes) */
    PyObject *kind, *args, *shape, *dtype, *attr, *value, *weak, *cost, *seg, *pos;
} NodeFields;

/* A trace's fields (`fusion.trace.Trace`'s base: the order of `LAYOUTS["TraceFields"]` in nodecore.py)
   and a LazyArray's (`fusion.lazy_array`'s base): read and written here without a name look-up. */
typedef struct {
    PyObject_HEAD
    PyObject *id, *ops, *leaves, *values, *by_value, *ordinal, *cacheable, *t0, *held, *expect;
} TraceFields;

typedef struct LazyFields {
    PyObject_HEAD
    PyObject *node;
    /* live.c: the `Live` set it is in (a strong reference, NULL when in none) and its neighbours
       there (borrowed: a member unlinks itself when it goes) */
    PyObject *owner;
    struct LazyFields *prev, *next;
} LazyFields;

/* Each field's index in the run from `id` on (the order of `nodecore.LAYOUTS` in Python) */
enum { TF_ID, TF_OPS, TF_LEAVES, TF_VALUES, TF_BY_VALUE, TF_ORDINAL, TF_CACHEABLE, TF_T0, TF_HELD, TF_EXPECT };

/* A thread's lazy-mode state's fields (`fusion.lazy_mode._State`'s base: the order of
   `LAYOUTS["StateFields"]` in nodecore.py), which every operator reads (live.c). */
typedef struct {
    PyObject_HEAD
    PyObject *live, *trace, *internal, *depth, *host, *plans; /* (the last three: a block's entry and exit, lazy_block.c) */
} StateFields;

enum { SF_LIVE, SF_TRACE, SF_INTERNAL, SF_DEPTH, SF_HOST, SF_PLANS };

/* The entries a trace expects (`Trace.expect`: its thread's last plan's), borrowed; NULL where none. */
PyObject *trace_expect(PyObject *trace);

/* PyObject_TypeCheck(o, base), answered first by the one class expected there (`exact`: the Python
   class built on `base`, held by the configure function that set it; NULL until then). A check
   PyType_IsSubtype answers walks the class's MRO, and the records make several per operation
   (1.7% of a cached 10-node evaluation, stubbed). */
#define IS_A(o, base, exact) (Py_TYPE(o) == (exact) || PyObject_TypeCheck((o), (base)))
/* The classes built on TraceFields and StateFields (`fusion.trace.Trace`, `lazy_mode._State`:
   `configure_trace`, `configure_lazy_ufunc`) */
extern PyTypeObject *trace_class, *state_class;

/* node->field = v, a new reference (the field was NULL: a node just allocated) */
#define SET(node, field, v)              \
    do {                                 \
        PyObject *v_ = (PyObject *)(v);  \
        Py_INCREF(v_);                   \
        (node)->field = v_;              \
    } while (0)

/* *field = v (a new reference taken here), the old one released last (its dealloc may run Python code) */
static inline void replace_field(PyObject **field, PyObject *v) {
    PyObject *old = *field;
    Py_INCREF(v);
    *field = v;
    Py_XDECREF(old);
}

/* *slots[i] = values[i] (i < n <= 8), each a new reference, the replaced ones released after all
   are set (a dealloc may run Python code): what each configure function does with what it keeps. */
static inline void replace_refs(PyObject **const slots[], PyObject *const values[], int n) {
    PyObject *old[8];
    for (int i = 0; i < n; i++) {
        Py_INCREF(values[i]);
        old[i] = *slots[i];
        *slots[i] = values[i];
    }
    for (int i = 0; i < n; i++)
        Py_XDECREF(old[i]);
}

/* Freed instances of one class kept for reuse: lazy mode makes and frees a node and a LazyArray
   for each operation (~60 of them a seed-logreg step), and a reuse skips the allocator's malloc,
   zeroing and GC link, and the free (~250 instructions an object, callgrind). Only instances of
   exactly `type` are kept (its `__basicsize__`: what is zeroed again on reuse; the fields past the
   object's header are all NULL once `clear` and the weak references' clearing have run); under
   the GIL, as everything here. `freelist_set` empties it for a new class (`configure`). */
#define FREE_MAX 256
typedef struct {
    PyTypeObject *type; /* (a strong reference: a kept instance's memory is freed through its class) */
    Py_ssize_t size;
    int n;
    PyObject *items[FREE_MAX];
} FreeList;

int freelist_set(FreeList *fl, PyTypeObject *type);

/* A new instance of `type` (a new reference, GC-tracked, its fields NULL): a kept one, or `alloc`'s. */
static inline PyObject *freelist_new(FreeList *fl, PyTypeObject *type, allocfunc alloc) {
    if (fl->n && type == fl->type) {
        PyObject *o = fl->items[--fl->n];
        memset((char *)o + sizeof(PyObject), 0, (size_t)(fl->size - (Py_ssize_t)sizeof(PyObject)));
        PyObject_Init(o, type); /* (a reference to the heap type, as its allocation takes) */
        PyObject_GC_Track(o);
        return o;
    }
    return alloc(type, 0);
}

/* A GC heap type's dealloc: untrack, `clear` its references, free (or keep it in `fl`, where
   given and of its class), release the type. */
static inline void gc_dealloc_kept(PyObject *self, inquiry clear, FreeList *fl) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    clear(self);
    if (fl && tp == fl->type && fl->n < FREE_MAX)
        fl->items[fl->n++] = self;
    else
        ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

static inline void gc_dealloc(PyObject *self, inquiry clear) { gc_dealloc_kept(self, clear, NULL); }

/* The GC slots (prefix_traverse, prefix_clear, prefix_dealloc) of a type whose references are the
   N consecutive PyObject* fields from FIRST(o) on (NodeFields, TraceFields, StateFields); KEPT: the
   FreeList* its freed instances go to, or NULL. */
#define FIELD_RUN_GC(prefix, FIRST, N, KEPT)                                       \
    static int prefix##_traverse(PyObject *self, visitproc visit, void *arg) { \
        PyObject **f = FIRST(self);                                          \
        for (int i = 0; i < (N); i++)                                        \
            Py_VISIT(f[i]);                                                  \
        Py_VISIT((PyObject *)Py_TYPE(self)); /* (a heap type's instances reference it) */ \
        return 0;                                                            \
    }                                                                        \
    static int prefix##_clear(PyObject *self) {                              \
        PyObject **f = FIRST(self);                                          \
        for (int i = 0; i < (N); i++)                                        \
            Py_CLEAR(f[i]);                                                  \
        return 0;                                                            \
    }                                                                        \
    static void prefix##_dealloc(PyObject *self) { gc_dealloc_kept(self, prefix##_clear, (KEPT)); }

/* nodes.c: the Node class (`configure`), its allocator, interned names and constants */
extern PyTypeObject *node_type, *nodefields_type, *tracefields_type, *lazyfields_type, *statefields_type;
extern allocfunc node_alloc;
/* A new Node (`node_type`), its fields NULL: a freed one kept (`nodes`), else node_alloc's. */
extern FreeList freed_nodes;
#define NEW_NODE() ((NodeFields *)freelist_new(&freed_nodes, node_type, node_alloc))
/* live.c: LazyArrays (`lazy_type`, configure_lazy) freed and kept */
extern FreeList freed_lazy;
extern PyObject *s_ufunc, *s_scalar, *s_a, *s_ops, *s_leaves, *s_values, *s_id, *empty, *zero, *one;

/* The field `which` (TF_*) of a trace, a new reference: from the C struct where `trace` is a
   TraceFields with it set, else by name (NULL with an error set where it has none). */
PyObject *trace_get(PyObject *trace, int which);

/* `Trace.ufunc_scalar(trace, attr, dtype, x, v, t, reflected)` and `Trace.ufunc(trace, attr,
   dtype, shape, args)` (the module functions `ufunc_scalar`, `ufunc`). */
PyObject *nc_ufunc_scalar(PyObject *mod, PyObject *const *a, Py_ssize_t na);
PyObject *nc_ufunc(PyObject *mod, PyObject *const *a, Py_ssize_t na);
int trace_lists(PyObject *trace, PyObject **ops, PyObject **leaves, PyObject **values);
/* The entry ("a", dtype, shape) the expected entries `expect` hold at `k` (borrowed), or NULL. */
PyObject *expected_input(PyObject *expect, Py_ssize_t k, PyObject *dtype, PyObject *shape);
/* Whether `Trace._leaf` of the node `o` is a computed node's input entry, and that record (1; 0
   where the trace is not a TraceFields: the Python method takes it; -1 with an error set). */
int computed_leaf(PyObject *o);
int leaf_computed(PyObject *trace, PyObject *tid, PyObject *o);
/* `Trace.scalar(trace, v, t)`: the recorded node of the Python scalar `v` of type `t` (new reference). */
PyObject *nc_scalar(PyObject *trace, PyObject *v, PyObject *t);

/* lazyops.c: its types and functions added to the module (0, or -1 with an error set) */
int nc_lazyops_init(PyObject *module);

/* records.c: `record_class(name, names)`, a base class of up to RECORD_MAX object fields read by
   index from C (RECORD_FIELDS(o)[i]; the names are the class's `_fields`), likewise */
#define RECORD_MAX 16
typedef struct {
    PyObject_HEAD
    PyObject *f[RECORD_MAX];
} Record;
#define RECORD_FIELDS(o) (((Record *)(o))->f)
int nc_records_init(PyObject *module);
/* Whether `t` is, or is built on, a class `record_class` made */
int is_record_class(PyTypeObject *t);

/* steady.c: `steady_finish` (a loop body's evaluation in its steady state) and its configure function, likewise */
int nc_steady_init(PyObject *module);

/* elementwise_run.c: `elementwise_run(step, slots)` (a fused elementwise step's output and launch)
   and its configure function, likewise; steady.c calls `elementwise_run` directly, and
   `elementwise_step` says whether a step is of the class it was configured with */
int nc_elementwise_run_init(PyObject *module);
PyObject *elementwise_run(PyObject *step, PyObject *slots);
int elementwise_step(PyObject *step);

/* `mod.<name>` (a new reference, or NULL with an error set): for a module, its global read from its
   dict (~100 instructions; a module attribute costs ~450, the module type's look-up first), else,
   and where the dict lacks it (a module `__getattr__`), the attribute. */
static inline PyObject *module_attr(PyObject *mod, PyObject *name) {
    if (PyModule_CheckExact(mod)) {
        PyObject *d = PyModule_GetDict(mod), *v = d ? PyDict_GetItemWithError(d, name) : NULL; /* (borrowed) */
        if (v) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred())
            return NULL;
    }
    return PyObject_GetAttr(mod, name);
}

/* lazy_block.c: `LazyBlock` (`with cuarray.lazy():`'s entry and exit) and its configure function, likewise */
int nc_lazy_block_init(PyObject *module);

/* leaf_class.c: `leaf_class(kind, methods)` (the Node and LazyArray classes over their fields), likewise */
int nc_leaf_class_init(PyObject *module);

/* ufunccall.c: `UfuncCall` (the ufunc call's dispatch point) and its configure function, likewise */
int nc_ufunccall_init(PyObject *module);

/* threadlocal.c: `thread_state`, `configure_tracing`, `install_tracer`, `uninstall_tracer`, likewise */
int nc_threadlocal_init(PyObject *module);

/* live.c: LazyFields and Live (added to the module: 0, or -1 with an error set); `live_type`;
   `live_add(live, x)`: link the LazyArray `x` into the Live set `live` (0, or -1 with an error set). */
int nc_live_init(PyObject *module);
extern PyTypeObject *live_type;
int live_add(PyObject *live, PyObject *x);
/* The field `which` (SF_*) of a thread's lazy state, a new reference: from the C struct where `st`
   is a StateFields with it set, else by name (NULL with an error set where it has none). */
PyObject *state_get(PyObject *st, int which);
/* st.<field `which`> = v: into the C struct where `st` is a StateFields, else by name (0, or -1 with an error set) */
int state_set(PyObject *st, int which, PyObject *v);

#endif
