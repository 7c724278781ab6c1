/* Lazy mode's traced `dot` of two arrays (`lazy_mode._State.call`) and a LazyArray's whole-array
   reduction methods (`l.sum()`, `l.mean()`) as one C call each (lazyops.c's CALL and REDUCE
   operators): `fusion/fast_paths.py`'s `traced_call` and `fast_reduce`, step for step, for their
   common cases; anything else calls the Python function (tests/_core/test_fusion_fastpath_cpu.py
   builds the same traces both ways). */
#include "lazyops.h"

/* The key part (dtype, shape) of a product's operand (new reference) and its lazy node (borrowed,
   NULL for a concrete array); NULL with no error where `traced_call` takes the general path: a
   `fuse` scalar, a node of an earlier stretch not computed, anything but an array. */
static PyObject *product_key(PyObject *x, PyObject *tid, PyObject **node) {
    PyTypeObject *t = Py_TYPE(x);
    *node = NULL;
    if (t == lazy_type) {
        PyObject *n = node_of(x), *k = NULL;
        if (n && plain_node(n)) {
            NodeFields *f = (NodeFields *)n;
            int here = seg_is(n, tid);
            if (here > 0 || (here == 0 && f->value && f->value != Py_None)) {
                *node = n; /* (held by x) */
                k = PyTuple_Pack(2, f->dtype, f->shape);
            }
        }
        Py_XDECREF(n);
        return k;
    }
    if (t == ndarray_type) {
        PyObject *d = array_attr(x, 0), *sh = d ? array_attr(x, 1) : NULL;
        PyObject *k = sh ? PyTuple_Pack(2, d, sh) : NULL;
        Py_XDECREF(d);
        Py_XDECREF(sh);
        return k;
    }
    return NULL;
}

/* `st.call("dot", fn, (a, b), {"out": None})` of the tracer (`fast_paths.traced_call` for `dot`);
   GENERAL where it does not apply (another routine, keywords, a miss). */
PyObject *traced_product(Operator *op, PyObject *st, PyObject *name, PyObject *args, PyObject *kwargs,
                                PyObject *live) {
    if (!str_is(name, s_dot) || !PyTuple_Check(args) || PyTuple_Size(args) != 2 || !PyDict_Check(kwargs) ||
        PyDict_Size(kwargs) != 1)
        return GENERAL;
    PyObject *o = PyDict_GetItemWithError(kwargs, s_out);
    if (o != Py_None)
        return PyErr_Occurred() ? NULL : GENERAL;
    PyObject *a = PyTuple_GetItem(args, 0), *b = PyTuple_GetItem(args, 1);
    PyObject *tr = state_get(st, SF_TRACE), *tid = tr ? trace_get(tr, TF_ID) : NULL;
    PyObject *na = NULL, *nb = NULL, *ka = NULL, *kb = NULL, *key = NULL, *hit, *xa = NULL, *xb = NULL;
    PyObject *n = NULL, *out = GENERAL, *ops = NULL, *pos = NULL, *e = NULL;
    int in;
    if (!tid || !(ka = product_key(a, tid, &na)) || !(kb = product_key(b, tid, &nb)))
        goto done;
    if (!(key = PyTuple_Pack(3, name, ka, kb)) || !(hit = PyDict_GetItemWithError(op->memo, key)))
        goto done;
    PyObject *attr = PyTuple_Check(hit) && PyTuple_Size(hit) == 3 ? PyTuple_GetItem(hit, 2) : NULL;
    if (!attr || !PyTuple_Check(attr) || PyTuple_Size(attr) < 4)
        goto done; /* (never stored so: the Python function takes it) */
    Py_INCREF(hit); /* (held across the calls below, which may run Python code) */
    if (!na && !nb && (in = inside_routine(st)) != 0) {
        if (in < 0)
            out = NULL;
        Py_DECREF(hit);
        goto done;
    }
    /* The general path's order: the concrete operands' input nodes (a's, then b's), then the
       computed lazy operands of an earlier stretch as leaves (a's, then b's). */
    if (!(xa = na ? (Py_INCREF(na), na) : trace_array(tr, a)) || !(xb = nb ? (Py_INCREF(nb), nb) : trace_array(tr, b)) ||
        Py_TYPE(xa) != node_type || Py_TYPE(xb) != node_type) {
        Py_DECREF(hit);
        goto done; /* (an error, or Trace.array's reference made something else) */
    }
    for (int i = 0; i < 2; i++) {
        PyObject *x = i ? xb : xa, *r;
        int here = seg_is(x, tid);
        if (here == 0 && computed_leaf(x))
            here = leaf_computed(tr, tid, x); /* (0: not a TraceFields, the method below) */
        if (here < 0 || (here == 0 && !(r = PyObject_CallMethodObjArgs(tr, s__leaf, x, NULL)))) {
            Py_DECREF(hit);
            out = NULL;
            goto done;
        }
        if (here == 0)
            Py_DECREF(r);
    }
    NodeFields *f = NEW_NODE();
    n = (PyObject *)f;
    if (!f || !(ops = trace_get(tr, TF_OPS)) || !PyList_Check(ops) || !(f->pos = PyLong_FromSsize_t(PyList_Size(ops))) ||
        !(pos = PyTuple_Pack(2, ((NodeFields *)xa)->pos, ((NodeFields *)xb)->pos)) ||
        !(e = PyTuple_Pack(3, s_call, PyTuple_GetItem(attr, 3), pos)) || PyList_Append(ops, e) < 0) {
        Py_DECREF(hit);
        out = NULL;
        goto done;
    }
    SET(f, kind, s_call);
    f->args = PyTuple_Pack(2, xa, xb);
    SET(f, shape, PyTuple_GetItem(hit, 0));
    SET(f, dtype, PyTuple_GetItem(hit, 1));
    SET(f, attr, attr);
    SET(f, value, Py_None);
    SET(f, weak, Py_None);
    SET(f, cost, zero);
    SET(f, seg, tid);
    Py_DECREF(hit);
    if (!f->args) {
        out = NULL;
        goto done;
    }
    out = emit(n, st, live); /* (steals n; a product's cost is 0: never past MAX_CHAIN) */
    n = NULL;
done:
    if (out == GENERAL && PyErr_Occurred())
        out = NULL;
    Py_XDECREF(tr);
    Py_XDECREF(tid);
    Py_XDECREF(ka);
    Py_XDECREF(kb);
    Py_XDECREF(key);
    Py_XDECREF(xa);
    Py_XDECREF(xb);
    Py_XDECREF(n);
    Py_XDECREF(ops);
    Py_XDECREF(pos);
    Py_XDECREF(e);
    return out;
}

