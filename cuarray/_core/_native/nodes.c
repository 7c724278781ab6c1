/* cuarray._core._nodecore: lazy mode's node fields as a C struct, and the trace's commonest
   records written into them directly (optional; `fusion/graph.py` falls back to a pure-Python
   base with the same slots, CUARRAY_PURE_PYTHON_NODES=1 forces it).

   `NodeFields` is the base of `fusion.graph.Node`: its ten fields are members by offset, so
   Python code reads and writes them as it does `__slots__` (the same member descriptors, as
   fast), and the functions below write them without an attribute look-up each.

   `ufunc_scalar(trace, attr, dtype, x, v, t, reflected)` and `ufunc(trace, attr, dtype, shape,
   args)` are `trace.Trace.ufunc_scalar` / `Trace.ufunc` for their common case (every operand a
   Node recorded in `trace`): the same nodes, fields and entries, in the same order. Anything
   else is handed to those Python methods (given to `configure`), which stay the reference
   (tests/_core/test_fusion_nodecore_cpu.py compares the two). Measured with the device stubbed:
   `Trace.ufunc_scalar` 0.39 us in Python, 0.22 us here.

   lazyops.c (same module) builds on these: lazy mode's operators as one C call each.
   Limited API 3.11 (one abi3 build for every CPython >= 3.11). */
#include "nodecore.h"

#define N_FIELDS 10
#define FIELDS(o) (&((NodeFields *)(o))->kind)

FreeList freed_nodes;
FIELD_RUN_GC(fields, FIELDS, N_FIELDS, &freed_nodes)

#define MEMBER(name) {#name, T_OBJECT_EX, offsetof(NodeFields, name), 0, NULL}
static PyMemberDef fields_members[] = {MEMBER(kind), MEMBER(args),  MEMBER(shape), MEMBER(dtype), MEMBER(attr),
                                       MEMBER(value), MEMBER(weak), MEMBER(cost),  MEMBER(seg),   MEMBER(pos),
                                       {NULL, 0, 0, 0, NULL}};

static PyType_Slot fields_slots[] = {
    {Py_tp_doc, "A graph node's fields (kind, args, shape, dtype, attr, value, weak, cost, seg, pos) as a C struct."},
    {Py_tp_traverse, fields_traverse},
    {Py_tp_clear, fields_clear},
    {Py_tp_dealloc, fields_dealloc},
    {Py_tp_members, fields_members},
    {0, NULL}};

static PyType_Spec fields_spec = {"cuarray._core._nodecore.NodeFields", sizeof(NodeFields), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, fields_slots};

/* -- TraceFields: the base of fusion.trace.Trace (LazyFields, LazyArray's: live.c) ---------------- */
#define TRACE_FIELDS 10
#define TFIELDS(o) (&((TraceFields *)(o))->id)

FIELD_RUN_GC(trace, TFIELDS, TRACE_FIELDS, NULL)

/* `Trace(expect=None)`: `_TraceFields.__init__` (trace.py) step for step, the clock and the id
   counter given by `configure_trace`. Made at every entry into lazy mode and every evaluation
   mid-body: 0.44 us in Python, 0.2 here (stubbed). */
static PyObject *trace_clock, *trace_ids, *s_expect;

