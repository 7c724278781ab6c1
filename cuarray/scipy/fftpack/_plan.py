"""cupyx's `get_fft_plan` and the `plan=` argument of `cuarray.scipy.fftpack`'s transforms.

cuarray has no plan object to hand out: every transform finds its cuFFT plan in the calling
thread's cache (`cuarray.fft.config`), keyed by the layout, so a repeated call reuses its plan
with nothing passed. `get_fft_plan` returns an `FFTPlan`: cupyx's checks on the arguments (a
contiguous array, up to three axes, 'C2C'/'R2C'/'C2R') and a record of the transform it
describes. Passed as `plan=`, or made current by ``with plan:`` for the fftpack functions called
inside, it is checked against the call (ValueError on a mismatch, RuntimeError when a call both
passes one and runs inside one, as cupyx's) and changes nothing else. `plan_record` and
`call_record` are pure (tested on the CPU).
"""

from __future__ import annotations

import threading

import numpy

__all__ = ["FFTPlan", "get_fft_plan", "plan_record", "call_record", "check_plan"]

_VALUE_TYPES = ("C2C", "R2C", "C2R")
_current = threading.local()


def _single(dtype) -> bool:
    return numpy.dtype(dtype).char in "efF"


def plan_record(shape, c_order, f_order, dtype, sizes, axes, value_type):
    """cupyx's checks of `get_fft_plan`'s arguments, then the transform they describe:
    (value type, single precision, the input's shape, axes (non-negative), output sizes)."""
    if not (c_order or f_order):
        raise ValueError("Input array a must be contiguous")
    ndim = len(shape)
    if isinstance(sizes, int):
        sizes = (sizes,)
    if isinstance(axes, int):
        axes = (axes,)
    if sizes is not None and axes is not None and len(sizes) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if axes is None:
        n = ndim if sizes is None else len(sizes)
        axes = tuple(range(-n, 0))
    if len(axes) > 3:
        raise ValueError("Only up to three axes is supported")
    for ax in axes:
        if ax >= ndim or ax < -ndim:
            raise ValueError("The chosen axis ({}) exceeds the number of dimensions of a ({})".format(ax, ndim))
    if value_type not in _VALUE_TYPES:
        raise ValueError("value_type must be one of {}, got {!r}".format(_VALUE_TYPES, value_type))
    if len(axes) > 1 and value_type != "C2C" and f_order and not c_order:
        raise ValueError("C2R/R2C PlanNd for F-order arrays is not supported")
    axes = tuple(a % ndim for a in axes)
    sizes = tuple(shape[a] if s is None else int(s) for s, a in zip(sizes or (None,) * len(axes), axes))
    return (value_type, _single(dtype), tuple(shape), axes, sizes)


def call_record(value_type, dtype, shape, axes, sizes):
    """The record of one transform, in `plan_record`'s form."""
    return (value_type, _single(dtype), tuple(shape), tuple(axes), tuple(sizes))


class FFTPlan:
    """What `get_fft_plan` returns: the transform it describes (see the module docstring)."""

    __slots__ = ("record",)

    def __init__(self, record):
        self.record = record

    def __enter__(self):
        if getattr(_current, "plan", None) is not None:
            raise RuntimeError("a plan is already in use in this thread")
        _current.plan = self
        return self

    def __exit__(self, *exc):
        _current.plan = None
        return False

    def __repr__(self):
        vt, single, shape, axes, sizes = self.record
        return "<cuarray.scipy.fftpack plan {} {} input {} axes {} sizes {}>".format(
            vt, "single" if single else "double", shape, axes, sizes)


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """See `cupyx.scipy.fftpack.get_fft_plan` (a cupyx extension; SciPy has none): cupyx's
    argument checks, an `FFTPlan` describing the transform. cuarray's transforms find their
    cuFFT plans in the per-thread cache themselves, so the plan changes no computation: passed as
    `plan=` (or current inside ``with plan:``) it is checked against the call.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.ones((4, 8), dtype=cuarray.complex64)
    >>> plan = fftpack.get_fft_plan(x, axes=-1)
    >>> fftpack.fft(x, plan=plan).shape
    (4, 8)
    """
    flags = a.flags
    return FFTPlan(plan_record(a.shape, flags.c_contiguous, flags.f_contiguous, a.dtype, shape, axes,
                               value_type))


def check_plan(plan, record):
    """The plan of this call (`plan=` or the thread's current one) against its record."""
    current = getattr(_current, "plan", None)
    if plan is not None and current is not None:
        raise RuntimeError("Use the cuFFT plan either as a context manager or as an argument.")
    plan = plan if plan is not None else current
    if plan is None:
        return
    if not isinstance(plan, FFTPlan):
        raise ValueError("plan must be a plan from cuarray.scipy.fftpack.get_fft_plan, got {}".format(
            type(plan).__name__))
    if plan.record != record:
        raise ValueError("the plan does not match this transform: plan {!r}, call {!r}".format(
            plan, FFTPlan(record)))
