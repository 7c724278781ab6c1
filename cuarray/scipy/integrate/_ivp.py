"""`solve_ivp` for every method, after SciPy's `scipy.integrate._ivp.ivp`:
the host drives the step loop, the solver's state and its dense output stay on the device. Per
accepted step the loop reads the error norm of each trial (the solver) and, with `events`, each
event function's value; an event's root is found by Brent's method on the host (SciPy's
`brentq`), each evaluation reading one interpolated state's event value."""

import inspect

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._manipulation.joining import hstack, vstack
from ._ivp_base import EPS, OdeSolution, OdeSolver
from .._rich_result import RichResult
from ._bdf import BDF
from ._lsoda import LSODA
from ._radau import Radau
from ._rk import DOP853, RK23, RK45

METHODS = {"RK23": RK23, "RK45": RK45, "DOP853": DOP853, "Radau": Radau, "BDF": BDF, "LSODA": LSODA}

MESSAGES = {0: "The solver successfully reached the end of the integration interval.",
            1: "A termination event occurred."}


class OdeResult(RichResult):
    """See `scipy.integrate.OdeResult` (SciPy's `OptimizeResult`): a dict whose keys are also
    attributes. `t` and `y` are device arrays."""


def prepare_events(events):
    if callable(events):
        events = (events,)
    max_events = numpy.empty(len(events))
    direction = numpy.empty(len(events))
    for i, event in enumerate(events):
        terminal = getattr(event, "terminal", None)
        direction[i] = getattr(event, "direction", 0)
        message = "The `terminal` attribute of each event must be a boolean or positive integer."
        if terminal is None or terminal == 0:
            max_events[i] = numpy.inf
        elif int(terminal) == terminal and terminal > 0:
            max_events[i] = terminal
        else:
            raise ValueError(message)
    return events, max_events, direction


def event_value(v):
    """An event function's value as a host float: a device scalar is read (one small read)."""
    if hasattr(v, "__cuda_array_interface__") or type(v).__module__.startswith("cuarray"):
        return float(numpy.asarray(to_host(v)))
    return float(v)


def solve_event_equation(event, sol, t_old, t):
    from scipy.optimize import brentq  # optional dependency: Brent's method on the host, as SciPy

    return brentq(lambda s: event_value(event(s, sol(s))), t_old, t, xtol=4 * EPS, rtol=4 * EPS)


def handle_events(sol, events, active_events, event_count, max_events, t_old, t):
    roots = numpy.asarray([solve_event_equation(events[i], sol, t_old, t) for i in active_events])
    if numpy.any(event_count[active_events] >= max_events[active_events]):
        order = numpy.argsort(roots) if t > t_old else numpy.argsort(-roots)
        active_events, roots = active_events[order], roots[order]
        last = numpy.nonzero(event_count[active_events] >= max_events[active_events])[0][0]
        return active_events[:last + 1], roots[:last + 1], True
    return active_events, roots, False


def find_active_events(g, g_new, direction):
    g, g_new = numpy.asarray(g), numpy.asarray(g_new)
    up = (g <= 0) & (g_new >= 0)
    down = (g >= 0) & (g_new <= 0)
    either = up | down
    mask = up & (direction > 0) | down & (direction < 0) | either & (direction == 0)
    return numpy.nonzero(mask)[0]


def _host_times(t_eval):
    if hasattr(t_eval, "__cuda_array_interface__") or type(t_eval).__module__.startswith("cuarray"):
        return numpy.asarray(to_host(t_eval))  # evaluation times are parameters: one read
    return numpy.asarray(t_eval)


def _check_method(method):
    if method not in METHODS and not (inspect.isclass(method) and issubclass(method, OdeSolver)):
        raise ValueError(f"`method` must be one of {METHODS} or OdeSolver class.")
    return METHODS.get(method, method) if isinstance(method, str) else method


