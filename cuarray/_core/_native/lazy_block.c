/* `with cuarray.lazy():` in C: `LazyBlock`, the base of `fusion.lazy_mode.lazy` where this module
   is built. Its fields are the context's (`_fn`, `_evaluate`, `_host`, `_track`, and what a block
   keeps from its entry to its exit); made with no argument it sets nothing more (the common case,
   `with cuarray.lazy():` at every step of a loop), else it calls the class's `_setup` with the
   arguments (validation, `functools.update_wrapper` for the decorator). `__enter__` and
   `__exit__` are `fusion.lazy_block.LazyBlock`'s, the pure-Python reference, step for step: the
   thread's state (`thread_state`), its depth and host flag, a new live set and trace at depth 0,
   the tracer's switch (threadlocal.c), and at the outermost exit the evaluation of what is still
   pending (`evaluation.flush(st, last=True)`, whose steady case calls `steady_finish` from here;
   any other, or `evaluation._steady_finish` set to None, goes to `flush` itself).
   tests/_core/test_fusion_lazy_block_cpu.py runs blocks of every kind both ways.

   Why: a block's entry and exit were ~12.8k instructions of Python (callgrind, device stubbed),
   1.4 us of host time on the H200's host, at every evaluation of a loop body (a cached
   10-node chain's evaluation is ~14 us there, against a target of 10). */
#include "lazyops.h"

typedef struct {
    PyObject_HEAD
    PyObject *fn, *evaluate, *host, *track, *saved, *prev, *host_saved;
} LazyBlock;
#define N_BLOCK_FIELDS 7
#define BLOCK_FIELDS(o) (&((LazyBlock *)(o))->fn)

FIELD_RUN_GC(block, BLOCK_FIELDS, N_BLOCK_FIELDS, NULL)

/* configure_lazy_block's: lazy_mode._threads, the live set's class, the trace's class, the evaluation
   module (its `_steady_finish`, read at each exit, `flush`, `compute`, `_run`), steady_finish itself */
static PyObject *threads, *live_class, *trace_cls, *evaluation, *steady;
static PyObject *s_expect_, *s_flush, *s_compute_, *s__run, *s__steady_finish, *s_pending, *s__setup;

static PyObject *configure_lazy_block(PyObject *mod, PyObject *args) {
    PyObject *th, *lc, *tc, *ev, *sf;
    if (!PyArg_ParseTuple(args, "OOOOO", &th, &lc, &tc, &ev, &sf))
        return NULL;
    PyObject **const slots[5] = {&threads, &live_class, &trace_cls, &evaluation, &steady};
    PyObject *const values[5] = {th, lc, tc, ev, sf};
    replace_refs(slots, values, 5);
    Py_RETURN_NONE;
}

static PyObject *block_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    LazyBlock *b = (LazyBlock *)alloc(type, 0);
    if (b) { /* (the defaults: `_host` False, `_track` True; the others read as None) */
        Py_INCREF(Py_False);
        b->host = Py_False;
        Py_INCREF(Py_True);
        b->track = Py_True;
    }
    return (PyObject *)b;
}

/* `lazy()` sets nothing more; `lazy(fn)`, `lazy(evaluate=...)`: the class's `_setup(*args, **kw)` */
static int block_init(PyObject *self, PyObject *args, PyObject *kw) {
    if ((!args || PyTuple_Size(args) == 0) && (!kw || PyDict_Size(kw) == 0))
        return 0;
    PyObject *setup = PyObject_GetAttr(self, s__setup);
    PyObject *r = setup ? PyObject_Call(setup, args ? args : empty, kw) : NULL;
    Py_XDECREF(setup);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* *field = v, taking the caller's reference to v (nodecore.h's replace_field, which takes its own) */
static void put(PyObject **field, PyObject *v) {
    replace_field(field, v);
    Py_DECREF(v);
}

/* The truth of a flag field (unset: `dflt`); -1 with an error set */
static int flag(PyObject *v, int dflt) {
    if (!v)
        return dflt;
    return v == Py_True ? 1 : v == Py_False || v == Py_None ? 0 : PyObject_IsTrue(v);
}

/* `st.depth` as a C long (-1 with an error set: not an int) */
static long depth_of(PyObject *st) {
    PyObject *d = state_get(st, SF_DEPTH);
    long v = d ? PyLong_AsLong(d) : -1;
    Py_XDECREF(d);
    if (v < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "lazy: the thread's depth is negative");
    return v;
}

static int set_depth(PyObject *st, long d) {
    PyObject *v = PyLong_FromLong(d);
    int r = v ? state_set(st, SF_DEPTH, v) : -1;
    Py_XDECREF(v);
    return r;
}

