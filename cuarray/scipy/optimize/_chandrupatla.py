"""`find_root` and `find_minimum` of `scipy.optimize.elementwise`: Chandrupatla's bracketing
methods (root: T. R. Chandrupatla, "A new hybrid quadratic/bisection algorithm for finding the zero
of a nonlinear function without using derivatives", Adv. Eng. Softw. 28 (1997); minimum: "An
efficient quadratic fit-sectioning algorithm for minimization without derivatives", Comput.
Methods Appl. Mech. Eng. 152 (1998)), SciPy's steps written as whole-array `where` arithmetic."""

import math

import numpy

from ..._manipulation.joining import stack
from ..._indexing.inserting import take_along_axis
from ..._math.extrema import minimum
from ..._math.misc import abs as abs_, clip, sign, sqrt
from ..._logic.content import isfinite, isnan
from ..._sorting.sorting import argsort
from ..._sorting.searching import where
from ..._creation.basic import full_like
from ..._creation.from_data import copy
from .. import _elementwise_loop as eim
from .._rich_result import RichResult


def _validate(func, args, xatol, xrtol, fatol, frtol, maxiter, callback):
    if not callable(func):
        raise ValueError('`func` must be callable.')
    if not numpy.iterable(args):
        args = (args,)
    tols = numpy.asarray([1 if t is None else t for t in (xatol, xrtol, fatol, frtol)])
    if (not numpy.issubdtype(tols.dtype, numpy.number) or numpy.any(tols < 0)
            or numpy.any(numpy.isnan(tols)) or tols.shape != (4,)):
        raise ValueError('Tolerances must be non-negative scalars.')
    if maxiter is not None:
        if maxiter != int(maxiter) or maxiter < 0:
            raise ValueError('`maxiter` must be a non-negative integer.')
    if callback is not None and not callable(callback):
        raise ValueError('`callback` must be callable.')
    return args


def _tolerances(tolerances, defaults):
    out = dict(defaults)
    out.update({} if tolerances is None else tolerances)
    return out


def _wrap(callback, reformat):
    if callable(callback):
        return lambda res: callback(reformat(res))
    return callback


def _root_result(res_in):
    out = RichResult(status=res_in.status, success=res_in.success, x=res_in.x, f_x=res_in.fun,
                          nfev=res_in.nfev, nit=res_in.nit, bracket=(res_in.xl, res_in.xr),
                          f_bracket=(res_in.fl, res_in.fr))
    out._order_keys = ['success', 'status', 'x', 'f_x', 'nfev', 'nit', 'bracket', 'f_bracket']
    return out


def find_root(f, init, /, *, args=(), kwargs=None, tolerances=None, maxiter=None, callback=None):
    """See `scipy.optimize.elementwise.find_root`. Each iteration is whole-array arithmetic on the
    problems still running and one device-to-host read (their count); `f` is called with device
    arrays and must return one of the broadcast shape."""
    xl, xr = init
    tol = _tolerances(tolerances, dict(xatol=None, xrtol=None, fatol=None, frtol=0))
    res = _chandrupatla(f, xl, xr, args=args, kwargs=kwargs, **tol, maxiter=maxiter,
                        callback=_wrap(callback, _root_result))
    return _root_result(res)


