"""`nsum`: sums of series, elementwise over a batch of problems, on the device.

SciPy 1.18's algorithm (scipy/integrate/_tanhsinh.py, `nsum`): a finite sum of at most
`maxterms` terms is summed directly; otherwise the terms are summed directly up to the first
probed term (at k = a + 2^j step) below the tolerance, and the rest of the series is bounded by
the integral of f from there (`tanhsinh`), the Euler-Maclaurin-style bound
S = left + I/step + f(k)/2 + f(b)/2 with error left_err + I_err/step + f(k)/2 - f(b)/2. A sum
over all the integers sums f(x) + f(-x) from 0 with half weight at 0.

SciPy splits the batch by boolean masks into the direct, right-infinite, left-infinite and
two-sided groups. Here the group of every problem is read to the host once, each group is taken
with an index array, and the results are put back in order with one gather; `_direct` reads
the largest number of terms (the width of its evaluation), and each `tanhsinh` reads one flag a
level.
"""

import math

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take, take_along_axis
from ..._logic.content import isfinite, isinf
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate, stack
from ..._math.explog import log as log_
from ..._math.misc import abs as abs_
from ..._math.rounding import floor, round as round_
from ..._math.sums import sum as sum_
from ..._math.complex import real
from ..._math.extrema import minimum
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from .._rich_result import RichResult
from ._tanhsinh import _logsumexp, tanhsinh

__all__ = ["nsum"]


def _validate(f, log, maxterms, tolerances):
    """SciPy's `_nsum_iv` checks of the host parameters, its messages."""
    if not callable(f):
        raise ValueError("`f` must be callable.")
    if log not in {True, False}:
        raise ValueError("`log` must be True or False.")
    tolerances = {} if tolerances is None else tolerances
    atol = tolerances.get("atol", None)
    if atol is None:
        atol = -numpy.inf if log else 0
    rtol = tolerances.get("rtol", None)
    params = numpy.asarray([atol, rtol if rtol is not None else 0.0, 0.0])
    if not numpy.issubdtype(params.dtype, numpy.floating):
        raise ValueError("`atol` and `rtol` must be real numbers.")
    if log and numpy.any(numpy.isposinf(params) | numpy.isnan(params)):
        raise ValueError("`atol`, `rtol` may not be positive infinity or NaN.")
    if not log and numpy.any((params < 0) | ~numpy.isfinite(params)):
        raise ValueError("`atol`, and `rtol` must be non-negative and finite.")
    maxterms_int = int(maxterms)
    if maxterms_int != maxterms or maxterms < 0:
        raise ValueError("`maxterms` must be a non-negative integer.")
    return float(params[0]), (None if rtol is None else float(params[1])), maxterms_int


