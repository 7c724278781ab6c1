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
    """See `scipy.signal.tf2ss`."""
    return _h.call("tf2ss", num, den)


def ss2tf(A, B, C, D, input=0):
    """See `scipy.signal.ss2tf`."""
    return _h.call("ss2tf", A, B, C, D, input)


def tf2zpk(b, a):
    """See `scipy.signal.tf2zpk`."""
    return _h.call("tf2zpk", b, a)


def zpk2tf(z, p, k):
    """See `scipy.signal.zpk2tf`."""
    return _h.call("zpk2tf", z, p, k)


def zpk2ss(z, p, k):
    """See `scipy.signal.zpk2ss`."""
    return _h.call("zpk2ss", z, p, k)


def ss2zpk(A, B, C, D, input=0):
    """See `scipy.signal.ss2zpk`."""
    return _h.call("ss2zpk", A, B, C, D, input)


def tf2sos(b, a, pairing=None, *, analog=False):
    """See `scipy.signal.tf2sos`."""
    return _h.call("tf2sos", b, a, pairing, analog=analog)


def sos2tf(sos):
    """See `scipy.signal.sos2tf`."""
    return _h.call("sos2tf", sos)


def sos2zpk(sos):
    """See `scipy.signal.sos2zpk`."""
    return _h.call("sos2zpk", sos)


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    """See `scipy.signal.zpk2sos`."""
    return _h.call("zpk2sos", z, p, k, pairing, analog=analog)


def normalize(b, a):
    """See `scipy.signal.normalize`."""
    return _h.call("normalize", b, a)


def lp2lp(b, a, wo=1.0):
    """See `scipy.signal.lp2lp`."""
    return _h.call("lp2lp", b, a, wo)


def lp2hp(b, a, wo=1.0):
    """See `scipy.signal.lp2hp`."""
    return _h.call("lp2hp", b, a, wo)


def lp2bp(b, a, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bp`."""
    return _h.call("lp2bp", b, a, wo, bw)


def lp2bs(b, a, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bs`."""
    return _h.call("lp2bs", b, a, wo, bw)


def lp2lp_zpk(z, p, k, wo=1.0):
    """See `scipy.signal.lp2lp_zpk`."""
    return _h.call("lp2lp_zpk", z, p, k, wo)


def lp2hp_zpk(z, p, k, wo=1.0):
    """See `scipy.signal.lp2hp_zpk`."""
    return _h.call("lp2hp_zpk", z, p, k, wo)


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bp_zpk`."""
    return _h.call("lp2bp_zpk", z, p, k, wo, bw)


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """See `scipy.signal.lp2bs_zpk`."""
    return _h.call("lp2bs_zpk", z, p, k, wo, bw)


def bilinear(b, a, fs=1.0):
    """See `scipy.signal.bilinear`."""
    return _h.call("bilinear", b, a, fs)


def bilinear_zpk(z, p, k, fs):
    """See `scipy.signal.bilinear_zpk`."""
    return _h.call("bilinear_zpk", z, p, k, fs)


def residue(b, a, tol=0.001, rtype='avg'):
    """See `scipy.signal.residue`."""
    return _h.call("residue", b, a, tol, rtype)


def residuez(b, a, tol=0.001, rtype='avg'):
    """See `scipy.signal.residuez`."""
    return _h.call("residuez", b, a, tol, rtype)


def invres(r, p, k, tol=0.001, rtype='avg'):
    """See `scipy.signal.invres`."""
    return _h.call("invres", r, p, k, tol, rtype)


def invresz(r, p, k, tol=0.001, rtype='avg'):
    """See `scipy.signal.invresz`."""
    return _h.call("invresz", r, p, k, tol, rtype)


def unique_roots(p, tol=0.001, rtype='min'):
    """See `scipy.signal.unique_roots`."""
    return _h.call("unique_roots", p, tol, rtype)


def abcd_normalize(A=None, B=None, C=None, D=None):
    """See `scipy.signal.abcd_normalize`."""
    return _h.call("abcd_normalize", A, B, C, D)


def cont2discrete(system, dt, method='zoh', alpha=None):
    """See `scipy.signal.cont2discrete`."""
    return _h.call("cont2discrete", system, dt, method, alpha)
