"""`tanhsinh`: double-exponential (tanh-sinh) quadrature of many integrals at once on the device.

SciPy 1.18's algorithm (scipy/integrate/_tanhsinh.py): the abscissae and weights of level k of
Bailey, Jeyabalan and Li, "A comparison of three high-precision quadrature schemes" (2005), with
the base step of Vanherck, Sorée and Nuyts (2020) so the abscissae never round to the limits; the
Euler-Maclaurin sum halves the step each level, and the error estimate is Bailey's (section 5).

SciPy drops the converged integrals from its work arrays after each level (boolean compression,
a host round trip per array). Here every integral stays in the batch: a level evaluates `f` on all
of them, a converged one's result is frozen in the result arrays (`where`), and the loop's one
host read per level is whether any integral is still in progress.
"""

import math

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isfinite, isinf, isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._math.complex import real
from ..._math.explog import exp, log as log_
from ..._math.extrema import maximum
from ..._math.misc import abs as abs_, clip
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax, argmin
from ..._statistics.order import max as max_
from .._rich_result import RichResult

__all__ = ["tanhsinh"]

_IN_PROGRESS, _CONVERGED, _NOT_CONVERGED, _VALUE_ERROR = 1, 0, -2, -3
_N_BASE_STEPS = 8


def _validate(f, log, maxlevel, minlevel, atol, rtol, preserve_shape, callback):
    """SciPy's `_tanhsinh_iv` checks of the host parameters, its messages."""
    if not callable(f):
        raise ValueError("`f` must be callable.")
    if log not in {True, False}:
        raise ValueError("`log` must be True or False.")
    log = bool(log)
    if atol is None:
        atol = -numpy.inf if log else 0
    params = numpy.asarray([atol, rtol if rtol is not None else 0., 0.])
    if not numpy.issubdtype(params.dtype, numpy.floating):
        raise ValueError("`atol` and `rtol` must be real numbers.")
    if log and numpy.any(numpy.isposinf(params)):
        raise ValueError("`atol` and `rtol` may not be positive infinity.")
    if not log and (numpy.any(params < 0) or numpy.any(numpy.isinf(params))):
        raise ValueError("`atol` and `rtol` must be non-negative and finite.")
    atol, rtol = params[0], (None if rtol is None else params[1])
    maxlevel = 10 if maxlevel is None else maxlevel
    levels = numpy.asarray([float(2 ** 62), maxlevel, minlevel])
    if not (numpy.issubdtype(levels.dtype, numpy.number) and numpy.all(numpy.isreal(levels))
            and numpy.all(levels.astype(numpy.int64) == levels)):
        raise ValueError("`maxfun`, `maxlevel`, and `minlevel` must be integers.")
    if numpy.any(levels < 0):
        raise ValueError("`maxfun`, `maxlevel`, and `minlevel` must be non-negative.")
    maxlevel, minlevel = int(levels[1]), int(levels[2])
    if preserve_shape not in {True, False}:
        raise ValueError("`preserve_shape` must be True or False.")
    if callback is not None:
        if not callable(callback):
            raise ValueError("`callback` must be callable.")
        raise NotImplementedError("cuarray.scipy.integrate.tanhsinh: `callback` is not supported")
    return log, maxlevel, min(minlevel, maxlevel), atol, rtol


def _pairs(k, h0):
    """Level k's complements 1 - x_j of the abscissae and weights, float64 on the host (SciPy's
    `_compute_pair`): level 0 has every j, later levels the odd j only."""
    h = h0 / 2 ** k
    j = numpy.arange(_N_BASE_STEPS * 2 ** k + 1) if k == 0 else numpy.arange(1, _N_BASE_STEPS * 2 ** k + 1, 2)
    u1 = numpy.pi / 2 * numpy.cosh(j * h)
    u2 = numpy.pi / 2 * numpy.sinh(j * h)
    with numpy.errstate(over="ignore", under="ignore"):
        wj = u1 / numpy.cosh(u2) ** 2
        xjc = 1 / (numpy.exp(u2) * numpy.cosh(u2))
    if k == 0:
        wj[0] /= 2  # x = 0 is evaluated twice (both halves), each with half its weight
    return xjc, wj


