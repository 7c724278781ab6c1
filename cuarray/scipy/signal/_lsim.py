"""scipy.signal's time responses on the GPU: `lsim`, `dlsim`, `step`, `dstep`, `impulse`,
`dimpulse`, and the frequency responses of systems (`freqresp`, `dfreqresp`, `bode`, `dbode`,
host work) and `place_poles` (host work).

The state recurrence x[k+1] = A x[k] + w[k] runs as a blocked scan across time, in matrix products
(`affine_scan`): the samples are cut into chunks of L; one product with the block-Toeplitz matrix
of the powers A^j gives every chunk's states from a zero start and its end state; the chunks'
start states obey the same recurrence with A^L over N / L steps (solved the same way, recursively,
until one chunk is left); a last product adds A^j times each chunk's start. Every step is a cuBLAS
GEMM over all chunks at once, so a system of order 10 over 1e6 steps costs a handful of launches
instead of 1e6 steps in Python. The discretisation (SciPy's matrix exponentials) is host work.

Differences from SciPy: the sums of a chunk are formed in another order than SciPy's step-by-step
loop (float64 rounding differences, ~1e-15 relative for a stable system); `dlsim` with `t` given
interpolates the input on the host (SciPy's linear spline)."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..._creation.basic import zeros as _zeros
from ..._manipulation.dims import squeeze as _squeeze
from ..._manipulation.joining import concatenate as _concatenate
from ..._math.explog import log10 as _log10
from ..._math.misc import absolute as _abs
from ..._math.complex import angle as _angle
from ..._math.trigonometric import arctan2 as _arctan2
from ..._math.trigonometric import rad2deg as _rad2deg
from ..._math.unwrap import unwrap as _unwrap
from ...linalg._matmul import matmul as _matmul
from ..ndimage import _support as _s
from . import _args
from . import _freqresponse as _fr
from . import _host_calls as _h

__all__ = ["lsim", "dlsim", "step", "dstep", "impulse", "dimpulse", "freqresp", "dfreqresp", "bode", "dbode",
           "place_poles", "affine_scan", "scan_chunk", "scan_matrices"]


def scan_chunk(n: int) -> int:
    """Chunk length L for an order-n recurrence: the block-Toeplitz matrix (L n x (L + 1) n) stays
    near 256 x 256, where a GEMM over the chunks is still cheap per sample (~2 n^2 (L + 1) flops)."""
    return max(4, min(64, 256 // max(n, 1)))


def scan_matrices(At: numpy.ndarray, L: int):
    """(G, P, AtL) on the host for row states (x[k+1] = x[k] At + w[k]): G (L n x (L+1) n) maps a
    chunk's inputs w[0..L-1] (flattened) to its zero-start states z[0..L-1] and end state z[L]
    (block (i, j) = At^(j-1-i) for i < j); P (n x L n) maps a start state to its states (block j
    = At^j); AtL = At^L."""
    n = At.shape[0]
    powers = [numpy.eye(n, dtype=At.dtype)]
    for _ in range(L):
        powers.append(powers[-1] @ At)
    G = numpy.zeros((L * n, (L + 1) * n), At.dtype)
    for i in range(L):
        for j in range(i + 1, L + 1):
            G[i * n:(i + 1) * n, j * n:(j + 1) * n] = powers[j - 1 - i]
    P = numpy.concatenate(powers[:L], axis=1)
    return G, P, powers[L]


def affine_scan(At: numpy.ndarray, W, x0):
    """The states x[0..N-1] (device, N x n) of x[k+1] = x[k] At + W[k], x[0] = x0, W on the device
    (N x n, its last row unused), x0 on the device (n,). Matrix products only (see the module)."""
    N, n = W.shape
    L = scan_chunk(n)
    if N <= 1 or n == 0:
        return _zeros((N, n), W.dtype) + x0.reshape((1, n))
    G, P, AtL = scan_matrices(At, L)
    C = -(-N // L)
    if C * L != N:
        W = _concatenate((W, _zeros((C * L - N, n), W.dtype)))
    ZE = _matmul(W.reshape((C, L * n)), _from_host(G.astype(W.dtype)))  # (C, (L+1) n)
    Z, E = ZE[:, :L * n], ZE[:, L * n:]
    if C == 1:
        S = x0.reshape((1, n))
    else:
        S = affine_scan(AtL, E, x0)  # the chunks' start states: the same recurrence over C steps
    X = Z + _matmul(S, _from_host(P.astype(W.dtype)))
    return X.reshape((C * L, n))[:N]


def _as_ss(system, kind, fn):
    """SciPy's (host) state-space form of `system` for a continuous ('lti') or discrete function."""
    sig = _h.scipy_signal()
    host = _h.to_host(system)
    if kind == "lti":
        if isinstance(host, sig.lti):
            return host._as_ss()
        if isinstance(host, sig.dlti):
            raise AttributeError("{} can only be used with continuous-time systems.".format(fn))
        return sig.lti(*host)._as_ss()
    if isinstance(host, sig.lti):
        raise AttributeError("{} can only be used with discrete-time dlti systems.".format(fn))
    if not isinstance(host, sig.dlti):
        host = sig.dlti(*host[:-1], dt=host[-1])
    return host