static int trace_init(PyObject *self, PyObject *args, PyObject *kw) {
    Py_ssize_t na = PyTuple_Check(args) ? PyTuple_Size(args) : -1, nk = kw ? PyDict_Size(kw) : 0;
    PyObject *expect = na == 1 ? PyTuple_GetItem(args, 0) : Py_None;
    if (na == 0 && nk == 1 && (expect = PyDict_GetItemWithError(kw, s_expect)))
        nk = 0;
    if (na < 0 || na > 1 || nk || !expect) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "Trace(expect=None)");
        return -1;
    }
    if (!trace_clock) {
        PyErr_SetString(PyExc_RuntimeError, "cuarray._core._nodecore: configure_trace() first");
        return -1;
    }
    PyObject *v[TRACE_FIELDS] = {NULL}; /* (in the order of the members: TF_*) */
    v[TF_EXPECT] = expect;
    Py_INCREF(expect);
    int ok = (v[TF_T0] = PyObject_CallNoArgs(trace_clock)) && (v[TF_ID] = PyIter_Next(trace_ids)) &&
             (v[TF_OPS] = PyList_New(0)) && (v[TF_LEAVES] = PyList_New(0)) && (v[TF_VALUES] = PyList_New(0)) &&
             (v[TF_BY_VALUE] = PyDict_New());
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "Trace: the id counter ended");
        for (int i = 0; i < TRACE_FIELDS; i++)
            Py_XDECREF(v[i]);
        return -1;
    }
    v[TF_ORDINAL] = Py_None;
    v[TF_CACHEABLE] = Py_True;
    v[TF_HELD] = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_True);
    Py_INCREF(Py_None);
    PyObject **f = TFIELDS(self), *old[TRACE_FIELDS];
    for (int i = 0; i < TRACE_FIELDS; i++) {
        old[i] = f[i];
        f[i] = v[i];
    }
    for (int i = 0; i < TRACE_FIELDS; i++) /* (last: a dealloc may run Python code) */
        Py_XDECREF(old[i]);
    return 0;
}

/* configure_trace(Trace, clock, ids): the class built on TraceFields, and `Trace`'s clock
   (time.perf_counter) and id counter (an iterator) */
static PyObject *configure_trace(PyObject *mod, PyObject *args) {
    PyObject *cls, *clock, *ids;
    if (!PyArg_ParseTuple(args, "O!OO", &PyType_Type, &cls, &clock, &ids))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)cls, tracefields_type) || !PyCallable_Check(clock) || !PyIter_Check(ids)) {
        PyErr_SetString(PyExc_TypeError, "configure_trace(Trace, clock, ids): a TraceFields class, a callable, an iterator");
        return NULL;
    }
    PyObject **const slots[3] = {(PyObject **)&trace_class, &trace_clock, &trace_ids};
    PyObject *const values[3] = {cls, clock, ids};
    replace_refs(slots, values, 3);
    Py_RETURN_NONE;
}

#define TMEMBER(name) {#name, T_OBJECT_EX, offsetof(TraceFields, name), 0, NULL}
static PyMemberDef trace_members[] = {TMEMBER(id),       TMEMBER(ops),     TMEMBER(leaves),
                                      TMEMBER(values),   TMEMBER(by_value), TMEMBER(ordinal),
                                      TMEMBER(cacheable), TMEMBER(t0),      TMEMBER(held),
                                      TMEMBER(expect),   {NULL, 0, 0, 0, NULL}};

static PyType_Slot trace_slots[] = {
    {Py_tp_doc, "A trace's fields (id, ops, leaves, values, by_value, ordinal, cacheable, t0, held, expect) as a C struct."},
    {Py_tp_traverse, trace_traverse},
    {Py_tp_clear, trace_clear},
    {Py_tp_dealloc, trace_dealloc},
    {Py_tp_init, trace_init},
    {Py_tp_members, trace_members},
    {0, NULL}};

static PyType_Spec trace_spec = {"cuarray._core._nodecore.TraceFields", sizeof(TraceFields), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, trace_slots};

PyTypeObject *tracefields_type;
static PyObject **trace_names[] = {&s_id, &s_ops, &s_leaves, &s_values, NULL};
static PyObject *s_by_value_;

PyTypeObject *trace_class;

PyObject *trace_get(PyObject *trace, int which) {
    if (IS_A(trace, tracefields_type, trace_class)) {
        PyObject *v = TFIELDS(trace)[which];
        if (v) {
            Py_INCREF(v);
            return v;
        }
    }
    return PyObject_GetAttr(trace, which == TF_BY_VALUE ? s_by_value_ : *trace_names[which]);
}

PyObject *trace_expect(PyObject *trace) {
    if (!IS_A(trace, tracefields_type, trace_class))
        return NULL;
    PyObject *e = ((TraceFields *)trace)->expect;
    return e && PyList_Check(e) ? e : NULL;
}

