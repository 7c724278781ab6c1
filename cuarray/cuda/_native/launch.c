/* _launchcore: cuarray's kernel launch in C (launch.py's `enqueue` when this module is built).

   Why: cuda.core's `launch` builds a ParamHolder (one heap block per argument, a C++ vector) and a
   driver CUlaunchConfig on every call; for a 16-element op that is most of the host time left
   (docs/perf-notes.md). Here the arguments are packed into a stack buffer and cuLaunchKernel is
   called directly, with the stream, config and kernel handles taken from a small identity cache.

   No CUDA header and no link against libcuda: launch.py gets cuLaunchKernel's address from the
   driver (cuGetProcAddress through cuda.bindings) and passes it to `configure` with cuda.core's
   `launch` (the fallback: anything this file does not handle goes there, so behaviour is cuda.core's),
   the function that raises cuda.core's error for a CUresult, and the three cuda.core types.

   Arguments as cuda.core's ParamHolder treats them: a Python bool is a C bool, a Python int an
   8-byte intptr_t, a Python float a double, a Python complex a complex<double>;
   anything else must be a 0-d buffer (NumPy and ctypes scalars) of a numeric format cuda.core knows.
   Built against the limited API of 3.11 (one abi3 build for 3.11+). */
#include "limited_api.h" /* (Python.h: the limited API of 3.11) */
#include <stdint.h>
#include <string.h>

/* The driver's types, declared here (no cuda.h): handles are opaque pointers, CUresult an int. */
typedef int CUresult;
typedef void *CUfunction; /* a CUkernel is accepted where a CUfunction is expected (CUDA >= 12.0) */
typedef void *CUstream;
typedef CUresult (*cuLaunchKernel_t)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                     unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                                     void **extra);

#define MAX_ARGS 64
#define BUF_BYTES 2048 /* kernel parameters land here; a bigger set goes to cuda.core */

static cuLaunchKernel_t launch_fn;
/* cuGraphLaunch (`configure_graph_launch`): a CUDA graph's replay, its exec handle and stream as integers */
typedef CUresult (*cuGraphLaunch_t)(void *exec, CUstream s);
static cuGraphLaunch_t graph_launch_fn;
static PyObject *fallback, *error_fn, *stream_type, *config_type, *kernel_type;
static PyObject *scalar_types; /* (numpy.generic, ctypes._SimpleCData): whose buffers are values */

/* Is a's type a subclass of one of scalar_types? A 0-d NumPy array also exports a 0-d buffer,
   but cuda.core rejects arrays (TypeError), so the buffer alone does not decide. */
static int is_scalar(PyObject *a)
{
    if (scalar_types == NULL)
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_Size(scalar_types); i++)
        if (PyType_IsSubtype(Py_TYPE(a), (PyTypeObject *)PyTuple_GetItem(scalar_types, i)))
            return 1;
    return 0;
}

/* ---- argument packing ------------------------------------------------------------------------- */

/* Numeric buffer formats cuda.core's ParamHolder accepts (NumPy and ctypes scalars), without the
   byte-order prefix: bool, signed/unsigned 8-64 bit, half, float, double, complex float/double. */
static int format_ok(const char *f, int *is_complex)
{
    if (f == NULL)
        return 0;
    if (*f == '@' || *f == '=' || *f == '<') /* native or little-endian (x86-64, aarch64) */
        f++;
    *is_complex = 0;
    if (f[0] == 'Z' && (f[1] == 'f' || f[1] == 'd') && f[2] == 0) {
        *is_complex = 1;
        return 1;
    }
    return f[0] != 0 && f[1] == 0 && strchr("?bBhHiIlLqQefd", f[0]) != NULL;
}

/* Append `size` bytes at `align` to buf; offs[i] gets the offset. 0, or -1 if the buffer is full. */
static int put(char *buf, Py_ssize_t *used, Py_ssize_t *offs, Py_ssize_t i, const void *src,
               Py_ssize_t size, Py_ssize_t align)
{
    Py_ssize_t at = (*used + align - 1) & ~(align - 1);
    if (at + size > BUF_BYTES)
        return -1;
    memcpy(buf + at, src, (size_t)size);
    offs[i] = at;
    *used = at + size;
    return 0;
}

