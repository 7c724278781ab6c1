"""The loop of SciPy's elementwise iterative methods (`scipy.optimize.elementwise`,
`scipy.differentiate`) over arrays of independent problems on the device.

SciPy's `_elementwise_iterative_method` evaluates the user's function on the active problems, runs
the method's steps, tests termination and compresses the finished problems away. Here every step
of a method is whole-array `where` arithmetic on the active problems (no boolean-mask assignment,
so nothing sizes an array from the device), and each iteration makes one device-to-host read: the
size of `flatnonzero` of the problems still running, which is both the "all converged" test and
the gather that compresses the others away (skipped while none finished).
"""

import math

import numpy

from .._core.host_input import as_array
from .._creation.basic import full, zeros
from .._creation.from_data import copy
from .._creation.ranges import arange
from .._dtype.routines import astype, result_type
from .._indexing.inserting import take
from .._manipulation.dims import broadcast_arrays, broadcast_to
from .._manipulation.shape import reshape
from .._sorting.counting import count_nonzero
from .._sorting.searching import where
from .._sorting.searching_nonzero import flatnonzero
from .._core.transfer import to_host
from ._rich_result import RichResult

ESIGNERR = -1
ECONVERR = -2
EVALUEERR = -3
ECALLBACK = -4
EINPUTERR = -5
ECONVERGED = 0
EINPROGRESS = 1


def call_callback_maybe_halt(callback, res):
    """True when the user's callback raised StopIteration (SciPy's way to stop early)."""
    if callback is None:
        return False
    try:
        callback(res)
        return False
    except StopIteration:
        return True


def quiet():
    """The method's own steps divide by zero and compare NaNs on finished or degenerate problems,
    as SciPy's do behind masks; on the host (the NumPy stand-ins) that must not warn."""
    return numpy.errstate(divide="ignore", invalid="ignore", over="ignore")


def floating(*values):
    """SciPy's `xp_result_type(..., force_floating=True)`: Python scalars weak, integers to float64."""
    dt = numpy.dtype(result_type(*values))
    if dt.kind not in "fc":
        dt = numpy.dtype(result_type(dt, numpy.float64))
    return dt


def initialize(func, xs, args, fn, kwargs=None, preserve_shape=None):
    """SciPy's `_initialize`: the abscissae and args broadcast, raveled and in the common floating
    dtype, the function's first values, the broadcast shape and the dtype."""
    if kwargs is not None:
        args = (*args, *kwargs.values())
        kwnames = tuple(kwargs.keys())

        def func(x, *args, kwnames=kwnames, func=func, **kw):
            nargs = len(args) - len(kwnames)
            return func(x, *args[:nargs], **dict(zip(kwnames, args[nargs:])), **kw)

    nx = len(xs)
    xat = floating(*xs)
    xas = broadcast_arrays(*[as_array(v, fn) for v in (*xs, *args)])
    xs, args = xas[:nx], xas[nx:]
    xs = [astype(x, xat) for x in xs]
    fs = [as_array(func(x, *args), fn) for x in xs]
    shape = tuple(xs[0].shape)
    fshape = tuple(fs[0].shape)

    if preserve_shape:
        lead = (0,) * (len(fshape) - len(shape))  # the function sees x without f's extra leading axes

        def func(x, *args, func=func, lead=lead, **kw):
            return func(x[lead], *args, **kw)
        shape = numpy.broadcast_shapes(fshape, shape)
        xs = [broadcast_to(x, shape) for x in xs]
        args = [broadcast_to(a, shape) for a in args]

    message = ("The shape of the array returned by `func` must be the same as "
               "the broadcasted shape of `x` and all other `args`.")
    if preserve_shape is not None:
        message = "When `preserve_shape=False`, {}".format(message.lower())
    if not all(tuple(f.shape) == shape for f in fs):
        raise ValueError(message)

    xfat = numpy.dtype(result_type(*([f.dtype for f in fs] + [xat])))
    if xfat.kind != "f":
        raise ValueError("Abscissae and function output must be real numbers.")
    xs = [reshape(astype(x, xfat, copy=True), (-1,)) for x in xs]
    fs = [reshape(astype(f, xfat, copy=True), (-1,)) for f in fs]
    args = [reshape(copy(a), (-1,)) for a in args]

    def checked(x, *args, func=func):
        return as_array(func(x, *args), fn)

    return checked, xs, fs, args, shape, xfat


def _ndim(v):
    return getattr(v, "ndim", 0)


