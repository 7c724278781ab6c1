/* A lazy loop body's evaluation in its steady state, as one C call: `steady_finish(st, nodes)` is
   `evaluation.compute(st, nodes, last=True)` (the evaluation at the end of a `with lazy():` block,
   which `evaluation.flush(st, last=True)` asks for first) where that evaluation is the predicted
   one and needs no decision, in two cases:
   - its Program is replayed as the CUDA graph that follows the last replay (`graph_replay`: the
     inputs read in place unmoved, the scalars unchanged, every carried input the last replay's
     output, the graph's earlier outputs no longer held, no input to copy);
   - its Program is never replayed (a step not capturable, too few launches to pay): it runs.
   Each is the general path's steps, in its order, with its effects on the thread's plans
   (`planner.plan_traced`'s predicted case), the graph entry (`graph_replay._replay_entry`,
   `_launch`) and the evaluation log (`replay.note`). Anything else goes to the Python path: a
   prediction missed answers None before any effect; a replay to decide, an input to copy, a
   capture to make or device times asked for answer (prog, values, t0) once the plan is confirmed
   and the previous step's graph released (`compute`'s first steps: the replay's test of what is
   still held needs that release), and `evaluation._run` does the rest.
   tests/_core/test_fusion_steady_cpu.py runs loops both ways and compares the logs, graph
   launches, captures, copies and the arrays handed out.

   Why: the general path is ten Python functions a step. On the H100's host, the end of the
   seed-logreg body (planning confirmed, replay decided, graph launched, noted) took 17-18 us of a
   39 us step (docs/perf-notes.md, "Lazy mode's host cost"). */
#include "lazyops.h"

/* configure_steady's objects, in this order */
enum { E_PROGRAMS, E_GENERATION, E_REPLAY, E_LOGS, E_GRAPHS, E_IS_CAPTURING, E_STREAM, E_DEVICE, E_CLOCK, E_LABEL,
       E_GRAPH_LAUNCHER, E_CORE_STREAM, E_N };
static PyObject *env;

#define NAMES(X)                                                                                                \
    X(plans) X(predicted) X(last) X(next) X(expect) X(ops) X(pos) X(prog) X(table) X(gen) X(replay_facts)      \
    X(inputs) X(one) X(run) X(lg) X(log) X(sig) X(why) X(outs) X(repeats) X(replayed) X(entries) X(declined)  \
    X(n) X(stream) X(device) X(stable) X(scalars_of) X(scalar_values) X(arrays_at) X(static) X(carried)       \
    X(graphs) X(replay) X(GRAPH_REPLAY) X(DEVICE_TIMES) X(MIN_SAVED) X(GRAPH_LAUNCH) X(data) X(ptr) X(_strides) X(append) X(value) X(args) \
    X(_exec_handle)
#define DECLARE(name) static PyObject *k_##name;
NAMES(DECLARE)
#define NAME_ID(name) N_##name,
enum { NAMES(NAME_ID) N_NAMES }; /* each name's number: a record class's field index is looked up by it */
#define NAME_ADDR(name) &k_##name,
static PyObject **const name_keys[N_NAMES] = {NAMES(NAME_ADDR)};

#define MAX_OWNED 96 /* (the longest path keeps 61) */
typedef struct {
    PyObject *o[MAX_OWNED];
    int k;
} Owned;

/* `x` (a new reference, or NULL) kept in `own` until the call ends; NULL stays NULL */
static PyObject *keep(Owned *own, PyObject *x) {
    if (x && own->k < MAX_OWNED)
        own->o[own->k++] = x;
    else if (x) { /* (never: the checks below take fewer) */
        Py_DECREF(x);
        PyErr_SetString(PyExc_SystemError, "steady_finish: too many references");
        return NULL;
    }
    return x;
}

/* The record classes whose fields are read and written by index (`configure_steady_records`: the
   thread's plans and their LastPlans, a graph entry, the evaluation log, a Program; records.c), and
   for each the index of every name of NAMES among its `_fields` (-1: not one of them), found when
   configured. */
#define N_RECORDS 5
static PyTypeObject *rec_cls[N_RECORDS];
static signed char field_at[N_RECORDS][N_NAMES];