/* Pack args into buf (16-byte aligned, BUF_BYTES). Returns 0, or 1 when cuda.core must take this
   call (an argument of another kind, an int past intptr_t, too many or too large); never raises. */
static int pack(PyObject *const *args, Py_ssize_t n, char *buf, Py_ssize_t *offs, Py_ssize_t *sizes)
{
    Py_ssize_t used = 0;
    if (n > MAX_ARGS)
        return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = args[i];
        if (PyBool_Check(a)) { /* before int: cuda.core 1.2 passes a Python bool as a C bool */
            char b = a == Py_True;
            sizes[i] = 1;
            if (put(buf, &used, offs, i, &b, 1, 1))
                return 1;
        } else if (PyLong_Check(a)) {
            long long v = AS_I64(a); /* cuda.core: <intptr_t>(arg), so OverflowError past it */
            if (v == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 1;
            }
            int64_t p = (int64_t)v;
            sizes[i] = 8;
            if (put(buf, &used, offs, i, &p, 8, 8))
                return 1;
        } else if (PyFloat_Check(a)) { /* np.float64 is a float subclass: the same 8 bytes */
            double d = PyFloat_AsDouble(a);
            sizes[i] = 8;
            if (put(buf, &used, offs, i, &d, 8, 8))
                return 1;
        } else if (PyComplex_Check(a)) {
            double c[2] = {PyComplex_RealAsDouble(a), PyComplex_ImagAsDouble(a)};
            sizes[i] = 16;
            if (put(buf, &used, offs, i, c, 16, 8))
                return 1;
        } else {
            /* A NumPy or ctypes scalar: its bytes through the buffer protocol (limited API 3.11). */
            Py_buffer view;
            int cplx, bad;
            if (!is_scalar(a))
                return 1;
            /* PyBUF_ND: without it NumPy reports ndim 0 for any array */
            if (PyObject_GetBuffer(a, &view, PyBUF_FORMAT | PyBUF_ND) != 0) {
                PyErr_Clear();
                return 1;
            }
            bad = view.ndim != 0 || view.len <= 0 || view.len > 16 || view.len != view.itemsize ||
                  !format_ok(view.format, &cplx);
            if (!bad) {
                Py_ssize_t align = cplx ? view.len / 2 : view.len; /* complex<T> aligns as T */
                sizes[i] = view.len;
                bad = put(buf, &used, offs, i, view.buf, view.len, align);
            }
            PyBuffer_Release(&view);
            if (bad)
                return 1;
        }
    }
    return 0;
}

/* ---- identity caches of the three handle holders ---------------------------------------------- */

/* One direct-mapped table per kind, keyed by object identity. An entry holds a strong reference to
   its object, so the address cannot be reused by another object while the entry lives (the cost: up
   to SLOTS streams/kernels/configs stay alive until evicted; cuarray caches all three anyway). */
#define SLOTS 64
typedef struct {
    PyObject *obj;
    void *handle;      /* stream or kernel */
    unsigned dim[7];   /* config: grid xyz, block xyz, shared memory bytes */
    int native;        /* config: 0 = cluster / cooperative / PDL: cuda.core launches it */
} Entry;
static Entry streams[SLOTS], kernels[SLOTS], configs[SLOTS];

static inline Entry *slot(Entry *table, PyObject *o) { return &table[((uintptr_t)o >> 4) & (SLOTS - 1)]; }

/* Store (o, e's data) in its slot; the old object's reference is dropped last, since dropping it
   can run arbitrary code (a destructor that launches, re-entering these tables). */
static void store(Entry *table, PyObject *o, Entry *e)
{
    Entry *s = slot(table, o);
    PyObject *old = s->obj;
    Py_INCREF(o);
    *s = *e;
    s->obj = o;
    Py_XDECREF(old);
}

