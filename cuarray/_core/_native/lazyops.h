/* cuarray._core._nodecore's lazy-mode operators: what lazyops.c (the operator type, the operators
   of a LazyArray, the traced ufunc call) and lazycalls.c (the traced `dot`, a LazyArray's
   reduction methods) share. */
#ifndef CUARRAY_LAZYOPS_H
#define CUARRAY_LAZYOPS_H

#include "nodecore.h"

enum { BINARY, UNARY, REDUCE, UFUNC, CALL }; /* (the first three are methods of a LazyArray) */
#define CACHE_SLOTS 8

typedef struct {
    PyObject_HEAD
    int kind, reflected;
    PyObject *memo, *tls, *general, *ufs; /* ufs: the unary operator's list that holds its ufunc once known */
    /* Memo hits and their keys' parts (held: compared by identity), valid while no `clear_memos`
       ran since (`gen`): a loop body asks one operator the same few questions each step (`*` of a
       lazy array by a scalar, by an array...). Searched whole (any slot holds any key), and filled
       in turn (`next`): with slots chosen by the parts' addresses, two keys of one body could share
       a slot and evict each other at every step, in some processes and not others (2 of a 10-node
       chain's 10 look-ups missed where measured). `misses`: the look-ups the cache did not answer
       (the read-only member `memo_misses`, for tests). */
    struct { PyObject *k[3], *hit; unsigned long gen; } cache[CACHE_SLOTS];
    int next;
    Py_ssize_t misses;
} Operator;

#define GENERAL ((PyObject *)1) /* (a result that says: call the Python function) */


/* lazyops.c: lazy mode's types (`configure_lazy`), interned names, and the steps every operator takes */
extern PyTypeObject *lazy_type, *ndarray_type, *op_type;
extern PyObject *s__dtype, *s__shape, *s_dot, *s_out, *s_call, *s__leaf, *s_reduce, *s_tracer;
PyObject *node_of(PyObject *o);
/* `a._shape` (shape 1) or `a._dtype` (0), a new reference: an ndarray's through its slot's descriptor
   (elementwise_run.c's table of ndarray's fields, once configured; by name before, and for anything else) */
PyObject *array_attr(PyObject *a, int shape);
int str_is(PyObject *o, PyObject *s);
int plain_node(PyObject *o);
PyObject *trace_array(PyObject *trace, PyObject *a);
PyObject *emit(PyObject *n, PyObject *st, PyObject *live);
int inside_routine(PyObject *st);
int seg_is(PyObject *node, PyObject *tid);
/* threadlocal.c: `tls.st` (lazy mode's thread state) and `tls.<name>` of a threading.local, each
   read once per thread where it can be (new references) */
PyObject *thread_state(PyObject *tls);
PyObject *local_attr(PyObject *tls, PyObject *name);
/* `tracing.install(tracer)` (the previous tracer, a new reference) and `tracing.uninstall(prev)`
   (0, or -1 with an error set) */
PyObject *tracer_install(PyObject *tracer);
int tracer_uninstall(PyObject *prev);

/* An Operator's steps on its arguments `a` (the instance, or for UFUNC and CALL the lazy state, first):
   its result, or GENERAL where its Python function takes the call (lazyops.c's `op_run`) */
PyObject *op_run(Operator *op, PyObject *const *a);
/* `self <op> other` of a binary `Operator` (op_call's steps, no argument tuple): live.c's number slots */
PyObject *operator_binary(PyObject *op, PyObject *self, PyObject *other);

/* lazycalls.c: `st.call("dot", ...)` and `self.<name>()` of a LazyArray (GENERAL where they do not apply) */
PyObject *traced_product(Operator *op, PyObject *st, PyObject *name, PyObject *args, PyObject *kwargs, PyObject *live);
PyObject *reduce_method(Operator *op, PyObject *self, PyObject *st, PyObject *live);

#endif