def _as_data(u, fn):
    """The input signal: a cuarray array, a scalar or a list/tuple (copied); NumPy data refused."""
    if _s.is_array(u):
        return u
    return _s.as_input(_args.data(u, fn), fn)


def lsim(system, U, T, X0=None, interp=True):
    """See `scipy.signal.lsim`. The states are a parallel scan across time on the device (module
    docstring); `T` is read on the host (its spacing is checked there).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t = cuarray.linspace(0., 2., 5)
    >>> tout, y, x = signal.lsim(([1.], [1., 1.]), cuarray.ones(5), t)
    >>> cuarray.round(y, 6)
    array([0.      , 0.393469, 0.632121, 0.77687 , 0.864665])
    """
    sys = _as_ss(system, "lti", "lsim")
    Tdev = T if _s.is_array(T) else _from_host(numpy.asarray(_h.to_host(T)))
    Tdev = Tdev.reshape((1,)) if Tdev.ndim == 0 else Tdev
    if Tdev.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    Th = _time_ends(Tdev)
    A, B, Cm, D = map(numpy.asarray, (sys.A, sys.B, sys.C, sys.D))
    linalg = _scipy_linalg()
    ns, ni, nt = A.shape[0], B.shape[1], Tdev.size
    x0 = numpy.zeros(ns, A.dtype) if X0 is None else numpy.asarray(_h.to_host(X0))
    if Th[0] == 0:
        xstart = x0
    elif Th[0] > 0:
        xstart = numpy.dot(x0, linalg.expm(A.T * Th[0]))
    else:
        raise ValueError("Initial time must be nonnegative")
    xstart = _from_host(numpy.asarray(xstart, dtype=A.dtype).reshape(ns))
    Ud = None if U is None or (isinstance(U, (int, float)) and U == 0.0) else _as_data(U, "lsim")
    no_input = Ud is None or not bool(Ud.any())
    Ct, Dt = _from_host(Cm.T.astype(A.dtype)), _from_host(D.T.astype(A.dtype))
    if nt == 1:
        X = xstart.reshape((1, ns))
        y = _squeeze(_matmul(X, Ct))
        if not no_input:
            y = y + _squeeze(_matmul(Ud, Dt))
        return Tdev.reshape((1,)), y, _squeeze(X)
    dt = Th[1] - Th[0]
    if not _equally_spaced(Tdev, dt):
        raise ValueError("Time steps are not equally spaced.")
    if no_input:
        X = affine_scan(linalg.expm(A.T * dt), _zeros((nt, ns), A.dtype), xstart)
        return Tdev, _squeeze(_matmul(X, Ct)), _squeeze(X)
    if Ud.ndim == 1:
        Ud = Ud.reshape((-1, 1))
    if Ud.shape[0] != nt:
        raise ValueError("U must have the same number of rows as elements in T.")
    if Ud.shape[1] != ni:
        raise ValueError("System does not define that many inputs.")
    Uf = Ud.astype(A.dtype, copy=False)
    if not interp:  # zero-order hold (SciPy's block exponential)
        M = numpy.vstack([numpy.hstack([A * dt, B * dt]), numpy.zeros((ni, ns + ni))])
        E = linalg.expm(M.T)
        Ad, Bd = E[:ns, :ns], E[ns:, :ns]
        W = _matmul(Uf, _from_host(Bd.astype(A.dtype)))
    else:  # linear interpolation of the input between samples (first-order hold)
        M = numpy.vstack([numpy.hstack([A * dt, B * dt, numpy.zeros((ns, ni))]),
                          numpy.hstack([numpy.zeros((ni, ns + ni)), numpy.identity(ni)]),
                          numpy.zeros((ni, ns + 2 * ni))])
        E = linalg.expm(M.T)
        Ad, Bd1 = E[:ns, :ns], E[ns + ni:, :ns]
        Bd0 = E[ns:ns + ni, :ns] - Bd1
        W = _matmul(Uf, _from_host(Bd0.astype(A.dtype)))
        W1 = _matmul(Uf[1:], _from_host(Bd1.astype(A.dtype)))
        W = W + _concatenate((W1, _zeros((1, ns), W1.dtype)))
    X = affine_scan(Ad, W, xstart)
    y = _squeeze(_matmul(X, Ct)) + _squeeze(_matmul(Uf, Dt))
    return Tdev, y, _squeeze(X)