int freelist_set(FreeList *fl, PyTypeObject *type) {
    PyObject *size = PyObject_GetAttrString((PyObject *)type, "__basicsize__");
    Py_ssize_t n = size ? PyLong_AsSsize_t(size) : -1;
    Py_XDECREF(size);
    if (n < (Py_ssize_t)sizeof(PyObject)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "freelist_set: a class without its instances' size");
        return -1;
    }
    while (fl->n) /* (kept instances of the class before: freed as its tp_free would; it reads their class) */
        PyObject_GC_Del(fl->items[--fl->n]);
    PyTypeObject *old = fl->type;
    Py_INCREF((PyObject *)type);
    fl->type = type;
    fl->size = n;
    Py_XDECREF((PyObject *)old);
    return 0;
}

/* What `configure` hands over: the Node class made here, the trace's entry tables, the Python
   methods for the cases not handled here. */
PyTypeObject *node_type, *nodefields_type;
allocfunc node_alloc;
static PyObject *scalar_entries, *scalar_dtypes, *py_ufunc_scalar, *py_ufunc;
PyObject *s_ufunc, *s_scalar, *s_a, *s_ops, *s_leaves, *s_values, *s_id, *empty, *zero, *one;

/* The tables' rows of float and int (the Python scalars of nearly every operation), read once at
   `configure` (strong references): each dict look-up took ~80 instructions, two an operation. */
static PyObject *row_type[2], *row_dtype[2], *row_entry[2];

/* The scalar type `t`'s dtype and entry (borrowed; 0), or 0 with both NULL where the tables lack
   it, or -1 with an error set. */