/* The slot of the field numbered `id` of `o` where `o` is of a record class above and has it, else NULL */
static PyObject **field_slot(PyObject *o, int id) {
    PyTypeObject *t = Py_TYPE(o);
    for (int c = 0; c < N_RECORDS; c++)
        if (rec_cls[c] == t)
            return field_at[c][id] < 0 ? NULL : &RECORD_FIELDS(o)[field_at[c][id]];
    return NULL;
}

/* `o.<name>` (kept in `own`): a record's field by index, else the attribute (a module's from its
   dict: the replay switches) */
static PyObject *get_field(Owned *own, PyObject *o, int id) {
    PyObject **f = field_slot(o, id), *v = f ? *f : NULL;
    if (!v)
        return keep(own, module_attr(o, *name_keys[id])); /* (an unset field raises as the member does) */
    Py_INCREF(v);
    return keep(own, v);
}

/* `o.<name> = v` (0, or -1 with an error set): a record's field by index, a node's `args` or
   `value` in its struct, else the attribute. The old value is released last (its dealloc may run
   Python code). */
static int set_field(PyObject *o, int id, PyObject *v) {
    PyObject **f = field_slot(o, id);
    if (!f && Py_TYPE(o) == node_type && (id == N_args || id == N_value))
        f = id == N_args ? &((NodeFields *)o)->args : &((NodeFields *)o)->value;
    if (!f)
        return PyObject_SetAttr(o, *name_keys[id], v);
    PyObject *old = *f;
    Py_INCREF(v);
    *f = v;
    Py_XDECREF(old);
    return 0;
}

#define GET(obj, name) get_field(own, (obj), N_##name)
#define SETF(obj, name, v) set_field((obj), N_##name, (v))
#define ENV(i) PyTuple_GetItem(env, (i))

/* 1 where `a == b`, 0 where not, -1 with an error set */
static int eq(PyObject *a, PyObject *b) { return a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ); }

/* `graph_replay._changed_inputs(ent, values) is None`: 1, 0, or -1 with an error set */
static int inputs_unchanged(Owned *own, PyObject *ent, PyObject *values) {
    PyObject *n = GET(ent, n), *stream = GET(ent, stream), *device = GET(ent, device), *stable = GET(ent, stable);
    if (!n || !stream || !device || !stable)
        return -1;
    Py_ssize_t nv = PyList_Size(values), want = PyLong_AsSsize_t(n);
    if (want == -1 && PyErr_Occurred())
        return -1;
    if (nv != want)
        return 0;
    PyObject *cur = keep(own, PyObject_CallNoArgs(ENV(E_STREAM)));
    if (!cur)
        return -1;
    if (cur != stream)
        return 0;
    PyObject *dev = keep(own, PyObject_CallNoArgs(ENV(E_DEVICE)));
    int r = dev ? eq(dev, device) : -1;
    if (r <= 0)
        return r;
    if (!PyList_Check(stable))
        return 0;
    for (Py_ssize_t s = 0; s < PyList_Size(stable); s++) {
        PyObject *t = PyList_GetItem(stable, s); /* (i, ptr, strides) */
        if (!PyTuple_Check(t) || PyTuple_Size(t) != 3)
            return 0;
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GetItem(t, 0));
        if (i < 0 || i >= nv)
            return PyErr_Occurred() ? -1 : 0;
        PyObject *v = PyList_GetItem(values, i);
        if (Py_TYPE(v) != ndarray_type)
            return 0;
        PyObject *data = PyObject_GetAttr(v, k_data), *ptr = data ? PyObject_GetAttr(data, k_ptr) : NULL;
        Py_XDECREF(data);
        r = ptr ? eq(ptr, PyTuple_GetItem(t, 1)) : -1;
        Py_XDECREF(ptr);
        if (r <= 0)
            return r;
        PyObject *strides = PyObject_GetAttr(v, k__strides);
        r = strides ? eq(strides, PyTuple_GetItem(t, 2)) : -1;
        Py_XDECREF(strides);
        if (r <= 0)
            return r;
    }
    PyObject *of = GET(ent, scalars_of), *was = GET(ent, scalar_values), *at = GET(ent, arrays_at);
    PyObject *got = of ? keep(own, PyObject_CallFunctionObjArgs(of, values, NULL)) : NULL;
    if (!got || !was || !at)
        return -1;
    if ((r = eq(got, was)) <= 0) /* (each the same object or an equal one: a tuple's comparison) */
        return r;
    if (!PyTuple_Check(at))
        return 0;
    for (Py_ssize_t s = 0; s < PyTuple_Size(at); s++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GetItem(at, s));
        if (i < 0 || i >= nv)
            return PyErr_Occurred() ? -1 : 0;
        if (Py_TYPE(PyList_GetItem(values, i)) != ndarray_type)
            return 0;
    }
    return 1;
}

