"""scipy.signal's conversions between system representations (`tf2ss`, `zpk2sos`, ...), the
analog frequency transforms (`lp2lp` ... `lp2bs`, their `_zpk` forms, `bilinear`), `cont2discrete`,
`abcd_normalize` and partial fractions (`residue`, `residuez`, `invres`, `invresz`, `unique_roots`).
These are small host computations (a polynomial's roots, a few small matrices): SciPy computes them on
the host and the arrays come back on the device (_host_calls.py)."""

from __future__ import annotations

from . import _host_calls as _h

__all__ = ["tf2ss", "ss2tf", "tf2zpk", "zpk2tf", "zpk2ss", "ss2zpk", "tf2sos", "sos2tf", "sos2zpk", "zpk2sos",
           "normalize", "lp2lp", "lp2hp", "lp2bp", "lp2bs", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk",
           "lp2bs_zpk", "bilinear", "bilinear_zpk", "residue", "residuez", "invres", "invresz",
           "unique_roots", "abcd_normalize", "cont2discrete"]


def tf2ss(num, den):
    """See `scipy.signal.tf2ss`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> A, B, C, D = signal.tf2ss([1., 3.], [1., 2., 5.])
    >>> A
    array([[-2., -5.],
           [ 1.,  0.]])
    >>> C
    array([[1., 3.]])
    """
    return _h.call("tf2ss", num, den)


def ss2tf(A, B, C, D, input=0):
    """See `scipy.signal.ss2tf`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> num, den = signal.ss2tf([[-2., -5.], [1., 0.]], [[1.], [0.]], [[1., 3.]], [[0.]])
    >>> den
    array([1., 2., 5.])
    """
    return _h.call("ss2tf", A, B, C, D, input)


def tf2zpk(b, a):
    """See `scipy.signal.tf2zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.tf2zpk([1., 3.], [1., 3., 2.])
    >>> z
    array([-3.])
    >>> p
    array([-2., -1.])
    >>> k
    np.float64(1.0)
    """
    return _h.call("tf2zpk", b, a)


def zpk2tf(z, p, k):
    """See `scipy.signal.zpk2tf`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.zpk2tf([-3.], [-1., -2.], 2.)
    >>> b
    array([2., 6.])
    >>> a
    array([1., 3., 2.])
    """
    return _h.call("zpk2tf", z, p, k)


def zpk2ss(z, p, k):
    """See `scipy.signal.zpk2ss`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> A, B, C, D = signal.zpk2ss([-3.], [-1., -2.], 2.)
    >>> D
    array([[0.]])
    """
    return _h.call("zpk2ss", z, p, k)


def ss2zpk(A, B, C, D, input=0):
    """See `scipy.signal.ss2zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.ss2zpk([[-2., 1.], [0., -3.]], [[1.], [1.]], [[1., 1.]], [[1.]])
    >>> k
    np.float64(1.0)
    """
    return _h.call("ss2zpk", A, B, C, D, input)


def tf2sos(b, a, pairing=None, *, analog=False):
    """See `scipy.signal.tf2sos`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.tf2sos([1., 2., 1.], [1., -0.5, 0.06])
    array([[ 1.  ,  2.  ,  1.  ,  1.  , -0.5 ,  0.06]])
    """
    return _h.call("tf2sos", b, a, pairing, analog=analog)


def sos2tf(sos):
    """See `scipy.signal.sos2tf`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.sos2tf(cuarray.array([[1., 2., 1., 1., -0.5, 0.06]]))
    >>> a
    array([ 1.  , -0.5 ,  0.06])
    """
    return _h.call("sos2tf", sos)


def sos2zpk(sos):
    """See `scipy.signal.sos2zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.sos2zpk(cuarray.array([[1., 1., 0., 1., -0.5, 0.]]))
    >>> p
    array([0.5+0.j, 0. +0.j])
    """
    return _h.call("sos2zpk", sos)


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    """See `scipy.signal.zpk2sos`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.zpk2sos([-1.], [0.5, 0.2], 1.)
    array([[ 1. ,  1. ,  0. ,  1. , -0.7,  0.1]])
    """
    return _h.call("zpk2sos", z, p, k, pairing, analog=analog)


def normalize(b, a):
    """See `scipy.signal.normalize`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.normalize([2., 4.], [4., 2., 1.])
    >>> b
    array([0.5, 1. ])
    >>> a
    array([1.  , 0.5 , 0.25])
    """
    return _h.call("normalize", b, a)


def lp2lp(b, a, wo=1.0):
    """See `scipy.signal.lp2lp`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.lp2lp([1.], [1., 1.], 2.)
    >>> b
    array([2.])
    >>> a
    array([1., 2.])
    """
    return _h.call("lp2lp", b, a, wo)


