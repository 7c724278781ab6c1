/* A fused elementwise step's run (`fusion.planner._Elementwise.run`) as one C call: its output
   array, made as `ndarray._new_c` makes it, then its launch where every input is an ndarray,
   C-contiguous with the output's shape, and the launch configuration is cached: the first case
   of `_Elementwise.launch_into`, step for step (the inputs' addresses, the cache key, the scalars'
   kernel arguments converted once per value, `launch.enqueue` on the current stream). Anything
   else (an empty output, an input of another class or layout, a configuration not made yet) is
   handed to the Python method `launch_into(slots, out)` with the output made, which stays the
   reference: the run is then exactly the Python one. steady.c calls this for a one-kernel
   Program; `_Elementwise.run` calls it where this module is built (CUARRAY_PURE_PYTHON_NODES=1
   runs without it). tests/_core/test_fusion_elementwise_run_cpu.py compares the launches both
   ways on the fake device.

   Why: the step's Python, ~2 us of host time a launch on the H200's host, is the largest piece of
   a cached 10-node chain's evaluation after the driver's own cuLaunchKernel (
   docs/perf-notes.md, "Lazy mode's host cost"). */
#include "lazyops.h"

/* The step's fields read here (a record class: records.c), by their index among its `_fields` */
enum { F_INS, F_SCALARS, F_SHAPE, F_DTYPE, F_CFGS, F_M_ALL, F_VEC, F_LAST, F_N };
static const char *const field_names[F_N] = {"ins", "scalars", "shape", "dtype", "cfgs", "m_all", "vec", "last"};
static signed char field_at[F_N];
static PyTypeObject *step_class, *array_class;
static allocfunc array_alloc;
/* cuarray.cuda.memory (its `_allocator`, read at each call: set_allocator and hooks swap it),
   ndarray._c_layout, stream.current_core_stream, cuarray.cuda.launch (its `enqueue`, likewise) */
static PyObject *memory_module, *c_layout, *core_stream, *launch_module;
/* ndarray's fields as its member descriptors (its `__slots__`), read and written through them: an
   attribute's look-up by name costs ~4x more (callgrind: ~240 instructions a write) */
enum { A_SHAPE, A_STRIDES, A_DTYPE, A_DATA, A_BASE, A_SIZE, A_C, A_F, A_WRITEABLE, A_N };
static PyObject *array_field[A_N];
/* memory.MemoryPointer and its `ptr` member (an array's address: `a.data.ptr`) */
static PyTypeObject *pointer_class;
static PyObject *pointer_ptr;
static descrgetfunc pointer_ptr_get;
static descrgetfunc field_get[A_N];
static descrsetfunc field_set[A_N];

#define ARRAY_NAMES(X) X(_shape) X(_strides) X(_dtype) X(data) X(base) X(_size) X(_c) X(_f) X(_writeable)
#define OTHER_NAMES(X) X(_allocator) X(enqueue) X(launch_into) X(itemsize) X(ptr) X(shape) X(dtype)
#define DECLARE(name) static PyObject *n_##name;
ARRAY_NAMES(DECLARE)
OTHER_NAMES(DECLARE)

/* configure_elementwise_run(_Elementwise, ndarray, memory module, _c_layout, current_core_stream,
   launch module) */
