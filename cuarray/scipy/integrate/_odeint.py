"""`odeint`, after SciPy's `scipy.integrate.odeint` and its C driver (`_odepackmodule.c`): LSODA
(`_lsoda.Driver`, ported from ODEPACK) run through the output times with itask 1, or 4 toward
the critical times `tcrit`; SciPy's checks, messages, warnings and `infodict`."""

import warnings

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._creation.from_data import asarray
from ..._manipulation.joining import stack
from ._ivp import _host_times
from ._lsoda import MESSAGES, Driver, IllegalInput

TOLERANCE_MESSAGE = "Tolerances must be an array of the same length as the\n     number of equations or a scalar."


class ODEintWarning(Warning):
    """See `scipy.integrate.ODEintWarning`."""


class error(Exception):  # noqa: N801 -- SciPy's `scipy.integrate._odepack.error`
    """The error SciPy's odeint raises for bad arguments."""


def _tolerance(x, n):
    if x is None:
        return 1.49012e-8
    x = numpy.asarray(_host_times(x), dtype=float)  # a parameter: a device array is read once
    if x.ndim == 0:
        return float(x)
    if x.ndim > 1 or x.shape[0] != n:
        raise error(TOLERANCE_MESSAGE)
    return x


def _wrap_func(func, args, tfirst, n):
    def fun(t, y):
        out = func(t, y, *args) if tfirst else func(y, t, *args)
        out = asarray(out, dtype=numpy.float64)
        if out.ndim > 1:
            raise RuntimeError(f"The array returned by func must be one-dimensional, but got ndim={out.ndim}.")
        if out.size != n:
            raise RuntimeError(f"The size of the array returned by func ({out.size}) does not match the size of "
                               f"y0 ({n}).")
        return out.reshape(n)

    def fun_vectorized(t, Y):
        return stack([fun(t, Y[:, i]) for i in range(Y.shape[1])], axis=1)

    return fun, fun_vectorized


def _wrap_jac(Dfun, args, tfirst, col_deriv, banded, ml, mu, n):
    rows = ml + mu + 1 if banded else n
    expected = (rows, n) if not col_deriv else (n, rows)

    def jac(t, y):
        J = asarray(Dfun(t, y, *args) if tfirst else Dfun(y, t, *args), dtype=numpy.float64)
        if J.ndim > 2:
            raise RuntimeError(f"The Jacobian array must be two dimensional, but got ndim={J.ndim}.")
        shape = (1, 1) if J.ndim == 0 else (1, J.shape[0]) if J.ndim == 1 else J.shape
        if shape != expected and not (J.ndim < 2 and expected[0] == 1 and shape[1] == expected[1]):
            raise RuntimeError(f"Expected a {'banded ' if banded else ''}Jacobian array with shape {expected}, "
                               f"but got {tuple(shape)}")
        J = J.reshape(expected)
        if col_deriv:
            J = J.T
        return J  # banded: LSODA's packed rows, which the step keeps

    return jac


def _workspace(n, jt, ml, mu, mxordn, mxords):
    """LSODA's lenrw and leniw (its real and integer workspace lengths), reported in infodict."""
    lenwm = n * n + 2 if jt <= 2 else (2 * ml + mu + 1) * n + 2
    return max(20 + (mxordn + 1) * n, 20 + (mxords + 1) * n + lenwm) + 3 * n, 20 + n


