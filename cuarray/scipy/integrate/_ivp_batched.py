"""`solve_ivp_batched`: many independent systems dy/dt = f(t, y) integrated at once, each with
its own time, step size and accept/reject decision (SciPy's controller, per system), all in
whole-array operations; the host reads one flag per step (whether any system still runs)."""

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._creation.from_data import asarray
from ..._logic.content import isfinite
from ..._logic.truth import all as all_, any as any_
from ..._math.misc import abs as abs_, sqrt
from ..._math.extrema import maximum, minimum
from ..._math.floating import nextafter
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from . import _rk_tableaux as tab
from ._ivp import OdeResult
from ._ivp_base import norm, validate_first_step, validate_max_step, validate_tol

TABLEAUX = {"RK23": tab.RK23, "RK45": tab.RK45, "DOP853": tab.DOP853}
FN = "scipy.integrate.solve_ivp_batched"


def _error_norm(K, h, scale, c):
    """Each system's (row's) error norm, SciPy's formula for the method."""
    if "E" in c:
        return norm(tab.combine(K, c["E"]) * h / scale, axis=-1)
    err5 = abs_(tab.combine(K, c["E5"]) / scale)
    err3 = abs_(tab.combine(K, c["E3"]) / scale)
    e5, e3 = sum_(err5 * err5, axis=-1), sum_(err3 * err3, axis=-1)
    denom = sqrt((e5 + 0.01 * e3) * float(scale.shape[-1]))
    return abs_(h[:, 0]) * e5 / where(denom == 0, 1.0, denom)


def _initial_step(fun, t0, y0, t_bound, max_step, f0, direction, order, rtol, atol):
    """SciPy's `select_initial_step` for every system, in whole-array operations (no read)."""
    interval_length = abs(t_bound - t0)
    if interval_length == 0.0 or y0.shape[1] == 0:
        return zeros(y0.shape[0])
    scale = atol + abs_(y0) * rtol
    d0, d1 = norm(y0 / scale, axis=-1), norm(f0 / scale, axis=-1)
    small = (d0 < 1e-5) | (d1 < 1e-5)
    h0 = minimum(where(small, 1e-6, 0.01 * d0 / where(small, 1.0, d1)), interval_length)
    f1 = fun(t0 + h0[:, None] * direction, y0 + h0[:, None] * direction * f0)
    d2 = norm((f1 - f0) / scale, axis=-1) / h0
    flat = (d1 <= 1e-15) & (d2 <= 1e-15)
    h1 = where(flat, maximum(1e-6, h0 * 1e-3), (0.01 / where(flat, 1.0, maximum(d1, d2))) ** (1 / (order + 1)))
    return minimum(minimum(100 * h0, h1), min(interval_length, max_step))