def lp2hp(b, a, wo=1.0):
    """See `scipy.signal.lp2hp`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.lp2hp([1.], [1., 1.], 2.)
    >>> b
    array([1., 0.])
    >>> a
    array([1., 2.])
    """
    return _h.call("lp2hp", b, a, wo)


def lp2bp(b, a, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bp`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.lp2bp([1.], [1., 1.], 2., 0.5)
    >>> a
    array([1. , 0.5, 4. ])
    """
    return _h.call("lp2bp", b, a, wo, bw)


def lp2bs(b, a, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bs`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.lp2bs([1.], [1., 1.], 2., 0.5)
    >>> b
    array([1., 0., 4.])
    """
    return _h.call("lp2bs", b, a, wo, bw)


def lp2lp_zpk(z, p, k, wo=1.0):
    """See `scipy.signal.lp2lp_zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.lp2lp_zpk([], [-1.], 1., 3.)
    >>> p
    array([-3.])
    >>> k
    3.0
    """
    return _h.call("lp2lp_zpk", z, p, k, wo)


def lp2hp_zpk(z, p, k, wo=1.0):
    """See `scipy.signal.lp2hp_zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.lp2hp_zpk([], [-1.], 1., 3.)
    >>> p
    array([-3.])
    """
    return _h.call("lp2hp_zpk", z, p, k, wo)


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bp_zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.lp2bp_zpk([], [-1.], 1., 2., 0.5)
    >>> p
    array([-0.25-1.98431348j, -0.25+1.98431348j])
    """
    return _h.call("lp2bp_zpk", z, p, k, wo, bw)


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bs_zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.lp2bs_zpk([], [-1.], 1., 2., 0.5)
    >>> z
    array([0.+2.j, 0.-2.j])
    """
    return _h.call("lp2bs_zpk", z, p, k, wo, bw)


def bilinear(b, a, fs=1.0):
    """See `scipy.signal.bilinear`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.bilinear([1.], [1., 1.], 10.)
    >>> b
    array([0.04761905, 0.04761905])
    >>> a
    array([ 1.       , -0.9047619])
    """
    return _h.call("bilinear", b, a, fs)


def bilinear_zpk(z, p, k, fs):
    """See `scipy.signal.bilinear_zpk`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.bilinear_zpk([], [-1.], 1., 10.)
    >>> p
    array([0.9047619])
    >>> k
    np.float64(0.047619047619047616)
    """
    return _h.call("bilinear_zpk", z, p, k, fs)


def residue(b, a, tol=0.001, rtype='avg'):
    """See `scipy.signal.residue`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> r, p, k = signal.residue([1., 2.], [1., 3., 2.])
    >>> r
    array([ 1., -0.])
    >>> p
    array([-1., -2.])
    """
    return _h.call("residue", b, a, tol, rtype)


def residuez(b, a, tol=0.001, rtype='avg'):
    """See `scipy.signal.residuez`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> r, p, k = signal.residuez([1., 2.], [1., 0.5, 0.06])
    >>> p
    array([-0.2, -0.3])
    """
    return _h.call("residuez", b, a, tol, rtype)


def invres(r, p, k, tol=0.001, rtype='avg'):
    """See `scipy.signal.invres`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.invres([1., -1.], [-1., -2.], [])
    >>> a
    array([1., 3., 2.])
    """
    return _h.call("invres", r, p, k, tol, rtype)


def invresz(r, p, k, tol=0.001, rtype='avg'):
    """See `scipy.signal.invresz`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.invresz([1., -1.], [0.5, 0.25], [])
    >>> a
    array([ 1.   , -0.75 ,  0.125])
    """
    return _h.call("invresz", r, p, k, tol, rtype)


def unique_roots(p, tol=0.001, rtype='min'):
    """See `scipy.signal.unique_roots`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> uniq, mult = signal.unique_roots([1., 1.0005, 2.])
    >>> uniq
    array([1., 2.])
    >>> mult
    array([2, 1])
    """
    return _h.call("unique_roots", p, tol, rtype)


def abcd_normalize(A=None, B=None, C=None, D=None):
    """See `scipy.signal.abcd_normalize`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> A, B, C, D = signal.abcd_normalize(A=[[1., 2.], [3., 4.]], B=[[1.], [5.]], D=2.5)
    >>> C
    array([[0., 0.]])
    """
    return _h.call("abcd_normalize", A, B, C, D)


def cont2discrete(system, dt, method='zoh', alpha=None):
    """See `scipy.signal.cont2discrete`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> num, den, dt = signal.cont2discrete(([1.], [1., 2.]), 0.1)
    >>> den
    array([ 1.        , -0.81873075])
    """
    return _h.call("cont2discrete", system, dt, method, alpha)
