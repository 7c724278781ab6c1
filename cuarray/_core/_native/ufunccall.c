/* The ufunc call's dispatch point in C: `UfuncCall`, the base of `_core/ufunc.py`'s `ufunc` where
   this module is built (its call slot; the pure-Python build keeps `ufunc.__call__`, the reference).
   The same two steps as that method: while `tracing.active` is empty no thread traces and nothing
   else is read; else the thread's tracer (`tracing.state.tracer`), when it has one, takes the call
   as `tracer.ufunc(uf, args, kwargs)` (kwargs a dict of its own, as `**kwargs` is); otherwise the
   eager call, `ufunc._eager(uf, *args, **kwargs)` (`ufunc.__call__`'s body, bound under that name
   where this base is used). A Python `__call__` cost a frame with its `*args` and `**kwargs` at
   every traced call. Measured with the device stubbed: `exp(l)` in lazy mode 0.70 -> 0.62 us, an
   eager `exp(a)` 2.73 -> 2.67 (the slot calls `_eager` itself: no `__call__` looked up per call). */
#include "lazyops.h"

static PyObject *uc_active, *uc_state, *uc_eager, *s_tracer_, *s_ufunc_;
/* Lazy mode's state type and its `ufunc` (a UFUNC Operator, `configure_lazy_ufunc`): a tracer of that
   type is asked without the method's look-up and argument tuple, nor a dict where no keywords were
   given (`exp(l)` 0.60 -> 0.50 us, stubbed); what the Operator hands back gets a dict of its own. */
static PyObject *uc_lazy_op, *uc_no_kw;

static PyObject *lazy_ufunc(PyObject *st, PyObject *uf, PyObject *args, PyObject *kw) {
    PyObject *a[4] = {st, uf, args, kw ? kw : uc_no_kw}, *r = op_run((Operator *)uc_lazy_op, a), *kwargs;
    if (r != GENERAL)
        return r;
    if (!(kwargs = kw ? PyDict_Copy(kw) : PyDict_New()))
        return NULL;
    r = PyObject_CallFunctionObjArgs(((Operator *)uc_lazy_op)->general, st, uf, args, kwargs, NULL);
    Py_DECREF(kwargs);
    return r;
}

static PyObject *uc_call(PyObject *self, PyObject *args, PyObject *kw) {
    if (!uc_eager) {
        PyErr_SetString(PyExc_RuntimeError, "cuarray._core._nodecore: configure_ufunc_call() first");
        return NULL;
    }
    Py_ssize_t tracing = PyList_Size(uc_active), n = PyTuple_Size(args);
    if (tracing < 0 || n < 0)
        return NULL;
    if (tracing) {
        PyObject *t = local_attr(uc_state, s_tracer_), *kwargs, *r = NULL;
        if (!t)
            return NULL;
        if (t != Py_None && state_class && Py_TYPE(t) == state_class) {
            r = lazy_ufunc(t, self, args, kw);
            Py_DECREF(t);
            return r;
        }
        if (t != Py_None) {
            if ((kwargs = kw ? PyDict_Copy(kw) : PyDict_New())) {
                r = PyObject_CallMethodObjArgs(t, s_ufunc_, self, args, kwargs, NULL);
                Py_DECREF(kwargs);
            }
            Py_DECREF(t);
            return r;
        }
        Py_DECREF(t);
    }
    PyObject *full = PyTuple_New(n + 1), *r;
    if (!full)
        return NULL;
    Py_INCREF(self);
    PyTuple_SetItem(full, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        Py_INCREF(a);
        PyTuple_SetItem(full, i + 1, a);
    }
    r = PyObject_Call(uc_eager, full, kw);
    Py_DECREF(full);
    return r;
}

static PyType_Slot uc_slots[] = {
    {Py_tp_doc, "The ufunc call's dispatch point (tracer first, then `_eager`) as a C call slot."},
    {Py_tp_call, uc_call},
    {0, NULL}};

static PyType_Spec uc_spec = {"cuarray._core._nodecore.UfuncCall", sizeof(PyObject), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, uc_slots};

/* configure_ufunc_call(tracing.active, tracing.state, ufunc._eager) */
static PyObject *configure_ufunc_call(PyObject *mod, PyObject *args) {
    PyObject *active, *state, *eager;
    if (!PyArg_ParseTuple(args, "O!OO", &PyList_Type, &active, &state, &eager))
        return NULL;
    if (!PyCallable_Check(eager)) {
        PyErr_SetString(PyExc_TypeError, "configure_ufunc_call(tracing.active, tracing.state, ufunc._eager)");
        return NULL;
    }
    PyObject **const slots[3] = {&uc_active, &uc_state, &uc_eager};
    PyObject *const values[3] = {active, state, eager};
    replace_refs(slots, values, 3);
    Py_RETURN_NONE;
}

/* configure_lazy_ufunc(lazy_mode._State, lazy_mode._State.ufunc) */
static PyObject *configure_lazy_ufunc(PyObject *mod, PyObject *args) {
    PyObject *type, *op;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &type, &op))
        return NULL;
    if (Py_TYPE(op) != op_type || ((Operator *)op)->kind != UFUNC) {
        PyErr_SetString(PyExc_TypeError, "configure_lazy_ufunc(state type, its `ufunc`: a traced ufunc Operator)");
        return NULL;
    }
    if (!uc_no_kw && !(uc_no_kw = PyDict_New()))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)type, statefields_type)) {
        PyErr_SetString(PyExc_TypeError, "configure_lazy_ufunc: the state type is built on StateFields");
        return NULL;
    }
    PyObject **const slots[2] = {(PyObject **)&state_class, &uc_lazy_op}; /* (state_class: also what
                                                                             `state_get` expects first) */
    PyObject *const values[2] = {type, op};
    replace_refs(slots, values, 2);
    Py_RETURN_NONE;
}

static PyMethodDef uc_methods[] = {
    {"configure_lazy_ufunc", configure_lazy_ufunc, METH_VARARGS,
     "configure_lazy_ufunc(state type, its ufunc Operator): a tracer of that type is asked directly"},
    {"configure_ufunc_call", configure_ufunc_call, METH_VARARGS,
     "configure_ufunc_call(tracing.active, tracing.state, ufunc._eager): what `UfuncCall`'s call reads"},
    {NULL, NULL, 0, NULL}};

int nc_ufunccall_init(PyObject *m) {
    PyObject *t = PyType_FromSpec(&uc_spec);
    if (!t || PyModule_AddObject(m, "UfuncCall", t) < 0) {
        Py_XDECREF(t);
        return -1;
    }
    if (!(s_tracer_ = PyUnicode_InternFromString("tracer")) || !(s_ufunc_ = PyUnicode_InternFromString("ufunc")))
        return -1;
    return PyModule_AddFunctions(m, uc_methods);
}