static int scalar_row(PyObject *t, PyObject **sdt, PyObject **entry) {
    for (int i = 0; i < 2; i++)
        if (t == row_type[i] && row_dtype[i]) {
            *sdt = row_dtype[i], *entry = row_entry[i];
            return 0;
        }
    *sdt = PyDict_GetItemWithError(scalar_dtypes, t);
    *entry = *sdt ? PyDict_GetItemWithError(scalar_entries, t) : NULL;
    if (!*entry)
        *sdt = NULL;
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *configure(PyObject *mod, PyObject *args) {
    PyObject *node, *entries, *dtypes, *f_scalar, *f_ufunc;
    if (!PyArg_ParseTuple(args, "OOOOO", &node, &entries, &dtypes, &f_scalar, &f_ufunc))
        return NULL;
    if (!PyType_Check(node) || !PyDict_Check(entries) || !PyDict_Check(dtypes)) {
        PyErr_SetString(PyExc_TypeError, "configure(Node, scalar entries, scalar dtypes, ufunc_scalar, ufunc)");
        return NULL;
    }
    PyObject **const slots[5] = {(PyObject **)&node_type, &scalar_entries, &scalar_dtypes, &py_ufunc_scalar, &py_ufunc};
    PyObject *const values[5] = {node, entries, dtypes, f_scalar, f_ufunc};
    replace_refs(slots, values, 5);
    node_alloc = (allocfunc)PyType_GetSlot(node_type, Py_tp_alloc);
    if (freelist_set(&freed_nodes, node_type) < 0)
        return NULL;
    for (int i = 0; i < 2; i++) {
        PyObject *t = i ? (PyObject *)&PyLong_Type : (PyObject *)&PyFloat_Type, *sdt, *entry;
        PyObject *old[3] = {row_type[i], row_dtype[i], row_entry[i]};
        row_type[i] = row_dtype[i] = row_entry[i] = NULL;
        for (int j = 0; j < 3; j++)
            Py_XDECREF(old[j]);
        if (scalar_row(t, &sdt, &entry) < 0)
            return NULL;
        if (entry) {
            Py_INCREF(t);
            Py_INCREF(sdt);
            Py_INCREF(entry);
            row_type[i] = t, row_dtype[i] = sdt, row_entry[i] = entry;
        }
    }
    Py_RETURN_NONE;
}

/* Whether `o` is a Node recorded in the trace `tid` with the fields a record reads set. */
static int recorded_here(PyObject *o, PyObject *tid) {
    if (Py_TYPE(o) != node_type)
        return 0;
    NodeFields *n = (NodeFields *)o;
    if (!n->seg || !n->pos || !n->value || !n->cost || !n->shape)
        return 0;
    if (n->seg == tid)
        return 1;
    return PyObject_RichCompareBool(n->seg, tid, Py_EQ); /* -1: an error, raised by the caller */
}


/* The trace's lists (new references), or -1 with an error set. */
int trace_lists(PyObject *trace, PyObject **ops, PyObject **leaves, PyObject **values) {
    *ops = trace_get(trace, TF_OPS);
    *leaves = *ops ? trace_get(trace, TF_LEAVES) : NULL;
    *values = *leaves ? trace_get(trace, TF_VALUES) : NULL;
    if (!*values)
        return -1;
    if (!PyList_Check(*ops) || !PyList_Check(*leaves) || !PyList_Check(*values)) {
        PyErr_SetString(PyExc_TypeError, "a Trace's ops, leaves and values are lists");
        return -1;
    }
    return 0;
}

/* The entry ("a", dtype, shape) where the expected entries `expect` (a list, or NULL) hold it at
   `k` (borrowed), else NULL (`expected_ufunc` below for an input array). */
PyObject *expected_input(PyObject *expect, Py_ssize_t k, PyObject *dtype, PyObject *shape) {
    if (!expect || k >= PyList_Size(expect))
        return NULL;
    PyObject *e = PyList_GetItem(expect, k), *sh;
    if (!e || !PyTuple_Check(e) || PyTuple_Size(e) != 3 || PyTuple_GetItem(e, 0) != s_a ||
        PyTuple_GetItem(e, 1) != dtype || !(sh = PyTuple_GetItem(e, 2)) || !PyTuple_Check(sh))
        return NULL;
    int eq = sh == shape ? 1 : PyObject_RichCompareBool(sh, shape, Py_EQ);
    if (eq <= 0) {
        PyErr_Clear();
        return NULL;
    }
    return e;
}

/* Whether `Trace._leaf` of the node `o` is what `leaf_computed` makes: a Node computed in an
   earlier stretch (its value set, not a scalar), with the fields its input entry reads. */
int computed_leaf(PyObject *o) {
    if (Py_TYPE(o) != node_type)
        return 0;
    NodeFields *n = (NodeFields *)o;
    if (!n->value || n->value == Py_None || !n->kind || !n->dtype || !n->shape || !n->seg || !n->pos)
        return 0;
    return n->kind != s_scalar && !(PyUnicode_Check(n->kind) && PyUnicode_Compare(n->kind, s_scalar) == 0);
}

/* `Trace._leaf(trace, n)` of a node that `computed_leaf` accepts (a loop's carried value used by
   an operator): the input entry ("a", dtype, shape) of its value (`expect`'s where it holds it), or
   the position of the input already made for that value; it joins the trace's leaves, and `held`
   where it has operands (`evaluation.compute` drops them). 1 when recorded, 0 where `trace` is not
   a TraceFields (the caller takes the Python method, and nothing was recorded), -1 with an error set. */
int leaf_computed(PyObject *trace, PyObject *tid, PyObject *o) {
    if (!IS_A(trace, tracefields_type, trace_class))
        return 0;
    TraceFields *tf = (TraceFields *)trace;
    NodeFields *n = (NodeFields *)o;
    PyObject *by_value = tf->by_value, *ops = tf->ops, *leaves = tf->leaves, *values = tf->values;
    if (!by_value || !ops || !leaves || !values || !PyDict_Check(by_value) || !PyList_Check(ops) ||
        !PyList_Check(leaves) || !PyList_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "a Trace's by_value is a dict, its ops, leaves and values lists");
        return -1;
    }
    PyObject *vid = PyLong_FromVoidPtr(n->value), *pos = NULL, *e = NULL;
    if (!vid)
        return -1;
    PyObject *known = PyDict_GetItemWithError(by_value, vid);
    int rc = -1;
    if (known) {
        if (Py_TYPE(known) != node_type || !((NodeFields *)known)->pos) {
            PyErr_SetString(PyExc_TypeError, "a Trace's by_value holds its recorded input nodes");
            goto done;
        }
        replace_field(&n->seg, tid);
        replace_field(&n->pos, ((NodeFields *)known)->pos);
        rc = 1;
        goto done;
    }
    if (PyErr_Occurred())
        goto done;
    Py_ssize_t k = PyList_Size(ops);
    if ((e = expected_input(trace_expect(trace), k, n->dtype, n->shape)))
        Py_INCREF(e);
    else if (!(e = PyTuple_Pack(3, s_a, n->dtype, n->shape)))
        goto done;
    if (!(pos = PyLong_FromSsize_t(k)) || PyDict_SetItem(by_value, vid, o) < 0 || PyList_Append(ops, e) < 0 ||
        PyList_Append(leaves, o) < 0 || PyList_Append(values, n->value) < 0)
        goto done;
    if (n->args && PyTuple_Check(n->args) && PyTuple_Size(n->args)) {
        if (!tf->held || tf->held == Py_None) {
            PyObject *held = PyList_New(0);
            if (!held)
                goto done;
            replace_field(&tf->held, held);
            Py_DECREF(held);
        }
        if (!PyList_Check(tf->held) || PyList_Append(tf->held, o) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a Trace's held is a list");
            goto done;
        }
    }
    replace_field(&n->seg, tid);
    replace_field(&n->pos, pos);
    rc = 1;
done:
    Py_DECREF(vid);
    Py_XDECREF(pos);
    Py_XDECREF(e);
    return rc;
}

