/* Lazy mode's commonest operations as one C call each: a LazyArray's binary operator (`l - 1.0`,
   `l * m`, `p - y`), its unary operator (`-l`), and the traced ufunc call of one or two operands
   (`exp(l)`, `add(x, 1)`: `lazy_mode._State.ufunc`); the `Operator` type that also carries the
   traced `dot` and a LazyArray's reduction methods (their bodies in lazycalls.c). Each is
   `fusion/fast_paths.py`'s function of the same name, step for step: the memo look-up (filled by the general path, so a hit is a
   loop that resolved without an error), `Trace.array` for a concrete operand, the records of
   nodes.c, the LazyArray, its place in the thread's live set (live.c), and a chain computed past
   MAX_CHAIN. Anything else (a miss, an unusual operand, no recording) calls the Python function
   it was made with, which stays the reference (tests/_core/test_fusion_fastpath_cpu.py builds
   the same traces both ways; CUARRAY_PURE_PYTHON_NODES=1 runs without this file).

   An `Operator` is a method descriptor (Py_TPFLAGS_METHOD_DESCRIPTOR): stored in a class, it is
   called with the instance first and no bound method is made, as a Python function is; looked
   up on an instance it binds through types.MethodType. The binary operators' pairs run from
   LazyFields' number slots instead (live.c, `operator_binary`: no method look-up or argument tuple).

   Measured with the device stubbed (this machine, Python 3.11): the binary operator with a
   Python scalar 1.3 us in Python -> 0.35 us here (see docs/perf-notes.md, "Lazy mode's host cost"). */
#include "lazyops.h"
#include <string.h>

PyTypeObject *lazy_type, *ndarray_type;
static allocfunc lazy_alloc;
static PyObject *broadcast_shapes, *method_type, *max_chain, *py_array;
static PyObject *s__node, *s_compute, *s_by_value, *s_array, *s_inside;
PyObject *s__dtype, *s__shape, *s_dot, *s_out, *s_call, *s__leaf, *s_reduce, *s_tracer;

static unsigned long memo_gen = 1; /* bumped by `memos_cleared()` (fast_paths.clear_memos) */

