"""`SeriesBase`: what the six series classes share (NumPy's `ABCPolyBase` contract, our code).

A class supplies its basis through static methods (`_add`, `_sub`, `_mul`, `_div`, `_pow`, `_val`,
`_int`, `_der`, `_fit`, `_line`, `_roots`, `_fromroots`), its default `domain`/`window`, its
`basis_name` and `_host_kind` (NumPy's class of the same name, which writes the text). Everything
else exists once here: arithmetic with scalars and series of the same kind, evaluation through the
domain-to-window map, calculus, roots, fits, conversion between kinds, text.

`coef` is a device array; `domain` and `window` are two host numbers each, as NumPy keeps them.
Text (`repr`, `str`, `format`, LaTeX) is NumPy's, made from a host copy of the coefficients.
"""

from __future__ import annotations

import numbers
import os

import numpy

from .._core.ndarray import ndarray
from .._core.transfer import to_host
from .._creation.ranges import linspace as linspace_
from . import polyutils as pu

__all__ = ["SeriesBase", "set_default_printstyle"]

_STYLE = {"unicode": os.name != "nt"}  # NumPy's default: unicode except on Windows


def set_default_printstyle(style):
    """See `numpy.polynomial.set_default_printstyle` (for cuarray's series classes)."""
    if style not in ("unicode", "ascii"):
        raise ValueError("Unsupported format string '{}'. Valid options are 'ascii' and 'unicode'".format(style))
    _STYLE["unicode"] = style == "unicode"


def _host_interval(v, what):
    if isinstance(v, ndarray):
        v = to_host(v)
    [v] = numpy.polynomial.polyutils.as_series([v], trim=False)
    if len(v) != 2:
        raise ValueError("{} has wrong number of elements.".format(what))
    return v