static PyObject *configure_elementwise_run(PyObject *mod, PyObject *args) {
    PyObject *sc, *nd, *mm, *cl, *cs, *lm;
    if (!PyArg_ParseTuple(args, "OOOOOO", &sc, &nd, &mm, &cl, &cs, &lm))
        return NULL;
    if (!PyType_Check(sc) || !is_record_class((PyTypeObject *)sc) || !PyType_Check(nd)) {
        PyErr_SetString(PyExc_TypeError, "configure_elementwise_run: a record class and ndarray first");
        return NULL;
    }
    PyObject *fields = PyObject_GetAttrString(sc, "_fields");
    if (!fields)
        return NULL;
    for (int i = 0; i < F_N; i++) {
        field_at[i] = -1;
        for (Py_ssize_t j = 0; PyTuple_Check(fields) && j < PyTuple_Size(fields) && j < RECORD_MAX; j++) {
            PyObject *s = PyTuple_GetItem(fields, j);
            if (PyUnicode_Check(s) && PyUnicode_CompareWithASCIIString(s, field_names[i]) == 0)
                field_at[i] = (signed char)j;
        }
        if (field_at[i] < 0) {
            Py_DECREF(fields);
            PyErr_Format(PyExc_ValueError, "configure_elementwise_run: the step has no field %s", field_names[i]);
            return NULL;
        }
    }
    Py_DECREF(fields);
    PyObject **const slots[6] = {(PyObject **)&step_class, (PyObject **)&array_class, &memory_module, &c_layout,
                                 &core_stream, &launch_module};
    PyObject *const values[6] = {sc, nd, mm, cl, cs, lm};
    PyObject *const names[A_N] = {n__shape, n__strides, n__dtype, n_data, n_base, n__size, n__c, n__f, n__writeable};
    PyObject *got[A_N] = {NULL};
    for (int i = 0; i < A_N; i++) { /* (the class's own descriptors: ndarray's layout is its __slots__) */
        got[i] = PyObject_GetAttr(nd, names[i]);
        if (!got[i] || !PyType_GetSlot(Py_TYPE(got[i]), Py_tp_descr_get) ||
            !PyType_GetSlot(Py_TYPE(got[i]), Py_tp_descr_set)) {
            for (int j = 0; j <= i; j++)
                Py_XDECREF(got[j]);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "configure_elementwise_run: ndarray's fields are not slots");
            return NULL;
        }
    }
    /* (MemoryPointer's `ptr`, a slot: read through its descriptor, a look-up by name ~400 instructions) */
    PyObject *mp = PyObject_GetAttrString(mm, "MemoryPointer"), *pm = mp ? PyObject_GetAttr(mp, n_ptr) : NULL;
    if (!pm || !PyType_Check(mp) || !PyType_GetSlot(Py_TYPE(pm), Py_tp_descr_get)) {
        for (int j = 0; j < A_N; j++)
            Py_DECREF(got[j]);
        Py_XDECREF(mp);
        Py_XDECREF(pm);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "configure_elementwise_run: MemoryPointer's ptr is not a slot");
        return NULL;
    }
    PyObject **const pslots[2] = {(PyObject **)&pointer_class, &pointer_ptr};
    PyObject *const pvalues[2] = {mp, pm};
    replace_refs(pslots, pvalues, 2);
    pointer_ptr_get = (descrgetfunc)PyType_GetSlot(Py_TYPE(pm), Py_tp_descr_get);
    Py_DECREF(mp);
    Py_DECREF(pm);
    replace_refs(slots, values, 6);
    array_alloc = (allocfunc)PyType_GetSlot(array_class, Py_tp_alloc);
    for (int i = 0; i < A_N; i++) {
        PyObject *old = array_field[i];
        array_field[i] = got[i];
        Py_XDECREF(old);
        field_get[i] = (descrgetfunc)PyType_GetSlot(Py_TYPE(got[i]), Py_tp_descr_get);
        field_set[i] = (descrsetfunc)PyType_GetSlot(Py_TYPE(got[i]), Py_tp_descr_set);
    }
    Py_RETURN_NONE;
}

