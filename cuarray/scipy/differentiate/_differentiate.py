"""`derivative`, `jacobian` and `hessian` of `scipy.differentiate`: SciPy's adaptive finite
differences (central or one-sided stencils of `order` + 1 points, the step shrunk by `step_factor`
each iteration, two new abscissae an iteration, Richardson-style weights from a small host solve),
each step whole-array arithmetic on the device."""

import warnings

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._creation.basic import full_like
from ..._creation.matrices import eye
from ..._creation.ranges import arange
from ..._dtype.routines import astype
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isfinite
from ..._manipulation.dims import broadcast_arrays, broadcast_to, expand_dims
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.rearranging import flip
from ..._manipulation.shape import reshape
from ..._math.misc import abs as abs_, sign
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from .._elementwise_loop import (ECONVERGED, EINPROGRESS, EVALUEERR, floating, initialize, loop)
from .._rich_result import RichResult
from ...linalg._matmul import matmul

_EERRORINCREASE = -1


def _validate(f, x, args, tolerances, maxiter, order, initial_step, step_factor, step_direction,
              preserve_shape, callback):
    fn = "scipy.differentiate.derivative"
    x = as_array(x, fn)
    if not callable(f):
        raise ValueError('`f` must be callable.')
    if not numpy.iterable(args):
        args = (args,)
    tolerances = {} if tolerances is None else tolerances
    atol, rtol = tolerances.get('atol', None), tolerances.get('rtol', None)
    tols = numpy.asarray([1 if atol is None else atol, 1 if rtol is None else rtol, step_factor])
    if (not numpy.issubdtype(tols.dtype, numpy.number) or numpy.any(tols < 0)
            or numpy.any(numpy.isnan(tols)) or tols.shape != (3,)):
        raise ValueError('Tolerances and step parameters must be non-negative scalars.')
    step_factor = float(tols[2])
    if maxiter != int(maxiter) or maxiter <= 0:
        raise ValueError('`maxiter` must be a positive integer.')
    if order != int(order) or order <= 0:
        raise ValueError('`order` must be a positive integer.')
    x, step_direction, initial_step = broadcast_arrays(x, as_parameter(step_direction, fn),
                                                       as_parameter(initial_step, fn))
    if preserve_shape not in {True, False}:
        raise ValueError('`preserve_shape` must be True or False.')
    if callback is not None and not callable(callback):
        raise ValueError('`callback` must be callable.')
    return (x, args, atol, rtol, int(maxiter), int(order), initial_step, step_factor, step_direction,
            preserve_shape, callback)