def odeint(func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None, rtol=None, atol=None,
           tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0, mxhnil=0, mxordn=12, mxords=5, printmessg=0,
           tfirst=False):
    """See `scipy.integrate.odeint`. `y0` is a cuarray array and `func` (and `Dfun`) compute on
    cuarray arrays; the solution is a device array. ODEPACK's LSODA is ported (the same orders,
    method switches, step sizes and error tests; results agree with SciPy's to roundoff, steps
    may differ where roundoff decides a test), with one small read per corrector iteration. With
    `ml`/`mu` the finite differences take `ml + mu + 1` calls of `func` and the Jacobian is kept as
    its band: up to tridiagonal each Newton solve is gtsv2's (O(n)), a wider band's LU is dense
    (cuSOLVER has no banded LU); `ixpr` and `mxhnil` are checked but print nothing (as SciPy's
    C LSODA). Rows of the output after a failure are NaN; `infodict`'s values are host arrays."""
    t_host = numpy.asarray(_host_times(t), dtype=float)
    dt = numpy.diff(t_host)
    if not ((dt >= 0).all() or (dt <= 0).all()):
        raise ValueError("The values in t must be monotonically increasing or monotonically decreasing; repeated "
                         "values are allowed.")
    if not isinstance(args, tuple):
        raise error("Extra arguments must be in a tuple.")
    if not callable(func) or (Dfun is not None and not callable(Dfun)):
        raise error("The function and its Jacobian must be callable functions.")
    y0 = asarray(as_literal_or_array(y0, "scipy.integrate.odeint"), dtype=numpy.float64)
    if y0.ndim > 1:
        raise ValueError("Initial condition y0 must be one-dimensional.")
    if t_host.ndim > 1:
        raise ValueError("Output times t must be one-dimensional.")
    y0 = y0.reshape(-1)
    n = y0.shape[0]
    rtol, atol = _tolerance(rtol, n), _tolerance(atol, n)
    tcrit = None if tcrit is None else numpy.atleast_1d(numpy.asarray(_host_times(tcrit), dtype=float))
    if mxordn < 0:
        raise error("Incorrect value for mxordn.")
    if mxords < 0:
        raise error("Incorrect value for mxords.")
    jt = 4 if Dfun is not None else 5
    if ml is None and mu is None:
        jt -= 3
    ml, mu = max(ml if ml is not None else -1, 0), max(mu if mu is not None else -1, 0)
    banded = jt > 2
    fun, fun_vectorized = _wrap_func(func, args, tfirst, n)
    jac = None if Dfun is None else _wrap_jac(Dfun, args, tfirst, col_deriv, banded, ml, mu, n)
    mxordn, mxords = min(mxordn or 100, 12), min(mxords or 100, 5)
    ntimes = t_host.shape[0]
    t0count = 1 if ntimes else 0
    while t0count < ntimes and t_host[t0count] == t_host[0]:
        t0count += 1
    rows = [y0] * t0count
    info = {key: numpy.zeros(max(ntimes - 1, 0), dtype=float if key in ("hu", "tcur", "tolsf", "tsw") else numpy.int32)
            for key in ("hu", "tcur", "tolsf", "tsw", "nst", "nfe", "nje", "nqu", "mused")}
    istate, imxer, driver = 1, -1, None
    try:
        if (banded and (ml >= n or mu >= n)) or ixpr not in (0, 1) or mxstep < 0 or mxhnil < 0:
            raise IllegalInput
        driver = Driver(fun, fun_vectorized, jac, jt, ml, mu, rtol, atol, hmin, hmax, mxstep or 500, mxordn, mxords)
    except IllegalInput:
        istate = -3
    crit_ind, itask = 0, 4 if tcrit is not None else 1
    k = t0count
    while k < ntimes and istate > 0:
        tout = float(t_host[k])
        if itask == 4 and crit_ind < tcrit.size and tout > tcrit[crit_ind]:
            crit_ind += 1
        if itask == 4 and crit_ind >= tcrit.size:
            itask = 1
        tc = float(tcrit[crit_ind]) if itask == 4 else None
        started = istate != 1
        try:
            if not started:
                driver.start(float(t_host[0]), y0, tout, float(h0), tc)
            istate, y = driver.advance(tout, tc)
        except IllegalInput:
            istate, y = -3, (driver.core.yh[0] if started else y0)
        core = driver.core
        if full_output:
            for key, value in (("hu", core.hu), ("tcur", getattr(core, "tn", 0.0)), ("tolsf", driver.tolsf),
                               ("tsw", getattr(driver, "tsw", 0.0)), ("nst", core.nst), ("nfe", core.nfe),
                               ("nje", core.nje), ("nqu", core.nqu), ("mused", core.mused)):
                info[key][k - 1] = value
            imxer = driver.imxer if istate in (-4, -5) else -1
        rows.append(y)
        k += 1
    rows += [y0 * float("nan")] * (ntimes - len(rows))
    out = stack(rows) if rows else as_parameter(numpy.empty((0, n)), "scipy.integrate.odeint")
    if istate < 0:
        warnings.warn(f"{MESSAGES[istate]} Run with full_output = 1 to get quantitative information.", ODEintWarning,
                      stacklevel=2)
    elif printmessg:
        warnings.warn(MESSAGES[istate], ODEintWarning, stacklevel=2)
    if not full_output:
        return out
    lenrw, leniw = _workspace(n, jt, ml, mu, mxordn, mxords)
    info.update(imxer=imxer, lenrw=lenrw, leniw=leniw, message=MESSAGES[istate])
    return out, {key: info[key] for key in ("hu", "tcur", "tolsf", "tsw", "nst", "nfe", "nje", "nqu", "imxer",
                                             "lenrw", "leniw", "mused", "message")}