/* A new C-contiguous ndarray of `shape` and `dtype` (`_new_c`), its size in *size */
static PyObject *new_c(PyObject *shape, PyObject *dtype, Py_ssize_t *size) {
    PyObject *isz = PyObject_GetAttr(dtype, n_itemsize), *strides = NULL, *count = NULL, *f = NULL;
    PyObject *nbytes = NULL, *alloc = NULL, *data = NULL, *a = NULL, *lay = NULL;
    if (!isz)
        return NULL;
    if (PyTuple_Check(shape) && PyTuple_Size(shape) == 1) {
        count = PyTuple_GetItem(shape, 0);
        Py_INCREF(count);
        strides = PyTuple_Pack(1, isz);
        f = Py_True;
        Py_INCREF(f);
    } else if ((lay = PyObject_CallFunctionObjArgs(c_layout, shape, isz, NULL))) {
        if (!PyTuple_Check(lay) || PyTuple_Size(lay) != 3) {
            PyErr_SetString(PyExc_SystemError, "_c_layout: not (strides, size, f)");
            goto done;
        }
        strides = PyTuple_GetItem(lay, 0);
        count = PyTuple_GetItem(lay, 1);
        f = PyTuple_GetItem(lay, 2);
        Py_INCREF(strides);
        Py_INCREF(count);
        Py_INCREF(f);
    }
    if (!strides || !count)
        goto done;
    *size = PyLong_AsSsize_t(count);
    if ((*size == -1 && PyErr_Occurred()) || !(nbytes = PyNumber_Multiply(count, isz)) ||
        !(alloc = module_attr(memory_module, n__allocator)) ||
        !(data = PyObject_CallFunctionObjArgs(alloc, nbytes, NULL)) || !(a = array_alloc(array_class, 0)))
        goto done;
    PyObject *const vals[A_N] = {shape, strides, dtype, data, Py_None, count, Py_True, f, Py_True};
    for (int i = 0; i < A_N; i++)
        if (field_set[i](array_field[i], a, vals[i]) < 0) {
            Py_CLEAR(a);
            break;
        }
done:
    Py_DECREF(isz);
    Py_XDECREF(lay);
    Py_XDECREF(strides);
    Py_XDECREF(count);
    Py_XDECREF(f);
    Py_XDECREF(nbytes);
    Py_XDECREF(alloc);
    Py_XDECREF(data);
    return a;
}

/* `a.<field>` of an ndarray (a new reference) */
#define ARRAY_GET(a, i) field_get[i](array_field[i], (a), (PyObject *)array_class)

PyObject *array_attr(PyObject *a, int shape) {
    int i = shape ? A_SHAPE : A_DTYPE;
    if (array_class && Py_TYPE(a) == array_class)
        return ARRAY_GET(a, i);
    return PyObject_GetAttr(a, shape ? n__shape : n__dtype);
}

/* `o.data.ptr` as an address (1), or 0 where it is not one (no error left set), -1 on an error */
static int address(PyObject *o, PyObject **ptr, unsigned long long *p) {
    PyObject *d = ARRAY_GET(o, A_DATA);
    *ptr = !d ? NULL : Py_TYPE(d) == pointer_class ? pointer_ptr_get(pointer_ptr, d, (PyObject *)pointer_class)
                                                   : PyObject_GetAttr(d, n_ptr);
    Py_XDECREF(d);
    if (!*ptr)
        return -1;
    if (!PyLong_Check(*ptr))
        return 0;
    *p = AS_U64(*ptr);
    if (*p == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear(); /* (not an address this fits: the Python path decides) */
        return 0;
    }
    return 1;
}

/* slots[i] (borrowed) of a list or tuple of slots; NULL, no error set, where there is none */
static PyObject *slot_at(PyObject *slots, PyObject *index) {
    Py_ssize_t i = PyLong_Check(index) ? PyLong_AsSsize_t(index) : -1;
    int list = PyList_Check(slots);
    if (i < 0 || i >= (list ? PyList_Size(slots) : PyTuple_Size(slots))) {
        PyErr_Clear();
        return NULL;
    }
    return list ? PyList_GetItem(slots, i) : PyTuple_GetItem(slots, i);
}

#define MAX_ARGS 64 /* (inputs and scalars a kernel takes here; more go to the Python path) */

/* The launch of `step` into `out` (n > 0 elements) where the first case of `launch_into` applies:
   1 launched, 0 not that case (nothing done but reads and the scalars' cache), -1 on an error */