def derivative(f, x, *, args=(), kwargs=None, tolerances=None, maxiter=10, order=8, initial_step=0.5,
               step_factor=2.0, step_direction=0, preserve_shape=False, callback=None):
    """See `scipy.differentiate.derivative`. `f` is called with device arrays; each iteration
    evaluates it once on the running points (all of them with ``preserve_shape=True``) and makes
    one device-to-host read (how many are still running)."""
    (x, args, atol, rtol, maxiter, order, h0, fac, hdir, preserve_shape,
     callback) = _validate(f, x, args, tolerances, maxiter, order, initial_step, step_factor,
                           step_direction, preserve_shape, callback)
    func, xs, fs, args, shape, dtype = initialize(f, (x,), args, "scipy.differentiate.derivative",
                                                  kwargs=kwargs, preserve_shape=preserve_shape)
    finfo = numpy.finfo(dtype)
    atol = finfo.smallest_normal if atol is None else atol
    rtol = finfo.eps ** 0.5 if rtol is None else rtol
    x, f0 = xs[0], fs[0]
    hdir = astype(sign(reshape(broadcast_to(hdir, shape), (-1,))), dtype)
    h0 = astype(reshape(broadcast_to(h0, shape), (-1,)), dtype)
    h0 = where(h0 <= 0, dtype.type(numpy.nan), h0)
    il, ic, ir = hdir < 0, hdir == 0, hdir > 0
    work = RichResult(x=x, df=full_like(f0, numpy.nan), fs=f0[:, None], error=numpy.nan, h=h0,
                       df_last=numpy.nan, error_last=numpy.nan, fac=fac, atol=atol, rtol=rtol, nit=0,
                       nfev=1, status=full_like(x, EINPROGRESS, dtype=numpy.int32), dtype=dtype,
                       terms=(order + 1) // 2, hdir=hdir, il=il, ic=ic, ir=ir, io=il | ir)
    weights = _weights(fac, work.terms, dtype)
    pairs = [('status', 'status'), ('df', 'df'), ('error', 'error'), ('nit', 'nit'), ('nfev', 'nfev'),
             ('x', 'x')]

    def pre_func_eval(work):
        n, h, c = work.terms, work.h[:, None], work.fac
        d = c ** 0.5  # one-sided stencils step by the square root of the factor
        if work.nit == 0:
            hc = h / c ** arange(n, dtype=work.dtype)
            hc = concatenate((-flip(hc, axis=-1), hc), axis=-1)
            hr = h / d ** arange(2 * n, dtype=work.dtype)
        else:
            hc = concatenate((-h, h), axis=-1) / c ** (n - 1)
            hr = concatenate((h, h / d), axis=-1) / c ** (n - 1)
        x = work.x[:, None]
        return where(work.ir[:, None], x + hr, where(work.ic[:, None], x + hc,
                                                     where(work.il[:, None], x - hr, 0)))

    def post_func_eval(x, f, work):
        n = work.terms
        n_new = n if work.nit == 0 else 1
        # the central rows keep their values ordered by abscissa, the one-sided rows by distance
        work_fc = concatenate((f[:, :n_new], work.fs, f[:, -n_new:]), axis=-1)
        fc = work_fc if work.nit == 0 else concatenate((work_fc[:, :n], work_fc[:, n:n + 1], work_fc[:, -n:]),
                                                       axis=-1)
        work_fo = concatenate((work.fs, f), axis=-1)
        fo = work_fo if work.nit == 0 else concatenate((work_fo[:, 0:1], work_fo[:, -2 * n:]), axis=-1)
        ic, io = work.ic, work.io  # a NaN step_direction is neither: its row stays NaN, as SciPy's
        work.fs = where(ic[:, None], work_fc, where(io[:, None], work_fo, 0))
        wc, wo = weights
        work.df_last = work.df
        df = where(ic, matmul(fc, wc) / work.h, where(io, matmul(fo, wo) / work.h, work.df))
        work.df = where(work.il, -df, df)
        work.h = work.h / work.fac
        work.error_last = work.error
        work.error = abs_(work.df - work.df_last)

    def check_termination(work):
        stop = work.error < work.atol + work.rtol * abs_(work.df)
        status = where(stop, ECONVERGED, work.status)
        if work.nit > 0:
            i = ~((isfinite(work.x) & isfinite(work.df)) | stop)
            work.df = where(i, dtype.type(numpy.nan), work.df)
            status = where(i, EVALUEERR, status)
            stop = stop | i
        i = (work.error > work.error_last * 10) & ~stop
        work.status = where(i, _EERRORINCREASE, status)
        return stop | i

    steps = (pre_func_eval, post_func_eval, check_termination, lambda work: None, lambda res, shape: shape)
    return loop(work, callback, shape, maxiter, func, args, dtype, steps, pairs, preserve_shape)


def _weights(fac, n, dtype):
    """The central and one-sided finite-difference weights for step ratio `fac`: host work, two
    small Vandermonde solves, copied to the device once a call."""
    i = numpy.arange(-n, n + 1)
    p = numpy.abs(i) - 1.  # the centre's power is -1, but its sign 0
    A = numpy.vander(numpy.sign(i) / fac ** p, increasing=True).T
    b = numpy.zeros(2 * n + 1)
    b[1] = 1
    central = numpy.linalg.solve(A, b)
    central[n] = 0
    for k in range(n):  # exact antisymmetry
        central[-k - 1] = -central[k]
    i = numpy.arange(2 * n + 1)
    A = numpy.vander(numpy.sign(i) / numpy.sqrt(fac) ** (i - 1.), increasing=True).T
    right = numpy.linalg.solve(A, b)
    return (as_parameter(central.astype(dtype), "scipy.differentiate.derivative"),
            as_parameter(right.astype(dtype), "scipy.differentiate.derivative"))


def jacobian(f, x, *, tolerances=None, maxiter=10, order=8, initial_step=0.5, step_factor=2.0,
             step_direction=0):
    """See `scipy.differentiate.jacobian`. `f` is called with device arrays of shape
    ``(m, m, ...)`` (each column of the batch one perturbed point) once an iteration."""
    x0 = as_array(x, "scipy.differentiate.jacobian")
    x0 = astype(x0, floating(x0), copy=False)
    if x0.ndim < 1:
        raise ValueError("Argument `x` must be at least 1-D.")
    m = x0.shape[0]
    diagonal = eye(m, dtype=bool)

    def wrapped(x):
        p = () if x.ndim == x0.ndim else (x.shape[-1],)
        xph = expand_dims(x0, axis=1)
        if x.ndim != x0.ndim:
            xph = expand_dims(xph, axis=-1)
        xph = broadcast_to(xph, (m, m) + tuple(x0.shape[1:]) + p)
        # row k of the batch's column k is x[k]: SciPy's xph[i, i] = x, as one select
        mask = reshape(diagonal, (m, m) + (1,) * (xph.ndim - 2))
        return f(where(mask, expand_dims(x, axis=0), xph))

    res = derivative(wrapped, x, tolerances=tolerances, maxiter=maxiter, order=order, initial_step=initial_step,
                     step_factor=step_factor, preserve_shape=True, step_direction=step_direction)
    del res.x  # as SciPy: the user knows `x`
    return res


def hessian(f, x, *, tolerances=None, maxiter=10, order=8, initial_step=0.5, step_factor=2.0):
    """See `scipy.differentiate.hessian`: the Jacobian of the Jacobian, as SciPy computes it."""
    kwargs = dict(maxiter=maxiter, order=order, initial_step=initial_step, step_factor=step_factor)
    tolerances = {} if tolerances is None else tolerances
    atol, rtol = tolerances.get('atol', None), tolerances.get('rtol', None)
    x0 = as_array(x, "scipy.differentiate.hessian")
    finfo = numpy.finfo(floating(x0))
    rtol = finfo.eps ** 0.5 if rtol is None else rtol
    rtol_min = finfo.eps * 100
    if 0 < rtol < rtol_min:
        warnings.warn("The specified `rtol={}`, but error estimates are likely to be unreliable when "
                      "`rtol < {}`.".format(rtol, rtol_min), RuntimeWarning, stacklevel=2)
        rtol = rtol_min

    def df(x):
        temp = jacobian(f, x, tolerances=dict(rtol=rtol / 100, atol=atol), **kwargs)
        nfev.append(temp.nfev if len(nfev) == 0 else temp.nfev.sum(axis=-1))
        return temp.df

    nfev = []  # the inner evaluations, accumulated per outer iteration
    res = jacobian(df, x, tolerances=tolerances, **kwargs)
    total = cumsum(stack(nfev), axis=0)
    res.nfev = take_along_axis(total, astype(res.nit[None, ...], numpy.int64), axis=0)[0]
    res.ddf = res.df
    del res.df
    del res.nit
    return res

