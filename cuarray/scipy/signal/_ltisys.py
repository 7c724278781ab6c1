"""scipy.signal's system classes: `lti`, `dlti`, `TransferFunction`, `ZerosPolesGain`,
`StateSpace` and their continuous and discrete forms. A system is a handful of small coefficient
arrays, so each cuarray system holds SciPy's system on the host (`_host`) and hands out its arrays
on the device; conversions (`to_ss`, `to_discrete`, ...) and the arithmetic of StateSpace are
SciPy's, done on the host. The simulations (`output`, `step`, `impulse`) run on the device through
_lsim.py; `bode` and `freqresp` are host work. Attributes set with cuarray arrays, lists or NumPy
arrays are copied to the host system."""

from __future__ import annotations

from . import _host_calls as _h
from . import _lsim

__all__ = ["LinearTimeInvariant", "lti", "dlti", "TransferFunction", "ZerosPolesGain", "StateSpace",
           "TransferFunctionContinuous", "TransferFunctionDiscrete", "ZerosPolesGainContinuous",
           "ZerosPolesGainDiscrete", "StateSpaceContinuous", "StateSpaceDiscrete", "wrap"]


def wrap(host):
    """cuarray's system for SciPy's (host) system object `host`."""
    cls = _CLASSES[type(host).__name__]
    obj = object.__new__(cls)
    obj._host = host
    return obj


def _host_property(name, doc):
    def get(self):
        return _h.to_device(getattr(self._host, name))

    def set_(self, value):
        setattr(self._host, name, _h.to_host(value))

    return property(get, set_, doc=doc)


class LinearTimeInvariant:
    """See `scipy.signal.lti` (the common base of the system classes)."""

    _cuarray_lti = True
    _scipy_name = "LinearTimeInvariant"

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError("The LinearTimeInvariant class is not meant to be used directly, use `lti` "
                                      "or `dlti` instead.")
        host_cls = getattr(_h.scipy_signal(), cls._scipy_name)
        system = tuple(_h.to_host(s) for s in system)
        return wrap(host_cls(*system, **{k: _h.to_host(v) for k, v in kwargs.items()}))

    def __init__(self, *system, **kwargs):
        pass  # __new__ built the host system

    def __repr__(self):
        return repr(self._host)

    dt = _host_property("dt", "The sampling time (None for a continuous system).")
    zeros = property(lambda self: _h.to_device(self._host.zeros), doc="The system's zeros.")
    poles = property(lambda self: _h.to_device(self._host.poles), doc="The system's poles.")

    def _as_ss(self):
        return wrap(self._host._as_ss())

    def _as_zpk(self):
        return wrap(self._host._as_zpk())

    def _as_tf(self):
        return wrap(self._host._as_tf())


def _new(cls, system, dt):
    """The system of `cls` (SciPy 1.18's keyword-only `dt=None`): `dt` reaches SciPy's class only
    when given, so a discrete system left without one gets SciPy's default (dt=True)."""
    return LinearTimeInvariant.__new__(cls, *system, **({} if dt is None else {"dt": dt}))


class lti(LinearTimeInvariant):
    """See `scipy.signal.lti`. `output`, `step` and `impulse` simulate on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sys = signal.lti([1.], [1., 1.])
    >>> sys.den
    array([1., 1.])
    >>> sys.to_ss().A
    array([[-1.]])
    """

    _scipy_name = "lti"

    def __new__(cls, *system):
        return LinearTimeInvariant.__new__(cls, *system)

    def __init__(self, *system, **kwargs):
        pass  # (keywords: a subclass's `dt=None` reaches here)

    def impulse(self, X0=None, T=None, N=None):
        return _lsim.impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        return _lsim.step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        return _lsim.lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        return _lsim.bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        return _lsim.freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        raise NotImplementedError("to_discrete is not implemented for this system class.")


class dlti(LinearTimeInvariant):
    """See `scipy.signal.dlti`. `output`, `step` and `impulse` simulate on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sys = signal.dlti([1.], [1., -0.5], dt=0.1)
    >>> sys.poles
    array([0.5])
    """

    _scipy_name = "dlti"

    def __new__(cls, *system, dt=None):
        return _new(cls, system, dt)

    def impulse(self, x0=None, t=None, n=None):
        return _lsim.dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        return _lsim.dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        return _lsim.dlsim(self, u, t, x0=x0)

    def bode(self, w=None, n=100):
        return _lsim.dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        return _lsim.dfreqresp(self, w=w, n=n, whole=whole)


