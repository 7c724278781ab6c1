"""`bracket_root` and `bracket_minimum` of `scipy.optimize.elementwise`: SciPy's bracket
expansion (a step growing by `factor` toward an unlimited side, or shrinking by `factor` toward a
limit), its steps written as whole-array `where` arithmetic."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import full_like, ones_like, zeros
from ..._creation.ranges import arange
from ..._dtype.routines import astype
from ..._logic.content import isfinite, isinf
from ..._logic.truth import all as all_
from ..._manipulation.dims import broadcast_arrays, broadcast_to
from ..._manipulation.joining import concatenate
from ..._manipulation.shape import reshape
from ..._math.extrema import maximum, minimum
from ..._math.misc import sign
from ..._sorting.searching import where
from .. import _elementwise_loop as eim
from .._rich_result import RichResult

_ELIMITS = -1
_ESTOPONESIDE = 2


def _promote(fn, *values):
    """SciPy's `xp_promote(..., broadcast=True, force_floating=True)`."""
    dt = eim.floating(*values)
    return [astype(v, dt) for v in broadcast_arrays(*[as_array(v, fn) for v in values])]


def _validate_common(func, args, maxiter, factor, names, values):
    if not callable(func):
        raise ValueError('`func` must be callable.')
    for name, v in zip(names, values):
        if numpy.dtype(v.dtype).kind not in "iuf":
            raise ValueError('`{}` must be numeric and real.'.format(name))
    # one host read of the validation SciPy does on the host
    if not bool(to_host(all_(factor > 1))):
        raise ValueError('All elements of `factor` must be greater than 1.')
    message = '`maxiter` must be a non-negative integer.'
    m = numpy.asarray(maxiter)
    if m.dtype.kind not in "iuf" or m.shape != () or m != int(m) or m < 0:
        raise ValueError(message)
    return args if numpy.iterable(args) else (args,)