/* The graph `ent` replays next (1 - its last), where `_replay_entry` would launch it without a copy
   or a capture: every carried input the last replay's output, that graph's outputs no longer held
   (only its list refers to each: `graph_replay._unheld`), no moved input to copy. -1 where not
   (-2 with an error set). */
static int next_graph(Owned *own, PyObject *ent, PyObject *values) {
    PyObject *last = GET(ent, last), *outs = GET(ent, outs), *carried = GET(ent, carried), *stat = GET(ent, static);
    if (!last || !outs || !carried || !stat)
        return -2;
    long l = PyLong_AsLong(last);
    if (l == -1 && PyErr_Occurred())
        return -2;
    if (l < 0 || l > 1 || !PyList_Check(outs) || PyList_Size(outs) != 2 || !PyDict_Check(carried) ||
        !PyDict_Check(stat) || PyDict_Size(stat) != 0)
        return -1;
    PyObject *prev = PyList_GetItem(outs, l), *mine = PyList_GetItem(outs, 1 - l), *i, *j;
    if (!PyList_Check(prev) || !PyList_Check(mine))
        return -1;
    Py_ssize_t pos = 0, nv = PyList_Size(values), np = PyList_Size(prev);
    while (PyDict_Next(carried, &pos, &i, &j)) {
        Py_ssize_t a = PyLong_AsSsize_t(i), b = PyLong_AsSsize_t(j);
        if ((a == -1 || b == -1) && PyErr_Occurred())
            return -2;
        if (a < 0 || a >= nv || b < 0 || b >= np || PyList_GetItem(values, a) != PyList_GetItem(prev, b))
            return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_Size(mine); k++)
        if (Py_REFCNT(PyList_GetItem(mine, k)) > 1)
            return -1;
    return (int)(1 - l);
}

/* `graph.replay(stream)` (a CUDAGraph, the entry's stream: the current one) as `CUDAGraph.replay` makes
   it where the launch is in C: the device's context current in this thread (`current_core_stream`),
   then cuGraphLaunch of its exec handle on the stream's pointer through `launch.graph_launcher()`'s
   function, without the method's Python (~0.3 us a replay on the H200's host). The method
   itself where there is no C launcher, the graph is a stand-in, or the launch failed: it launches
   again or raises the driver's error (a failed launch enqueued nothing). 0, or -1 with an error set. */