/* `cost` of a ufunc node: 1 + the cost of each operand not computed yet (new reference). Summed
   as C integers: PyNumber_Add on each operand's cost took ~1.7k instructions of a replayed
   seed-logreg step (callgrind, device stubbed). */
static PyObject *ufunc_cost(NodeFields **operands, Py_ssize_t count) {
    Py_ssize_t c = 1;
    for (Py_ssize_t i = 0; i < count && c > 0; i++) {
        PyObject *k = operands[i]->cost;
        if (operands[i]->value == Py_None)
            c = PyLong_Check(k) && PyLong_AsSsize_t(k) >= 0 ? c + PyLong_AsSsize_t(k) : -1;
    }
    if (c > 0)
        return PyLong_FromSsize_t(c);
    PyErr_Clear(); /* (a cost that is not a count below 2**63: Python's arithmetic, the reference's) */
    PyObject *t = PyLong_FromSsize_t(1);
    for (Py_ssize_t i = 0; t && i < count; i++) {
        if (operands[i]->value != Py_None)
            continue;
        PyObject *u = PyNumber_Add(t, operands[i]->cost);
        Py_DECREF(t);
        t = u;
    }
    return t;
}

/* The entry ("ufunc", attr, positions of `operands`) where the expected entries `expect` (a list,
   or NULL) hold it at `k` (borrowed), else NULL: a loop body's entry made again is the last
   plan's, so no tuple is made and the plan's equality test meets the same objects. */
static PyObject *expected_ufunc(PyObject *expect, Py_ssize_t k, PyObject *attr, NodeFields **operands,
                                Py_ssize_t count) {
    if (!expect || k >= PyList_Size(expect))
        return NULL;
    PyObject *e = PyList_GetItem(expect, k), *pos;
    if (!e || !PyTuple_Check(e) || PyTuple_Size(e) != 3 || PyTuple_GetItem(e, 0) != s_ufunc ||
        PyTuple_GetItem(e, 1) != attr || !(pos = PyTuple_GetItem(e, 2)) || !PyTuple_Check(pos) ||
        PyTuple_Size(pos) != count)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *p = PyTuple_GetItem(pos, i);
        if (p != operands[i]->pos) {
            int eq = PyLong_Check(p) ? PyObject_RichCompareBool(p, operands[i]->pos, Py_EQ) : 0;
            if (eq <= 0) {
                PyErr_Clear();
                return NULL;
            }
        }
    }
    return e;
}