def loop(work, callback, shape, maxiter, func, args, dtype, steps, res_work_pairs, preserve_shape=False):
    """SciPy's `_loop`. `steps` holds the method's pre_func_eval, post_func_eval,
    check_termination, post_termination_check and customize_result, each on whole arrays."""
    pre_func_eval, post_func_eval, check_termination, post_termination_check, customize_result = steps
    cb_terminate = False
    n_elements = math.prod(shape)
    res = {i: zeros(n_elements, dtype=dtype) for i, _ in res_work_pairs}
    res["success"] = zeros(n_elements, dtype=bool)
    res["status"] = full(n_elements, EINPROGRESS, dtype=numpy.int32)
    res["nit"] = zeros(n_elements, dtype=numpy.int32)
    res["nfev"] = zeros(n_elements, dtype=numpy.int32)
    work.args = args
    # `active`: indices of the running problems (compressed mode) or a mask of them (preserve_shape)
    active = full(n_elements, True, dtype=bool) if preserve_shape else arange(n_elements)

    active, n_active = _check_termination(work, res, res_work_pairs, active, check_termination, preserve_shape)
    if callback is not None:
        temp = _prepare_result(work, res, res_work_pairs, active, shape, customize_result, preserve_shape)
        cb_terminate = call_callback_maybe_halt(callback, temp)

    while work.nit < maxiter and n_active and not cb_terminate and n_elements:
        with quiet():
            x = pre_func_eval(work)
        if work.args and work.args[0].ndim != x.ndim:
            work.args = [reshape(a, tuple(a.shape) + (1,) * (x.ndim - a.ndim)) for a in work.args]
        x_shape = tuple(x.shape)
        if preserve_shape:
            x = reshape(x, shape + (-1,))
        f = astype(func(x, *work.args), dtype, copy=False)
        if preserve_shape:
            x = reshape(x, x_shape)
            f = reshape(f, x_shape)
        work.nfev += 1 if x.ndim == 1 else x.shape[-1]
        with quiet():
            post_func_eval(x, f, work)
        work.nit += 1
        active, n_active = _check_termination(work, res, res_work_pairs, active, check_termination, preserve_shape)
        if callback is not None:
            temp = _prepare_result(work, res, res_work_pairs, active, shape, customize_result, preserve_shape)
            if call_callback_maybe_halt(callback, temp):
                cb_terminate = True
                break
        if n_active == 0:
            break
        with quiet():
            post_termination_check(work)

    work.status = full(tuple(work.status.shape), ECALLBACK if cb_terminate else ECONVERR, dtype=numpy.int32)
    return _prepare_result(work, res, res_work_pairs, active, shape, customize_result, preserve_shape)


def _check_termination(work, res, res_work_pairs, active, check_termination, preserve_shape):
    with quiet():
        stop = check_termination(work)
    if preserve_shape:
        # every problem is evaluated each iteration (the function sees the whole shape): the
        # finished ones are written through a mask, and the one device-to-host read is their count
        _update_active(work, res, res_work_pairs, stop & active, preserve_shape)
        active = active & ~stop
        return active, int(to_host(count_nonzero(active)))
    # the iteration's one device-to-host read: flatnonzero's size is the count of running problems
    keep = flatnonzero(~stop)
    n_keep = int(keep.shape[0])
    if n_keep < int(active.shape[0]):
        # the running problems are written too; their entries are rewritten when they finish
        _update_active(work, res, res_work_pairs, active, preserve_shape, in_place=True)
        active = take(active, keep)
        for key, val in list(work.items()):
            if key in ("args", "n") or _ndim(val) == 0:
                continue
            work[key] = take(val, keep, axis=0)
        work.args = [take(a, keep, axis=0) for a in work.args]
    return active, n_keep


def _update_active(work, res, res_work_pairs, active, preserve_shape, in_place=False):
    """res's entries of the problems `active` (indices, or a mask in preserve_shape mode) from work;
    `in_place` writes into the loop's own arrays, else into copies (a callback's or the final
    result must not share them)."""
    update = {key1: work[key2] for key1, key2 in res_work_pairs}
    update["success"] = work.status == 0
    for key, val in update.items():
        if preserve_shape:
            res[key] = where(active, val, res[key])
        else:
            target = res[key] if in_place else copy(res[key])
            target[active] = val
            res[key] = target


def _prepare_result(work, res, res_work_pairs, active, shape, customize_result, preserve_shape):
    res = dict(res)
    _update_active(work, res, res_work_pairs, active, preserve_shape)
    shape = customize_result(res, shape)
    for key, val in res.items():
        temp = reshape(val, shape)
        res[key] = temp[()] if temp.ndim == 0 else temp
    res["_order_keys"] = ["success"] + [i for i, _ in res_work_pairs]
    return RichResult(**res)