def nsum(f, a, b, *, step=1, args=(), kwargs=None, log=False, maxterms=int(2**20), tolerances=None):
    """See `scipy.integrate.nsum`. The problems of a batch are grouped as SciPy groups them after
    one read of each problem's group; `f` is called with device arrays (shape ``(n, m)``, `args`
    as ``(n, 1)`` columns) as in SciPy. The fields are device arrays (0-d for a single sum)."""
    atol, rtol, maxterms = _validate(f, log, maxterms, tolerances)
    # SciPy's promotion: Python scalars are weak (float32 limits with step=1 stay float32)
    promoted = numpy.result_type(*[v.dtype if hasattr(v, "dtype") else v for v in (a, b, step)])
    if promoted.kind not in "biuf":
        raise ValueError("All elements of `a`, `b`, and `step` must be real numbers.")
    dt = promoted if promoted.kind == "f" else numpy.result_type(promoted, numpy.float64)
    a, b, step = (as_array(v, "scipy.integrate.nsum") for v in (a, b, step))
    if not isinstance(args, (tuple, list)):
        args = (args,)
    if kwargs:
        names, nargs, user = tuple(kwargs), len(args), f
        args = (*args, *kwargs.values())

        def f(x, *all_args):
            return user(x, *all_args[:nargs], **dict(zip(names, all_args[nargs:])))
    args = [as_array(v, "scipy.integrate.nsum") for v in args]
    shape = numpy.broadcast_shapes(a.shape, b.shape, step.shape, *(v.shape for v in args))
    a, b, step = (broadcast_to(v.astype(dt), shape).reshape(-1) for v in (a, b, step))
    args = [broadcast_to(v, shape).reshape(-1) for v in args]
    fa = as_array(f(a, *args), "scipy.integrate.nsum")  # SciPy's first call: the result dtype
    if fa.dtype.kind == "c":
        raise ValueError("Abscissae and function output must be real numbers.")
    dt = numpy.result_type(dt, fa.dtype)
    a, b, step = a.astype(dt), b.astype(dt), step.astype(dt)
    eps = float(numpy.finfo(dt).eps)
    zero = -numpy.inf if log else 0.0
    if rtol is None:
        rtol = 0.5 * math.log(eps) if log else eps ** 0.5
    c = _Constants(dt, log, eps, zero, rtol, atol, maxterms)

    valid = (b >= a) & isfinite(step) & (step > 0)
    nterms = floor((b - a) / step)
    b = where(isfinite(nterms), a + nterms * step, b)
    direct = (nterms + 1 <= maxterms) & valid
    right = isfinite(a) & ~direct & valid
    left = isfinite(b) & ~right & ~direct & valid
    group = where(~valid, 0, where(direct, 1, where(right, 2, where(left, 3, 4)))).astype(numpy.int8)
    group = numpy.asarray(to_host(group))  # one read: each problem's branch (SciPy's masks)
    n = group.size
    nfev0 = full((n,), 1, dtype=numpy.int32)
    parts, order = [], []
    for g in range(5):
        idx = numpy.flatnonzero(group == g)
        if not idx.size:
            continue
        di = as_parameter(idx, "scipy.integrate.nsum")
        ga, gb, gs = take(a, di), take(b, di), take(step, di)
        gargs = [take(v, di) for v in args]
        if g == 0:
            # invalid: NaN, status -1; b < a (and a valid step): zero, status 0 (SciPy's order)
            zero_ok = gb < ga
            s = where(zero_ok, zero, numpy.nan).astype(dt)
            parts.append((s, s, where(zero_ok, 0, -1).astype(numpy.int32), zeros(idx.shape, numpy.int32)))
        elif g == 1:
            s, e, nf = _direct(f, ga, gb, gs, gargs, c)
            parts.append((s, e, where(isfinite(s), 0, -3).astype(numpy.int32), nf.astype(numpy.int32)))
        elif g == 2:
            parts.append(_integral_bound(f, ga, gb, gs, gargs, c))
        elif g == 3:
            parts.append(_integral_bound(lambda x, *ar: f(-x, *ar), -gb, -ga, gs, gargs, c))
        else:
            s, e, st, nf = _integral_bound(_two_sided(f, log), zeros(idx.shape, dt), gb, gs, gargs, c)
            parts.append((s, e, st, 2 * nf))
        order.append(idx)
    inverse = as_parameter(numpy.argsort(numpy.concatenate(order), kind="stable"), "scipy.integrate.nsum")
    s, e, status, nfev = (take(concatenate([p[k] for p in parts]), inverse) for k in range(4))
    nfev = (nfev + nfev0).astype(numpy.int32)
    out = RichResult(sum=s.astype(dt), error=e.astype(dt), status=status.astype(numpy.int32),
                     success=status == 0, nfev=nfev)
    for key, val in out.items():
        v = val.reshape(shape)
        out[key] = v[()] if v.ndim == 0 else v
    return out


class _Constants:
    def __init__(self, dt, log, eps, zero, rtol, atol, maxterms):
        self.dt, self.log, self.eps, self.zero = dt, log, eps, zero
        self.rtol, self.atol, self.maxterms = rtol, atol, maxterms


def _two_sided(f, log):
    """f(x) + f(-x), half of it at x = 0 (the sum over all the integers from 0)."""
    if log:
        def g(x, *args):
            return _logsumexp(stack([f(x, *args), f(-x, *args)], axis=-1)) + where(x == 0, math.log(0.5), 0.0)
    else:
        def g(x, *args):
            return (f(x, *args) + f(-x, *args)) * where(x == 0, 0.5, 1.0)
    return g