/* int(obj.handle) as a pointer into *h: 0, or -1 (no error set) when obj has none usable. */
static int handle_of(PyObject *obj, void **h)
{
    PyObject *ho = PyObject_GetAttrString(obj, "handle"), *io = NULL;
    *h = NULL;
    if (ho != NULL && (io = PyNumber_Long(ho)) != NULL)
        *h = PyLong_AsVoidPtr(io);
    Py_XDECREF(ho);
    Py_XDECREF(io);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

/* An int or a tuple of up to 3 ints as x, y, z (cuda.core stores 3-tuples). -1 if neither. */
static int dims3(PyObject *o, unsigned *out)
{
    out[0] = out[1] = out[2] = 1;
    if (PyLong_Check(o)) {
        out[0] = (unsigned)PyLong_AsUnsignedLong(o);
    } else if (PyTuple_Check(o) && PyTuple_Size(o) >= 1 && PyTuple_Size(o) <= 3) {
        for (Py_ssize_t i = 0; i < PyTuple_Size(o); i++)
            out[i] = (unsigned)PyLong_AsUnsignedLong(PyTuple_GetItem(o, i));
    } else {
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static int attr_true(PyObject *o, const char *name)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    int r = v == NULL ? (PyErr_Clear(), 0) : (v != Py_None && PyObject_IsTrue(v) == 1);
    Py_XDECREF(v);
    if (PyErr_Occurred())
        PyErr_Clear();
    return r;
}

/* Read a LaunchConfig into e. Anything cuLaunchKernel cannot express leaves e->native = 0. */
static void read_config(PyObject *cfg, Entry *e)
{
    PyObject *g = PyObject_GetAttrString(cfg, "grid"), *b = PyObject_GetAttrString(cfg, "block"),
             *sm = PyObject_GetAttrString(cfg, "shmem_size"), *cl = PyObject_GetAttrString(cfg, "cluster");
    memset(e, 0, sizeof(*e));
    if (g && b && sm && cl && dims3(g, e->dim) == 0 && dims3(b, e->dim + 3) == 0) {
        e->dim[6] = sm == Py_None ? 0 : (unsigned)PyLong_AsUnsignedLong(sm);
        e->native = !PyErr_Occurred() && cl == Py_None && !attr_true(cfg, "is_cooperative") &&
                    !attr_true(cfg, "programmatic_stream_serialization");
    }
    Py_XDECREF(g);
    Py_XDECREF(b);
    Py_XDECREF(sm);
    Py_XDECREF(cl);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        e->native = 0;
    }
}

/* ---- the module functions --------------------------------------------------------------------- */

static PyObject *call_fallback(PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *t = PyTuple_New(nargs), *r;
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SetItem(t, i, args[i]);
    }
    r = PyObject_Call(fallback, t, NULL);
    Py_DECREF(t);
    return r;
}

