/* `with cuarray.lazy():` in C: `BlockFields`, the base of `lazy_mode.lazy`, whose `__enter__` and
   `__exit__` are C methods (the `with` statement calls them without a Python frame). For a block made
   as `lazy()` (no function, no `evaluate=`: the loop body's case) they are `lazy._enter` and
   `lazy._exit`, step for step, with `tracing.install` / `uninstall` and `evaluation.flush(st,
   last=True)` inline; the evaluation at the end goes to `evaluation._steady_finish` where set (C:
   steady.c), else, and for what it leaves, to `evaluation.compute` / `evaluation._run`. Any other
   block (`_general` set by `lazy.__init__`) runs the Python methods.

   Why: an empty `with lazy():` block ran six Python functions, 16.5k instructions on CPython 3.11
   (callgrind, device stubbed): a tenth of a replayed seed-logreg step (issue 57). */
#include "lazyops.h"

typedef struct {
    PyObject_HEAD
    PyObject *prev, *host_saved; /* the tracer `install` replaced; the thread's `host` at entry */
    char general;                /* `lazy._enter` / `lazy._exit` take the block */
} BlockFields;

/* configure_block's objects, in this order */
enum { B_THREADS, B_TRACING, B_ACTIVE, B_EVALUATION, B_N };
static PyObject *cfg;
static PyObject *k_depth, *k_host, *k_plans, *k_expect, *k_tracer, *k__enter, *k__exit, *k__steady_finish,
    *k_compute, *k__run, *k_flush;

#define CFG(i) PyTuple_GetItem(cfg, (i))

/* `tracing.uninstall(prev)`: 0, or -1 with an error set */
static int uninstall(PyObject *prev) {
    PyObject *ts = CFG(B_TRACING), *active = CFG(B_ACTIVE), *cur = PyObject_GetAttr(ts, k_tracer);
    if (!cur)
        return -1;
    int pop = cur != Py_None && prev == Py_None;
    Py_DECREF(cur);
    Py_ssize_t n = PyList_Size(active);
    if (pop && n > 0 && PyList_SetSlice(active, n - 1, n, NULL) < 0)
        return -1;
    return PyObject_SetAttr(ts, k_tracer, prev);
}

static int set_field(PyObject *st, int which, PyObject *v) {
    if (IS_A(st, statefields_type, state_class)) {
        PyObject **f = &((StateFields *)st)->live + which, *old = *f;
        Py_INCREF(v);
        *f = v;
        Py_XDECREF(old);
        return 0;
    }
    static const char *names[] = {"live", "trace", "internal"};
    return PyObject_SetAttrString(st, names[which], v);
}

static PyObject *block_enter(PyObject *self, PyObject *unused) {
    BlockFields *b = (BlockFields *)self;
    if (b->general || !cfg)
        return PyObject_CallMethodObjArgs(self, k__enter, NULL);
    PyObject *st = thread_state(CFG(B_THREADS)), *out = NULL, *depth = NULL, *host = NULL, *prev = NULL;
    PyObject *live = NULL, *plans = NULL, *expect = NULL, *trace = NULL, *next = NULL;
    if (!st || !(depth = PyObject_GetAttr(st, k_depth)) || !(host = PyObject_GetAttr(st, k_host)))
        goto done;
    long d = PyLong_AsLong(depth);
    if (d == -1 && PyErr_Occurred())
        goto done;
    PyObject *old = b->host_saved;
    b->host_saved = host; /* (the reference moves) */
    host = NULL;
    Py_XDECREF(old);
    if (d == 0) { /* a new stretch of building: its live set and trace, expecting the predicted entries */
        if (!(live = PyObject_CallNoArgs((PyObject *)live_type)) || !(plans = PyObject_GetAttr(st, k_plans)) ||
            !(expect = PyObject_GetAttr(plans, k_expect)) ||
            !(trace = PyObject_CallFunctionObjArgs((PyObject *)trace_class, expect, NULL)) ||
            set_field(st, SF_LIVE, live) < 0 || set_field(st, SF_TRACE, trace) < 0 || set_field(st, SF_INTERNAL, Py_None) < 0)
            goto done;
    }
    if (!(prev = PyObject_GetAttr(CFG(B_TRACING), k_tracer)) || PyObject_SetAttr(CFG(B_TRACING), k_tracer, st) < 0 ||
        (prev == Py_None && PyList_Append(CFG(B_ACTIVE), Py_None) < 0))
        goto done; /* (`tracing.install(st)`) */
    old = b->prev;
    b->prev = prev;
    prev = NULL;
    Py_XDECREF(old);
    if (!(next = PyLong_FromLong(d + 1)) || PyObject_SetAttr(st, k_depth, next) < 0)
        goto done;
    Py_INCREF(self);
    out = self;
done:
    Py_XDECREF(st);
    Py_XDECREF(depth);
    Py_XDECREF(host);
    Py_XDECREF(prev);
    Py_XDECREF(live);
    Py_XDECREF(plans);
    Py_XDECREF(expect);
    Py_XDECREF(trace);
    Py_XDECREF(next);
    return out;
}