def _chandrupatla(func, a, b, *, args, kwargs, xatol, xrtol, fatol, frtol, maxiter, callback):
    args = _validate(func, args, xatol, xrtol, fatol, frtol, maxiter, callback)
    func, xs, fs, args, shape, dtype = eim.initialize(func, (a, b), args, "scipy.optimize.elementwise.find_root",
                                                      kwargs=kwargs)
    x1, x2 = xs
    f1, f2 = fs
    finfo = numpy.finfo(dtype)
    nan = dtype.type(numpy.nan)
    work = RichResult(
        x1=x1, f1=f1, x2=x2, f2=f2, x3=None, f3=None, t=0.5,
        xatol=4 * finfo.smallest_normal if xatol is None else xatol,
        xrtol=4 * finfo.eps if xrtol is None else xrtol,
        fatol=finfo.smallest_normal if fatol is None else fatol,
        frtol=frtol * minimum(abs_(f1), abs_(f2)),
        nit=0, nfev=2, status=full_like(x1, eim.EINPROGRESS, dtype=numpy.int32))
    if maxiter is None:
        maxiter = math.log2(finfo.max) - math.log2(finfo.smallest_normal)
    pairs = [('status', 'status'), ('x', 'xmin'), ('fun', 'fmin'), ('nit', 'nit'), ('nfev', 'nfev'),
             ('xl', 'x1'), ('fl', 'f1'), ('xr', 'x2'), ('fr', 'f2')]

    def pre_func_eval(work):
        return work.x1 + work.t * (work.x2 - work.x1)

    def post_func_eval(x, f, work):
        j = sign(f) == sign(work.f1)
        work.x3, work.f3 = where(j, work.x1, work.x2), where(j, work.f1, work.f2)
        work.x2, work.f2 = where(j, work.x2, work.x1), where(j, work.f2, work.f1)
        work.x1, work.f1 = x, f

    def check_termination(work):
        i = abs_(work.f1) < abs_(work.f2)
        xmin, fmin = where(i, work.x1, work.x2), where(i, work.f1, work.f2)
        stop = abs_(fmin) <= work.fatol + work.frtol
        status = where(stop, eim.ECONVERGED, work.status)
        i = (sign(work.f1) == sign(work.f2)) & ~stop
        xmin, fmin, status = where(i, nan, xmin), where(i, nan, fmin), where(i, eim.ESIGNERR, status)
        stop = stop | i
        x_nonfinite = ~(isfinite(work.x1) & isfinite(work.x2))
        i = (x_nonfinite | (isnan(work.f1) & isnan(work.f2))) & ~stop
        xmin, fmin, status = where(i, nan, xmin), where(i, nan, fmin), where(i, eim.EVALUEERR, status)
        stop = stop | i
        work.dx = abs_(work.x2 - work.x1)
        work.tol = abs_(xmin) * work.xrtol + work.xatol
        i = work.dx < work.tol  # SciPy marks these converged whatever was said before
        work.status = where(i, eim.ECONVERGED, status)
        work.xmin, work.fmin = xmin, fmin
        return stop | i

    def post_termination_check(work):
        xi1 = (work.x1 - work.x2) / (work.x3 - work.x2)
        phi1 = (work.f1 - work.f2) / (work.f3 - work.f2)
        alpha = (work.x3 - work.x1) / (work.x2 - work.x1)
        j = ((1 - sqrt(1 - xi1)) < phi1) & (phi1 < sqrt(xi1))
        f1, f2, f3 = work.f1, work.f2, work.f3
        t = where(j, f1 / (f1 - f2) * f3 / (f3 - f2) - alpha * f1 / (f3 - f1) * f2 / (f2 - f3), 0.5)
        tl = 0.5 * work.tol / work.dx
        work.t = clip(t, tl, 1 - tl)

    def customize_result(res, shape):
        xl, xr, fl, fr = res['xl'], res['xr'], res['fl'], res['fr']
        i = xl < xr
        res['xl'], res['xr'] = where(i, xl, xr), where(i, xr, xl)
        res['fl'], res['fr'] = where(i, fl, fr), where(i, fr, fl)
        return shape

    steps = (pre_func_eval, post_func_eval, check_termination, post_termination_check, customize_result)
    return eim.loop(work, callback, shape, maxiter, func, args, dtype, steps, pairs)


def _minimum_result(res_in):
    out = RichResult(status=res_in.status, success=res_in.success, x=res_in.x, f_x=res_in.fun,
                          nfev=res_in.nfev, nit=res_in.nit, bracket=(res_in.xl, res_in.xm, res_in.xr),
                          f_bracket=(res_in.fl, res_in.fm, res_in.fr))
    out._order_keys = ['success', 'status', 'x', 'f_x', 'nfev', 'nit', 'bracket', 'f_bracket']
    return out


def find_minimum(f, init, /, *, args=(), kwargs=None, tolerances=None, maxiter=100, callback=None):
    """See `scipy.optimize.elementwise.find_minimum`. Each iteration is whole-array arithmetic on
    the problems still running and one device-to-host read (their count); `f` is called with
    device arrays and must return one of the broadcast shape."""
    xl, xm, xr = init
    tol = _tolerances(tolerances, dict(xatol=None, xrtol=None, fatol=None, frtol=None))
    res = _chandrupatla_minimize(f, xl, xm, xr, args=args, kwargs=kwargs, **tol, maxiter=maxiter,
                                 callback=_wrap(callback, _minimum_result))
    return _minimum_result(res)