/* enqueue(stream, config, kernel, *args): cuda.core's `launch` signature and behaviour. */
static PyObject *enqueue(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    _Alignas(16) char buf[BUF_BYTES];
    void *params[MAX_ARGS];
    Py_ssize_t offs[MAX_ARGS], sizes[MAX_ARGS];
    PyObject *so, *co, *ko;
    Entry *en, e;
    void *sh, *fh;
    unsigned d[7];
    CUresult rc;
    (void)mod;
    if (launch_fn == NULL || nargs < 3) {
        if (fallback != NULL)
            return call_fallback(args, nargs);
        PyErr_SetString(PyExc_RuntimeError, "_launchcore is not configured");
        return NULL;
    }
    so = args[0], co = args[1], ko = args[2];

    /* Steady state: three identity compares, the values copied out (a store below may evict an
       entry: dropping an old object runs arbitrary code). A miss reads the object once; only the
       exact cuda.core types: a GraphBuilder, a foreign stream object or a dict goes to cuda.core. */
    en = slot(streams, so);
    if (en->obj == so) {
        sh = en->handle;
    } else {
        if (Py_TYPE(so) != (PyTypeObject *)stream_type || handle_of(so, &sh))
            return call_fallback(args, nargs);
        memset(&e, 0, sizeof e);
        e.handle = sh;
        store(streams, so, &e);
    }
    en = slot(configs, co);
    if (en->obj == co) {
        memcpy(d, en->dim, sizeof d);
        e.native = en->native;
    } else {
        if (Py_TYPE(co) != (PyTypeObject *)config_type)
            return call_fallback(args, nargs);
        read_config(co, &e);
        memcpy(d, e.dim, sizeof d);
        store(configs, co, &e);
    }
    if (!e.native)
        return call_fallback(args, nargs);
    en = slot(kernels, ko);
    if (en->obj == ko) {
        fh = en->handle;
    } else {
        if (Py_TYPE(ko) != (PyTypeObject *)kernel_type || handle_of(ko, &fh))
            return call_fallback(args, nargs);
        memset(&e, 0, sizeof e);
        e.handle = fh;
        store(kernels, ko, &e);
    }
    if (pack(args + 3, nargs - 3, buf, offs, sizes))
        return call_fallback(args, nargs);
    for (Py_ssize_t i = 0; i < nargs - 3; i++)
        params[i] = buf + offs[i];

    /* The GIL is released as cuda.core does: the call blocks while the launch queue is full. */
    Py_BEGIN_ALLOW_THREADS
    rc = launch_fn(fh, d[0], d[1], d[2], d[3], d[4], d[5], d[6], sh, params, NULL);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        /* cuda.core's own error for this CUresult (launch.py passes its checker). */
        PyObject *r = PyObject_CallFunction(error_fn, "i", rc);
        if (r == NULL)
            return NULL;
        Py_DECREF(r);
        PyErr_Format(PyExc_RuntimeError, "cuLaunchKernel failed: CUresult %d", rc);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* configure(cuLaunchKernel address, fallback, error_fn, Stream, LaunchConfig, Kernel) */
static PyObject *configure(PyObject *mod, PyObject *args)
{
    PyObject *ptr, *fb, *ef, *st, *ct, *kt;
    (void)mod;
    if (!PyArg_ParseTuple(args, "OOOOOO", &ptr, &fb, &ef, &st, &ct, &kt))
        return NULL;
    if (!PyCallable_Check(fb) || !PyCallable_Check(ef) || !PyType_Check(st) || !PyType_Check(ct) ||
        !PyType_Check(kt)) {
        PyErr_SetString(PyExc_TypeError, "configure(ptr, fallback, error_fn, Stream, LaunchConfig, Kernel)");
        return NULL;
    }
    void *p = PyLong_AsVoidPtr(ptr);
    if (p == NULL && PyErr_Occurred())
        return NULL;
    PyObject *old[5] = {fallback, error_fn, stream_type, config_type, kernel_type};
    Py_INCREF(fb), Py_INCREF(ef), Py_INCREF(st), Py_INCREF(ct), Py_INCREF(kt);
    fallback = fb, error_fn = ef, stream_type = st, config_type = ct, kernel_type = kt;
    for (int i = 0; i < 5; i++)
        Py_XDECREF(old[i]);
    launch_fn = (cuLaunchKernel_t)p; /* 0: every call goes to the fallback */
    Py_RETURN_NONE;
}

/* set_scalar_types(tuple of types): the scalar classes whose 0-d buffers are kernel values. */
static PyObject *set_scalar_types(PyObject *mod, PyObject *t)
{
    PyObject *old = scalar_types;
    (void)mod;
    if (!PyTuple_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "set_scalar_types takes a tuple of types");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_Size(t); i++)
        if (!PyType_Check(PyTuple_GetItem(t, i))) {
            PyErr_SetString(PyExc_TypeError, "set_scalar_types takes a tuple of types");
            return NULL;
        }
    Py_INCREF(t);
    scalar_types = t;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

/* clear(): drop the cached handles (tests; also frees the objects the caches keep alive). */
static PyObject *clear(PyObject *mod, PyObject *unused)
{
    Entry *tables[3] = {streams, kernels, configs};
    (void)mod, (void)unused;
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < SLOTS; i++) {
            PyObject *o = tables[t][i].obj;
            memset(&tables[t][i], 0, sizeof(Entry));
            Py_XDECREF(o);
        }
    Py_RETURN_NONE;
}

