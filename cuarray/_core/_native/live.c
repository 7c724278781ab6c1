/* A LazyArray's fields (`LazyFields`, the base of `fusion.lazy_array.LazyArray`), a thread's
   lazy state's fields (`StateFields`, the base of `lazy_mode._State`) and its set of live lazy
   arrays (`Live`, `lazy_mode._State.live` where this module is built).

   Every operator reads its thread's `live` and `trace` (and, for an operation on concrete arrays,
   `internal`): from the struct, not by name (a look-up in the state's instance dict each).

   Leaving lazy mode computes every lazy array of the thread still alive (`evaluation.flush`).
   The reference way to know which are alive is a list of weak references, one made per lazy
   array and read back at the flush (the pure-Python build, and a list set by a test). Here a
   lazy array links itself into its thread's `Live` when made (`add`) and unlinks itself when it
   goes (its dealloc), so no weak reference is made or read: `pending()` walks what is left.
   Measured with the device stubbed (a 10-operation body, one result alive at the end): the
   flush's walk 0.33 us over ten weak references -> 0.09 us (`pending()` call included), and the
   whole evaluation 14.45 -> 13.85 us.

   A member holds a strong reference to its set (so a set never goes before its members), the
   set none to its members (borrowed links, each member unlinking itself in its dealloc or
   clear). Everything here runs with the GIL held and no Python code in between: a member that
   goes in another thread unlinks itself between two of the owner thread's bytecodes. Order is
   kept (members in the order they were made: the Program's outputs' order, as with the list). */
#include "lazyops.h"
#include <string.h>

PyTypeObject *lazyfields_type, *live_type, *statefields_type;

typedef struct {
    PyObject_HEAD
    LazyFields *head, *tail;
    Py_ssize_t n;
} LiveObject;

static void unlink_member(LazyFields *x) {
    LiveObject *s = (LiveObject *)x->owner;
    if (!s)
        return;
    if (x->prev)
        x->prev->next = x->next;
    else
        s->head = x->next;
    if (x->next)
        x->next->prev = x->prev;
    else
        s->tail = x->prev;
    s->n--;
    x->owner = NULL;
    x->prev = x->next = NULL;
    Py_DECREF((PyObject *)s); /* (may free the set: it has no member left then) */
}

/* -- LazyFields ------------------------------------------------------------------------------ */
static int lazyf_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((LazyFields *)self)->node);
    Py_VISIT(((LazyFields *)self)->owner);
    Py_VISIT((PyObject *)Py_TYPE(self)); /* (a heap type's instances reference it) */
    return 0;
}

static int lazyf_clear(PyObject *self) {
    unlink_member((LazyFields *)self);
    Py_CLEAR(((LazyFields *)self)->node);
    return 0;
}

FreeList freed_lazy;
static void lazyf_dealloc(PyObject *self) { gc_dealloc_kept(self, lazyf_clear, &freed_lazy); }

/* -- LazyFields' number slots: a LazyArray's binary operators ------------------------------------
   `l * m`, `l - 1.0`, `2 * l`: CPython calls a type's number slot itself, where a Python `__mul__`
   (an `Operator`, lazyops.c) is reached through the slot's look-up of the method and a call with an
   argument tuple (~40 ns of a ~0.45 us operation, stubbed). `bind_binary(name, op, rop)` (lazy_mode)
   gives a slot its two Operators, `__<name>__` and `__r<name>__`; the slot runs the first with the
   LazyArray on the left, else the second with the operands swapped: what Python's own slot does with
   the two methods (a LazyArray has no subclass, so its reflected method is never tried first). */
static const char *bin_names[] = {"add", "sub", "mul", "truediv", "floordiv", "mod", "and", "or", "xor",
                                  "lshift", "rshift", "matmul"};
#define N_BIN 12
static PyObject *bin_ops[N_BIN][2];

static PyObject *lazy_binop(int i, PyObject *a, PyObject *b) {
    if (!bin_ops[i][0])
        Py_RETURN_NOTIMPLEMENTED;
    if (IS_A(a, lazyfields_type, lazy_type))
        return operator_binary(bin_ops[i][0], a, b);
    return operator_binary(bin_ops[i][1], b, a);
}

#define BINOP(i, name) \
    static PyObject *nb_##name(PyObject *a, PyObject *b) { return lazy_binop(i, a, b); }
BINOP(0, add) BINOP(1, sub) BINOP(2, mul) BINOP(3, truediv) BINOP(4, floordiv) BINOP(5, mod) BINOP(6, and)
BINOP(7, or) BINOP(8, xor) BINOP(9, lshift) BINOP(10, rshift) BINOP(11, matmul)

