/* current_stream.c (in _poolcore, which `import cuarray` loads): the calling thread's device and
   current stream read from C, for the pool's allocation (pool_malloc.c) and every launch. Its
   `current_core_stream()` is `stream.current_core_stream()` (the stream object every launch
   takes) for its common case, step for step: the thread's device (`device._tls.device_id`), whose
   context cuarray made current in this thread last (`active_context`), and the thread's current
   stream on it (`stream._tls.streams`, else the default stream), whose `_cs` it returns.
   Anything else (the context to make current, a stream table that is not a dict, a stream of
   another class) calls the Python function it was configured with, which stays the reference
   (tests/cuda/test_current_stream_cpu.py compares the two; CUARRAY_PURE_PYTHON_STREAM=1 runs
   without it).

   Why: ~2.4k instructions in Python a launch (two `threading.local` reads of ~490 each, the rest
   the frame), a part of every eager launch and of a cached lazy evaluation's. */
#include "poolcore.h"
#include "tls_dict.h"

/* configure_current_stream's: the thread-locals of device.py and stream.py, the default Stream,
   the Stream class's `_cs` and `ptr` members (read through their descriptors: a look-up by name
   costs ~4x more) and the Python function */
static PyObject *device_tls, *stream_tls, *default_stream, *stream_class, *cs_member, *ptr_member, *reference;
static descrgetfunc cs_get, ptr_get;
static PyObject *s_device_id, *s_active_context, *s_streams;

PyObject *pc_thread_device(void) {
    if (!device_tls) {
        PyErr_SetString(PyExc_RuntimeError, "_poolcore.configure_current_stream() first");
        return NULL;
    }
    return tls_attr(device_tls, s_device_id);
}

PyObject *pc_thread_stream(PyObject *dev) {
    PyObject *streams = tls_attr(stream_tls, s_streams), *s = default_stream;
    if (!streams)
        return NULL;
    if (streams != Py_None) {
        if (!PyDict_CheckExact(streams)) {
            Py_DECREF(streams);
            return NULL;
        }
        PyObject *got = PyDict_GetItemWithError(streams, dev); /* (borrowed) */
        if (!got && PyErr_Occurred()) {
            Py_DECREF(streams);
            return NULL;
        }
        s = got ? got : s;
    }
    if (!PyObject_TypeCheck(s, (PyTypeObject *)stream_class))
        s = NULL;
    Py_XINCREF(s);
    Py_DECREF(streams); /* (after: it may hold the only other reference to s) */
    return s;
}

PyObject *pc_stream_ptr(PyObject *s) { return ptr_get(ptr_member, s, (PyObject *)Py_TYPE(s)); }

static PyObject *configure_current_stream(PyObject *m, PyObject *args)
{
    PyObject *dt, *st, *ds, *sc, *ref;
    if (!PyArg_ParseTuple(args, "OOOO!O", &dt, &st, &ds, &PyType_Type, &sc, &ref))
        return NULL;
    PyObject *member = PyObject_GetAttrString(sc, "_cs"), *pmember = member ? PyObject_GetAttrString(sc, "ptr") : NULL;
    descrgetfunc get = member ? (descrgetfunc)PyType_GetSlot(Py_TYPE(member), Py_tp_descr_get) : NULL;
    descrgetfunc pget = pmember ? (descrgetfunc)PyType_GetSlot(Py_TYPE(pmember), Py_tp_descr_get) : NULL;
    if (!get || !pget || !PyCallable_Check(ref) || !PyObject_TypeCheck(ds, (PyTypeObject *)sc)) {
        Py_XDECREF(member);
        Py_XDECREF(pmember);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "configure_current_stream(device tls, stream tls, default Stream, "
                                             "Stream, reference): Stream has `_cs` and `ptr` members");
        return NULL;
    }
    if (!s_device_id && (!(s_device_id = PyUnicode_InternFromString("device_id")) ||
                         !(s_active_context = PyUnicode_InternFromString("active_context")) ||
                         !(s_streams = PyUnicode_InternFromString("streams")))) {
        Py_DECREF(member);
        Py_DECREF(pmember);
        return NULL;
    }
    PyObject *old[7] = {device_tls, stream_tls, default_stream, stream_class, cs_member, ptr_member, reference};
    PyObject *const now[5] = {dt, st, ds, sc, ref};
    for (int i = 0; i < 5; i++)
        Py_INCREF(now[i]);
    device_tls = dt;
    stream_tls = st;
    default_stream = ds;
    stream_class = sc;
    cs_member = member; /* (the references GetAttr gave) */
    ptr_member = pmember;
    reference = ref;
    cs_get = get;
    ptr_get = pget;
    for (int i = 0; i < 7; i++) /* (last: a dealloc may run Python code) */
        Py_XDECREF(old[i]);
    Py_RETURN_NONE;
}

static PyObject *current_core_stream(PyObject *m, PyObject *unused)
{
    PyObject *dev = pc_thread_device(), *active = NULL, *s = NULL, *out = NULL;
    if (!dev || !(active = tls_attr(device_tls, s_active_context)))
        goto done;
    /* (the context to make current: device._core_device, from the reference) */
    if (active != dev && (!PyLong_CheckExact(active) || !PyLong_CheckExact(dev) ||
                          PyObject_RichCompareBool(active, dev, Py_EQ) != 1))
        goto reference;
    if (!(s = pc_thread_stream(dev)))
        goto reference;
    out = cs_get(cs_member, s, (PyObject *)Py_TYPE(s));
    goto done;
reference:
    if (PyErr_Occurred())
        PyErr_Clear(); /* (a look-up's error: the reference meets it again and raises it) */
    out = PyObject_CallNoArgs(reference);
done:
    Py_XDECREF(dev);
    Py_XDECREF(active);
    Py_XDECREF(s);
    return out;
}

static PyMethodDef current_stream_methods[] = {
    {"configure_current_stream", configure_current_stream, METH_VARARGS,
     "configure_current_stream(device tls, stream tls, default Stream, Stream, reference)"},
    {"current_core_stream", current_core_stream, METH_NOARGS,
     "current_core_stream(): the launch object of the calling thread's current stream, with the current "
     "device's context current in this thread (stream.current_core_stream's common case in C)"},
    {NULL, NULL, 0, NULL}};

int pc_current_stream_init(PyObject *m) { return PyModule_AddFunctions(m, current_stream_methods); }