def solve_ivp_batched(fun, t_span, y0, method="RK45", args=None, *, max_step=numpy.inf, rtol=1e-3, atol=1e-6,
                      first_step=None):
    """Integrate `batch` independent systems from t_span[0] to t_span[1]: `y0` has shape
    (batch, n) and ``fun(t, y)`` takes `t` of shape (batch, 1) (each system's own time) and `y` of
    shape (batch, n) and returns dy/dt of shape (batch, n). Not a SciPy function: each row is
    integrated as ``scipy.integrate.solve_ivp(f, t_span, y0[i], method, rtol=rtol, atol=atol)``
    would (the same initial step, controller and accepted steps, per system), and the result has
    the final states only: `t` (batch,) each system's last time, `y` (batch, n), `status` (batch,)
    0 reached t_span[1] or -1 its step became too small, `nfev` (batch,) the evaluations
    SciPy would have made for that system, `success` whether all reached the end. Methods 'RK23',
    'RK45' and 'DOP853'; `atol` and `rtol` scalars or arrays of shape (n,). Every step evaluates
    `fun` on all systems (finished ones are frozen), and the host reads one flag per step.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.integrate import solve_ivp_batched
    >>> y0 = cuarray.asarray([[1.0], [2.0]])
    >>> res = solve_ivp_batched(lambda t, y: -y, (0, 1), y0)
    >>> bool(res.success)
    True
    """
    if method not in TABLEAUX:
        raise ValueError(f"`method` must be one of {list(TABLEAUX)}.")
    c = TABLEAUX[method]
    t0, tf = map(float, t_span)
    y0 = as_literal_or_array(y0, FN)
    if y0.ndim != 2:
        raise ValueError("`y0` must be 2-dimensional, (batch, n).")
    dtype = numpy.complex128 if y0.dtype.kind == "c" else numpy.float64
    y = y0.astype(dtype, copy=False)
    if not bool(numpy.asarray(to_host(all_(isfinite(y))))):
        raise ValueError("All components of the initial state `y0` must be finite.")
    user = fun if args is None else (lambda t, x: fun(t, x, *args))

    def f(t, x):
        return asarray(user(t, x), dtype=dtype)

    batch, n = y.shape
    max_step = validate_max_step(max_step)
    rtol, atol = validate_tol(rtol, atol, n)
    direction = float(numpy.sign(tf - t0)) if tf != t0 else 1.0
    t = full((batch,), t0, dtype=numpy.float64)
    fy = f(t[:, None], y)
    nfev = full((batch,), 1, dtype=numpy.int64)
    if first_step is None:
        h_abs = _initial_step(f, t0, y, tf, max_step, fy, direction, c["error_estimator_order"], rtol, atol)
        nfev = nfev + (1 if tf != t0 and n > 0 else 0)
    else:
        h_abs = full((batch,), float(validate_first_step(first_step, t0, tf)))
    exponent = -1 / (c["error_estimator_order"] + 1)
    status = zeros((batch,), dtype=numpy.int64)
    running = full((batch,), tf != t0 and n > 0, dtype=bool)
    rejected = zeros((batch,), dtype=bool)  # the current step of this system had a rejected trial
    # each pass is one trial step of every running system (SciPy's inner loop, unrolled per system)
    while bool(numpy.asarray(to_host(any_(running)))):  # the step's one read: does any system run
        min_step = 10 * abs_(nextafter(t, direction * numpy.inf) - t)
        h_try = where(h_abs > max_step, max_step, where(h_abs < min_step, min_step, h_abs))
        h_try = where(rejected, h_abs, h_try)  # a retried trial takes the reduced size as it is
        too_small = running & (h_try < min_step)
        status = where(too_small, -1, status)
        running = running & ~too_small
        t_new = t + h_try * direction
        t_new = where(direction * (t_new - tf) > 0, tf, t_new)
        h = t_new - t
        h_try = abs_(h)
        y_new, f_new, K = tab.rk_step(f, t[:, None], y, fy, h[:, None], c["A"], c["B"], c["C"])
        nfev = nfev + where(running, c["n_stages"], 0)
        a, b = abs_(y), abs_(y_new)
        scale = atol + where(a >= b, a, b) * rtol
        err = _error_norm(K, h[:, None], scale, c)
        grow = minimum(tab.MAX_FACTOR, tab.SAFETY * where(err == 0, 1.0, err) ** exponent)
        grow = where(err == 0, float(tab.MAX_FACTOR), grow)
        grow = where(rejected, minimum(grow, 1.0), grow)
        shrink = maximum(tab.MIN_FACTOR, tab.SAFETY * where(err == 0, 1.0, err) ** exponent)
        accept = running & (err < 1)
        h_abs = where(running, h_try * where(err < 1, grow, shrink), h_abs)
        rejected = running & ~accept
        t = where(accept, t_new, t)
        y = where(accept[:, None], y_new, y)
        fy = where(accept[:, None], f_new, fy)
        running = running & ~(accept & (direction * (t - tf) >= 0))
    ok = bool(numpy.asarray(to_host(all_(status == 0))))
    return OdeResult(t=t, y=y, status=status, nfev=nfev, success=ok,
                     message="The solver successfully reached the end of the integration interval." if ok
                     else "Required step size is less than spacing between numbers.")