def _time_ends(T):
    """T[0] and T[1] on the host (one small copy, not the whole time vector)."""
    return numpy.asarray(_h.to_host(T[:2]))


def _equally_spaced(T, dt) -> bool:
    """numpy.allclose(diff(T), dt) (its rtol 1e-5, atol 1e-8), reduced on the device: one sync."""
    d = T[1:] - T[:-1]
    return bool((_abs(d - dt) <= 1e-8 + 1e-5 * abs(dt)).all())


def _scipy_linalg():
    import scipy.linalg  # host work: matrix exponentials of the (small) system matrices

    return scipy.linalg


def _default_times(A, n):
    vals = numpy.linalg.eigvals(A)
    r = min(abs(numpy.real(vals)))
    tc = 1.0 / (1.0 if r == 0.0 else r)
    return numpy.linspace(0.0, 7 * tc, n)


def impulse(system, X0=None, T=None, N=None):
    """See `scipy.signal.impulse`. Runs `lsim` on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t, y = signal.impulse(([1.], [1., 1.]), T=cuarray.linspace(0., 2., 4))
    >>> cuarray.round(y, 6)
    array([1.      , 0.513417, 0.263597, 0.135335])
    """
    sys = _as_ss(system, "lti", "impulse")
    X = numpy.squeeze(sys.B) if X0 is None else numpy.squeeze(sys.B + _h.to_host(X0))
    T = _default_times(sys.A, 100 if N is None else N) if T is None else numpy.asarray(_h.to_host(T))
    T, h, _ = lsim(sys, 0.0, T, X, interp=False)
    return T, h


def step(system, X0=None, T=None, N=None):
    """See `scipy.signal.step`. Runs `lsim` on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t, y = signal.step(([1.], [1., 1.]), T=cuarray.linspace(0.5, 2., 4))
    >>> cuarray.round(y, 6)
    array([0.      , 0.393469, 0.632121, 0.77687 ])
    """
    sys = _as_ss(system, "lti", "step")
    T = _default_times(sys.A, 100 if N is None else N) if T is None else numpy.asarray(_h.to_host(T))
    U = _zeros(T.shape, numpy.asarray(sys.A).dtype) + 1
    vals = lsim(sys, U, T, X0=X0, interp=False)
    return vals[0], vals[1]