class _Convertible:
    """to_tf / to_zpk / to_ss / to_discrete: SciPy's, on the host."""

    def to_tf(self):
        return wrap(self._host.to_tf())

    def to_zpk(self):
        return wrap(self._host.to_zpk())

    def to_ss(self):
        return wrap(self._host.to_ss())


class TransferFunction(_Convertible, LinearTimeInvariant):
    """See `scipy.signal.TransferFunction`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sys = signal.TransferFunction([1.], [1., 3., 2.])
    >>> sys.poles
    array([-2., -1.])
    """

    _scipy_name = "TransferFunction"

    def __new__(cls, *system, dt=None):
        return _new(cls, system, dt)

    num = _host_property("num", "The numerator.")
    den = _host_property("den", "The denominator.")


class ZerosPolesGain(_Convertible, LinearTimeInvariant):
    """See `scipy.signal.ZerosPolesGain`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sys = signal.ZerosPolesGain([], [-1., -2.], 2.)
    >>> sys.to_tf().den
    array([1., 3., 2.])
    """

    _scipy_name = "ZerosPolesGain"

    def __new__(cls, *system, dt=None):
        return _new(cls, system, dt)

    zeros = _host_property("zeros", "The zeros.")
    poles = _host_property("poles", "The poles.")
    gain = _host_property("gain", "The gain.")


def _binary(name):
    def op(self, other):
        other = other._host if isinstance(other, LinearTimeInvariant) else _h.to_host(other)
        result = getattr(self._host, name)(other)
        return result if result is NotImplemented else wrap(result)

    op.__name__ = name
    return op


class StateSpace(_Convertible, LinearTimeInvariant):
    """See `scipy.signal.StateSpace`. The arithmetic SciPy allows (sums, differences, products,
    quotients by scalars, negation) is SciPy's, on the host.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sys = signal.StateSpace([[-1.]], [[1.]], [[2.]], [[1.]])
    >>> sys.to_tf().num
    array([1., 3.])
    """

    _scipy_name = "StateSpace"

    def __new__(cls, *system, dt=None):
        return _new(cls, system, dt)

    A = _host_property("A", "The state matrix.")
    B = _host_property("B", "The input matrix.")
    C = _host_property("C", "The output matrix.")
    D = _host_property("D", "The feedthrough matrix.")
    inputs = property(lambda self: self._host.inputs)
    outputs = property(lambda self: self._host.outputs)
    __add__ = _binary("__add__")
    __radd__ = _binary("__radd__")
    __sub__ = _binary("__sub__")
    __rsub__ = _binary("__rsub__")
    __mul__ = _binary("__mul__")
    __rmul__ = _binary("__rmul__")
    __truediv__ = _binary("__truediv__")

    def __neg__(self):
        return wrap(-self._host)


def _to_discrete(self, dt, method="zoh", alpha=None):
    return wrap(self._host.to_discrete(dt, method=method, alpha=alpha))


class TransferFunctionContinuous(TransferFunction, lti):
    """See `scipy.signal.TransferFunction` (continuous time)."""

    _scipy_name = "TransferFunctionContinuous"
    to_discrete = _to_discrete


class TransferFunctionDiscrete(TransferFunction, dlti):
    """See `scipy.signal.TransferFunction` (discrete time)."""

    _scipy_name = "TransferFunctionDiscrete"


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """See `scipy.signal.ZerosPolesGain` (continuous time)."""

    _scipy_name = "ZerosPolesGainContinuous"
    to_discrete = _to_discrete


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """See `scipy.signal.ZerosPolesGain` (discrete time)."""

    _scipy_name = "ZerosPolesGainDiscrete"


class StateSpaceContinuous(StateSpace, lti):
    """See `scipy.signal.StateSpace` (continuous time)."""

    _scipy_name = "StateSpaceContinuous"
    to_discrete = _to_discrete


class StateSpaceDiscrete(StateSpace, dlti):
    """See `scipy.signal.StateSpace` (discrete time)."""

    _scipy_name = "StateSpaceDiscrete"


_CLASSES = {c._scipy_name: c for c in (TransferFunctionContinuous, TransferFunctionDiscrete, ZerosPolesGainContinuous,
                                      ZerosPolesGainDiscrete, StateSpaceContinuous, StateSpaceDiscrete)}
