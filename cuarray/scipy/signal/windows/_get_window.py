"""`get_window`: a window by name, alias or (name, parameters...) tuple, SciPy's table of names and
its checks (the '_periodic' / '_symmetric' suffixes overriding `fftbins`; a number as a Kaiser
window's beta)."""

from __future__ import annotations

import numbers

from . import _host_windows as _h
from . import _windows as _w

__all__ = ["get_window"]

# name -> (function, parameters: False none, True required, "OPTIONAL")
_TABLE = (
    (("barthann", "brthan", "bth"), _w.barthann, False),
    (("bartlett", "bart", "brt"), _w.bartlett, False),
    (("blackman", "black", "blk"), _w.blackman, False),
    (("blackmanharris", "blackharr", "bkh"), _w.blackmanharris, False),
    (("bohman", "bman", "bmn"), _w.bohman, False),
    (("boxcar", "box", "ones", "rect", "rectangular"), _w.boxcar, False),
    (("chebwin", "cheb"), _h.chebwin, True),
    (("cosine", "halfcosine"), _w.cosine, False),
    (("dpss",), _h.dpss, True),
    (("exponential", "poisson"), _w.exponential, "OPTIONAL"),
    (("flattop", "flat", "flt"), _w.flattop, False),
    (("gaussian", "gauss", "gss"), _w.gaussian, True),
    (("general cosine", "general_cosine"), _w.general_cosine, True),
    (("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"), _w.general_gaussian, True),
    (("general hamming", "general_hamming"), _w.general_hamming, True),
    (("hamming", "hamm", "ham"), _w.hamming, False),
    (("hann", "han"), _w.hann, False),
    (("kaiser", "ksr"), _w.kaiser, True),
    (("kaiser bessel derived", "kaiser_bessel_derived", "kbd"), _w.kaiser_bessel_derived, True),
    (("lanczos", "sinc"), _w.lanczos, False),
    (("nuttall", "nutl", "nut"), _w.nuttall, False),
    (("parzen", "parz", "par"), _w.parzen, False),
    (("taylor", "taylorwin"), _h.taylor, "OPTIONAL"),
    (("triangle", "triang", "tri"), _w.triang, False),
    (("tukey", "tuk"), _w.tukey, "OPTIONAL"),
)
WINDOWS = {name: (fn, params) for names, fn, params in _TABLE for name in names}


def get_window(window, Nx, fftbins=True, *, xp=None, device=None):
    """See `scipy.signal.get_window`. The window is computed on the device (chebwin, taylor and
    dpss on the host, see their pages) and returned as a float64 cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.get_window('hann', 4)
    array([0. , 0.5, 1. , 0.5])
    >>> signal.get_window(('kaiser', 4.), 3)
    array([0.08848053, 0.82160913, 0.82160913])
    """
    if not (isinstance(Nx, numbers.Integral) and Nx > 0):
        raise ValueError("Parameter Nx={!r} is not a positive integer".format(Nx))
    if not isinstance(fftbins, bool):
        raise ValueError("Parameter fftbins={!r} is not of type bool!".format(fftbins))
    if not isinstance(window, (str, tuple)):
        try:  # a number: the beta of a Kaiser window
            beta = float(window)
        except Exception as exc:
            raise ValueError("Parameter window={!r} must be a tuple, a string or a float!".format(window)) from exc
        return _w.kaiser(Nx, beta, not fftbins)
    if isinstance(window, tuple) and not isinstance(window[0], str):  # (an empty tuple: IndexError, as SciPy)
        raise ValueError("First tuple entry of parameter window={!r} is not a str!".format(window))
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[: -len("_symmetric")]
    elif name.endswith("_periodic"):
        sym, name = False, name[: -len("_periodic")]
    if name not in WINDOWS:
        raise ValueError("Invalid window name '{}' in parameter window={!r}!".format(name, window))
    fn, params = WINDOWS[name]
    args = window[1:] if isinstance(window, tuple) else ()
    if args and params is False:
        raise ValueError("'{}' does not allow parameters, but window={!r}!".format(name, window))
    if not args and params is True:
        raise ValueError("'{}' must have parameters, but window={!r}!".format(name, window))
    if fn is _h.dpss:
        if len(args) != 1:
            raise ValueError("Window {} must have one parameter but window={!r}".format(name, window))
        return _h.dpss(Nx, args[0], Kmax=None, sym=sym)
    return fn(Nx, *args, sym=sym)