/* The ufunc node over the operands `args` (a tuple of the `count` Nodes `operands`, all recorded
   in the trace `tid`), recorded at the end of `ops` with its entry ("ufunc", attr, their
   positions; `expect`'s where it has it): what both records below make. A new reference, or
   NULL with an error set. */
static NodeFields *record_ufunc(PyObject *ops, PyObject *expect, PyObject *tid, PyObject *attr, PyObject *dtype,
                                PyObject *shape, PyObject *args, NodeFields **operands, Py_ssize_t count) {
    PyObject *pos = NULL, *e = NULL;
    NodeFields *n = NEW_NODE();
    if (!n)
        return NULL;
    SET(n, kind, s_ufunc);
    SET(n, args, args);
    SET(n, shape, shape);
    SET(n, dtype, dtype);
    SET(n, attr, attr);
    SET(n, value, Py_None);
    SET(n, weak, Py_None);
    if (!(n->cost = ufunc_cost(operands, count)))
        goto fail;
    Py_ssize_t k = PyList_Size(ops);
    if (!(n->pos = PyLong_FromSsize_t(k)))
        goto fail;
    if ((e = expected_ufunc(expect, k, attr, operands, count))) {
        Py_INCREF(e);
    } else {
        pos = count == 2 ? PyTuple_Pack(2, operands[0]->pos, operands[1]->pos) : PyTuple_Pack(1, operands[0]->pos);
        if (!pos || !(e = PyTuple_Pack(3, s_ufunc, attr, pos)))
            goto fail;
    }
    if (PyList_Append(ops, e) < 0)
        goto fail;
    SET(n, seg, tid);
    Py_XDECREF(pos);
    Py_DECREF(e);
    return n;
fail:
    Py_XDECREF(pos);
    Py_XDECREF(e);
    Py_DECREF((PyObject *)n);
    return NULL;
}

/* The node of the Python scalar `v` (type `t`: its dtype `sdt` and entry `entry` from the tables)
   recorded at the end of the trace `tid`'s lists: `Trace.scalar`. A new reference, or NULL. */
static NodeFields *scalar_leaf(PyObject *ops, PyObject *leaves, PyObject *values, PyObject *tid, PyObject *v,
                               PyObject *t, PyObject *sdt, PyObject *entry) {
    NodeFields *s = NEW_NODE();
    if (!s)
        return NULL;
    SET(s, kind, s_scalar);
    SET(s, args, empty);
    SET(s, shape, empty);
    SET(s, dtype, sdt);
    SET(s, attr, Py_None);
    SET(s, value, v);
    SET(s, weak, t);
    SET(s, cost, zero);
    if (!(s->pos = PyLong_FromSsize_t(PyList_Size(ops))) || PyList_Append(ops, entry) < 0) {
        Py_DECREF((PyObject *)s);
        return NULL;
    }
    SET(s, seg, tid);
    if (PyList_Append(leaves, (PyObject *)s) < 0 || PyList_Append(values, v) < 0) {
        Py_DECREF((PyObject *)s);
        return NULL;
    }
    return s;
}

PyObject *nc_scalar(PyObject *trace, PyObject *v, PyObject *t) {
    PyObject *tid = trace_get(trace, TF_ID), *ops = NULL, *leaves = NULL, *values = NULL, *out = NULL;
    PyObject *sdt = NULL, *entry = NULL;
    if (tid)
        scalar_row(t, &sdt, &entry);
    if (!entry) {
        if (tid && !PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "scalar(trace, v, t): t has no scalar entry");
    } else if (trace_lists(trace, &ops, &leaves, &values) == 0) {
        out = (PyObject *)scalar_leaf(ops, leaves, values, tid, v, t, sdt, entry);
    }
    Py_XDECREF(tid);
    Py_XDECREF(ops);
    Py_XDECREF(leaves);
    Py_XDECREF(values);
    return out;
}