def _logsumexp(v, axis=-1):
    """log(sum(exp(v))) along `axis`, shifted by the real maximum (v may be complex: the log of a
    negative term is real + pi*1j)."""
    m = max_(real(v), axis=axis, keepdims=True)
    m = where(isfinite(m), m, 0.0)
    return log_(sum_(exp(v - m), axis=axis)) + m[..., 0]


def _prepare(f, a, b, args, kwargs, preserve_shape):
    """SciPy's `eim._initialize` for tanhsinh: the limits and args broadcast, `f` called once at
    the interval's centre, the common dtype, the flat limits and args."""
    if kwargs:
        names, nargs = tuple(kwargs), len(args)
        args = (*args, *kwargs.values())
        user = f

        def f(x, *all_args):
            return user(x, *all_args[:nargs], **dict(zip(names, all_args[nargs:])))
    dt = numpy.result_type(a.dtype, b.dtype)
    dt = dt if dt.kind in "fc" else numpy.result_type(dt, numpy.float64)
    if dt.kind == "c":
        raise ValueError("All elements of `a` and `b` must be real numbers.")
    args = tuple(as_array(v, "scipy.integrate.tanhsinh") for v in args)
    shape = numpy.broadcast_shapes(a.shape, b.shape, *(v.shape for v in args))
    a, b = broadcast_to(a.astype(dt), shape), broadcast_to(b.astype(dt), shape)
    args = [broadcast_to(v, shape) for v in args]
    inf_a, inf_b = isinf(a), isinf(b)
    c = where(inf_a & inf_b, 0.0, where(inf_a, b - 1.0, where(inf_b, a + 1.0, (a + b) / 2)))
    fc = as_array(f(c, *args), "scipy.integrate.tanhsinh")
    fshape = fc.shape
    if preserve_shape:
        def f(x, *all_args, user_f=f, lead=(0,) * (len(fshape) - len(shape))):  # bound now: shape changes
            return user_f(x[lead], *all_args)
        shape = numpy.broadcast_shapes(fshape, shape)
        a, b, c = (broadcast_to(v, shape) for v in (a, b, c))
        args = [broadcast_to(v, shape) for v in args]
    if fc.shape != shape:
        raise ValueError(("When `preserve_shape=False`, the shape of the array returned by `func` must be the "
                          "same as the broadcasted shape of `x` and all other `args`.") if not preserve_shape
                         else ("The shape of the array returned by `func` must be the same as the broadcasted "
                               "shape of `x` and all other `args`."))
    dt = numpy.result_type(fc.dtype, dt)
    flat = [v.astype(dt).reshape(-1) for v in (a, b, fc)]
    return f, flat, [v.reshape(-1) for v in args], tuple(shape), dt