def dlsim(system, u, t=None, x0=None):
    """See `scipy.signal.dlsim`. The states are a parallel scan across time on the device (module
    docstring); with `t` given, the input is interpolated on the host.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t, y = signal.dlsim(([1.], [1., -0.5], 1.), cuarray.ones(4))
    >>> y
    array([[0.  ],
           [1.  ],
           [1.5 ],
           [1.75]])
    """
    sys = _as_ss(system, "dlti", "dlsim")
    is_ss = isinstance(sys, _h.scipy_signal().StateSpace)
    sys = sys._as_ss()
    A, B, Cm, D = (numpy.asarray(m, dtype=numpy.float64) for m in (sys.A, sys.B, sys.C, sys.D))
    ud = _as_data(u, "dlsim")
    ud = ud.reshape((1,)) if ud.ndim == 0 else ud
    if ud.ndim == 1:
        ud = ud.reshape((-1, 1))
    if t is None:
        n_out = ud.shape[0]
        stop = (n_out - 1) * sys.dt
    else:
        th = numpy.asarray(_h.to_host(t))
        stop = th[-1]
        n_out = int(numpy.floor(stop / sys.dt)) + 1
    tout = numpy.linspace(0.0, stop, num=n_out)
    if t is not None:
        from scipy.interpolate import make_interp_spline  # host work: SciPy's linear spline of the input

        ud = _from_host(make_interp_spline(th, _h.to_host(ud), k=1)(tout))
    ns = A.shape[0]
    xs = _from_host(numpy.zeros(ns) if x0 is None else numpy.asarray(_h.to_host(x0), numpy.float64).reshape(ns))
    uf = ud[:n_out].astype(numpy.float64)
    X = affine_scan(A.T.copy(), _matmul(uf, _from_host(B.T.copy())), xs)
    Y = _matmul(X, _from_host(Cm.T.copy())) + _matmul(uf, _from_host(D.T.copy()))
    tout = _from_host(tout)
    return (tout, Y, X) if is_ss else (tout, Y)


def _discrete_inputs(system, x0, t, n, fn, impulse_):
    sys = _as_ss(system, "dlti", fn)._as_ss()
    n = 100 if n is None else n
    th = numpy.linspace(0, n * sys.dt, n, endpoint=False) if t is None else numpy.asarray(_h.to_host(t))
    yout, tout = (), None
    for i in range(sys.inputs):
        u = numpy.zeros((th.shape[0], sys.inputs))
        if impulse_:
            u[0, i] = 1.0
        else:
            u[:, i] = 1.0
        tout, y = dlsim(sys, _from_host(u), t=th, x0=x0)[:2]
        yout = yout + (y,)
    return tout, yout


def dimpulse(system, x0=None, t=None, n=None):
    """See `scipy.signal.dimpulse`. Runs `dlsim` on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t, y = signal.dimpulse(([1.], [1., -0.5], 1.), n=4)
    >>> y[0]
    array([[0.  ],
           [1.  ],
           [0.5 ],
           [0.25]])
    """
    return _discrete_inputs(system, x0, t, n, "dimpulse", True)


def dstep(system, x0=None, t=None, n=None):
    """See `scipy.signal.dstep`. Runs `dlsim` on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> t, y = signal.dstep(([1.], [1., -0.5], 1.), n=4)
    >>> y[0]
    array([[0.  ],
           [1.  ],
           [1.5 ],
           [1.75]])
    """
    return _discrete_inputs(system, x0, t, n, "dstep", False)


def _continuous_siso(system):
    """SciPy's continuous system of `system` as freqresp takes it (a TransferFunction or a
    ZerosPolesGain; other forms as zeros, poles and gain): host work on the coefficients."""
    sig = _h.scipy_signal()
    host = _h.to_host(system)
    if isinstance(host, sig.dlti):
        raise AttributeError("freqresp can only be used with continuous-time systems.")
    if isinstance(host, sig.lti):
        sys = host if isinstance(host, (sig.TransferFunction, sig.ZerosPolesGain)) else host._as_zpk()
    else:
        sys = sig.lti(*host)._as_zpk()
    if sys.inputs != 1 or sys.outputs != 1:
        raise ValueError("freqresp() requires a SISO (single input, single output) system.")
    return sys