class SeriesBase:
    """A finite series in one basis with device coefficients. See `numpy.polynomial`'s classes."""

    __hash__ = None
    __array_ufunc__ = None  # NumPy scalars and arrays defer to the series' reflected operators
    maxpower = 100
    basis_name = None
    _host_kind = None

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [coef] = pu.as_series([coef], trim=False)
        self.coef = coef
        if domain is not None:
            self.domain = _host_interval(domain, "Domain")
        if window is not None:
            self.window = _host_interval(window, "Window")
        try:
            if not symbol.isidentifier():
                raise ValueError("Symbol string must be a valid Python identifier")
        except AttributeError:
            raise TypeError("Symbol must be a non-empty string") from None
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        return self._symbol

    # -- text (NumPy's) -----------------------------------------------------------------------------------
    def _host(self):
        return self._host_kind(to_host(self.coef), self.domain, self.window, self._symbol)

    def __repr__(self) -> str:
        return repr(self._host())

    def __str__(self) -> str:
        return format(self._host(), "unicode" if _STYLE["unicode"] else "ascii")

    def __format__(self, fmt_str) -> str:
        if fmt_str == "":
            return self.__str__()
        if fmt_str not in ("ascii", "unicode"):
            raise ValueError("Unsupported format string '{}' passed to {}.__format__. Valid options are 'ascii' "
                             "and 'unicode'".format(fmt_str, self.__class__))
        return format(self._host(), fmt_str)

    def _repr_latex_(self) -> str:
        return self._host()._repr_latex_()

    # -- comparisons and properties -------------------------------------------------------------------------
    def has_samecoef(self, other) -> bool:
        return len(self.coef) == len(other.coef) and bool((self.coef == other.coef).all())

    def has_samedomain(self, other) -> bool:
        return bool(numpy.all(self.domain == other.domain))

    def has_samewindow(self, other) -> bool:
        return bool(numpy.all(self.window == other.window))

    def has_sametype(self, other) -> bool:
        return isinstance(other, self.__class__)

    def __eq__(self, other):
        return (isinstance(other, self.__class__) and self.has_samedomain(other) and self.has_samewindow(other)
                and self.coef.shape == other.coef.shape and self.symbol == other.symbol
                and bool((self.coef == other.coef).all()))

    def __ne__(self, other):
        return not self.__eq__(other)

    def __len__(self) -> int:
        return self.coef.shape[0]

    def __iter__(self):
        return iter(self.coef)

    def degree(self) -> int:
        return len(self) - 1

    def mapparms(self):
        return pu.mapparms(self.domain, self.window)

    def _coefficients_of(self, other):
        if isinstance(other, SeriesBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not numpy.all(self.domain == other.domain):
                raise TypeError("Domains differ")
            if not numpy.all(self.window == other.window):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    # -- evaluation and arithmetic ---------------------------------------------------------------------------
    def __call__(self, arg):
        return self._val(pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def _binary(self, fn, a, b):
        # As NumPy: an operand the basis cannot take gives NotImplemented (Python raises TypeError)
        try:
            coef = fn(a, b)
        except Exception:
            return NotImplemented
        return self._new(coef)

    def __add__(self, other):
        return self._binary(self._add, self.coef, self._coefficients_of(other))

    def __sub__(self, other):
        return self._binary(self._sub, self.coef, self._coefficients_of(other))

    def __mul__(self, other):
        return self._binary(self._mul, self.coef, self._coefficients_of(other))

    def __radd__(self, other):
        return self._binary(self._add, other, self.coef)

    def __rsub__(self, other):
        return self._binary(self._sub, other, self.coef)

    def __rmul__(self, other):
        return self._binary(self._mul, other, self.coef)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError("unsupported types for true division: '{}', '{}'".format(type(self), type(other)))
        return self.__floordiv__(other)

    def __rtruediv__(self, other):
        return NotImplemented

    def _divmod(self, a, b):
        try:
            quo, rem = self._div(a, b)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other):
        return self._divmod(self.coef, self._coefficients_of(other))

    def __rdivmod__(self, other):
        return self._divmod(other, self.coef)

    def __floordiv__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other):
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    # -- copies, truncation, conversion ---------------------------------------------------------------------
    def copy(self):
        return self._new(self.coef)

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def trim(self, tol=0):
        """See `numpy.polynomial.Polynomial.trim` (reads the kept length back)."""
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def convert(self, domain=None, kind=None, window=None):
        """See `numpy.polynomial.Polynomial.convert`: this series evaluated at `kind`'s identity
        (series arithmetic on the device)."""
        if kind is None:
            kind = self.__class__
        if domain is None:
            domain = kind.domain
        if window is None:
            window = kind.window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    # -- calculus and roots ------------------------------------------------------------------------------
    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006  (NumPy's signature)
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lbnd, 1.0 / scl))

    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(self._der(self.coef, m, scl))

    def roots(self):
        """See `numpy.polynomial.Polynomial.roots` (cuSOLVER eigenvalues, sorted)."""
        return pu.mapdomain(self._roots(self.coef), self.window, self.domain)

    def linspace(self, n=100, domain=None):
        """(x, self(x)) at `n` points of `domain` (default: the series' own), device arrays."""
        if domain is None:
            domain = self.domain
        x = linspace_(domain[0], domain[1], n)
        return x, self(x)

    # -- constructors ----------------------------------------------------------------------------------------
    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """See `numpy.polynomial.Polynomial.fit`. The default domain reads min/max of `x` back."""
        if domain is None:
            domain = pu.getdomain(x)
            if domain[0] == domain[1]:
                domain[0] -= 1
                domain[1] += 1
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = pu.mapdomain(x, domain, window)
        res = cls._fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006  (NumPy's signature)
        [roots] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots)
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        deg = len(roots)
        off, scl = pu.mapparms(domain, window)
        coef = cls._fromroots(off + scl * roots) / scl ** deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series, domain=None, window=None):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        return series.convert(domain, cls, window)