static PyObject *block_enter(PyObject *self, PyObject *unused) {
    LazyBlock *b = (LazyBlock *)self;
    if (!threads) {
        PyErr_SetString(PyExc_RuntimeError, "LazyBlock: configure_lazy_block() first");
        return NULL;
    }
    PyObject *st = thread_state(threads), *hs = NULL;
    long depth = st ? depth_of(st) : -1;
    int host = flag(b->host, 0), track = flag(b->track, 1);
    if (depth < 0 || host < 0 || track < 0 || !(hs = state_get(st, SF_HOST)))
        goto fail;
    put(&b->host_saved, hs);
    if (host && state_set(st, SF_HOST, Py_True) < 0)
        goto fail;
    if (depth == 0) {
        PyObject *live = PyObject_CallNoArgs(live_class), *plans = NULL, *expect = NULL, *trace = NULL;
        int ok = live && state_set(st, SF_LIVE, live) == 0 && (plans = state_get(st, SF_PLANS)) &&
                 (expect = PyObject_GetAttr(plans, s_expect_)) &&
                 (trace = PyObject_CallFunctionObjArgs(trace_cls, expect, NULL)) &&
                 state_set(st, SF_TRACE, trace) == 0 && state_set(st, SF_INTERNAL, Py_None) == 0;
        Py_XDECREF(live);
        Py_XDECREF(plans);
        Py_XDECREF(expect);
        Py_XDECREF(trace);
        if (!ok)
            goto fail;
    }
    /* This thread's tracer from here to `__exit__` (inside an outer block it already is) */
    PyObject *prev = tracer_install(st);
    if (!prev)
        goto fail;
    put(&b->prev, prev);
    if (set_depth(st, depth + 1) < 0)
        goto fail;
    if (!track) { /* (tracing for `fuse`: nothing is computed on exit) */
        PyObject *live = state_get(st, SF_LIVE);
        if (!live)
            goto fail;
        put(&b->saved, live);
        if (state_set(st, SF_LIVE, Py_None) < 0)
            goto fail;
    }
    Py_DECREF(st);
    Py_INCREF(self);
    return self;
fail:
    Py_XDECREF(st);
    return NULL;
}