/* bind_binary(name, op, rop) -> bool: whether a number slot serves `__<name>__` (then it runs these two
   Operators; lazy_mode binds the others, `pow`, as methods) */
static PyObject *bind_binary(PyObject *mod, PyObject *args) {
    const char *name;
    PyObject *op, *rop;
    if (!PyArg_ParseTuple(args, "sOO", &name, &op, &rop))
        return NULL;
    for (int i = 0; i < N_BIN; i++) {
        if (strcmp(name, bin_names[i]) != 0)
            continue;
        if (Py_TYPE(op) != op_type || Py_TYPE(rop) != op_type) {
            PyErr_SetString(PyExc_TypeError, "bind_binary(name, op, rop): two Operators");
            return NULL;
        }
        PyObject **const slots[2] = {&bin_ops[i][0], &bin_ops[i][1]};
        PyObject *const values[2] = {op, rop};
        replace_refs(slots, values, 2);
        Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

static PyMemberDef lazyf_members[] = {{"_node", T_OBJECT_EX, offsetof(LazyFields, node), 0, NULL},
                                      {NULL, 0, 0, 0, NULL}};

static PyType_Slot lazyf_slots[] = {{Py_tp_doc, "A LazyArray's field (_node, its graph node) as a C struct."},
                                    {Py_tp_traverse, lazyf_traverse},
                                    {Py_tp_clear, lazyf_clear},
                                    {Py_tp_dealloc, lazyf_dealloc},
                                    {Py_tp_members, lazyf_members},
                                    {Py_nb_add, nb_add},
                                    {Py_nb_subtract, nb_sub},
                                    {Py_nb_multiply, nb_mul},
                                    {Py_nb_true_divide, nb_truediv},
                                    {Py_nb_floor_divide, nb_floordiv},
                                    {Py_nb_remainder, nb_mod},
                                    {Py_nb_and, nb_and},
                                    {Py_nb_or, nb_or},
                                    {Py_nb_xor, nb_xor},
                                    {Py_nb_lshift, nb_lshift},
                                    {Py_nb_rshift, nb_rshift},
                                    {Py_nb_matrix_multiply, nb_matmul},
                                    {0, NULL}};

static PyType_Spec lazyf_spec = {"cuarray._core._nodecore.LazyFields", sizeof(LazyFields), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, lazyf_slots};

/* -- StateFields ------------------------------------------------------------------------------- */
#define STATE_FIELDS 6
#define SFIELDS(o) (&((StateFields *)(o))->live)
static PyObject *state_names[STATE_FIELDS]; /* (interned: "live", "trace", ...) */

PyTypeObject *state_class;

PyObject *state_get(PyObject *st, int which) {
    if (IS_A(st, statefields_type, state_class)) {
        PyObject *v = SFIELDS(st)[which];
        if (v) {
            Py_INCREF(v);
            return v;
        }
    }
    return PyObject_GetAttr(st, state_names[which]);
}

int state_set(PyObject *st, int which, PyObject *v) {
    if (!IS_A(st, statefields_type, state_class))
        return PyObject_SetAttr(st, state_names[which], v);
    replace_field(&SFIELDS(st)[which], v);
    return 0;
}

FIELD_RUN_GC(statef, SFIELDS, STATE_FIELDS, NULL)

#define SMEMBER(name) {#name, T_OBJECT_EX, offsetof(StateFields, name), 0, NULL}
static PyMemberDef statef_members[] = {SMEMBER(live),  SMEMBER(trace), SMEMBER(internal), SMEMBER(depth),
                                       SMEMBER(host), SMEMBER(plans), {NULL, 0, 0, 0, NULL}};

static PyType_Slot statef_slots[] = {
    {Py_tp_doc, "A thread's lazy-mode state's fields (live, trace, internal, depth, host, plans) as a C struct."},
    {Py_tp_traverse, statef_traverse},
    {Py_tp_clear, statef_clear},
    {Py_tp_dealloc, statef_dealloc},
    {Py_tp_members, statef_members},
    {0, NULL}};

static PyType_Spec statef_spec = {"cuarray._core._nodecore.StateFields", sizeof(StateFields), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, statef_slots};

/* -- Live ------------------------------------------------------------------------------------- */
int live_add(PyObject *live, PyObject *x) {
    if (Py_TYPE(live) != live_type || !IS_A(x, lazyfields_type, lazy_type)) {
        PyErr_SetString(PyExc_TypeError, "Live.add takes a LazyArray");
        return -1;
    }
    LazyFields *m = (LazyFields *)x;
    LiveObject *s = (LiveObject *)live;
    if (m->owner == live)
        return 0;
    unlink_member(m); /* (in another set: it moves) */
    Py_INCREF(live);
    m->owner = live;
    m->prev = s->tail;
    m->next = NULL;
    if (s->tail)
        s->tail->next = m;
    else
        s->head = m;
    s->tail = m;
    s->n++;
    return 0;
}

static PyObject *live_add_method(PyObject *self, PyObject *x) {
    if (live_add(self, x) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The nodes of the members not computed (`node.value is None`), in the order they were made. */
static PyObject *live_pending(PyObject *self, PyObject *unused) {
    PyObject *out = PyList_New(0); /* (made first: a collection it may start cannot run during the walk) */
    if (!out)
        return NULL;
    for (LazyFields *m = ((LiveObject *)self)->head; m; m = m->next) {
        PyObject *n = m->node, *v;
        if (!n)
            continue;
        if (Py_TYPE(n) == node_type) {
            v = ((NodeFields *)n)->value;
            if (v != Py_None)
                continue;
        } else {
            continue; /* (never made so: a Live is used only with the C nodes) */
        }
        if (PyList_Append(out, n) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyObject *live_clear_method(PyObject *self, PyObject *unused) {
    LiveObject *s = (LiveObject *)self;
    Py_INCREF(self); /* (the members' references go one by one) */
    while (s->head)
        unlink_member(s->head);
    Py_DECREF(self);
    Py_RETURN_NONE;
}

static Py_ssize_t live_len(PyObject *self) {
    return ((LiveObject *)self)->n;
}

static PyObject *live_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    if (PyTuple_Size(args) || (kw && PyDict_Size(kw))) {
        PyErr_SetString(PyExc_TypeError, "Live() takes no arguments");
        return NULL;
    }
    return ((allocfunc)PyType_GetSlot(tp, Py_tp_alloc))(tp, 0);
}

static void live_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self); /* (no member: each holds a reference) */
    Py_DECREF(tp);
}

static PyMethodDef live_methods[] = {
    {"add", live_add_method, METH_O, "add(x): x (a LazyArray) is alive until it goes or clear()"},
    {"pending", live_pending, METH_NOARGS, "pending() -> the nodes of the members not computed, oldest first"},
    {"clear", live_clear_method, METH_NOARGS, "clear(): no member any more"},
    {NULL, NULL, 0, NULL}};

static PyType_Slot live_slots[] = {
    {Py_tp_doc, "A thread's live lazy arrays, linked without weak references (see live.c); len() counts them."},
    {Py_tp_new, live_new},
    {Py_tp_dealloc, live_dealloc},
    {Py_tp_methods, live_methods},
    {Py_sq_length, live_len},
    {0, NULL}};

static PyType_Spec live_spec = {"cuarray._core._nodecore.Live", sizeof(LiveObject), 0, Py_TPFLAGS_DEFAULT,
                                live_slots};

static PyMethodDef binary_methods[] = {
    {"bind_binary", bind_binary, METH_VARARGS,
     "bind_binary(name, op, rop) -> bool: a LazyArray number slot runs these Operators for __<name>__/__r<name>__"},
    {NULL, NULL, 0, NULL}};

int nc_live_init(PyObject *m) {
    PyObject *lf = PyType_FromSpec(&lazyf_spec), *lv = lf ? PyType_FromSpec(&live_spec) : NULL;
    PyObject *sf = lv ? PyType_FromSpec(&statef_spec) : NULL;
    if (!sf || PyModule_AddObjectRef(m, "LazyFields", lf) < 0 || PyModule_AddObjectRef(m, "Live", lv) < 0 ||
        PyModule_AddObjectRef(m, "StateFields", sf) < 0 || !(state_names[SF_LIVE] = PyUnicode_InternFromString("live")) ||
        !(state_names[SF_TRACE] = PyUnicode_InternFromString("trace")) ||
        !(state_names[SF_INTERNAL] = PyUnicode_InternFromString("internal")) ||
        !(state_names[SF_DEPTH] = PyUnicode_InternFromString("depth")) ||
        !(state_names[SF_HOST] = PyUnicode_InternFromString("host")) ||
        !(state_names[SF_PLANS] = PyUnicode_InternFromString("plans"))) {
        Py_XDECREF(lf);
        Py_XDECREF(lv);
        Py_XDECREF(sf);
        return -1;
    }
    if (PyModule_AddFunctions(m, binary_methods) < 0)
        return -1;
    lazyfields_type = (PyTypeObject *)lf; /* (kept: the module holds them too) */
    live_type = (PyTypeObject *)lv;
    statefields_type = (PyTypeObject *)sf;
    return 0;
}