def bracket_root(f, xl0, xr0=None, *, xmin=None, xmax=None, factor=None, args=(), kwargs=None, maxiter=1000):
    """See `scipy.optimize.elementwise.bracket_root`. Each iteration is whole-array arithmetic
    on the problems still running and one device-to-host read (their count)."""
    fn = "scipy.optimize.elementwise.bracket_root"
    if not callable(f):
        raise ValueError('`func` must be callable.')
    no_xr0 = xr0 is None
    xl0, xr0, xmin, xmax, factor = _promote(fn, xl0, numpy.nan if no_xr0 else xr0,
                                            -numpy.inf if xmin is None else xmin,
                                            numpy.inf if xmax is None else xmax, 2. if factor is None else factor)
    args = _validate_common(f, args, maxiter, factor, ("xl0", "xr0", "xmin", "xmax", "factor"),
                            (xl0, xr0, xmin, xmax, factor))
    if no_xr0:
        xr0 = astype(xl0 + minimum((xmax - xl0) / 8, ones_like(xmax)), xl0.dtype, copy=False)
    func, xs, fs, args, shape, dtype = eim.initialize(f, (xl0, xr0), args, fn, kwargs=kwargs)
    xl0, xr0 = xs
    xmin = reshape(astype(broadcast_to(xmin, shape), dtype), (-1,))
    xmax = reshape(astype(broadcast_to(xmax, shape), dtype), (-1,))
    invalid = ~((xmin <= xl0) & (xl0 < xr0) & (xr0 <= xmax))
    # both sides of every problem in one array: the left expansions, then the right ones
    x = concatenate(xs)
    f0 = concatenate(fs)
    invalid = concatenate((invalid, invalid))
    n = x.shape[0] // 2
    x_last = concatenate((x[n:], x[:n]))
    f_last = concatenate((f0[n:], f0[:n]))
    limit = concatenate((xmin, xmax))
    factor = astype(reshape(broadcast_to(factor, shape), (-1,)), dtype)
    factor = concatenate((factor, factor))
    active = arange(2 * n)
    args = [concatenate((a, a)) for a in args]
    d = where(isinf(limit), x - x_last, limit - x)
    status = where(invalid, eim.EINPUTERR, full_like(x, eim.EINPROGRESS, dtype=numpy.int32))
    work = RichResult(x=x, x0=x_last, f=f0, limit=limit, factor=factor, active=active, d=d,
                           x_last=x_last, f_last=f_last, nit=0, nfev=1, status=status, args=args,
                           xl=numpy.nan, xr=numpy.nan, fl=numpy.nan, fr=numpy.nan, n=n)
    pairs = [('status', 'status'), ('xl', 'xl'), ('xr', 'xr'), ('nit', 'nit'), ('nfev', 'nfev'), ('fl', 'fl'),
             ('fr', 'fr'), ('x', 'x'), ('f', 'f'), ('x_last', 'x_last'), ('f_last', 'f_last')]

    def pre_func_eval(work):
        i = isinf(work.limit)
        work.d = where(i, work.d * work.factor, work.d / work.factor)
        return where(i, work.x0 + work.d, work.limit - work.d)

    def post_func_eval(x, f, work):
        work.x_last, work.f_last, work.x, work.f = work.x, work.f, x, f

    def check_termination(work):
        stop = work.status == eim.EINPUTERR
        sf, sf_last = sign(work.f), sign(work.f_last)
        i = ((sf_last == -sf) | (sf_last == 0) | (sf == 0)) & ~stop
        status = where(i, eim.ECONVERGED, work.status)
        stop = stop | i
        # the other side of a problem that just found its bracket stops too: a scatter of the
        # converged flags over all 2n sides, read back at each side's partner
        flags = zeros(2 * work.n, dtype=bool)
        flags[work.active] = i
        i = flags[(work.active + work.n) % (2 * work.n)] & ~stop
        status = where(i, _ESTOPONESIDE, status)
        stop = stop | i
        i = (work.x == work.limit) & ~stop
        status = where(i, _ELIMITS, status)
        stop = stop | i
        i = ~(isfinite(work.x) & isfinite(work.f)) & ~stop
        work.status = where(i, eim.EVALUEERR, status)
        return stop | i

    def customize_result(res, shape):
        n = res['x'].shape[0] // 2
        xal, xar, xbl, xbr = res['x'][:n], res['x_last'][:n], res['x_last'][n:], res['x'][n:]
        fal, far, fbl, fbr = res['f'][:n], res['f_last'][:n], res['f_last'][n:], res['f'][n:]
        sa, sb = res['status'][:n], res['status'][n:]
        da, db = xar - xal, xbr - xbl
        i1 = ((da <= db) & (sa == 0)) | ((sa == 0) & (sb != 0))
        i2 = ((db <= da) & (sb == 0)) | ((sb == 0) & (sa != 0))
        res['xl'], res['fl'] = where(i2, xbl, xal), where(i2, fbl, fal)
        res['xr'], res['fr'] = where(i1, xar, xbr), where(i1, far, fbr)
        res['nit'] = maximum(res['nit'][:n], res['nit'][n:])
        res['nfev'] = res['nfev'][:n] + res['nfev'][n:]
        res['status'] = where(sa == 0, sa, sb)
        res['success'] = res['status'] == 0
        for key in ('x', 'f', 'x_last', 'f_last'):
            del res[key]
        return shape[:-1]

    steps = (pre_func_eval, post_func_eval, check_termination, lambda work: None, customize_result)
    res = eim.loop(work, None, shape + (2,), maxiter, func, args, dtype, steps, pairs)
    res.bracket, res.f_bracket = (res.xl, res.xr), (res.fl, res.fr)
    for key in ('xl', 'xr', 'fl', 'fr'):
        del res[key]
    return res