/* `evaluation.<name>(*args)`, its result released: 0, or -1 with an error set */
static int call_evaluation(PyObject *name, PyObject *a0, PyObject *a1, PyObject *a2) {
    PyObject *f = module_attr(evaluation, name);
    PyObject *r = f ? PyObject_CallFunctionObjArgs(f, a0, a1, a2, NULL) : NULL;
    Py_XDECREF(f);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* `evaluation.flush(st, last=True)`: 0, or -1 with an error set */
static int flush_last(PyObject *st) {
    PyObject *sf = module_attr(evaluation, s__steady_finish);
    if (!sf)
        return -1;
    int native = sf == steady;
    Py_DECREF(sf);
    PyObject *live = state_get(st, SF_LIVE);
    if (!live)
        return -1;
    if (live == Py_None) { /* (`if not live: return`) */
        Py_DECREF(live);
        return 0;
    }
    if (!native || Py_TYPE(live) != (PyTypeObject *)live_class) { /* (its Python path: weak references, or no steady path) */
        Py_DECREF(live);
        return call_evaluation(s_flush, st, Py_True, NULL);
    }
    int any = PyObject_IsTrue(live); /* (`if not live: return`) */
    if (any <= 0) {
        Py_DECREF(live);
        return any;
    }
    PyObject *pending = PyObject_CallMethodObjArgs(live, s_pending, NULL);
    Py_DECREF(live);
    if (!pending || state_set(st, SF_LIVE, Py_None) < 0) { /* (leaving lazy mode: the set goes with it) */
        Py_XDECREF(pending);
        return -1;
    }
    int rc = PyObject_IsTrue(pending);
    if (rc > 0) {
        PyObject *done = PyObject_CallFunctionObjArgs(steady, st, pending, NULL);
        if (!done) {
            rc = -1;
        } else if (done == Py_None) {
            rc = call_evaluation(s_compute_, st, pending, Py_True);
        } else if (done != Py_True) { /* (prog, values, t0): `_run(st.trace, pending, *done)` */
            PyObject *trace = state_get(st, SF_TRACE), *f = trace ? module_attr(evaluation, s__run) : NULL;
            PyObject *head = f ? PyTuple_Pack(2, trace, pending) : NULL;
            PyObject *full = head ? PySequence_Concat(head, done) : NULL;
            PyObject *r = full ? PyObject_Call(f, full, NULL) : NULL;
            rc = r ? 0 : -1;
            Py_XDECREF(trace);
            Py_XDECREF(f);
            Py_XDECREF(head);
            Py_XDECREF(full);
            Py_XDECREF(r);
        } else {
            rc = 0;
        }
        Py_XDECREF(done);
    }
    Py_DECREF(pending);
    return rc < 0 ? -1 : 0;
}

static PyObject *block_exit(PyObject *self, PyObject *args) {
    LazyBlock *b = (LazyBlock *)self;
    PyObject *exc_type = PyTuple_Check(args) && PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : Py_None;
    if (!threads) {
        PyErr_SetString(PyExc_RuntimeError, "LazyBlock: configure_lazy_block() first");
        return NULL;
    }
    PyObject *st = thread_state(threads), *prev = b->prev ? b->prev : Py_None;
    int track = flag(b->track, 1);
    long depth;
    if (!st || track < 0 || state_set(st, SF_HOST, b->host_saved ? b->host_saved : Py_None) < 0 ||
        (depth = depth_of(st)) < 0 || set_depth(st, depth - 1) < 0 ||
        (!track && state_set(st, SF_LIVE, b->saved ? b->saved : Py_None) < 0))
        goto fail;
    Py_INCREF(prev); /* (held: the flush runs Python code, which may enter this context again) */
    if (depth - 1) {
        int r = prev != st ? tracer_uninstall(prev) : 0;
        Py_DECREF(prev);
        if (r < 0)
            goto fail;
        Py_DECREF(st);
        Py_RETURN_FALSE;
    }
    int err = exc_type == Py_None && track ? flush_last(st) : 0;
    /* finally: leaving lazy mode whatever the flush did (an error of these steps replaces its error) */
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    if (err < 0)
        PyErr_Fetch(&et, &ev, &tb);
    int clean = state_set(st, SF_LIVE, Py_None) == 0 && state_set(st, SF_TRACE, Py_None) == 0 &&
                (prev == st || tracer_uninstall(prev) == 0);
    Py_DECREF(prev);
    if (err < 0 && clean) {
        PyErr_Restore(et, ev, tb);
    } else {
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
    }
    if (err < 0 || !clean)
        goto fail;
    Py_DECREF(st);
    Py_RETURN_FALSE;
fail:
    Py_XDECREF(st);
    return NULL;
}

#define BMEMBER(name, field) {#name, T_OBJECT, offsetof(LazyBlock, field), 0, NULL}
static PyMemberDef block_members[] = {BMEMBER(_fn, fn),       BMEMBER(_evaluate, evaluate), BMEMBER(_host, host),
                                      BMEMBER(_track, track), BMEMBER(_saved, saved),       BMEMBER(_prev, prev),
                                      BMEMBER(_host_saved, host_saved), {NULL, 0, 0, 0, NULL}};

static PyMethodDef block_methods[] = {
    {"__enter__", block_enter, METH_NOARGS, "Enter lazy mode in this thread (the outermost block: a new graph)."},
    {"__exit__", block_exit, METH_VARARGS,
     "Leave it (the outermost block: what is pending is computed, unless an exception is passing)."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot block_slots[] = {
    {Py_tp_doc, "LazyBlock(fn=None, *, evaluate=None, _track=True)\n--\n\n"
                "`with cuarray.lazy():` as C (lazy_block.c): the base of fusion.lazy_mode.lazy. (The signature\n"
                "line above is `lazy`'s own, which inspect.signature and help() find here: `lazy` has no __init__.)"},
    {Py_tp_new, block_new},
    {Py_tp_init, block_init},
    {Py_tp_traverse, block_traverse},
    {Py_tp_clear, block_clear},
    {Py_tp_dealloc, block_dealloc},
    {Py_tp_members, block_members},
    {Py_tp_methods, block_methods},
    {0, NULL}};

static PyType_Spec block_spec = {"cuarray._core._nodecore.LazyBlock", sizeof(LazyBlock), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, block_slots};

static PyMethodDef methods[] = {
    {"configure_lazy_block", configure_lazy_block, METH_VARARGS,
     "configure_lazy_block(lazy_mode._threads, Live, Trace, evaluation module, steady_finish)"},
    {NULL, NULL, 0, NULL}};

#define INTERN(var, text)                                   \
    if (!((var) = PyUnicode_InternFromString(text)))        \
        return -1;

int nc_lazy_block_init(PyObject *m) {
    INTERN(s_expect_, "expect")
    INTERN(s_flush, "flush")
    INTERN(s_compute_, "compute")
    INTERN(s__run, "_run")
    INTERN(s__steady_finish, "_steady_finish")
    INTERN(s_pending, "pending")
    INTERN(s__setup, "_setup")
    PyObject *t = PyType_FromSpec(&block_spec);
    if (!t || PyModule_AddObject(m, "LazyBlock", t) < 0) {
        Py_XDECREF(t);
        return -1;
    }
    return PyModule_AddFunctions(m, methods);
}