def solve_ivp(fun, t_span, y0, method="RK45", t_eval=None, dense_output=False, events=None, vectorized=False,
              args=None, **options):
    """See `scipy.integrate.solve_ivp`. `y0` is a cuarray array and `fun` computes on cuarray
    arrays; the returned `y`, `y_events` and the values of `sol` are device arrays and `t` a device
    array. All of SciPy's methods (and OdeSolver subclasses). The step loop runs on the host with
    one small read per trial step (its error norm; per corrector iteration for the implicit
    methods) and one per event function and step. For many independent systems at once see
    `solve_ivp_batched`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -0.5 * y, [0, 10], cuarray.asarray([2.0, 4.0, 8.0]))
    >>> bool(sol.success)
    True
    """
    method = _check_method(method)
    t0, tf = map(float, t_span)
    if args is not None:
        try:
            _ = [*args]
        except TypeError as exp:
            raise TypeError("Supplied 'args' cannot be unpacked. Please supply `args` as a tuple "
                            f"(e.g. `args=({args},)`)") from exp

        def fun(t, x, fun=fun):
            return fun(t, x, *args)
    if t_eval is not None:
        t_eval = _host_times(t_eval)
        if t_eval.ndim != 1:
            raise ValueError("`t_eval` must be 1-dimensional.")
        if numpy.any(t_eval < min(t0, tf)) or numpy.any(t_eval > max(t0, tf)):
            raise ValueError("Values in `t_eval` are not within `t_span`.")
        d = numpy.diff(t_eval)
        if tf > t0 and numpy.any(d <= 0) or tf < t0 and numpy.any(d >= 0):
            raise ValueError("Values in `t_eval` are not properly sorted.")
        if tf > t0:
            t_eval_i = 0
        else:
            t_eval = t_eval[::-1]  # so that searchsorted works on ascending times
            t_eval_i = t_eval.shape[0]
    solver = method(fun, t0, y0, tf, vectorized=vectorized, **options)
    y0 = solver.y
    ts, ys, ti = ([t0], [y0], None) if t_eval is None else ([], [], [t0] if dense_output else None)
    interpolants = []
    if events is not None:
        events, max_events, event_dir = prepare_events(events)
        event_count = numpy.zeros(len(events))
        if args is not None:
            events = [lambda t, x, event=event: event(t, x, *args) for event in events]
        g = [event_value(event(t0, y0)) for event in events]
        t_events = [[] for _ in events]
        y_events = [[] for _ in events]
    else:
        t_events = y_events = None
    status = None
    while status is None:
        message = solver.step()
        if solver.status == "finished":
            status = 0
        elif solver.status == "failed":
            status = -1
            break
        t_old, t, y = solver.t_old, solver.t, solver.y
        sol = solver.dense_output() if dense_output else None
        if dense_output:
            interpolants.append(sol)
        if events is not None:
            g_new = [event_value(event(t, y)) for event in events]
            active_events = find_active_events(g, g_new, event_dir)
            if active_events.size > 0:
                if sol is None:
                    sol = solver.dense_output()
                event_count[active_events] += 1
                root_indices, roots, terminate = handle_events(sol, events, active_events, event_count, max_events,
                                                               t_old, t)
                for e, te in zip(root_indices, roots):
                    t_events[e].append(te)
                    y_events[e].append(sol(float(te)))
                if terminate:
                    status = 1
                    t = float(roots[-1])
                    y = sol(t)
            g = g_new
        if t_eval is None:
            if not (len(ts) > 1 and ts[-1] == t and dense_output):
                ts.append(t)
                ys.append(y)
            elif interpolants:
                interpolants.pop()
        else:
            if solver.direction > 0:
                t_eval_i_new = numpy.searchsorted(t_eval, t, side="right")
                t_eval_step = t_eval[t_eval_i:t_eval_i_new]
            else:
                t_eval_i_new = numpy.searchsorted(t_eval, t, side="left")
                t_eval_step = t_eval[t_eval_i_new:t_eval_i][::-1]
            if t_eval_step.size > 0:
                if sol is None:
                    sol = solver.dense_output()
                ts.append(t_eval_step)
                ys.append(sol(t_eval_step))
                t_eval_i = t_eval_i_new
        if ti is not None:
            ti.append(t)
    return _result(solver, method, status, MESSAGES.get(status, message), ts, ys, ti, t_eval, interpolants,
                   dense_output, t_events, y_events)


def _result(solver, method, status, message, ts, ys, ti, t_eval, interpolants, dense_output, t_events, y_events):
    """The OdeResult: times and states gathered into device arrays (one host-to-device copy of
    the times)."""
    if t_events is not None:
        t_events = [as_parameter(numpy.asarray(te, dtype=float), "scipy.integrate.solve_ivp") for te in t_events]
        y_events = [vstack(ye) if ye else as_parameter(numpy.empty((0,)), "scipy.integrate.solve_ivp")
                    for ye in y_events]
    if t_eval is None:
        ts_out = as_parameter(numpy.array(ts, dtype=float), "scipy.integrate.solve_ivp")
        ys = vstack(ys).T
    elif ts:
        ts_out = as_parameter(numpy.hstack(ts), "scipy.integrate.solve_ivp")
        ys = hstack(ys)
    else:
        ts_out = ts  # no point of t_eval was reached: SciPy's empty lists
    sol = None
    if dense_output:
        sol = OdeSolution(numpy.asarray(ts if t_eval is None else ti, dtype=float), interpolants)
    return OdeResult(t=ts_out, y=ys, sol=sol, t_events=t_events, y_events=y_events, nfev=solver.nfev,
                     njev=solver.njev, nlu=solver.nlu, status=status, message=message, success=status >= 0)
