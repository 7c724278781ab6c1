"""`minimize_scalar` and `root_scalar`: one-variable problems whose function runs on the device.
The solvers' loops are SciPy's own host loops (Brent, golden section, bounded Brent; bisection,
Brent's, Ridder's, TOMS 748, Newton, secant, Halley), since a scalar iteration has nothing to
keep on the device: each call gets the trial point as a host float, and each value it returns
(a cuarray 0-d array or a Python scalar) is read once (one device-to-host read per function
evaluation, the value with its derivatives together where `f` returns them as a tuple)."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._manipulation.joining import stack

__all__ = ["minimize_scalar", "root_scalar"]


def _read(v, fn):
    if isinstance(v, tuple):
        vals = [as_array(u, fn).reshape(()) for u in v]
        # the evaluation's one read: the value and its derivatives together
        return tuple(float(u) for u in to_host(stack(vals)))
    v = as_array(v, fn)
    if v.size != 1:
        raise ValueError("The user-provided objective function must return a scalar value.")
    return float(to_host(v.reshape(())))  # the evaluation's one read


def _on_host(f, fn):
    if not callable(f):
        return f

    def host_f(x, *args):
        return _read(f(x, *args), fn)
    return host_f


def _scalar_param(v, fn):
    """A scalar parameter (x0, a bracket end) given as a cuarray 0-d array is read once."""
    if v is None or isinstance(v, (int, float)):
        return v
    if isinstance(v, numpy.ndarray):  # host values pass as they are
        return v
    if isinstance(v, (tuple, list)):
        return type(v)(_scalar_param(u, fn) for u in v)
    if hasattr(v, "dtype") and getattr(v, "size", 0) == 1:
        return float(to_host(as_array(v, fn).reshape(())))
    return v


def minimize_scalar(fun, bracket=None, bounds=None, args=(), method=None, tol=None, options=None):
    """See `scipy.optimize.minimize_scalar`. SciPy's host loop (methods ``'brent'``, ``'bounded'``,
    ``'golden'`` or a callable) calls `fun` with host floats; `fun` may compute on the device and
    return a cuarray 0-d array, read once per call. Needs SciPy."""
    import scipy.optimize  # optional dependency: the scalar loops are SciPy's  # noqa: PLC0415

    fn = "scipy.optimize.minimize_scalar"
    return scipy.optimize.minimize_scalar(_on_host(fun, fn), bracket=_scalar_param(bracket, fn),
                                          bounds=_scalar_param(bounds, fn), args=args, method=method, tol=tol,
                                          options=options)


def root_scalar(f, args=(), method=None, bracket=None, fprime=None, fprime2=None, x0=None, x1=None, xtol=None,
                rtol=None, maxiter=None, options=None):
    """See `scipy.optimize.root_scalar`. SciPy's host loop (``'bisect'``, ``'brentq'``,
    ``'brenth'``, ``'ridder'``, ``'toms748'``, ``'newton'``, ``'secant'``, ``'halley'``) calls `f`
    (and `fprime`, `fprime2`) with host floats; each may compute on the device and return cuarray
    0-d arrays (``fprime=True``: a tuple, read together), read once per call. A scalar `x0` only
    (SciPy's vectorised `newton` is not this function). Needs SciPy."""
    import scipy.optimize  # optional dependency: the scalar loops are SciPy's  # noqa: PLC0415

    fn = "scipy.optimize.root_scalar"
    return scipy.optimize.root_scalar(_on_host(f, fn), args=args, method=method, bracket=_scalar_param(bracket, fn),
                                      fprime=_on_host(fprime, fn), fprime2=_on_host(fprime2, fn),
                                      x0=_scalar_param(x0, fn), x1=_scalar_param(x1, fn), xtol=xtol, rtol=rtol,
                                      maxiter=maxiter, options=options)