/* pack(*args): (bytes, offsets, sizes) as enqueue would pass them, or None where cuda.core would
   take the call. For tests: no device needed. */
static PyObject *pack_py(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    _Alignas(16) char buf[BUF_BYTES];
    Py_ssize_t offs[MAX_ARGS], sizes[MAX_ARGS], end = 0;
    (void)mod;
    memset(buf, 0, sizeof buf); /* padding reads as zeros */
    if (pack(args, nargs, buf, offs, sizes))
        Py_RETURN_NONE;
    PyObject *o = PyTuple_New(nargs), *z = PyTuple_New(nargs);
    if (o == NULL || z == NULL) {
        Py_XDECREF(o);
        Py_XDECREF(z);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SetItem(o, i, PyLong_FromSsize_t(offs[i]));
        PyTuple_SetItem(z, i, PyLong_FromSsize_t(sizes[i]));
        if (offs[i] + sizes[i] > end)
            end = offs[i] + sizes[i];
    }
    return Py_BuildValue("(y#NN)", buf, end, o, z);
}

/* configure_graph_launch(cuGraphLaunch address): 0 takes it back (graph_launch raises then) */
static PyObject *configure_graph_launch(PyObject *mod, PyObject *ptr)
{
    void *p = PyLong_AsVoidPtr(ptr);
    (void)mod;
    if (p == NULL && PyErr_Occurred())
        return NULL;
    graph_launch_fn = (cuGraphLaunch_t)p;
    Py_RETURN_NONE;
}

/* graph_launch(exec handle, stream handle) -> CUresult: cuGraphLaunch, the call's status returned
   (graph.py raises for it as for cuda.bindings' call: `_backend.check`). The cuda.bindings call
   converts both handles to its own objects first; measured on the H100's host in a lazy loop's
   replay, 4.5 us a replay of which the driver's own part is about 2 (docs/perf-notes.md). */
static PyObject *graph_launch(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 2 || graph_launch_fn == NULL) {
        PyErr_SetString(PyExc_TypeError, "graph_launch(exec, stream), after configure_graph_launch()");
        return NULL;
    }
    void *exec = PyLong_AsVoidPtr(args[0]), *stream = PyLong_AsVoidPtr(args[1]);
    if (PyErr_Occurred())
        return NULL;
    CUresult rc;
    Py_BEGIN_ALLOW_THREADS /* (the driver may wait for room in the launch queue) */
    rc = graph_launch_fn(exec, (CUstream)stream);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(rc);
}

static PyMethodDef methods[] = {
    {"configure_graph_launch", configure_graph_launch, METH_O, "configure_graph_launch(cuGraphLaunch address)"},
    {"graph_launch", (PyCFunction)(void (*)(void))graph_launch, METH_FASTCALL, "graph_launch(exec, stream) -> CUresult: cuGraphLaunch"},
    {"enqueue", (PyCFunction)(void (*)(void))enqueue, METH_FASTCALL, "enqueue(stream, config, kernel, *args): cuda.core's launch, through cuLaunchKernel"},
    {"configure", configure, METH_VARARGS, "configure(cuLaunchKernel ptr, fallback, error_fn, Stream, LaunchConfig, Kernel)"},
    {"pack", (PyCFunction)(void (*)(void))pack_py, METH_FASTCALL, "pack(*args): (bytes, offsets, sizes), or None (cuda.core's)"},
    {"set_scalar_types", set_scalar_types, METH_O, "set_scalar_types((numpy.generic, ctypes._SimpleCData))"},
    {"clear", clear, METH_NOARGS, "drop the cached stream/config/kernel handles"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_launchcore", "cuarray's kernel launch through cuLaunchKernel (see launch.py).",
    0, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__launchcore(void) { return PyModuleDef_Init(&module_def); }