static int launch_fast(PyObject **fld, PyObject *slots, PyObject *out, Py_ssize_t n) {
    PyObject *ins = fld[F_INS], *scalars = fld[F_SCALARS], *shape = fld[F_SHAPE], *last = fld[F_LAST];
    PyObject *held[MAX_ARGS + 6], *hit;
    int k = 0, rc = 0;
    if (!(PyList_Check(slots) || PyTuple_Check(slots)) || !PyTuple_Check(ins) || !PyTuple_Check(scalars) || !PyList_Check(last) ||
        !PyDict_Check(fld[F_CFGS]) || fld[F_M_ALL] == Py_None ||
        PyTuple_Size(ins) + PyTuple_Size(scalars) > MAX_ARGS || PyList_Size(last) != PyTuple_Size(scalars))
        return 0;
    unsigned long long orp, po, m;
    PyObject *optr;
    if ((rc = address(out, &optr, &po)) <= 0) {
        Py_XDECREF(optr);
        return rc;
    }
    orp = po;
    held[k++] = optr; /* (held[0]; the inputs' addresses follow, then the scalars' arguments) */
    for (Py_ssize_t i = 0; i < PyTuple_Size(ins); i++) {
        PyObject *a = slot_at(slots, PyTuple_GetItem(ins, i)), *sh, *c, *ptr;
        if (!a || Py_TYPE(a) != array_class) /* (rc 0) */
            goto done;
        if (!(sh = ARRAY_GET(a, A_SHAPE))) {
            rc = -1;
            goto done;
        }
        int same = sh == shape ? 1 : PyObject_RichCompareBool(sh, shape, Py_EQ);
        Py_DECREF(sh);
        if (same <= 0) {
            rc = same;
            goto done;
        }
        if (!(c = ARRAY_GET(a, A_C))) {
            rc = -1;
            goto done;
        }
        same = PyObject_IsTrue(c);
        Py_DECREF(c);
        if (same <= 0) {
            rc = same;
            goto done;
        }
        unsigned long long p;
        int got = address(a, &ptr, &p);
        if (ptr)
            held[k++] = ptr;
        if (got <= 0) {
            rc = got;
            goto done;
        }
        orp |= p;
    }
    m = AS_U64(fld[F_M_ALL]);
    Py_ssize_t vec = PyLong_AsSsize_t(fld[F_VEC]);
    if ((m == (unsigned long long)-1 || vec == -1) && PyErr_Occurred()) {
        PyErr_Clear();
        goto done;
    }
    PyObject *key = PyLong_FromSsize_t(n >= vec && !(orp & m) ? n : -n - 1);
    hit = key ? PyDict_GetItemWithError(fld[F_CFGS], key) : NULL;
    Py_XDECREF(key);
    if (!hit) {
        rc = PyErr_Occurred() ? -1 : 0;
        goto done;
    }
    if (!PyTuple_Check(hit) || PyTuple_Size(hit) < 3)
        goto done;
    Py_INCREF(hit); /* (the conversions below run Python code, which may clear the cache) */
    held[k++] = hit;
    int first_scalar = k;
    for (Py_ssize_t j = 0; j < PyTuple_Size(scalars); j++) { /* (the kernel argument of each scalar value, made once) */
        PyObject *pair = PyTuple_GetItem(scalars, j), *c = PyList_GetItem(last, j);
        PyObject *v = PyTuple_Check(pair) && PyTuple_Size(pair) == 2 ? slot_at(slots, PyTuple_GetItem(pair, 0)) : NULL;
        if (!v || !PyTuple_Check(c) || PyTuple_Size(c) != 2) {
            rc = -1;
            PyErr_SetString(PyExc_SystemError, "elementwise_run: a scalar's slot or cache is malformed");
            goto done;
        }
        if (PyTuple_GetItem(c, 0) != v) { /* (identity: equal values may differ, -0.0 and 0.0) */
            PyObject *arg = PyObject_CallFunctionObjArgs(PyTuple_GetItem(pair, 1), v, NULL);
            PyObject *nc = arg ? PyTuple_Pack(2, v, arg) : NULL;
            Py_XDECREF(arg);
            if (!nc || PyList_SetItem(last, j, nc) < 0) { /* (SetItem steals nc) */
                rc = -1;
                goto done;
            }
            c = nc;
        }
        held[k] = PyTuple_GetItem(c, 1);
        Py_INCREF(held[k++]);
    }
    /* enqueue(stream, kernel, config, *inputs, *scalars, out, n) */
    PyObject *enqueue = module_attr(launch_module, n_enqueue);
    PyObject *stream = enqueue ? PyObject_CallNoArgs(core_stream) : NULL;
    PyObject *call = stream ? PyTuple_New(3 + (k - 1) + 1) : NULL;
    if (call) {
        Py_ssize_t t = 0;
        PyObject *first[3] = {stream, PyTuple_GetItem(hit, 1), PyTuple_GetItem(hit, 0)};
        for (int i = 0; i < 3; i++) {
            Py_INCREF(first[i]);
            PyTuple_SetItem(call, t++, first[i]);
        }
        for (int i = 1; i < k; i++) {
            if (i == first_scalar - 1)
                continue; /* (hit, held only) */
            Py_INCREF(held[i]);
            PyTuple_SetItem(call, t++, held[i]);
        }
        Py_INCREF(held[0]);
        PyTuple_SetItem(call, t++, held[0]);
        PyObject *n32 = PyTuple_GetItem(hit, 2);
        Py_INCREF(n32);
        PyTuple_SetItem(call, t++, n32);
    }
    PyObject *r = call ? PyObject_Call(enqueue, call, NULL) : NULL;
    rc = r ? 1 : -1;
    Py_XDECREF(r);
    Py_XDECREF(call);
    Py_XDECREF(stream);
    Py_XDECREF(enqueue);
done:
    for (int i = 0; i < k; i++)
        Py_DECREF(held[i]);
    return rc;
}