/* 0 when a record function may run with `na` arguments (it takes `want`), else -1 with the error set. */
static int callable_with(Py_ssize_t na, Py_ssize_t want, const char *name) {
    if (na != want) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", name, want);
        return -1;
    }
    if (!node_type) {
        PyErr_SetString(PyExc_RuntimeError, "cuarray._core._nodecore: configure() first");
        return -1;
    }
    return 0;
}

/* ufunc_scalar(trace, attr, dtype, x, v, t, reflected) -> Node: `Trace.ufunc_scalar`. */
PyObject *nc_ufunc_scalar(PyObject *mod, PyObject *const *a, Py_ssize_t na) {
    if (callable_with(na, 7, "ufunc_scalar") < 0)
        return NULL;
    PyObject *trace = a[0], *attr = a[1], *dtype = a[2], *v = a[4], *t = a[5];
    PyObject *tid = trace_get(trace, TF_ID);
    if (!tid)
        return NULL;
    int here = recorded_here(a[3], tid), earlier = here == 0 && computed_leaf(a[3]);
    if (earlier && IS_A(trace, tracefields_type, trace_class))
        here = 1; /* (x computed in an earlier stretch: an input, recorded below) */
    PyObject *sdt = NULL, *entry = NULL;
    if (here > 0)
        scalar_row(t, &sdt, &entry);
    if (!entry) {
        Py_DECREF(tid);
        if (here < 0 || PyErr_Occurred())
            return NULL;
        return PyObject_CallFunctionObjArgs(py_ufunc_scalar, a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL);
    }
    int reflected = PyObject_IsTrue(a[6]);
    if (reflected < 0) {
        Py_DECREF(tid);
        return NULL;
    }
    NodeFields *x = (NodeFields *)a[3], *s = NULL, *operands[2];
    PyObject *ops = NULL, *leaves = NULL, *values = NULL, *result = NULL, *args = NULL;
    /* `Trace.record`'s order for an earlier x: the operands' entries in argument order, then the node's */
    if (trace_lists(trace, &ops, &leaves, &values) < 0 ||
        (earlier && !reflected && leaf_computed(trace, tid, a[3]) <= 0) ||
        !(s = scalar_leaf(ops, leaves, values, tid, v, t, sdt, entry)) ||
        (earlier && reflected && leaf_computed(trace, tid, a[3]) <= 0))
        goto done;
    if (!(args = reflected ? PyTuple_Pack(2, (PyObject *)s, (PyObject *)x) : PyTuple_Pack(2, (PyObject *)x, (PyObject *)s)))
        goto done;
    operands[0] = reflected ? s : x; /* (args' order) */
    operands[1] = reflected ? x : s;
    result = (PyObject *)record_ufunc(ops, trace_expect(trace), tid, attr, dtype, x->shape, args, operands, 2);
done:
    Py_DECREF(tid);
    Py_XDECREF(ops);
    Py_XDECREF(leaves);
    Py_XDECREF(values);
    Py_XDECREF((PyObject *)s);
    Py_XDECREF(args);
    return result;
}