/* `evaluation.flush(st, last=True)`: 0, or -1 with an error set */
static int flush_last(PyObject *st) {
    PyObject *ev = CFG(B_EVALUATION);
    PyObject *live = IS_A(st, statefields_type, state_class) ? ((StateFields *)st)->live : NULL;
    if (!live || Py_TYPE(live) != live_type) { /* (no live set, or another kind: the Python function) */
        PyObject *r = live == Py_None ? (Py_INCREF(Py_None), Py_None)
                                      : PyObject_CallMethodObjArgs(ev, k_flush, st, Py_True, NULL);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    int r = PyObject_IsTrue(live);
    if (r <= 0)
        return r;
    PyObject *pending = live_pending(live, NULL), *fn = NULL, *done = NULL;
    int rc = -1;
    if (!pending || set_field(st, SF_LIVE, Py_None) < 0)
        goto out;
    if (PyList_Size(pending) == 0) {
        rc = 0;
        goto out;
    }
    if (!(fn = PyObject_GetAttr(ev, k__steady_finish)))
        goto out;
    if (fn == Py_None) {
        done = Py_None;
        Py_INCREF(done);
    } else {
        done = fn == steady_fn ? steady_call(st, pending) : PyObject_CallFunctionObjArgs(fn, st, pending, NULL);
    }
    if (!done)
        goto out;
    if (done == Py_True) {
        rc = 0;
    } else if (done == Py_None) { /* (`compute`: its steady path finds nothing to do either) */
        PyObject *r = PyObject_CallMethodObjArgs(ev, k_compute, st, pending, Py_True, NULL);
        rc = r ? 0 : -1;
        Py_XDECREF(r);
    } else if (PyTuple_Check(done) && PyTuple_Size(done) == 3) { /* planned: `_run` does the rest */
        PyObject *trace = ((StateFields *)st)->trace;
        PyObject *r = PyObject_CallMethodObjArgs(ev, k__run, trace ? trace : Py_None, pending, PyTuple_GetItem(done, 0),
                                                 PyTuple_GetItem(done, 1), PyTuple_GetItem(done, 2), NULL);
        rc = r ? 0 : -1;
        Py_XDECREF(r);
    } else {
        PyErr_SetString(PyExc_SystemError, "lazy block: _steady_finish returned something else");
    }
out:
    Py_XDECREF(pending);
    Py_XDECREF(fn);
    Py_XDECREF(done);
    return rc;
}

static PyObject *block_exit(PyObject *self, PyObject *const *a, Py_ssize_t na) {
    BlockFields *b = (BlockFields *)self;
    if (b->general || !cfg || na != 3) {
        PyObject *args = PyTuple_New(na), *m = args ? PyObject_GetAttr(self, k__exit) : NULL, *r = NULL;
        for (Py_ssize_t i = 0; args && i < na; i++) {
            Py_INCREF(a[i]);
            PyTuple_SetItem(args, i, a[i]);
        }
        r = m ? PyObject_Call(m, args, NULL) : NULL;
        Py_XDECREF(args);
        Py_XDECREF(m);
        return r;
    }
    PyObject *st = thread_state(CFG(B_THREADS)), *depth = NULL, *next = NULL;
    PyObject *host = b->host_saved ? b->host_saved : Py_False, *prev = b->prev ? b->prev : Py_None;
    int ok = 0;
    if (!st || PyObject_SetAttr(st, k_host, host) < 0 || !(depth = PyObject_GetAttr(st, k_depth)))
        goto done;
    long d = PyLong_AsLong(depth) - 1;
    if (PyErr_Occurred() || !(next = PyLong_FromLong(d)) || PyObject_SetAttr(st, k_depth, next) < 0)
        goto done;
    if (d) { /* an inner block: the outer one computes */
        ok = prev == st || uninstall(prev) == 0;
        goto done;
    }
    int flushed = a[0] == Py_None ? flush_last(st) : 0;
    /* (`_exit`'s finally: the stretch ends, the tracer goes, whatever the flush raised) */
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    if (flushed < 0)
        PyErr_Fetch(&et, &ev, &tb);
    int cleared = set_field(st, SF_LIVE, Py_None) == 0 && set_field(st, SF_TRACE, Py_None) == 0 &&
                  (prev == st || uninstall(prev) == 0);
    if (flushed < 0) {
        if (cleared)
            PyErr_Restore(et, ev, tb);
        else { /* (the finally's own error replaces the flush's, as in Python) */
            Py_XDECREF(et);
            Py_XDECREF(ev);
            Py_XDECREF(tb);
        }
    }
    ok = flushed == 0 && cleared;
done:
    Py_XDECREF(st);
    Py_XDECREF(depth);
    Py_XDECREF(next);
    if (!ok)
        return NULL;
    Py_RETURN_FALSE;
}

static int block_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((BlockFields *)self)->prev);
    Py_VISIT(((BlockFields *)self)->host_saved);
    Py_VISIT((PyObject *)Py_TYPE(self));
    return 0;
}

