"""The ODE solvers' common part, after SciPy's `scipy.integrate._ivp.base` and `.common`: the
`OdeSolver` and `DenseOutput` bases, `OdeSolution`, the tolerance and step checks and the initial
step of Hairer, Norsett and Wanner ("Solving Ordinary Differential Equations I", Sec. II.4). The
state y is a device array; times, step sizes and tolerances' checks are host numbers."""

from itertools import groupby
from types import GenericAlias
from warnings import warn

import numpy

from ..._core.host_input import as_array, as_literal_or_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.from_data import asarray
from ..._indexing.inserting import take
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import hstack, stack
from ..._math.misc import abs as abs_, sqrt
from ..._math.sums import sum as sum_

EPS = numpy.finfo(float).eps


def validate_first_step(first_step, t0, t_bound):
    if first_step <= 0:
        raise ValueError("`first_step` must be positive.")
    if first_step > numpy.abs(t_bound - t0):
        raise ValueError("`first_step` exceeds bounds.")
    return first_step


def validate_max_step(max_step):
    if max_step <= 0:
        raise ValueError("`max_step` must be positive.")
    return max_step


def warn_extraneous(extraneous):
    if extraneous:
        warn("The following arguments have no effect for a chosen solver: "
             f"{', '.join(f'`{x}`' for x in extraneous)}.", stacklevel=3)


def host_tolerance(x):
    """rtol or atol as a host float or NumPy array: they are parameters, checked on the host."""
    if hasattr(x, "__cuda_array_interface__") or type(x).__module__.startswith("cuarray"):
        return numpy.asarray(to_host(x))
    return numpy.asarray(x, dtype=float) if numpy.ndim(x) else x


def validate_tol(rtol, atol, n):
    """SciPy's checks and its warning for rtol < 100 eps; (rtol, atol) as host scalars or device
    arrays, ready for `atol + abs(y) * rtol`."""
    rtol, atol = host_tolerance(rtol), host_tolerance(atol)
    if numpy.any(rtol < 100 * EPS):
        warn("At least one element of `rtol` is too small. "
             f"Setting `rtol = np.maximum(rtol, {100 * EPS})`.", stacklevel=3)
        rtol = numpy.maximum(rtol, 100 * EPS)
    atol = numpy.asarray(atol)
    if atol.ndim > 0 and atol.shape != (n,):
        raise ValueError("`atol` has wrong shape.")
    if numpy.any(atol < 0):
        raise ValueError("`atol` must be positive.")
    on_device = [as_parameter(v, "scipy.integrate.solve_ivp") if numpy.ndim(v) else float(v) for v in (rtol, atol)]
    return on_device[0], on_device[1]


def norm(x, axis=None):
    """The RMS norm sqrt(mean(|x|^2)) on the device (0-d, or per row with axis=-1)."""
    a = abs_(x)
    size = x.size if axis is None else x.shape[axis]
    return sqrt(sum_(a * a, axis=axis) / float(size))


def read(x):
    """One device-to-host read of a small result (a norm, a flag): the step loop's sync."""
    return numpy.asarray(to_host(x))


def select_initial_step(fun, t0, y0, t_bound, max_step, f0, direction, order, rtol, atol):
    """SciPy's `select_initial_step`: two host reads of norms (d0 and d1 together, then d2)."""
    if y0.size == 0:
        return numpy.inf
    interval_length = abs(t_bound - t0)
    if interval_length == 0.0:
        return 0.0
    scale = atol + abs_(y0) * rtol
    d0, d1 = (float(v) for v in read(stack([norm(y0 / scale), norm(f0 / scale)])))
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    h0 = min(h0, interval_length)
    f1 = fun(t0 + h0 * direction, y0 + h0 * direction * f0)
    d2 = float(read(norm((f1 - f0) / scale))) / h0
    if d1 <= 1e-15 and d2 <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1 / (order + 1))
    return min(100 * h0, h1, interval_length, max_step)


def check_arguments(fun, y0, support_complex):
    """SciPy's `check_arguments`: y0 as a float64 or complex128 device vector (one host read for
    its finiteness) and fun wrapped to return that dtype."""
    y0 = as_literal_or_array(y0, "scipy.integrate.solve_ivp")
    if y0.dtype.kind == "c":
        if not support_complex:
            raise ValueError("`y0` is complex, but the chosen solver does not support integration in a complex domain.")
        dtype = numpy.complex128
    else:
        dtype = numpy.float64
    y0 = y0.astype(dtype, copy=False)
    if y0.ndim != 1:
        raise ValueError("`y0` must be 1-dimensional.")
    if not bool(read(all_(isfinite(y0)))):
        raise ValueError("All components of the initial state `y0` must be finite.")

    def fun_wrapped(t, y):
        return asarray(fun(t, y), dtype=dtype)

    return fun_wrapped, y0