def tanhsinh(f, a, b, *, args=(), kwargs=None, log=False, maxlevel=None, minlevel=2,
             atol=None, rtol=None, preserve_shape=False, callback=None):
    """See `scipy.integrate.tanhsinh`. All integrals of the batch are refined together on the
    device: `f` is called at each level on every integral's abscissae (shape ``(n, m)``, or the
    broadcast shape plus ``(m,)`` with `preserve_shape`), converged ones included (their results
    are frozen); the loop reads one flag per level. `callback` is not supported.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import integrate
    >>> res = integrate.tanhsinh(cuarray.exp, cuarray.array([0., 0.]), cuarray.array([1., 2.]))
    >>> res.integral
    array([1.71828183, 6.3890561 ])
    >>> res.success
    array([ True,  True])
    """
    log, maxlevel, minlevel, atol, rtol = _validate(f, log, maxlevel, minlevel, atol, rtol, preserve_shape,
                                                    callback)
    a, b = as_array(a, "scipy.integrate.tanhsinh"), as_array(b, "scipy.integrate.tanhsinh")
    if not isinstance(args, (tuple, list)):
        args = (args,)
    f, (a, b, fc), args, shape, dt = _prepare(f, a, b, args, kwargs, preserve_shape)
    rdt = numpy.empty(0, dt).real.dtype
    eps = float(numpy.finfo(rdt).eps)
    if rtol is None:
        rtol = 0.75 * math.log(eps) if log else eps ** 0.75
    tmax = math.asinh(math.log(2 / (4 * float(numpy.finfo(rdt).smallest_normal)) - 1) / math.pi)
    h0 = float(rdt.type(tmax / _N_BASE_STEPS))
    lim = _Limits(a, b)
    n_el = a.shape[0]
    zero = -numpy.inf if log else 0.0
    s = _State(n_el, dt, zero, a, b, fc, log)
    maxiter = maxlevel - minlevel + 1

    # level 0 of SciPy's loop: equal limits converge at once, a NaN start is a value error
    done = (a == b) | _invalid(s.Sn, log)
    s.Sn = where((a == b) & ~isnan(s.Sn), zero, s.Sn)
    s.aerr = where(a == b, s.Sn, s.aerr)
    s.stop(where(a == b, _CONVERGED, _VALUE_ERROR), done, nit=0, nfev=1)
    nfev, level, nit = 1, minlevel, 0
    history = []  # the estimates of the last two levels
    # one read per level: whether an integral is still in progress
    while nit < maxiter and n_el and bool(to_host(any_(s.active))):
        h = h0 / 2 ** level
        parts = [_pairs(k, h0) for k in (range(level + 1) if level == minlevel else (level,))]
        xjc = as_parameter(numpy.concatenate([p[0] for p in parts]).astype(rdt), "scipy.integrate.tanhsinh")
        wj = as_parameter(numpy.concatenate([p[1] for p in parts]).astype(rdt), "scipy.integrate.tanhsinh")
        xj, wj = lim.abscissae(xjc, wj)
        fj = f(lim.substitute(xj).reshape(shape + (-1,)) if preserve_shape else lim.substitute(xj),
               *[v.reshape(-1, 1) for v in args])
        fj = as_array(fj, "scipy.integrate.tanhsinh").astype(dt).reshape(n_el, -1)
        nfev += xj.shape[-1]
        fj = lim.weigh(fj, xj, log)
        fjwj, sn = s.euler_maclaurin(xj, fj, wj, h)
        if history:
            sn = _logsumexp(stack([history[-1] - math.log(2), sn], axis=-1)) if log else history[-1] / 2 + sn
        s.Sn = sn
        nit += 1
        if level >= 1 and not history:  # a jump start: the lower levels' estimates from this level's terms
            history.append(_level_sum(fjwj, n_el, _count(level), 2 * h, log))
        if level >= 2 and len(history) < 2:
            history.insert(0, _level_sum(fjwj, n_el, _count(level - 1), 4 * h, log))
        if level >= 2:
            rerr, aerr = _estimate_error(s, fjwj, history[-2], history[-1], eps, log)
            s.aerr = aerr.astype(dt)
            conv = (rerr < rtol) | (aerr < atol)
        else:
            s.aerr = full((n_el,), numpy.nan, dtype=dt)
            conv = zeros((n_el,), dtype=bool)
        bad = _invalid(s.Sn, log) & ~conv
        s.stop(where(conv, _CONVERGED, _VALUE_ERROR), conv | bad, nit=nit, nfev=nfev)
        level += 1
        history = (history + [s.Sn])[-2:]
    s.stop(full((n_el,), _NOT_CONVERGED, dtype=numpy.int32), s.active, nit=nit, nfev=nfev)
    return s.result(lim.negative, shape, minlevel, log)


def _count(k):
    """The abscissae (per side) of levels 0 to k - 1 (SciPy's pair-cache index k): 9 at level 0,
    then 8 * 2^(j-1) odd ones at level j."""
    return 0 if k == 0 else 1 + _N_BASE_STEPS * 2 ** (k - 1)


def _invalid(sn, log):
    if log:
        r = real(sn)
        return (isinf(r) & (r > 0)) | isnan(sn)
    return ~isfinite(sn)


def _level_sum(fjwj, n_el, n_x, h, log):
    """The Euler-Maclaurin estimate of a lower level: the first `n_x` terms of each side."""
    terms = fjwj.reshape(n_el, 2, -1)[:, :, :n_x].reshape(n_el, 2 * n_x)
    return _logsumexp(terms) + math.log(h) if log else sum_(terms, axis=-1) * h