int elementwise_step(PyObject *step) { return step_class && Py_TYPE(step) == step_class; }

/* elementwise_run(step, slots) -> the step's output (`_Elementwise.run`) */
PyObject *elementwise_run(PyObject *step, PyObject *slots) {
    if (!step_class || Py_TYPE(step) != step_class) {
        PyErr_SetString(PyExc_TypeError, "elementwise_run: not a step of the configured class");
        return NULL;
    }
    PyObject **fld = RECORD_FIELDS(step), *f[F_N];
    for (int i = 0; i < F_N; i++)
        f[i] = fld[field_at[i]];
    if (!f[F_SHAPE] || !f[F_DTYPE]) { /* (unset: the attribute's own error, AttributeError) */
        Py_XDECREF(PyObject_GetAttr(step, f[F_SHAPE] ? n_dtype : n_shape));
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_SystemError, "elementwise_run: a field unset");
        return NULL;
    }
    Py_ssize_t n = 0;
    int rc = -1;
    for (int i = 0; i < F_N; i++) {
        Py_XINCREF(f[i]); /* (held: the allocation and the launch run Python code) */
        if (!f[i])
            rc = 0; /* (a field unset: the Python path raises as it does) */
    }
    PyObject *out = new_c(f[F_SHAPE], f[F_DTYPE], &n);
    if (out && n && rc < 0)
        rc = launch_fast(f, slots, out, n);
    for (int i = 0; i < F_N; i++)
        Py_XDECREF(f[i]);
    if (!out || !n)
        return out;
    if (rc == 1)
        return out;
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *r = PyObject_CallMethodObjArgs(step, n_launch_into, slots, out, NULL);
    Py_DECREF(out);
    return r;
}

/* (METH_FASTCALL: `_Elementwise.run` calls it at every launch of a Program's step; no argument tuple parsed) */
static PyObject *elementwise_run_py(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "elementwise_run(step, slots) takes 2 arguments");
        return NULL;
    }
    return elementwise_run(args[0], args[1]);
}

static PyMethodDef methods[] = {
    {"configure_elementwise_run", configure_elementwise_run, METH_VARARGS,
     "configure_elementwise_run(_Elementwise, ndarray, memory module, _c_layout, current_core_stream, launch module)"},
    {"elementwise_run", (PyCFunction)(void (*)(void))elementwise_run_py, METH_FASTCALL,
     "elementwise_run(step, slots) -> the step's output array (`_Elementwise.run`)"},
    {NULL, NULL, 0, NULL}};

#define INTERN(name)                                              \
    if (!(n_##name = PyUnicode_InternFromString(#name)))          \
        return -1;

int nc_elementwise_run_init(PyObject *m) {
    ARRAY_NAMES(INTERN)
    OTHER_NAMES(INTERN)
    return PyModule_AddFunctions(m, methods);
}