def freqresp(system, w=None, n=10000):
    """See `scipy.signal.freqresp`. The system's coefficients on the host (SciPy's conversions);
    the response at the frequencies on the device (`freqs` / `freqs_zpk`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.freqresp(([1.], [1., 1.]), w=[1.])
    >>> h
    array([0.5-0.5j])
    """
    sys = _continuous_siso(system)
    worN = w if w is not None else n
    if isinstance(sys, _h.scipy_signal().TransferFunction):
        return _fr.freqs(sys.num.ravel(), sys.den, worN=worN)
    return _fr.freqs_zpk(sys.zeros, sys.poles, sys.gain, worN=worN)


def _discrete_siso(system):
    """SciPy's discrete system of `system` as dfreqresp takes it (a TransferFunction or a
    ZerosPolesGain): host work on the coefficients."""
    sig = _h.scipy_signal()
    host = _h.to_host(system)
    if not isinstance(host, sig.dlti):
        if isinstance(host, sig.lti):
            raise AttributeError("dfreqresp can only be used with discrete-time systems.")
        host = sig.dlti(*host[:-1], dt=host[-1])
    if isinstance(host, sig.StateSpace):
        host = host._as_tf()
    if not isinstance(host, (sig.TransferFunction, sig.ZerosPolesGain)):
        raise ValueError("Unknown system type")
    if host.inputs != 1 or host.outputs != 1:
        raise ValueError("dfreqresp requires a SISO (single input, single output) system.")
    return host


def dfreqresp(system, w=None, n=10000, whole=False):
    """See `scipy.signal.dfreqresp`. The system's coefficients on the host (SciPy's conversions);
    the response on the device (`freqz` / `freqz_zpk`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.dfreqresp(([1.], [1., -0.5], 1.), w=[0.5])
    >>> h
    array([1.01386918-1.28733375j])
    """
    sys = _discrete_siso(system)
    worN = w if w is not None else n
    sig = _h.scipy_signal()
    if isinstance(sys, sig.TransferFunction):
        num, den = sig.TransferFunction._z_to_zinv(sys.num.ravel(), sys.den)
        return _fr.freqz(num, den, worN=worN, whole=whole)
    return _fr.freqz_zpk(sys.zeros, sys.poles, sys.gain, worN=worN, whole=whole)


def bode(system, w=None, n=100):
    """See `scipy.signal.bode`: `freqresp` on the device, the magnitude and the unwrapped phase
    there too.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, mag, phase = signal.bode(([1.], [1., 1.]), w=[1.])
    >>> phase
    array([-45.])
    """
    w, y = freqresp(system, w=w, n=n)
    mag = 20.0 * _log10(_abs(y))
    phase = _unwrap(_arctan2(y.imag, y.real)) * 180.0 / numpy.pi
    return w, mag, phase


def dbode(system, w=None, n=100):
    """See `scipy.signal.dbode`: `dfreqresp` on the device, the magnitude and the unwrapped phase
    there too.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, mag, phase = signal.dbode(([1.], [1., -0.5], 1.), w=[0.5])
    >>> mag
    array([4.28969992])
    """
    w, y = dfreqresp(system, w=w, n=n)
    dt = system.dt if isinstance(system, _h.scipy_signal().dlti) or hasattr(system, "_cuarray_lti") else system[-1]
    mag = 20.0 * _log10(_abs(y))
    phase = _rad2deg(_unwrap(_angle(y)))
    return w / dt, mag, phase


def place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """See `scipy.signal.place_poles`. Host work (SciPy); the result's arrays are on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> A, B = cuarray.array([[0., 1.], [-2., -3.]]), cuarray.array([[0.], [1.]])
    >>> fsf = signal.place_poles(A, B, cuarray.array([-4., -5.]))
    >>> fsf.gain_matrix
    array([[18.,  6.]])
    """
    res = _h.call("place_poles", A, B, poles, method, rtol, maxiter)
    for key in ("gain_matrix", "computed_poles", "requested_poles", "X"):
        if isinstance(getattr(res, key, None), numpy.ndarray):
            setattr(res, key, _h.to_device(getattr(res, key)))
    return res