def _estimate_error(s, fjwj, snm2, snm1, eps, log):
    """Bailey's error estimate (section 5 of the paper), SciPy's form: (relative, absolute)."""
    sn = s.Sn
    if log:
        d1 = real(_logsumexp(stack([sn, snm1 + numpy.pi * 1j], axis=-1)))
        d2 = real(_logsumexp(stack([sn, snm2 + numpy.pi * 1j], axis=-1)))
        d3 = math.log(eps) + max_(real(fjwj), axis=-1)
        d5 = math.log(eps) + real(sn)
        temp = where(d1 > -numpy.inf, d1 ** 2 / d2, -numpy.inf)
        aerr = clip(max_(stack([temp, 2 * d1, d3, s.d4]), axis=0), d5, d1)
        return aerr - real(sn), aerr
    d1, d2 = abs_(sn - snm1), abs_(sn - snm2)
    d3 = eps * max_(abs_(fjwj), axis=-1)
    d5 = eps * abs_(sn)
    temp = where(d1 > 0, d1 ** (log_(d1) / log_(d2)), 0)
    aerr = clip(max_(stack([temp, d1 ** 2, d3, s.d4]), axis=0), d5, d1)
    return aerr / abs_(sn), aerr


class _Limits:
    """SciPy's `_transform_integrals`: finite limits a <= b for every integral, with the
    substitutions of infinite ones (x = 1/t - 1 + a, x -> -x, x = t / (1 - t^2))."""

    def __init__(self, a, b):
        same = a == b
        a, b = where(same, 1.0, a), where(same, 1.0, b)
        self.negative = real(b) < real(a)
        a, b = where(self.negative, b, a), where(self.negative, a, b)
        self.abinf = isinf(a) & isinf(b)
        a, b = where(self.abinf, -1.0, a), where(self.abinf, 1.0, b)
        self.ainf = isinf(a)
        a, b = where(self.ainf, -b, a), where(self.ainf, -a, b)
        self.binf = isinf(b)
        self.a0 = a.reshape(-1, 1)
        self.a = where(self.binf, 0.0, a).reshape(-1, 1)
        self.b = where(self.binf, 1.0, b).reshape(-1, 1)

    def abscissae(self, xjc, wj):
        """The abscissae in (a, b) and their weights, right half then left; a weight whose abscissa
        rounded onto a limit is zeroed (SciPy's `_transform_to_limits`)."""
        alpha = (self.b - self.a) / 2
        xj = concatenate((-alpha * xjc + self.b, alpha * xjc + self.a), axis=-1)
        wj = wj * alpha
        wj = concatenate((wj, wj), axis=-1)
        xr = real(xj)
        return xj, where((xr <= real(self.a)) | (xr >= real(self.b)), 0, wj)

    def substitute(self, xj):
        abinf, binf, ainf = self.abinf[:, None], self.binf[:, None], self.ainf[:, None]
        x = where(abinf, xj / (1 - real(xj) ** 2), xj)
        x = where(binf, 1 / x - 1 + self.a0, x)
        return where(ainf, -x, x)

    def weigh(self, fj, xj, log):
        abinf, binf = self.abinf[:, None], self.binf[:, None]
        if log:
            fj = where(abinf, fj + (log_(1 + xj ** 2) - 2 * log_(1 - xj ** 2)), fj)
            return where(binf, fj - 2 * log_(xj), fj)
        fj = where(abinf, fj * ((1 + xj ** 2) / (1 - xj ** 2) ** 2), fj)
        return where(binf, fj * xj ** -2.0, fj)