static int replay_graph(PyObject *graph, PyObject *stream) {
    PyObject *fn = PyObject_CallNoArgs(ENV(E_GRAPH_LAUNCHER)), *cs = NULL, *h = NULL, *p = NULL, *status = NULL;
    if (!fn)
        return -1;
    long rc = -1;
    if (fn != Py_None && (cs = PyObject_CallNoArgs(ENV(E_CORE_STREAM)))) {
        h = PyObject_GetAttr(graph, k__exec_handle);
        p = h ? PyObject_GetAttr(stream, k_ptr) : NULL;
        status = p && PyLong_Check(h) && PyLong_Check(p) ? PyObject_CallFunctionObjArgs(fn, h, p, NULL) : NULL;
        rc = status && PyLong_Check(status) ? PyLong_AsLong(status) : -1;
    }
    Py_DECREF(fn);
    Py_XDECREF(cs);
    Py_XDECREF(h);
    Py_XDECREF(p);
    Py_XDECREF(status);
    if (rc == 0 && !PyErr_Occurred())
        return 0;
    PyErr_Clear(); /* (the method says what went wrong, if anything still does) */
    PyObject *r = PyObject_CallMethodObjArgs(graph, k_replay, stream, NULL);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* steady_finish(st, nodes): True (the evaluation done); None (nothing done: the prediction does not
   hold); or (prog, values, t0) where only `plan_traced`'s predicted case and `compute`'s release of
   the previous step's graph were done (`compute` runs the rest: a replay to decide, copies, a capture). */
static PyObject *steady_finish(PyObject *mod, PyObject *const *a, Py_ssize_t na) {
    Owned own_ = {{0}, 0}, *own = &own_;
    PyObject *result = NULL;
    int r;
    if (na != 2 || !env) {
        PyErr_SetString(PyExc_TypeError, "steady_finish(st, nodes), after configure_steady()");
        return NULL;
    }
    PyObject *st = a[0], *nodes = a[1];
    PyObject *t0 = keep(own, PyObject_CallNoArgs(ENV(E_CLOCK)));
    PyObject *trace = t0 ? keep(own, state_get(st, SF_TRACE)) : NULL;
    if (!trace)
        goto error;
    result = Py_None;
    if (!PyList_Check(nodes) || PyList_Size(nodes) < 1 || !IS_A(trace, tracefields_type, trace_class))
        goto done;
    TraceFields *tf = (TraceFields *)trace;
    if (tf->cacheable != Py_True || !tf->values || !PyList_Check(tf->values) || !tf->ops || !tf->t0)
        goto done;
    PyObject *values = tf->values;
    /* -- `plan_traced`: the predicted plan, its key the trace's ------------------------------------ */
    Py_ssize_t nn = PyList_Size(nodes);
    PyObject *pos = keep(own, PyTuple_New(nn));
    if (!pos)
        goto error;
    for (Py_ssize_t i = 0; i < nn; i++) {
        PyObject *n = PyList_GetItem(nodes, i);
        if (Py_TYPE(n) != node_type || !((NodeFields *)n)->pos)
            goto done;
        if ((r = seg_is(n, tf->id)) <= 0)
            goto checked;
        Py_INCREF(((NodeFields *)n)->pos);
        PyTuple_SetItem(pos, i, ((NodeFields *)n)->pos);
    }
    PyObject *plans = keep(own, state_get(st, SF_PLANS)), *p = plans ? GET(plans, predicted) : NULL;
    if (!p)
        goto error;
    if (p == Py_None)
        goto done;
    PyObject *table = GET(p, table), *gen = GET(p, gen), *ppos = GET(p, pos), *pops = GET(p, ops);
    PyObject *prog = GET(p, prog), *plast = GET(plans, last), *pnext = GET(p, next);
    if (!table || !gen || !ppos || !pops || !prog || !plast || !pnext)
        goto error;
    PyObject *now = PyList_Check(ENV(E_GENERATION)) ? PyList_GetItem(ENV(E_GENERATION), 0) : NULL;
    if (table != ENV(E_PROGRAMS) || !now)
        goto done;
    if ((r = eq(ppos, pos)) <= 0 || (r = eq(gen, now)) <= 0 || (r = eq(pops, tf->ops)) <= 0)
        goto checked;
    /* its effects (`plans.step(p)` inline), then `compute`'s: the computed leaves forget how they were
       computed (the previous step's graph goes, and its hold on the values a replay would overwrite) */
    result = NULL;
    if (SETF(plast, next, p) < 0 || SETF(plans, last, p) < 0 || (r = PyObject_IsTrue(pnext)) < 0)
        goto error;
    PyObject *q = r ? pnext : p, *qops = GET(q, ops);
    if (!qops || SETF(plans, predicted, q) < 0 || SETF(plans, expect, qops) < 0)
        goto error;
    if (tf->held && tf->held != Py_None) {
        PyObject *held = keep(own, PySequence_List(tf->held));
        if (!held)
            goto error;
        for (Py_ssize_t i = 0; i < PyList_Size(held); i++)
            if (SETF(PyList_GetItem(held, i), args, empty) < 0)
                goto error;
    }
    PyObject *planned = keep(own, PyTuple_Pack(3, prog, values, t0));
    if (!planned)
        goto error;
    result = planned; /* (from here, a check that fails hands the rest to `compute`) */
    /* -- the switches, the Program's facts, the log ---------------------------------------------- */
    PyObject *rep = ENV(E_REPLAY);
    PyObject *on = GET(rep, GRAPH_REPLAY), *timed = GET(rep, DEVICE_TIMES), *min_saved = GET(rep, MIN_SAVED);
    PyObject *graph_launch = GET(rep, GRAPH_LAUNCH);
    PyObject *facts = GET(prog, replay_facts), *ins = GET(prog, inputs);
    if (!on || !timed || !min_saved || !graph_launch || !facts || !ins)
        goto error;
    if ((r = PyObject_IsTrue(on)) <= 0)
        goto checked;
    if ((r = PyObject_IsTrue(timed)) != 0) /* (an event pair per evaluation: the Python path records them) */
        goto checked_any;
    if (!PyTuple_Check(facts) || PyTuple_Size(facts) != 5 || !PyList_Check(ins) ||
        (PyList_Size(ins) && Py_TYPE(PyList_GetItem(ins, 0)) != (PyTypeObject *)ENV(E_LABEL)))
        goto done; /* (not evaluated yet, or not a cached Program: `note` keeps a summary of it) */
    /* (`replay.pays(launches, 0)`: the launches less the graph launch's share, against MIN_SAVED) */
    double launches = PyFloat_AsDouble(PyTuple_GetItem(facts, 0)), least = PyFloat_AsDouble(min_saved);
    double share = PyFloat_AsDouble(graph_launch);
    if (PyErr_Occurred() || (r = PyObject_IsTrue(PyTuple_GetItem(facts, 3))) < 0)
        goto error;
    int never = r || !(launches - share >= least);
    PyObject *lg = keep(own, local_attr(ENV(E_LOGS), k_lg)), *log = lg ? GET(lg, log) : NULL;
    PyObject *lprog = lg ? GET(lg, prog) : NULL;
    if (!log || !lprog)
        goto error;
    if (log == Py_None)
        goto done;
    PyObject *ent = NULL, *graph = NULL, *stream = NULL, *outs_at = NULL, *gi = NULL;
    if (!never) { /* `_replayed`'s conditions, then `_replay_entry`'s */
        if (prog != lprog || (r = PyObject_IsTrue(log)) <= 0)
            goto checked;
        PyObject *cap = keep(own, PyObject_CallNoArgs(ENV(E_IS_CAPTURING)));
        if (!cap || (r = PyObject_IsTrue(cap)) < 0)
            goto error;
        if (r)
            goto done;
        PyObject *grs = ENV(E_GRAPHS); /* (thread-locals, as `_logs` above: local_attr) */
        PyObject *declined = keep(own, local_attr(grs, k_declined)), *entries = keep(own, local_attr(grs, k_entries));
        if (!declined || !entries)
            goto error;
        if (declined != Py_None && (r = PySequence_Contains(declined, prog)) != 0)
            goto checked_any;
        if (entries == Py_None || !PyDict_Check(entries) || !(ent = PyDict_GetItemWithError(entries, prog)))
            goto checked_err;
        Py_INCREF(ent);
        keep(own, ent);
        if ((r = inputs_unchanged(own, ent, values)) <= 0)
            goto checked;
        int g = next_graph(own, ent, values);
        if (g == -2)
            goto error;
        if (g < 0)
            goto done;
        PyObject *graphs = GET(ent, graphs), *outs = GET(ent, outs);
        stream = GET(ent, stream);
        if (!graphs || !outs || !stream || !(gi = keep(own, PyLong_FromLong(g)))) /* (`ent.last` after the launch) */
            goto error;
        if (!PyList_Check(graphs) || PyList_Size(graphs) != 2 || (graph = PyList_GetItem(graphs, g)) == Py_None)
            goto done;
        outs_at = PyList_GetItem(outs, g);
        Py_INCREF(graph);
        Py_INCREF(outs_at);
        keep(own, graph);
        keep(own, outs_at);
    }
    /* -- the run, in the general path's order ------------------------------------------------------ */
    result = NULL;
    PyObject *outs;
    if (never) { /* `graph_replay.run`'s first case */
        PyObject *sig = keep(own, PyTuple_Pack(2, values, empty));
        if (!sig || SETF(lg, sig, sig) < 0 || SETF(lg, why, PyTuple_GetItem(facts, 4)) < 0 ||
            SETF(lg, outs, Py_None) < 0)
            goto error;
        PyObject *kernel = GET(prog, one);
        if (!kernel)
            goto error;
        if (kernel != Py_None) { /* (`Program.run`'s one-kernel case inline, as `run` has it) */
            PyObject *v = elementwise_step(kernel) ? elementwise_run(kernel, values)
                                                   : PyObject_CallMethodObjArgs(kernel, k_run, values, NULL);
            outs = keep(own, v ? PyList_New(1) : NULL);
            if (!outs) {
                Py_XDECREF(v);
                goto error;
            }
            PyList_SetItem(outs, 0, v);
        } else {
            outs = keep(own, PyObject_CallMethodObjArgs(prog, k_run, values, NULL));
        }
        if (!outs)
            goto error;
    } else { /* `_replayed` -> `_replay_entry` -> `_launch`, then `run`'s last step */
        PyObject *sig = keep(own, PyTuple_Pack(2, values, Py_None));
        if (!sig || SETF(lg, sig, sig) < 0)
            goto error;
        if (replay_graph(graph, stream) < 0 || SETF(ent, last, gi) < 0)
            goto error;
        outs = keep(own, PySequence_List(outs_at));
        if (!outs || SETF(lg, replayed, Py_True) < 0 || SETF(lg, outs, outs) < 0)
            goto error;
    }
    if (!PyList_Check(outs) || PyList_Size(outs) < nn) {
        PyErr_SetString(PyExc_SystemError, "steady_finish: fewer outputs than nodes");
        goto error;
    }
    for (Py_ssize_t i = 0; i < nn; i++) /* (`compute`: the nodes keep their values) */
        if (SETF(PyList_GetItem(nodes, i), value, PyList_GetItem(outs, i)) < 0)
            goto error;
    /* -- `replay.note` ------------------------------------------------------------------------------ */
    PyObject *t1 = keep(own, PyObject_CallNoArgs(ENV(E_CLOCK)));
    PyObject *host = t1 ? keep(own, PyNumber_Subtract(t1, t0)) : NULL;
    PyObject *build = host ? keep(own, PyNumber_Subtract(t0, tf->t0)) : NULL;
    PyObject *lp = build ? GET(lg, prog) : NULL, *repeats;
    if (!lp)
        goto error;
    if (lp == prog) {
        PyObject *was = GET(lg, repeats);
        repeats = was ? keep(own, PyNumber_Add(was, one)) : NULL;
    } else {
        repeats = SETF(lg, prog, prog) < 0 ? NULL : one;
    }
    if (!repeats || SETF(lg, repeats, repeats) < 0)
        goto error;
    PyObject *replayed = GET(lg, replayed), *sig = GET(lg, sig), *why = GET(lg, why);
    if (!replayed || !sig || !why || (r = PyObject_IsTrue(replayed)) < 0)
        goto error;
    if ((r && SETF(lg, replayed, Py_False) < 0) || (sig != Py_None && SETF(lg, sig, Py_None) < 0) ||
        (why != Py_None && SETF(lg, why, Py_None) < 0))
        goto error;
    PyObject *kept = Py_None;
    if (PyTuple_Check(sig) && PyTuple_Size(sig) == 2 && PyTuple_GetItem(sig, 0) == values)
        kept = PyTuple_GetItem(sig, 1); /* (None after a replay, () for a Program never replayed) */
    PyObject *record = keep(own, PyTuple_Pack(8, prog, build, host, repeats, kept, r ? Py_True : Py_False, why, Py_None));
    PyObject *added = record ? keep(own, PyObject_CallMethodObjArgs(log, k_append, record, NULL)) : NULL;
    if (!added)
        goto error;
    result = Py_True;
    goto done;
checked_any: /* r from a test whose 1 means no: 1 (no), -1 (an error) */
    if (r < 0)
        goto error;
    goto done;
checked_err: /* a look-up that found nothing, or raised */
    if (PyErr_Occurred())
        goto error;
    goto done;
checked: /* r <= 0 from a test whose 1 means yes: 0 (no), -1 (an error) */
    if (r < 0)
        goto error;
    goto done;
error:
    result = NULL;
done:
    Py_XINCREF(result);
    for (int i = 0; i < own->k; i++)
        Py_DECREF(own->o[i]);
    return result;
}

/* configure_steady(programs, generation, replay, logs, graph_state, is_capturing, get_current_stream,
   get_device_id, perf_counter, Label, graph_launcher, current_core_stream) */
static PyObject *configure_steady(PyObject *mod, PyObject *args) {
    if (!PyTuple_Check(args) || PyTuple_Size(args) != E_N) {
        PyErr_SetString(PyExc_TypeError, "configure_steady(programs, generation, replay, logs, graph_state, "
                                         "is_capturing, get_current_stream, get_device_id, perf_counter, Label, "
                                         "graph_launcher, current_core_stream)");
        return NULL;
    }
    PyObject **const slots[1] = {&env};
    PyObject *const values[1] = {args};
    replace_refs(slots, values, 1);
    Py_RETURN_NONE;
}

/* configure_steady_records(LastPlan, Plans, graph entry class, log class, Program): the record classes (each
   built on a `record_class` base: `_fields` its field names) whose fields are read by index */
static PyObject *configure_steady_records(PyObject *mod, PyObject *args) {
    if (!PyTuple_Check(args) || PyTuple_Size(args) != N_RECORDS) {
        PyErr_SetString(PyExc_TypeError, "configure_steady_records(LastPlan, Plans, _Entry, _Log, Program)");
        return NULL;
    }
    signed char at[N_RECORDS][N_NAMES];
    memset(at, -1, sizeof(at));
    for (int c = 0; c < N_RECORDS; c++) {
        PyObject *t = PyTuple_GetItem(args, c), *f = NULL;
        if (!PyType_Check(t) || !is_record_class((PyTypeObject *)t) || !(f = PyObject_GetAttrString(t, "_fields")) ||
            !PyTuple_Check(f) || PyTuple_Size(f) > RECORD_MAX) {
            Py_XDECREF(f);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "configure_steady_records: classes built on record_class bases");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_Size(f); i++) {
            PyObject *s = PyTuple_GetItem(f, i);
            if (!PyUnicode_Check(s)) {
                Py_DECREF(f);
                PyErr_SetString(PyExc_TypeError, "configure_steady_records: field names are str");
                return NULL;
            }
            for (int id = 0; id < N_NAMES; id++) {
                int eq = PyUnicode_Compare(s, *name_keys[id]) == 0;
                if (PyErr_Occurred()) {
                    Py_DECREF(f);
                    return NULL;
                }
                if (eq)
                    at[c][id] = (signed char)i;
            }
        }
        Py_DECREF(f);
    }
    for (int c = 0; c < N_RECORDS; c++) { /* (all checked: the classes kept, the old ones released) */
        PyObject *t = PyTuple_GetItem(args, c);
        PyTypeObject *old = rec_cls[c];
        Py_INCREF(t);
        rec_cls[c] = (PyTypeObject *)t;
        memcpy(field_at[c], at[c], sizeof(at[c]));
        Py_XDECREF((PyObject *)old);
    }
    Py_RETURN_NONE;
}

static PyMethodDef steady_methods[] = {
    {"steady_finish", (PyCFunction)(void (*)(void))steady_finish, METH_FASTCALL,
     "steady_finish(st, nodes) -> True, None or (prog, values, t0): evaluation.compute(st, nodes, last=True) in its steady state"},
    {"configure_steady_records", configure_steady_records, METH_VARARGS,
     "configure_steady_records(LastPlan, Plans, _Entry, _Log, Program): record classes read by index"},
    {"configure_steady", configure_steady, METH_VARARGS,
     "configure_steady(programs, generation, replay, logs, graph_state, is_capturing, get_current_stream, "
     "get_device_id, perf_counter, Label)"},
    {NULL, NULL, 0, NULL}};

int nc_steady_init(PyObject *m) {
#define INTERN(name) if (!(k_##name = PyUnicode_InternFromString(#name))) return -1;
    NAMES(INTERN)
#undef INTERN
    return PyModule_AddFunctions(m, steady_methods);
}