static int block_clear(PyObject *self) {
    Py_CLEAR(((BlockFields *)self)->prev);
    Py_CLEAR(((BlockFields *)self)->host_saved);
    return 0;
}

static void block_dealloc(PyObject *self) { gc_dealloc(self, block_clear); }

static PyMemberDef block_members[] = {{"_general", T_BOOL, offsetof(BlockFields, general), 0, NULL},
                                      {NULL, 0, 0, 0, NULL}};

static PyMethodDef block_methods[] = {
    {"__enter__", block_enter, METH_NOARGS, "Enter the block (`lazy._enter` where `_general`)."},
    {"__exit__", (PyCFunction)(void (*)(void))block_exit, METH_FASTCALL, "Leave the block (`lazy._exit` where `_general`)."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot block_slots[] = {{Py_tp_doc, "A `with lazy():` block's entry and exit in C (block.c)."},
                                    {Py_tp_traverse, block_traverse},
                                    {Py_tp_clear, block_clear},
                                    {Py_tp_dealloc, block_dealloc},
                                    {Py_tp_members, block_members},
                                    {Py_tp_methods, block_methods},
                                    {0, NULL}};

static PyType_Spec block_spec = {"cuarray._core._nodecore.BlockFields", sizeof(BlockFields), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, block_slots};

/* configure_block(lazy_mode._threads, tracing.state, tracing.active, the evaluation module) */
static PyObject *configure_block(PyObject *mod, PyObject *args) {
    if (!PyTuple_Check(args) || PyTuple_Size(args) != B_N || !PyList_Check(PyTuple_GetItem(args, B_ACTIVE))) {
        PyErr_SetString(PyExc_TypeError, "configure_block(threads, tracing_state, active, evaluation)");
        return NULL;
    }
    PyObject **const slots[1] = {&cfg};
    PyObject *const values[1] = {args};
    replace_refs(slots, values, 1);
    Py_RETURN_NONE;
}

static PyMethodDef block_module_methods[] = {
    {"configure_block", configure_block, METH_VARARGS,
     "configure_block(lazy_mode._threads, tracing.state, tracing.active, evaluation module)"},
    {NULL, NULL, 0, NULL}};

int nc_block_init(PyObject *m) {
    const char *names[] = {"depth", "host", "plans", "expect", "tracer", "_enter", "_exit", "_steady_finish",
                           "compute", "_run", "flush"};
    PyObject **keys[] = {&k_depth, &k_host, &k_plans, &k_expect, &k_tracer, &k__enter, &k__exit, &k__steady_finish,
                         &k_compute, &k__run, &k_flush};
    for (int i = 0; i < 11; i++)
        if (!(*keys[i] = PyUnicode_InternFromString(names[i])))
            return -1;
    PyObject *t = PyType_FromSpec(&block_spec);
    if (!t || PyModule_AddObject(m, "BlockFields", t) < 0) {
        Py_XDECREF(t);
        return -1;
    }
    return PyModule_AddFunctions(m, block_module_methods);
}