class _State:
    """The per-integral work (SciPy's `work`) and result arrays, all of the batch's length."""

    def __init__(self, n, dt, zero, a, b, fc, log):
        self.log = log
        self.Sn = where(isnan(a) | isnan(b) | isnan(fc), numpy.nan, full((n,), zero, dtype=dt))
        self.aerr = full((n,), numpy.nan, dtype=dt)
        self.xr0, self.xl0 = full((n,), -numpy.inf, dtype=dt), full((n,), numpy.inf, dtype=dt)
        self.fr0, self.fl0 = full((n,), numpy.nan, dtype=dt), full((n,), numpy.nan, dtype=dt)
        self.wr0, self.wl0 = zeros((n,), dtype=dt), zeros((n,), dtype=dt)
        self.d4 = zeros((n,), dtype=numpy.empty(0, dt).real.dtype)
        self.active = full((n,), True, dtype=bool)
        self.res = dict(integral=zeros((n,), dtype=dt), error=zeros((n,), dtype=dt),
                        status=full((n,), _IN_PROGRESS, dtype=numpy.int32), nit=zeros((n,), dtype=numpy.int32),
                        nfev=zeros((n,), dtype=numpy.int32))

    def stop(self, status, mask, nit, nfev):
        """Freezes the integrals in `mask` that are still in progress (SciPy's `_update_active`)."""
        now = mask & self.active
        r = self.res
        r["integral"] = where(now, self.Sn, r["integral"])
        r["error"] = where(now, self.aerr, r["error"])
        r["status"] = where(now, status, r["status"]).astype(numpy.int32)
        r["nit"] = where(now, nit, r["nit"]).astype(numpy.int32)
        r["nfev"] = where(now, nfev, r["nfev"]).astype(numpy.int32)
        self.active = self.active & ~now

    def euler_maclaurin(self, xj, fj, wj, h):
        """The level's terms f_j w_j and sum (section 4), keeping the outermost finite terms for
        the error term d4 and using their values in place of non-finite ones (SciPy's
        `_euler_maclaurin_sum`)."""
        n = xj.shape[0]
        xr, xl = xj.reshape(n, 2, -1)[:, 0], xj.reshape(n, 2, -1)[:, 1]
        fr, fl = fj.reshape(n, 2, -1)[:, 0], fj.reshape(n, 2, -1)[:, 1]
        wr, wl = wj.reshape(n, 2, -1)[:, 0], wj.reshape(n, 2, -1)[:, 1]
        bad_r, bad_l = ~isfinite(fr) | (wr == 0), ~isfinite(fl) | (wl == 0)
        ir = argmax(real(where(bad_r, -numpy.inf, xr)), axis=-1)[:, None]
        il = argmin(real(where(bad_l, numpy.inf, xl)), axis=-1)[:, None]
        xr_m = take_along_axis(where(bad_r, -numpy.inf, xr), ir, axis=-1)[:, 0]
        xl_m = take_along_axis(where(bad_l, numpy.inf, xl), il, axis=-1)[:, 0]
        j = real(xr_m) > real(self.xr0)
        self.xr0 = where(j, xr_m, self.xr0)
        self.fr0 = where(j, take_along_axis(fr, ir, axis=-1)[:, 0], self.fr0)
        self.wr0 = where(j, take_along_axis(wr, ir, axis=-1)[:, 0], self.wr0)
        j = real(xl_m) < real(self.xl0)
        self.xl0 = where(j, xl_m, self.xl0)
        self.fl0 = where(j, take_along_axis(fl, il, axis=-1)[:, 0], self.fl0)
        self.wl0 = where(j, take_along_axis(wl, il, axis=-1)[:, 0], self.wl0)
        if self.log:
            self.d4 = maximum(real(self.fl0 + log_(self.wl0)), real(self.fr0 + log_(self.wr0)))
        else:
            self.d4 = maximum(abs_(self.fl0 * self.wl0), abs_(self.fr0 * self.wr0))
        # values at a singularity take the nearest finite value ([3] p. 22, as SciPy)
        fr = where(bad_r, self.fr0[:, None], fr)
        fl = where(bad_l, self.fl0[:, None], fl)
        fj = concatenate((fr, fl), axis=-1)
        fjwj = fj + log_(wj) if self.log else fj * wj
        sn = _logsumexp(fjwj + math.log(h)) if self.log else sum_(fjwj, axis=-1) * h
        return fjwj, sn

    def result(self, negative, shape, minlevel, log):
        r = self.res
        integral = r["integral"]
        if log and bool(to_host(any_(negative))):  # one read: SciPy's log result is complex only then
            integral = integral + negative * (numpy.pi * 1.0j)
        else:
            integral = where(negative, -integral, integral)
        maxlevel = where(r["nit"] == 0, -1, minlevel + r["nit"] - 1).astype(numpy.int64)  # SciPy: int64 minlevel + nit
        out = RichResult(success=r["status"] == 0, status=r["status"], integral=integral, error=r["error"],
                         nfev=r["nfev"], maxlevel=maxlevel)
        for key, val in out.items():
            v = val.reshape(shape)
            out[key] = v[()] if v.ndim == 0 else v
        return out