def _direct(f, a, b, step, args, c, inclusive=True):
    """SciPy's `_direct`: all the terms of every problem in one call of f, the surplus terms of
    the shorter sums at NaN and zeroed; one read of the widest sum."""
    steps = round_((b - a) / step) + int(inclusive)
    max_steps = int(to_host(max_(steps))) if steps.size else 0  # one read: the evaluation's width
    a2, b2, step2 = a[:, None], b[:, None], step[:, None]
    ks = a2 + arange(max_steps, dtype=c.dt) * step2
    i_nan = ks >= (b2 + int(inclusive) * step2 / 2)
    ks = where(i_nan, numpy.nan, ks).astype(c.dt)
    fs = as_array(f(ks, *[v[:, None] for v in args]), "scipy.integrate.nsum")
    fs = where(i_nan, c.zero, fs).astype(c.dt)
    nfev = max_steps - sum_(i_nan, axis=-1)
    if c.log:
        s = _logsumexp(fs, axis=-1) if max_steps else full(a.shape, c.zero, dtype=c.dt)
        return s, real(s) + math.log(c.eps), nfev
    s = sum_(fs, axis=-1)
    return s, c.eps * abs_(s), nfev


def _integral_bound(f, a, b, step, args, c):
    """SciPy's `_integral_bound`: the direct sum up to the first probed term below the tolerance,
    the integral beyond it by `tanhsinh`, and the bound's error terms."""
    lb = tanhsinh(f, a, b, args=tuple(args), atol=c.atol, rtol=c.rtol, log=c.log)
    lb_integral = lb.integral.reshape(-1)
    lb_status = lb.status.reshape(-1)
    if c.log:
        tol = _logsumexp(stack([full(lb_integral.shape, c.atol, dtype=c.dt), c.rtol + lb_integral], axis=-1))
    else:
        tol = c.atol + c.rtol * lb_integral
    i_skip = lb_status == -3  # divergent: no sense in more terms
    tol = where(i_skip, numpy.nan, tol)
    status = lb_status
    log2maxterms = math.floor(math.log2(c.maxterms)) if c.maxterms else 0
    n_steps_host = numpy.concatenate([2.0 ** numpy.arange(0, log2maxterms), [c.maxterms]]).astype(c.dt)
    n_steps = as_parameter(n_steps_host, "scipy.integrate.nsum")
    nfev = 2 * n_steps_host.size
    step2, args2 = step[:, None], [v[:, None] for v in args]
    ks = a[:, None] + n_steps * step2
    fks = as_array(f(ks, *args2), "scipy.integrate.nsum")
    fksp1 = as_array(f(ks + step2, *args2), "scipy.integrate.nsum")
    insufficient = (fks > tol[:, None]) | (fksp1 > fks)
    n_insufficient = sum_(insufficient, axis=-1)
    nt = minimum(n_insufficient, n_steps_host.size - 1)
    k = a + take(n_steps, nt) * step
    all_insufficient = n_insufficient == n_steps_host.size
    left, left_error, left_nfev = _direct(f, a, k, step, args, c, inclusive=False)
    left_inf = isinf(left) & (left > 0)
    i_skip = i_skip | left_inf
    status = where(left_inf, -3, status)
    k = where(i_skip, numpy.nan, k)
    right = tanhsinh(f, k, b, args=tuple(args), atol=c.atol, rtol=c.rtol, log=c.log)
    r_integral, r_error, r_status = (v.reshape(-1) for v in (right.integral, right.error, right.status))
    fk = take_along_axis(fks, nt[:, None], axis=-1)[:, 0]
    finite_b = isfinite(b)
    # SciPy calls f at the finite b only: f is evaluated at a (in its domain) elsewhere, unused
    fb = where(finite_b, as_array(f(where(finite_b, b, a), *args), "scipy.integrate.nsum"), c.zero)
    if c.log:
        log_step, log2 = log_(step), math.log(2)
        s = _logsumexp(stack([left, r_integral - log_step, fk - log2, fb - log2], axis=-1))
        e = real(_logsumexp(stack([left_error + 0j, r_error - log_step + 0j, fk - log2 + 0j,
                                   fb - log2 + numpy.pi * 1j], axis=-1)))
    else:
        s = left + r_integral / step + fk / 2 + fb / 2
        e = left_error + r_error / step + fk / 2 - fb / 2
    status = where(i_skip, status, r_status)
    status = where((status == 0) & all_insufficient, -4, status).astype(numpy.int32)
    total = left_nfev + right.nfev.reshape(-1) + nfev + finite_b.astype(numpy.int32) + lb.nfev.reshape(-1)
    return s.astype(c.dt), e.astype(c.dt), status, total