/* ufunc(trace, attr, dtype, shape, args) -> Node: `Trace.ufunc`. */
PyObject *nc_ufunc(PyObject *mod, PyObject *const *a, Py_ssize_t na) {
    if (callable_with(na, 5, "ufunc") < 0)
        return NULL;
    PyObject *trace = a[0], *attr = a[1], *dtype = a[2], *shape = a[3], *args = a[4];
    PyObject *tid = trace_get(trace, TF_ID);
    if (!tid)
        return NULL;
    Py_ssize_t count = PyTuple_Check(args) ? PyTuple_Size(args) : 0;
    NodeFields *operands[2];
    int here = count == 1 || count == 2, earlier = 0;
    for (Py_ssize_t i = 0; here > 0 && i < count; i++) {
        operands[i] = (NodeFields *)PyTuple_GetItem(args, i);
        int r = recorded_here((PyObject *)operands[i], tid);
        if (r == 0 && computed_leaf((PyObject *)operands[i]))
            earlier = 1; /* (a computed node of an earlier stretch: an input, recorded below) */
        else
            here = r;
    }
    /* `Trace.record`'s order: each such operand's input entry, in argument order, then the node's */
    for (Py_ssize_t i = 0; earlier && here > 0 && i < count; i++) {
        int r = recorded_here((PyObject *)operands[i], tid); /* (the same node twice: recorded once) */
        here = r == 0 ? leaf_computed(trace, tid, (PyObject *)operands[i]) : r;
    }
    if (here <= 0) {
        Py_DECREF(tid);
        if (here < 0)
            return NULL;
        return PyObject_CallFunctionObjArgs(py_ufunc, a[0], a[1], a[2], a[3], a[4], NULL); /* (the reference) */
    }
    PyObject *ops = trace_get(trace, TF_OPS), *result = NULL;
    if (!ops)
        goto done;
    if (!PyList_Check(ops)) {
        PyErr_SetString(PyExc_TypeError, "a Trace's ops is a list");
        goto done;
    }
    result = (PyObject *)record_ufunc(ops, trace_expect(trace), tid, attr, dtype, shape, args, operands, count);
done:
    Py_DECREF(tid);
    Py_XDECREF(ops);
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Node, scalar entries, scalar dtypes, Trace.ufunc_scalar, Trace.ufunc): the class to make, the "
     "trace's tables, the Python methods for what is not handled here"},
    {"ufunc_scalar", (PyCFunction)(void (*)(void))nc_ufunc_scalar, METH_FASTCALL,
     "ufunc_scalar(trace, attr, dtype, x, v, t, reflected) -> Node: Trace.ufunc_scalar"},
    {"ufunc", (PyCFunction)(void (*)(void))nc_ufunc, METH_FASTCALL,
     "ufunc(trace, attr, dtype, shape, args) -> Node: Trace.ufunc"},
    {"configure_trace", configure_trace, METH_VARARGS,
     "configure_trace(Trace, clock, ids): the class, clock and id counter of `Trace(expect=None)` (TraceFields.__init__)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "cuarray._core._nodecore", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__nodecore(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    PyObject *fields = PyType_FromSpec(&fields_spec);
    if (!fields || PyModule_AddObject(m, "NodeFields", fields) < 0) {
        Py_XDECREF(fields);
        Py_DECREF(m);
        return NULL;
    }
    nodefields_type = (PyTypeObject *)fields; /* (kept: the module holds it) */
    PyObject *tf = PyType_FromSpec(&trace_spec);
    if (!tf || PyModule_AddObjectRef(m, "TraceFields", tf) < 0 || nc_live_init(m) < 0) {
        Py_XDECREF(tf);
        Py_DECREF(m);
        return NULL;
    }
    tracefields_type = (PyTypeObject *)tf; /* (kept: the module holds it too) */
    s_by_value_ = PyUnicode_InternFromString("by_value");
    s_ufunc = PyUnicode_InternFromString("ufunc");
    s_scalar = PyUnicode_InternFromString("scalar");
    s_a = PyUnicode_InternFromString("a");
    s_ops = PyUnicode_InternFromString("ops");
    s_leaves = PyUnicode_InternFromString("leaves");
    s_values = PyUnicode_InternFromString("values");
    s_id = PyUnicode_InternFromString("id");
    s_expect = PyUnicode_InternFromString("expect");
    empty = PyTuple_New(0);
    zero = PyLong_FromLong(0);
    one = PyLong_FromLong(1);
    if (!s_by_value_ || !s_expect || !s_ufunc || !s_scalar || !s_a || !s_ops || !s_leaves || !s_values || !s_id || !empty ||
        !zero || !one ||
        nc_lazyops_init(m) < 0 || nc_ufunccall_init(m) < 0 || nc_steady_init(m) < 0 || nc_threadlocal_init(m) < 0 ||
        nc_records_init(m) < 0 || nc_elementwise_run_init(m) < 0 ||
        nc_lazy_block_init(m) < 0 || nc_leaf_class_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