def _chandrupatla_minimize(func, x1, x2, x3, *, args, kwargs, xatol, xrtol, fatol, frtol, maxiter, callback):
    args = _validate(func, args, xatol, xrtol, fatol, frtol, maxiter, callback)
    func, xs, fs, args, shape, dtype = eim.initialize(func, (x1, x2, x3), args,
                                                      "scipy.optimize.elementwise.find_minimum", kwargs=kwargs)
    finfo = numpy.finfo(dtype)
    nan = dtype.type(numpy.nan)
    i = argsort(stack(xs), axis=0)
    x1, x2, x3 = take_along_axis(stack(xs), i, axis=0)
    f1, f2, f3 = take_along_axis(stack(fs), i, axis=0)
    work = RichResult(
        x1=x1, f1=f1, x2=x2, f2=f2, x3=x3, f3=f3, phi=dtype.type(0.5 + 0.5 * 5 ** 0.5),
        xatol=finfo.smallest_normal if xatol is None else xatol,
        xrtol=math.sqrt(finfo.eps) if xrtol is None else xrtol,
        fatol=finfo.smallest_normal if fatol is None else fatol,
        frtol=finfo.smallest_normal if frtol is None else frtol,
        nit=0, nfev=3, status=full_like(x1, eim.EINPROGRESS, dtype=numpy.int32),
        q0=copy(x3))  # "At the start, q0 is set at x3" (after eq. 7)
    pairs = [('status', 'status'), ('x', 'x2'), ('fun', 'f2'), ('nit', 'nit'), ('nfev', 'nfev'),
             ('xl', 'x1'), ('xm', 'x2'), ('xr', 'x3'), ('fl', 'f1'), ('fm', 'f2'), ('fr', 'f3')]

    def pre_func_eval(work):
        x21 = work.x2 - work.x1
        x32 = work.x3 - work.x2
        A = x21 * (work.f3 - work.f2)
        B = x32 * (work.f1 - work.f2)
        C = A / (A + B)
        q1 = 0.5 * (C * (work.x1 - work.x3) + work.x2 + work.x3)
        i = abs_(q1 - work.q0) < 0.5 * abs_(x21)  # eq. (7)
        j = abs_(q1 - work.x2) <= work.xtol
        xi = where(j, work.x2 + sign(x32) * work.xtol, q1)
        work.q0 = q1
        return where(i, xi, work.x2 + (2 - work.phi) * x32)

    def post_func_eval(x, f, work):
        i = sign(x - work.x2) == sign(work.x3 - work.x2)
        j = f > work.f2
        x1, x2, x3, f1, f2, f3 = work.x1, work.x2, work.x3, work.f1, work.f2, work.f3
        # on x3's side: f above f2 moves x3 in, else x2 moves to x1 and x becomes x2; mirrored
        work.x1 = where(i & ~j, x2, where(~i & j, x, x1))
        work.f1 = where(i & ~j, f2, where(~i & j, f, f1))
        work.x3 = where(i & j, x, where(~i & ~j, x2, x3))
        work.f3 = where(i & j, f, where(~i & ~j, f2, f3))
        work.x2, work.f2 = where(j, x2, x), where(j, f2, f)

    def check_termination(work):
        stop = (work.f2 > work.f1) | (work.f2 > work.f3)
        work.x2, work.f2 = where(stop, nan, work.x2), where(stop, nan, work.f2)
        status = where(stop, eim.ESIGNERR, work.status)
        finite = isfinite(work.x1 + work.x2 + work.x3 + work.f1 + work.f2 + work.f3)
        i = ~(finite | stop)
        work.x2, work.f2 = where(i, nan, work.x2), where(i, nan, work.f2)
        status = where(i, eim.EVALUEERR, status)
        stop = stop | i
        i = abs_(work.x3 - work.x2) < abs_(work.x2 - work.x1)
        work.x1, work.x3 = where(i, work.x3, work.x1), where(i, work.x1, work.x3)
        work.f1, work.f3 = where(i, work.f3, work.f1), where(i, work.f1, work.f3)
        work.xtol = abs_(work.x2) * work.xrtol + work.xatol  # eq. (8)
        i = abs_(work.x3 - work.x2) <= 2 * work.xtol  # eq. (9)
        ftol = abs_(work.f2) * work.frtol + work.fatol  # eq. (10)
        i = (i | ((work.f1 - 2 * work.f2 + work.f3) <= 2 * ftol)) & ~stop  # eq. (11)
        work.status = where(i, eim.ECONVERGED, status)
        return stop | i

    def customize_result(res, shape):
        xl, xr, fl, fr = res['xl'], res['xr'], res['fl'], res['fr']
        i = xl >= xr
        res['xl'], res['xr'] = where(i, xr, xl), where(i, xl, xr)
        res['fl'], res['fr'] = where(i, fr, fl), where(i, fl, fr)
        return shape

    steps = (pre_func_eval, post_func_eval, check_termination, lambda work: None, customize_result)
    return eim.loop(work, callback, shape, maxiter, func, args, dtype, steps, pairs)