def bracket_minimum(f, xm0, *, xl0=None, xr0=None, xmin=None, xmax=None, factor=None, args=(), kwargs=None,
                    maxiter=1000):
    """See `scipy.optimize.elementwise.bracket_minimum`. Each iteration is whole-array
    arithmetic on the problems still running and one device-to-host read (their count)."""
    fn = "scipy.optimize.elementwise.bracket_minimum"
    if not callable(f):
        raise ValueError('`func` must be callable.')
    no_xl0, no_xr0 = xl0 is None, xr0 is None
    xm0, xl0, xr0, xmin, xmax, factor = _promote(
        fn, xm0, numpy.nan if no_xl0 else xl0, numpy.nan if no_xr0 else xr0,
        -numpy.inf if xmin is None else xmin, numpy.inf if xmax is None else xmax, 2.0 if factor is None else factor)
    args = _validate_common(f, args, maxiter, factor, ("xm0", "xl0", "xr0", "xmin", "xmax", "factor"),
                            (xm0, xl0, xr0, xmin, xmax, factor))
    if no_xl0:
        xl0 = astype(xm0 - minimum((xm0 - xmin) / 16, 0.5), xm0.dtype, copy=False)
    if no_xr0:
        xr0 = astype(xm0 + minimum((xmax - xm0) / 16, 0.5), xm0.dtype, copy=False)
    func, xs, fs, args, shape, dtype = eim.initialize(f, (xl0, xm0, xr0), args, fn, kwargs=kwargs)
    xl0, xm0, xr0 = xs
    fl0, fm0, fr0 = fs
    xmin = reshape(astype(broadcast_to(xmin, shape), dtype), (-1,))
    xmax = reshape(astype(broadcast_to(xmax, shape), dtype), (-1,))
    invalid = ~((xmin <= xl0) & (xl0 < xm0) & (xm0 < xr0) & (xr0 <= xmax))
    factor = reshape(astype(broadcast_to(factor, shape), dtype), (-1,))
    # expand downhill: the side with the lower value becomes the right one
    comp = fl0 < fr0
    xl, xr = where(comp, xr0, xl0), where(comp, xl0, xr0)
    fl, fr = where(comp, fr0, fl0), where(comp, fl0, fr0)
    limit = where(comp, xmin, xmax)
    limited = ~isinf(limit)
    step = where(limited, limit - xr, xr - xm0)
    factor = where(limited, 1 / factor, factor)
    status = where(invalid, eim.EINPUTERR, full_like(xl, eim.EINPROGRESS, dtype=numpy.int32))
    work = RichResult(xl=xl, xm=xm0, xr=xr, xr0=xr, fl=fl, fm=fm0, fr=fr, step=step, limit=limit,
                           limited=limited, factor=factor, nit=0, nfev=3, status=status, args=args)
    pairs = [('status', 'status'), ('xl', 'xl'), ('xm', 'xm'), ('xr', 'xr'), ('nit', 'nit'), ('nfev', 'nfev'),
             ('fl', 'fl'), ('fm', 'fm'), ('fr', 'fr')]

    def pre_func_eval(work):
        work.step = work.step * work.factor
        x = where(work.limited, work.limit - work.step, work.xr0 + work.step)
        return where(work.limited & (x == work.xr), work.limit, x)

    def post_func_eval(x, f, work):
        work.xl, work.xm, work.xr = work.xm, work.xr, x
        work.fl, work.fm, work.fr = work.fm, work.fr, f

    def check_termination(work):
        stop = work.status == eim.EINPUTERR
        fl, fm, fr = work.fl, work.fm, work.fr
        i = ((fl >= fm) & (fr > fm) | (fl > fm) & (fr >= fm)) & ~stop
        status = where(i, eim.ECONVERGED, work.status)
        stop = stop | i
        i = (work.xr == work.limit) & ~stop
        status = where(i, _ELIMITS, status)
        stop = stop | i
        i = ~(isfinite(work.xr) & isfinite(work.fr)) & ~stop
        work.status = where(i, eim.EVALUEERR, status)
        return stop | i

    def customize_result(res, shape):
        comp = res['xl'] > res['xr']
        res['xl'], res['xr'] = where(comp, res['xr'], res['xl']), where(comp, res['xl'], res['xr'])
        res['fl'], res['fr'] = where(comp, res['fr'], res['fl']), where(comp, res['fl'], res['fr'])
        return shape

    steps = (pre_func_eval, post_func_eval, check_termination, lambda work: None, customize_result)
    res = eim.loop(work, None, shape, maxiter, func, args, dtype, steps, pairs)
    res.bracket, res.f_bracket = (res.xl, res.xm, res.xr), (res.fl, res.fm, res.fr)
    for key in ('xl', 'xm', 'xr', 'fl', 'fm', 'fr'):
        del res[key]
    return res