/* `self.<name>()` of a LazyArray, no arguments (`fast_paths.fast_reduce`, its common case: an
   operand recorded in this stretch, no cast after a mean); GENERAL where it does not apply. The
   operator's `ufs` is (name, tracing.state): the method records only while this thread's tracer
   is its lazy state. A mean is recorded as the general path records it: the count's scalar, the
   sum, then the division. */
PyObject *reduce_method(Operator *op, PyObject *self, PyObject *st, PyObject *live) {
    if (!PyTuple_Check(op->ufs) || PyTuple_Size(op->ufs) != 2)
        return GENERAL;
    PyObject *name = PyTuple_GetItem(op->ufs, 0), *tracer = local_attr(PyTuple_GetItem(op->ufs, 1), s_tracer);
    if (!tracer)
        return NULL;
    Py_DECREF(tracer); /* (compared by identity only) */
    if (tracer != st)
        return GENERAL;
    PyObject *x = node_of(self), *tr = NULL, *tid = NULL, *key = NULL, *hit = NULL, *out = GENERAL;
    PyObject *c = NULL, *ops = NULL, *pos = NULL, *e = NULL, *pair = NULL;
    NodeFields *r = NULL;
    if (!x)
        return NULL;
    if (!plain_node(x) || !(tr = state_get(st, SF_TRACE)) || !(tid = trace_get(tr, TF_ID)) ||
        seg_is(x, tid) <= 0)
        goto done;
    NodeFields *xf = (NodeFields *)x;
    if (!(key = PyTuple_Pack(3, name, xf->dtype, xf->shape)) || !(hit = PyDict_GetItemWithError(op->memo, key)))
        goto done;
    PyObject *div = PyTuple_Check(hit) && PyTuple_Size(hit) == 4 ? PyTuple_GetItem(hit, 3) : NULL;
    if (!div || (div != Py_None && (!PyTuple_Check(div) || PyTuple_Size(div) != 4 ||
                                    PyTuple_GetItem(div, 3) != Py_None))) {
        hit = NULL;
        goto done; /* (never stored so, or a cast after the mean: the Python function takes it) */
    }
    Py_INCREF(hit); /* (held across the calls below, which may run Python code) */
    out = NULL;
    if (div != Py_None && !(c = nc_scalar(tr, PyTuple_GetItem(div, 0), (PyObject *)&PyFloat_Type)))
        goto done;
    if (!(r = NEW_NODE()) || !(ops = trace_get(tr, TF_OPS)) || !PyList_Check(ops) ||
        !(r->pos = PyLong_FromSsize_t(PyList_Size(ops))) || !(pos = PyTuple_Pack(1, xf->pos)) ||
        !(e = PyTuple_Pack(3, s_reduce, PyTuple_GetItem(hit, 0), pos)) || PyList_Append(ops, e) < 0)
        goto done;
    SET(r, kind, s_reduce);
    SET(r, shape, PyTuple_GetItem(hit, 2));
    SET(r, dtype, PyTuple_GetItem(hit, 1));
    SET(r, attr, PyTuple_GetItem(hit, 0));
    SET(r, value, Py_None);
    SET(r, weak, Py_None);
    SET(r, cost, zero);
    SET(r, seg, tid);
    if (!(r->args = PyTuple_Pack(1, x)))
        goto done;
    if (div == Py_None) {
        out = emit((PyObject *)r, st, live); /* (steals r) */
        r = NULL;
        goto done;
    }
    PyObject *a[5] = {tr, PyTuple_GetItem(div, 1), PyTuple_GetItem(div, 2), r->shape, NULL};
    if (!(pair = PyTuple_Pack(2, (PyObject *)r, c)))
        goto done;
    a[4] = pair;
    out = emit(nc_ufunc(NULL, a, 5), st, live);
done:
    if (out == GENERAL && PyErr_Occurred())
        out = NULL;
    Py_DECREF(x);
    Py_XDECREF(tr);
    Py_XDECREF(tid);
    Py_XDECREF(key);
    Py_XDECREF(hit);
    Py_XDECREF(c);
    Py_XDECREF(ops);
    Py_XDECREF(pos);
    Py_XDECREF(e);
    Py_XDECREF(pair);
    Py_XDECREF((PyObject *)r);
    return out;
}