/* configure_lazy(LazyArray, ndarray, broadcast_shapes, MethodType, MAX_CHAIN, Trace.array) */
static PyObject *configure_lazy(PyObject *mod, PyObject *args) {
    PyObject *lz, *nd, *bc, *mt, *mc, *pa;
    if (!PyArg_ParseTuple(args, "OOOOOO", &lz, &nd, &bc, &mt, &mc, &pa))
        return NULL;
    if (!PyType_Check(lz) || !PyType_Check(nd)) {
        PyErr_SetString(PyExc_TypeError, "configure_lazy(LazyArray, ndarray, broadcast_shapes, MethodType, "
                                         "MAX_CHAIN, Trace.array)");
        return NULL;
    }
    PyObject **const slots[6] = {(PyObject **)&lazy_type, (PyObject **)&ndarray_type, &broadcast_shapes, &method_type,
                                 &max_chain, &py_array};
    PyObject *const values[6] = {lz, nd, bc, mt, mc, pa};
    replace_refs(slots, values, 6);
    lazy_alloc = (allocfunc)PyType_GetSlot(lazy_type, Py_tp_alloc);
    if (freelist_set(&freed_lazy, lazy_type) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* A LazyArray's node (new reference): its C field where LazyArray has the C base (`LazyFields`)
   and it is set, else the attribute. */
PyObject *node_of(PyObject *o) {
    if (IS_A(o, lazyfields_type, lazy_type)) {
        PyObject *n = ((LazyFields *)o)->node;
        if (n) {
            Py_INCREF(n);
            return n;
        }
    }
    return PyObject_GetAttr(o, s__node);
}

/* out._node = n (a new LazyArray: its C field where it has one) */
static int set_node(PyObject *out, PyObject *n) {
    if (IS_A(out, lazyfields_type, lazy_type)) {
        LazyFields *f = (LazyFields *)out;
        PyObject *old = f->node;
        Py_INCREF(n);
        f->node = n;
        Py_XDECREF(old);
        return 0;
    }
    return PyObject_SetAttr(out, s__node, n);
}

int str_is(PyObject *o, PyObject *s) {
    return o == s || (PyUnicode_Check(o) && PyUnicode_Compare(o, s) == 0);
}

/* A Node whose fields an operator reads are set, and that is not a `fuse` scalar (weak None). */
int plain_node(PyObject *o) {
    if (Py_TYPE(o) != node_type)
        return 0;
    NodeFields *n = (NodeFields *)o;
    return n->dtype && n->shape && n->weak == Py_None;
}

/* The new array node of `a` (not yet an input of `trace`): `Trace.array`'s second half. */
static PyObject *new_input(PyObject *trace, PyObject *a, PyObject *by_value, PyObject *vid, NodeFields *known) {
    PyObject *shape = array_attr(a, 1), *dtype = shape ? array_attr(a, 0) : NULL;
    PyObject *ops = NULL, *leaves = NULL, *values = NULL, *e = NULL;
    NodeFields *n = dtype ? NEW_NODE() : NULL;
    if (!n)
        goto fail;
    SET(n, kind, s_array);
    SET(n, args, empty);
    n->shape = shape;
    n->dtype = dtype;
    shape = dtype = NULL;
    SET(n, attr, Py_None);
    SET(n, weak, Py_None);
    SET(n, value, a);
    SET(n, cost, zero);
    if (known) {
        SET(n, pos, known->pos);
    } else {
        if (trace_lists(trace, &ops, &leaves, &values) < 0 || !(n->pos = PyLong_FromSsize_t(PyList_Size(ops))))
            goto fail;
        if ((e = expected_input(trace_expect(trace), PyList_Size(ops), n->dtype, n->shape)))
            Py_INCREF(e);
        else if (!(e = PyTuple_Pack(3, s_a, n->dtype, n->shape)))
            goto fail;
        if (PyDict_SetItem(by_value, vid, (PyObject *)n) < 0 || PyList_Append(ops, e) < 0 ||
            PyList_Append(leaves, (PyObject *)n) < 0 || PyList_Append(values, a) < 0)
            goto fail;
    }
    if (!(n->seg = trace_get(trace, TF_ID)))
        goto fail;
    Py_XDECREF(ops);
    Py_XDECREF(leaves);
    Py_XDECREF(values);
    Py_XDECREF(e);
    return (PyObject *)n;
fail:
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    Py_XDECREF(ops);
    Py_XDECREF(leaves);
    Py_XDECREF(values);
    Py_XDECREF(e);
    Py_XDECREF((PyObject *)n);
    return NULL;
}

/* `Trace.array(trace, a)`: the input node of the concrete array `a`, one per distinct array. */
PyObject *trace_array(PyObject *trace, PyObject *a) {
    PyObject *by_value = trace_get(trace, TF_BY_VALUE), *vid = NULL, *out = NULL;
    if (!by_value)
        return NULL;
    if (!PyDict_Check(by_value) || !node_type || !(vid = PyLong_FromVoidPtr(a)))
        goto python;
    PyObject *known = PyDict_GetItemWithError(by_value, vid);
    if (!known && PyErr_Occurred())
        goto done;
    if (known && (Py_TYPE(known) != node_type || !((NodeFields *)known)->kind || !((NodeFields *)known)->pos))
        goto python; /* (never made by a trace: the reference says what happens) */
    if (known && str_is(((NodeFields *)known)->kind, s_array)) {
        Py_INCREF(known);
        out = known;
    } else {
        out = new_input(trace, a, by_value, vid, (NodeFields *)known);
    }
    goto done;
python:
    out = PyErr_Occurred() ? NULL : PyObject_CallFunctionObjArgs(py_array, trace, a, NULL);
done:
    Py_DECREF(by_value);
    Py_XDECREF(vid);
    return out;
}

static PyObject *array_fn(PyObject *mod, PyObject *const *a, Py_ssize_t na) {
    if (na != 2 || !py_array) {
        PyErr_SetString(PyExc_TypeError, "array(trace, a), after configure_lazy()");
        return NULL;
    }
    return trace_array(a[0], a[1]);
}

/* live[:] = [r for r in live if r() is not None] */
static int prune(PyObject *live) {
    PyObject *kept = PyList_New(0);
    if (!kept)
        return -1;
    for (Py_ssize_t i = 0, n = PyList_Size(live); i < n; i++) {
        PyObject *r = PyList_GetItem(live, i), *o = r ? PyWeakref_GetObject(r) : NULL;
        if (!o || (o != Py_None && PyList_Append(kept, r) < 0)) {
            Py_DECREF(kept);
            return -1;
        }
    }
    int rc = PyList_SetSlice(live, 0, PyList_Size(live), kept);
    Py_DECREF(kept);
    return rc;
}

/* The LazyArray of the recorded node `n` (stolen), in the live set (a `Live`, or a list of weak
   references), computed past MAX_CHAIN: `fast_paths._emit`. */
PyObject *emit(PyObject *n, PyObject *st, PyObject *live) {
    PyObject *out = n ? freelist_new(&freed_lazy, lazy_type, lazy_alloc) : NULL, *ref = NULL;
    if (!out || set_node(out, n) < 0)
        goto fail;
    if (Py_TYPE(live) == live_type) { /* (live.c: linked, no weak reference) */
        if (live_add(live, out) < 0)
            goto fail;
    } else if (!(ref = PyWeakref_NewRef(out, NULL)) || PyList_Append(live, ref) < 0 ||
               (PyList_Size(live) > 4096 && prune(live) < 0)) {
        goto fail;
    } else {
        Py_DECREF(ref);
    }
    PyObject *cost = Py_TYPE(n) == node_type ? ((NodeFields *)n)->cost : NULL;
    /* (compared as C integers where both are counts: ~90 instructions an operation less) */
    Py_ssize_t c = cost && PyLong_Check(cost) ? PyLong_AsSsize_t(cost) : -1;
    Py_ssize_t m = c >= 0 && PyLong_Check(max_chain) ? PyLong_AsSsize_t(max_chain) : -1;
    int past = 0;
    if (c >= 0 && m >= 0) {
        past = c > m;
    } else if (cost) {
        if (PyErr_Occurred())
            PyErr_Clear(); /* (a count past Py_ssize_t: Python's comparison answers) */
        past = PyObject_RichCompareBool(cost, max_chain, Py_GT);
    }
    if (past) {
        PyObject *nodes = past > 0 ? PyList_New(1) : NULL, *r = NULL;
        if (nodes) {
            Py_INCREF(n);
            PyList_SetItem(nodes, 0, n);
            r = PyObject_CallMethodObjArgs(st, s_compute, nodes, NULL);
            Py_DECREF(nodes);
        }
        if (!r)
            goto fail;
        Py_DECREF(r);
    }
    Py_DECREF(n);
    return out;
fail:
    Py_XDECREF(n);
    Py_XDECREF(out);
    Py_XDECREF(ref);
    return NULL;
}

/* memo[(k0, k1)] or memo[(k0, k1, k2)] (k2 NULL: a pair) of the operator `op`: a borrowed
   (attr, dtype), or NULL (*err set when an error was raised). A key asked before is answered
   from the operator's cache without a key tuple or a look-up (the memo's entries are only
   added, or all cleared by `clear_memos`; an entry made again for a key resolves the same loop).
   Measured with the device stubbed: `l * m` 0.43 -> 0.36 us, `exp(l)` 0.69 -> 0.63. */
static PyObject *memo_get(Operator *op, PyObject *k0, PyObject *k1, PyObject *k2, int *err) {
    *err = 0;
    for (int j = 0; j < CACHE_SLOTS; j++) {
        PyObject **c = op->cache[j].k;
        if (c[0] == k0 && c[1] == k1 && c[2] == k2 && op->cache[j].hit && op->cache[j].gen == memo_gen)
            return op->cache[j].hit;
    }
    op->misses++;
    int h = op->next;
    op->next = (h + 1) % CACHE_SLOTS;
    PyObject **k = op->cache[h].k;
    PyObject *key = k2 ? PyTuple_Pack(3, k0, k1, k2) : PyTuple_Pack(2, k0, k1);
    PyObject *hit = key ? PyDict_GetItemWithError(op->memo, key) : NULL;
    Py_XDECREF(key);
    *err = PyErr_Occurred() != NULL;
    if (!hit || !PyTuple_Check(hit) || PyTuple_Size(hit) != 2)
        return NULL; /* (never stored so: the Python function takes it) */
    PyObject *old[4] = {k[0], k[1], k[2], op->cache[h].hit};
    PyObject *keep[4] = {k0, k1, k2, hit};
    for (int i = 0; i < 4; i++)
        Py_XINCREF(keep[i]);
    k[0] = k0;
    k[1] = k1;
    k[2] = k2;
    op->cache[h].hit = hit;
    op->cache[h].gen = memo_gen;
    for (int i = 0; i < 4; i++) /* (last: a dealloc may run Python code) */
        Py_XDECREF(old[i]);
    return hit;
}

static PyObject *memos_cleared(PyObject *mod, PyObject *unused) {
    memo_gen++;
    Py_RETURN_NONE;
}

/* `shape` broadcast with `other` where they differ (new reference); `lazy_only`: only when
   `other` is not () (the binary operator's test). */
static PyObject *broadcast(PyObject *shape, PyObject *other, int lazy_only) {
    int ne = other == shape ? 0 : PyObject_RichCompareBool(other, shape, Py_NE);
    if (ne > 0 && lazy_only)
        ne = PyObject_IsTrue(other);
    if (ne < 0)
        return NULL;
    if (!ne) {
        Py_INCREF(shape);
        return shape;
    }
    return PyObject_CallFunctionObjArgs(broadcast_shapes, shape, other, NULL);
}

/* The ufunc node over the nodes `x` and `y` (`x` alone where `y` is NULL): `record_ufunc`. */
static PyObject *record2(PyObject *tr, PyObject *hit, PyObject *shape, PyObject *x, PyObject *y) {
    PyObject *pair = y ? PyTuple_Pack(2, x, y) : PyTuple_Pack(1, x);
    if (!pair)
        return NULL;
    PyObject *a[5] = {tr, PyTuple_GetItem(hit, 0), PyTuple_GetItem(hit, 1), shape, pair};
    PyObject *n = nc_ufunc(NULL, a, 5);
    Py_DECREF(pair);
    return n;
}

/* The node of the scalar `v` (type `t`) with the node `x`: `record_ufunc_scalar`. */
static PyObject *record_scalar(PyObject *tr, PyObject *hit, PyObject *x, PyObject *v, PyObject *t, int reflected) {
    PyObject *a[7] = {tr, PyTuple_GetItem(hit, 0), PyTuple_GetItem(hit, 1), x, v, t, reflected ? Py_True : Py_False};
    return nc_ufunc_scalar(NULL, a, 7);
}

#define IS_PY_SCALAR(t) ((t) == &PyFloat_Type || (t) == &PyLong_Type)

/* `self <op> other` (`fast_paths.binary_operator`'s `op`); GENERAL where it does not apply. */
static PyObject *binary(Operator *op, PyObject *self, PyObject *other, PyObject *st, PyObject *live) {
    PyObject *mine = node_of(self), *tr = NULL, *node = NULL, *key = NULL, *shape = NULL;
    PyObject *out = GENERAL, *hit;
    int err;
    if (!mine)
        return NULL;
    PyTypeObject *t = Py_TYPE(other);
    if (!plain_node(mine) || !(tr = state_get(st, SF_TRACE))) {
        out = PyErr_Occurred() ? NULL : GENERAL;
        goto done;
    }
    NodeFields *m = (NodeFields *)mine;
    if (IS_PY_SCALAR(t)) {
        if ((hit = memo_get(op, m->dtype, (PyObject *)t, NULL, &err))) {
            Py_INCREF(hit);
            out = emit(record_scalar(tr, hit, mine, other, (PyObject *)t, op->reflected), st, live);
            Py_DECREF(hit);
        } else if (err) {
            out = NULL;
        }
        goto done;
    }
    if (t == lazy_type) {
        if (!(node = node_of(other)) || !plain_node(node)) {
            out = node ? GENERAL : NULL;
            goto done;
        }
        key = ((NodeFields *)node)->dtype;
        Py_INCREF(key);
    } else if (t == ndarray_type) {
        if (!(key = array_attr(other, 0))) {
            out = NULL;
            goto done;
        }
    } else {
        goto done;
    }
    if (!(hit = memo_get(op, m->dtype, key, NULL, &err))) {
        out = err ? NULL : GENERAL;
        goto done;
    }
    Py_INCREF(hit); /* (held across the calls below, which may run Python code) */
    if (!node && (!(node = trace_array(tr, other)) || Py_TYPE(node) != node_type || !((NodeFields *)node)->shape)) {
        out = node ? GENERAL : NULL; /* (Trace.array's reference made something else: the general path) */
    } else if (!(shape = broadcast(m->shape, ((NodeFields *)node)->shape, 1))) {
        out = NULL;
    } else {
        out = emit(op->reflected ? record2(tr, hit, shape, node, mine) : record2(tr, hit, shape, mine, node), st, live);
    }
    Py_DECREF(hit);
done:
    Py_DECREF(mine);
    Py_XDECREF(tr);
    Py_XDECREF(node);
    Py_XDECREF(key);
    Py_XDECREF(shape);
    return out;
}

/* `-self` (`fast_paths.fast_unary`); GENERAL where it does not apply. */
static PyObject *unary(Operator *op, PyObject *self, PyObject *st, PyObject *live) {
    if (!PyList_Check(op->ufs) || PyList_Size(op->ufs) < 1)
        return GENERAL;
    PyObject *mine = node_of(self), *tr = NULL, *hit = NULL, *out = GENERAL;
    int err = 0;
    if (!mine)
        return NULL;
    if (plain_node(mine) && (hit = memo_get(op, PyList_GetItem(op->ufs, 0), ((NodeFields *)mine)->dtype,
                                            NULL, &err))) {
        Py_INCREF(hit);
        if ((tr = state_get(st, SF_TRACE)))
            out = emit(record2(tr, hit, ((NodeFields *)mine)->shape, mine, NULL), st, live);
    }
    if (out == GENERAL && (err || PyErr_Occurred()))
        out = NULL;
    Py_DECREF(mine);
    Py_XDECREF(tr);
    Py_XDECREF(hit);
    return out;
}

/* What the traced ufunc's memo keys an operand by (`fast_paths._fast_key`: a new reference, NULL
   with no error for the general path); `node`: its lazy node (borrowed), else NULL. */
static PyObject *fast_key(PyObject *x, int scalars, PyObject **node) {
    PyTypeObject *t = Py_TYPE(x);
    *node = NULL;
    if (t == lazy_type) {
        PyObject *n = node_of(x), *k = NULL;
        if (n && plain_node(n)) {
            *node = n; /* (held by x) */
            k = ((NodeFields *)n)->dtype;
            Py_INCREF(k);
        }
        Py_XDECREF(n);
        return k;
    }
    if (t == ndarray_type)
        return array_attr(x, 0);
    if (scalars && IS_PY_SCALAR(t)) {
        Py_INCREF((PyObject *)t);
        return (PyObject *)t;
    }
    return NULL;
}

/* Whether `st` is inside a routine that does not trace (`st.internal is not None and
   st._inside_routine()`): 1, 0, or -1 with an error set. */
int inside_routine(PyObject *st) {
    PyObject *i = state_get(st, SF_INTERNAL);
    if (!i)
        return -1;
    int none = i == Py_None;
    Py_DECREF(i);
    if (none)
        return 0;
    PyObject *r = PyObject_CallMethodObjArgs(st, s_inside, NULL);
    int yes = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    return yes;
}

/* Whether a lazy node was recorded in the trace `tid` (`node.seg == tr.id`): 1, 0, -1. */
int seg_is(PyObject *node, PyObject *tid) {
    PyObject *seg = ((NodeFields *)node)->seg;
    return !seg ? -1 : seg == tid ? 1 : PyObject_RichCompareBool(seg, tid, Py_EQ);
}

/* The node of a concrete operand (new reference), its lazy node, or NULL for a scalar (*err 0). */
static PyObject *operand(PyObject *tr, PyObject *x, PyObject *node, int *err) {
    PyObject *n = node ? node : Py_TYPE(x) == ndarray_type ? trace_array(tr, x) : NULL;
    if (node)
        Py_INCREF(n);
    *err = n == NULL && PyErr_Occurred() != NULL;
    return n;
}

/* `uf(a, b)` of the tracer (`fast_paths.traced_ufunc`, two operands); GENERAL where it does not apply. */
static PyObject *traced2(Operator *op, PyObject *st, PyObject *uf, PyObject *a, PyObject *b, PyObject *live) {
    PyObject *na, *nb = NULL, *ka = fast_key(a, 1, &na), *kb = ka ? fast_key(b, 1, &nb) : NULL, *hit = NULL, *out = GENERAL;
    PyObject *tr = NULL, *tid = NULL, *xa = NULL, *xb = NULL, *shape = NULL;
    int err = 0, in;
    if (!kb || !(hit = memo_get(op, uf, ka, kb, &err)))
        goto done;
    Py_INCREF(hit);
    if (!na && !nb && (in = inside_routine(st)) != 0) {
        out = in < 0 ? NULL : GENERAL;
        goto done;
    }
    if (!(tr = state_get(st, SF_TRACE)) || !(tid = trace_get(tr, TF_ID)))
        goto done;
    if (IS_PY_SCALAR((PyTypeObject *)ka) || IS_PY_SCALAR((PyTypeObject *)kb)) {
        int here = na ? seg_is(na, tid) : 1;
        here = here > 0 && nb ? seg_is(nb, tid) : here;
        if (here <= 0) { /* (a node of an earlier stretch: the general path's recording order) */
            out = here < 0 ? NULL : GENERAL;
            goto done;
        }
    }
    if (!(xa = operand(tr, a, na, &err)) && err)
        goto done;
    if (!(xb = operand(tr, b, nb, &err)) && err)
        goto done;
    if ((xa && Py_TYPE(xa) != node_type) || (xb && Py_TYPE(xb) != node_type))
        goto done; /* (Trace.array's reference made something else) */
    if (!xa)
        out = xb ? emit(record_scalar(tr, hit, xb, a, ka, 1), st, live) : GENERAL;
    else if (!xb)
        out = emit(record_scalar(tr, hit, xa, b, kb, 0), st, live);
    else if ((shape = broadcast(((NodeFields *)xa)->shape, ((NodeFields *)xb)->shape, 0)))
        out = emit(record2(tr, hit, shape, xa, xb), st, live);
done:
    if (out == GENERAL && (err || PyErr_Occurred()))
        out = NULL;
    Py_XDECREF(ka);
    Py_XDECREF(kb);
    Py_XDECREF(hit);
    Py_XDECREF(tr);
    Py_XDECREF(tid);
    Py_XDECREF(xa);
    Py_XDECREF(xb);
    Py_XDECREF(shape);
    return out;
}

/* `st.ufunc(uf, args, kwargs)` (`fast_paths.traced_ufunc`); GENERAL where it does not apply. */
static PyObject *traced_ufunc(Operator *op, PyObject *st, PyObject *uf, PyObject *args, PyObject *kwargs,
                              PyObject *live) {
    int kw = PyObject_IsTrue(kwargs);
    Py_ssize_t n = PyTuple_Check(args) ? PyTuple_Size(args) : 0;
    if (kw)
        return kw < 0 ? NULL : GENERAL;
    if (n == 2)
        return traced2(op, st, uf, PyTuple_GetItem(args, 0), PyTuple_GetItem(args, 1), live);
    if (n != 1)
        return GENERAL;
    PyObject *a = PyTuple_GetItem(args, 0), *na, *ka = fast_key(a, 0, &na), *hit = NULL, *tr = NULL, *x = NULL;
    PyObject *out = GENERAL;
    int err = 0, in;
    if (!ka || !(hit = memo_get(op, uf, ka, NULL, &err)))
        goto done;
    Py_INCREF(hit);
    if (!na && (in = inside_routine(st)) != 0) {
        out = in < 0 ? NULL : GENERAL;
        goto done;
    }
    if (!(tr = state_get(st, SF_TRACE)) || !(x = operand(tr, a, na, &err)) || Py_TYPE(x) != node_type)
        goto done;
    out = emit(record2(tr, hit, ((NodeFields *)x)->shape, x, NULL), st, live);
done:
    if (out == GENERAL && (err || PyErr_Occurred()))
        out = NULL;
    Py_XDECREF(ka);
    Py_XDECREF(hit);
    Py_XDECREF(tr);
    Py_XDECREF(x);
    return out;
}

/* The operator's steps on its arguments `a` (the instance first; as many as its kind takes): its
   result, or GENERAL (its Python function takes the call). */
PyObject *op_run(Operator *op, PyObject *const *a) {
    PyObject *self = a[0], *st, *live, *out = GENERAL;
    if ((op->kind < UFUNC && Py_TYPE(self) != lazy_type) || !lazy_type)
        return GENERAL;
    if (op->kind >= UFUNC) {
        st = self;
        Py_INCREF(st);
    } else if (!(st = thread_state(op->tls))) {
        return NULL;
    }
    if (!(live = state_get(st, SF_LIVE)))
        out = NULL;
    else if (!PyList_Check(live) && Py_TYPE(live) != live_type)
        out = GENERAL; /* (None: not recording) */
    else if (op->kind == BINARY)
        out = binary(op, self, a[1], st, live);
    else if (op->kind == UNARY)
        out = unary(op, self, st, live);
    else if (op->kind == REDUCE)
        out = reduce_method(op, self, st, live);
    else if (op->kind == UFUNC)
        out = traced_ufunc(op, st, a[1], a[2], a[3], live);
    else
        out = traced_product(op, st, a[1], a[3], a[4], live);
    Py_DECREF(st);
    Py_XDECREF(live);
    return out;
}

static PyObject *op_call(PyObject *o, PyObject *args, PyObject *kw) {
    Operator *op = (Operator *)o;
    Py_ssize_t n = PyTuple_Check(args) ? PyTuple_Size(args) : -1;
    int want = op->kind == BINARY ? 2 : op->kind <= REDUCE ? 1 : op->kind == UFUNC ? 4 : 5;
    PyObject *a[5], *out = GENERAL;
    if (!kw && n == want) {
        for (int i = 0; i < want; i++)
            a[i] = PyTuple_GetItem(args, i);
        out = op_run(op, a);
    }
    return out == GENERAL ? PyObject_Call(op->general, args, kw) : out;
}

PyObject *operator_binary(PyObject *o, PyObject *self, PyObject *other) {
    Operator *op = (Operator *)o;
    PyObject *a[2] = {self, other}, *out = op->kind == BINARY ? op_run(op, a) : GENERAL;
    return out == GENERAL ? PyObject_CallFunctionObjArgs(op->general, self, other, NULL) : out;
}

static PyObject *op_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (!obj || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyObject_CallFunctionObjArgs(method_type, self, obj, NULL);
}

static int op_traverse(PyObject *self, visitproc visit, void *arg) {
    Operator *op = (Operator *)self;
    Py_VISIT(op->memo);
    Py_VISIT(op->tls);
    Py_VISIT(op->general);
    Py_VISIT(op->ufs);
    for (int j = 0; j < CACHE_SLOTS; j++) {
        for (int i = 0; i < 3; i++)
            Py_VISIT(op->cache[j].k[i]);
        Py_VISIT(op->cache[j].hit);
    }
    Py_VISIT((PyObject *)Py_TYPE(self));
    return 0;
}

static int op_clear(PyObject *self) {
    Operator *op = (Operator *)self;
    Py_CLEAR(op->memo);
    Py_CLEAR(op->tls);
    Py_CLEAR(op->general);
    Py_CLEAR(op->ufs);
    for (int j = 0; j < CACHE_SLOTS; j++) {
        for (int i = 0; i < 3; i++)
            Py_CLEAR(op->cache[j].k[i]);
        Py_CLEAR(op->cache[j].hit);
    }
    return 0;
}

static void op_dealloc(PyObject *self) { gc_dealloc(self, op_clear); }

static PyMemberDef op_members[] = {{"general", T_OBJECT, offsetof(Operator, general), READONLY, NULL},
                                   {"memo_misses", T_PYSSIZET, offsetof(Operator, misses), READONLY, NULL},
                                   {NULL, 0, 0, 0, NULL}};

/* An operator's name and docstring are its general path's (`help(l.sum)` reads NumPy's pointer). */
static PyObject *op_doc(PyObject *self, void *unused) {
    return PyObject_GetAttrString(((Operator *)self)->general, "__doc__");
}

static PyObject *op_name(PyObject *self, void *unused) {
    return PyObject_GetAttrString(((Operator *)self)->general, "__name__");
}

static PyGetSetDef op_getset[] = {{"__doc__", op_doc, NULL, NULL, NULL},
                                  {"__name__", op_name, NULL, NULL, NULL},
                                  {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot op_slots[] = {
    /* (no Py_tp_doc: an instance's `__doc__` is its general path's, `op_getset`. A lazy-mode
       operation in C; `general`: the Python function it hands the rest to.) */
    {Py_tp_call, op_call},         {Py_tp_descr_get, op_get},  {Py_tp_traverse, op_traverse},
    {Py_tp_clear, op_clear},       {Py_tp_dealloc, op_dealloc}, {Py_tp_members, op_members},
    {Py_tp_getset, op_getset},     {0, NULL}};

static PyType_Spec op_spec = {"cuarray._core._nodecore.Operator", sizeof(Operator), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_METHOD_DESCRIPTOR, op_slots};
PyTypeObject *op_type;

static PyObject *make(int kind, int reflected, PyObject *memo, PyObject *tls, PyObject *general, PyObject *ufs) {
    if (!PyDict_Check(memo) || !PyCallable_Check(general)) {
        PyErr_SetString(PyExc_TypeError, "an operator's memo is a dict and its general path a callable");
        return NULL;
    }
    Operator *op = (Operator *)((allocfunc)PyType_GetSlot(op_type, Py_tp_alloc))(op_type, 0);
    if (!op)
        return NULL;
    op->kind = kind;
    op->reflected = reflected;
    memset(op->cache, 0, sizeof(op->cache));
    PyObject *f[4] = {memo, tls, general, ufs};
    for (int i = 0; i < 4; i++)
        Py_INCREF(f[i]);
    op->memo = memo;
    op->tls = tls;
    op->general = general;
    op->ufs = ufs;
    return (PyObject *)op;
}

/* binary_operator(memo, reflected, tls, general) */
static PyObject *binary_operator(PyObject *mod, PyObject *args) {
    PyObject *memo, *tls, *general;
    int reflected;
    if (!PyArg_ParseTuple(args, "OpOO", &memo, &reflected, &tls, &general))
        return NULL;
    return make(BINARY, reflected, memo, tls, general, Py_None);
}

/* unary_operator(ufs, memo, tls, general) */
static PyObject *unary_operator(PyObject *mod, PyObject *args) {
    PyObject *ufs, *memo, *tls, *general;
    if (!PyArg_ParseTuple(args, "OOOO", &ufs, &memo, &tls, &general))
        return NULL;
    return make(UNARY, 0, memo, tls, general, ufs);
}

/* traced_ufunc_operator(memo, general) */
static PyObject *traced_ufunc_operator(PyObject *mod, PyObject *args) {
    PyObject *memo, *general;
    if (!PyArg_ParseTuple(args, "OO", &memo, &general))
        return NULL;
    return make(UFUNC, 0, memo, Py_None, general, Py_None);
}

/* reduce_operator(name, tracing_state, memo, tls, general) */
static PyObject *reduce_operator(PyObject *mod, PyObject *args) {
    PyObject *name, *tstate, *memo, *tls, *general, *ufs, *op;
    if (!PyArg_ParseTuple(args, "UOOOO", &name, &tstate, &memo, &tls, &general) ||
        !(ufs = PyTuple_Pack(2, name, tstate)))
        return NULL;
    op = make(REDUCE, 0, memo, tls, general, ufs);
    Py_DECREF(ufs);
    return op;
}

/* traced_call_operator(memo, general) */
static PyObject *traced_call_operator(PyObject *mod, PyObject *args) {
    PyObject *memo, *general;
    if (!PyArg_ParseTuple(args, "OO", &memo, &general))
        return NULL;
    return make(CALL, 0, memo, Py_None, general, Py_None);
}

static PyMethodDef lazy_methods[] = {
    {"configure_lazy", configure_lazy, METH_VARARGS,
     "configure_lazy(LazyArray, ndarray, broadcast_shapes, MethodType, MAX_CHAIN, Trace.array)"},
    {"array", (PyCFunction)(void (*)(void))array_fn, METH_FASTCALL, "array(trace, a) -> Node: Trace.array"},
    {"binary_operator", binary_operator, METH_VARARGS,
     "binary_operator(memo, reflected, tls, general) -> Operator: fast_paths.binary_operator"},
    {"unary_operator", unary_operator, METH_VARARGS,
     "unary_operator(ufs, memo, tls, general) -> Operator: fast_paths.unary_operator"},
    {"memos_cleared", memos_cleared, METH_NOARGS, "memos_cleared(): the operators' memos were emptied (fast_paths.clear_memos)"},
    {"traced_ufunc_operator", traced_ufunc_operator, METH_VARARGS,
     "traced_ufunc_operator(memo, general) -> Operator: fast_paths.traced_ufunc"},
    {"reduce_operator", reduce_operator, METH_VARARGS,
     "reduce_operator(name, tracing_state, memo, tls, general) -> Operator: LazyArray.<name>() (fast_paths.fast_reduce)"},
    {"traced_call_operator", traced_call_operator, METH_VARARGS,
     "traced_call_operator(memo, general) -> Operator: fast_paths.traced_call (dot)"},
    {NULL, NULL, 0, NULL}};

int nc_lazyops_init(PyObject *m) {
    const char *names[] = {"_node", "_dtype", "_shape", "compute", "by_value", "array",
                           "_inside_routine", "dot", "out", "call", "_leaf", "reduce", "tracer"};
    PyObject **slots[] = {&s__node, &s__dtype, &s__shape, &s_compute, &s_by_value,
                          &s_array, &s_inside, &s_dot, &s_out, &s_call, &s__leaf, &s_reduce, &s_tracer};
    for (int i = 0; i < 13; i++)
        if (!(*slots[i] = PyUnicode_InternFromString(names[i])))
            return -1;
    if (!(op_type = (PyTypeObject *)PyType_FromSpec(&op_spec)))
        return -1;
    Py_INCREF((PyObject *)op_type);
    if (PyModule_AddObject(m, "Operator", (PyObject *)op_type) < 0) {
        Py_DECREF(op_type);
        return -1;
    }
    return PyModule_AddFunctions(m, lazy_methods);
}