class OdeSolver:
    """See `scipy.integrate.OdeSolver`. The state `y` is a device array; `t`, `t_old`, `t_bound`
    and the step size are host floats."""

    TOO_SMALL_STEP = "Required step size is less than spacing between numbers."
    __class_getitem__ = classmethod(GenericAlias)

    def __init__(self, fun, t0, y0, t_bound, vectorized, support_complex=False):
        self.t_old = None
        self.t = t0
        self._fun, self.y = check_arguments(fun, y0, support_complex)
        self.t_bound = t_bound
        self.vectorized = vectorized
        if vectorized:
            def fun_single(t, y):
                return self._fun(t, y[:, None]).ravel()
            fun_vectorized = self._fun
        else:
            fun_single = self._fun

            def fun_vectorized(t, y):
                return hstack([self._fun(t, y[:, i])[:, None] for i in range(y.shape[1])])

        def fun(t, y):
            self.nfev += 1
            return self.fun_single(t, y)

        self.fun = fun
        self.fun_single = fun_single
        self.fun_vectorized = fun_vectorized
        self.direction = numpy.sign(t_bound - t0) if t_bound != t0 else 1
        self.n = self.y.size
        self.status = "running"
        self.nfev = 0
        self.njev = 0
        self.nlu = 0

    @property
    def step_size(self):
        return None if self.t_old is None else numpy.abs(self.t - self.t_old)

    def step(self):
        if self.status != "running":
            raise RuntimeError("Attempt to step on a failed or finished solver.")
        if self.n == 0 or self.t == self.t_bound:
            self.t_old = self.t
            self.t = self.t_bound
            message = None
            self.status = "finished"
        else:
            t = self.t
            success, message = self._step_impl()
            if not success:
                self.status = "failed"
            else:
                self.t_old = t
                if self.direction * (self.t - self.t_bound) >= 0:
                    self.status = "finished"
        return message

    def dense_output(self):
        if self.t_old is None:
            raise RuntimeError("Dense output is available after a successful step was made.")
        if self.n == 0 or self.t == self.t_old:
            return ConstantDenseOutput(self.t_old, self.t, self.y)
        return self._dense_output_impl()

    def _step_impl(self):
        raise NotImplementedError

    def _dense_output_impl(self):
        raise NotImplementedError


def eval_times(t):
    """Evaluation times as a host float or a 1-D device array: a host list or NumPy array is a
    parameter and is copied (one transfer); a device array stays (a 0-d one is read)."""
    if isinstance(t, (int, float, numpy.generic, list, tuple, numpy.ndarray)):
        h = numpy.asarray(t, dtype=float)
        return float(h) if h.ndim == 0 else as_parameter(h, "scipy.integrate.DenseOutput")
    t = as_array(t, "scipy.integrate.DenseOutput")
    return float(read(t)) if t.ndim == 0 else t


class DenseOutput:
    """See `scipy.integrate.DenseOutput`. `t` may be a host number, a host list or NumPy array
    (copied to the device) or a device array; values are device arrays."""

    __class_getitem__ = classmethod(GenericAlias)

    def __init__(self, t_old, t):
        self.t_old = t_old
        self.t = t
        self.t_min = min(t, t_old)
        self.t_max = max(t, t_old)

    def __call__(self, t):
        if getattr(t, "ndim", None) is None and numpy.ndim(t) > 1 or getattr(t, "ndim", 0) > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        return self._call_impl(eval_times(t))

    def _call_impl(self, t):
        raise NotImplementedError


class ConstantDenseOutput(DenseOutput):
    """The value of a zero-length step."""

    def __init__(self, t_old, t, value):
        super().__init__(t_old, t)
        self.value = value

    def _call_impl(self, t):
        if isinstance(t, float):
            return self.value
        return self.value[:, None] + 0.0 * t[None, :]


class OdeSolution:
    """See `scipy.integrate.OdeSolution`. The segment of each time is found on the host (`ts` is
    a host array); the interpolants run on the device."""

    def __init__(self, ts, interpolants, alt_segment=False):
        ts = numpy.asarray(ts)
        d = numpy.diff(ts)
        if not ((ts.size == 2 and ts[0] == ts[-1]) or numpy.all(d > 0) or numpy.all(d < 0)):
            raise ValueError("`ts` must be strictly increasing or decreasing.")
        self.n_segments = len(interpolants)
        if ts.shape != (self.n_segments + 1,):
            raise ValueError("Numbers of time stamps and interpolants don't match.")
        self.ts = ts
        self.interpolants = interpolants
        if ts[-1] >= ts[0]:
            self.t_min, self.t_max, self.ascending = ts[0], ts[-1], True
            self.side = "right" if alt_segment else "left"
            self.ts_sorted = ts
        else:
            self.t_min, self.t_max, self.ascending = ts[-1], ts[0], False
            self.side = "left" if alt_segment else "right"
            self.ts_sorted = ts[::-1]

    def _segment(self, ind):
        segment = numpy.clip(ind - 1, 0, self.n_segments - 1)
        return self.n_segments - 1 - segment if not self.ascending else segment

    def _call_single(self, t):
        return self.interpolants[int(self._segment(numpy.searchsorted(self.ts_sorted, t, side=self.side)))](t)

    def __call__(self, t):
        # the times are parameters: a device array is read once to group them by segment
        t = numpy.asarray(to_host(t)) if hasattr(t, "__cuda_array_interface__") else numpy.asarray(t)
        if t.ndim == 0:
            return self._call_single(float(t))
        order = numpy.argsort(t)
        reverse = numpy.empty_like(order)
        reverse[order] = numpy.arange(order.shape[0])
        t_sorted = t[order]
        segments = self._segment(numpy.searchsorted(self.ts_sorted, t_sorted, side=self.side))
        ys = []
        start = 0
        for segment, group in groupby(segments):
            end = start + len(list(group))
            ys.append(self.interpolants[segment](t_sorted[start:end]))
            start = end
        return take(hstack(ys), as_parameter(reverse, "scipy.integrate.OdeSolution"), axis=1)


def clipped_step(solver, t, h_abs):
    """(t_new, h, |h|) of a trial step of size `h_abs` from `t` in the solver's direction, cut at
    its `t_bound` (SciPy's steppers' rule)."""
    t_new = t + h_abs * solver.direction
    if solver.direction * (t_new - solver.t_bound) > 0:
        t_new = solver.t_bound
    h = t_new - t
    return t_new, h, numpy.abs(h)
