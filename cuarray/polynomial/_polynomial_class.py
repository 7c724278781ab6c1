"""`Polynomial`: a power series with device coefficients (the basics of
`numpy.polynomial.Polynomial`).

NumPy's semantics for `domain`/`window` (host numbers: evaluation maps `x` from the domain to the
window first), arithmetic with scalars and compatible polynomials (`+ - * // % divmod **`),
`deriv`, `integ`, `roots`, `fit`, `fromroots`, `trim`/`truncate`/`cutdeg`, `linspace`, `==`. Text
(`repr`, `str`) is NumPy's, made from a host copy of the coefficients.
"""

from __future__ import annotations

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.ranges import linspace
from .._math.misc import absolute
from . import polynomial as P

__all__ = ["Polynomial"]

_SCALARS = (bool, int, float, complex, numpy.generic)


class Polynomial:
    """A power series. See `numpy.polynomial.Polynomial`; `coef` is a cuarray array."""

    __hash__ = None
    __array_ufunc__ = None
    maxpower = 100
    domain = numpy.array(P.polydomain)
    window = numpy.array(P.polydomain)
    basis_name = None

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [coef] = P.as_series([coef], trim=False)
        self.coef = coef
        # domain and window are host numbers, converted as NumPy converts them (float at least)
        if domain is not None:
            [domain] = numpy.polynomial.polyutils.as_series([domain], trim=False)
            if len(domain) != 2:
                raise ValueError("Domain has wrong number of elements.")
            self.domain = domain
        if window is not None:
            [window] = numpy.polynomial.polyutils.as_series([window], trim=False)
            if len(window) != 2:
                raise ValueError("Window has wrong number of elements.")
            self.window = window
        if not isinstance(symbol, str) or not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        return self._symbol

    # -- text (NumPy's) -------------------------------------------------------------------------------------
    def _host(self):
        return numpy.polynomial.Polynomial(self.coef.get(), self.domain, self.window, self._symbol)

    def __repr__(self) -> str:
        return repr(self._host())

    def __str__(self) -> str:
        return str(self._host())

    def __format__(self, spec) -> str:
        return format(self._host(), spec)

    # -- properties ----------------------------------------------------------------------------------------
    def degree(self) -> int:
        return self.coef.shape[0] - 1

    def __len__(self) -> int:
        return self.coef.shape[0]

    def mapparms(self):
        return P.mapparms(self.domain, self.window)

    def has_samecoef(self, other) -> bool:
        return self.coef.shape == other.coef.shape and bool((self.coef == other.coef).all())

    def has_samedomain(self, other) -> bool:
        return numpy.all(self.domain == other.domain)

    def has_samewindow(self, other) -> bool:
        return numpy.all(self.window == other.window)

    def has_sametype(self, other) -> bool:
        return isinstance(other, self.__class__)

    def _coef_of(self, other):
        if isinstance(other, Polynomial):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not numpy.all(self.domain == other.domain):
                raise TypeError("Domains differ")
            if not numpy.all(self.window == other.window):
                raise TypeError("Windows differ")
            if self._symbol != other._symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        if isinstance(other, _SCALARS) or isinstance(other, ndarray):
            return other
        raise TypeError("unsupported operand: {}".format(type(other).__name__))

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self._symbol)

    # -- evaluation and arithmetic ---------------------------------------------------------------------------
    def __call__(self, arg):
        off, scl = self.mapparms()
        return P.polyval(off + scl * arg, self.coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __add__(self, other):
        return self._new(P.polyadd(self.coef, self._coef_of(other)))

    def __radd__(self, other):
        return self._new(P.polyadd(self._coef_of(other), self.coef))

    def __sub__(self, other):
        return self._new(P.polysub(self.coef, self._coef_of(other)))

    def __rsub__(self, other):
        return self._new(P.polysub(self._coef_of(other), self.coef))

    def __mul__(self, other):
        return self._new(P.polymul(self.coef, self._coef_of(other)))

    def __rmul__(self, other):
        return self._new(P.polymul(self._coef_of(other), self.coef))

    def __truediv__(self, other):
        if not isinstance(other, _SCALARS) or isinstance(other, bool):
            raise TypeError("unsupported types for true division: '{}', '{}'".format(
                type(self).__name__, type(other).__name__))
        return self._new(self.coef / other)

    def __floordiv__(self, other):
        return self.__divmod__(other)[0]

    def __mod__(self, other):
        return self.__divmod__(other)[1]

    def __divmod__(self, other):
        quo, rem = P.polydiv(self.coef, self._coef_of(other))
        return self._new(quo), self._new(rem)

    def __rdivmod__(self, other):
        quo, rem = P.polydiv(self._coef_of(other), self.coef)
        return self._new(quo), self._new(rem)

    def __pow__(self, other):
        return self._new(P.polypow(self.coef, other, maxpower=self.maxpower))

    def __eq__(self, other):
        return (isinstance(other, self.__class__) and self.has_samedomain(other) and self.has_samewindow(other)
                and self._symbol == other._symbol and self.has_samecoef(other))

    def __ne__(self, other):
        return not self.__eq__(other)

    # -- calculus and roots ------------------------------------------------------------------------------
    def deriv(self, m=1):
        """See `numpy.polynomial.Polynomial.deriv`."""
        off, scl = self.mapparms()
        return self._new(P.polyder(self.coef, m, scl))

    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006  (NumPy's signature)
        """See `numpy.polynomial.Polynomial.integ`."""
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(P.polyint(self.coef, m, k, lbnd, 1.0 / scl))

    def roots(self) -> ndarray:
        """See `numpy.polynomial.Polynomial.roots` (cuSOLVER eigenvalues, sorted)."""
        r = P.polyroots(self.coef)
        return P._mapdomain(r, self.window, self.domain)

    # -- copies and truncation ------------------------------------------------------------------------------
    def copy(self):
        return self._new(self.coef.copy())

    def trim(self, tol=0):
        """See `numpy.polynomial.Polynomial.trim` (reads the small-coefficient mask back)."""
        if tol < 0:
            raise ValueError("tol must be non-negative")
        big = numpy.flatnonzero((absolute(self.coef) > tol).get())
        return self._new(self.coef[:1] * 0 if big.size == 0 else self.coef[:int(big[-1]) + 1].copy())

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize].copy())

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def linspace(self, n=100, domain=None):
        """(x, self(x)) at `n` points of `domain` (default: the polynomial's)."""
        if domain is None:
            domain = self.domain
        x = linspace(domain[0], domain[1], n)
        return x, self(x)

    # -- constructors ----------------------------------------------------------------------------------------
    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """See `numpy.polynomial.Polynomial.fit` (an integer `deg`). The default domain reads
        min/max of `x` back."""
        if domain is None:
            domain = P.getdomain(x)
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = P._mapdomain(x, domain, window)
        res = P.polyfit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006
        """See `numpy.polynomial.Polynomial.fromroots`."""
        r = as_array(roots, "fromroots") if not isinstance(roots, (list, tuple)) else P._dev(roots)
        if domain is None:
            domain = P.getdomain(r)
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = P.mapparms(domain, window)
        coef = P.polyfromroots(off + scl * r) / scl ** r.shape[0]
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = P.mapparms(window, domain)
        return cls(P.polyline(off, scl), domain, window, symbol)
