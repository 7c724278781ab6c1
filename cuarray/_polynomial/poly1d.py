"""`poly1d`: a one-dimensional polynomial with device coefficients (NumPy "Polynomials / Poly1d").

The arithmetic is the routines' (`polyadd`, `polymul`, `polydiv`, ...) on device arrays. Two
things read the coefficients back to the host: construction trims leading zeros (NumPy's
`trim_zeros`, which needs to know where the first non-zero is), and `str`/`repr` (text is made
by NumPy's own poly1d from a host copy, so it is NumPy's character for character).
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.from_data import array
from .._manipulation.adding_removing import trim_zeros
from .._manipulation.joining import concatenate
from . import routines as _r

__all__ = ["poly1d"]


def _isscalar(x) -> bool:
    return isinstance(x, (bool, int, float, complex, numpy.generic))


class poly1d:
    """A one-dimensional polynomial class. See `numpy.poly1d`; `coeffs` is a cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> p = cuarray.poly1d([1, 2, 3])
    >>> int(p(2))
    11
    >>> p.deriv().coeffs
    array([2, 2])
    """

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = _r.poly(c_or_r)
            if not isinstance(c_or_r, ndarray):  # poly([]) is the number 1.0

                c_or_r = array([c_or_r])
        c = _r._coeffs(c_or_r, "poly1d")
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")

        c = trim_zeros(c, trim="f")
        if c.shape[0] == 0:
            c = zeros((1,), c.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    # -- attributes ------------------------------------------------------------------------
    @property
    def coeffs(self) -> ndarray:
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self) -> str:
        return self._variable

    @property
    def order(self) -> int:
        return self._coeffs.shape[0] - 1

    @property
    def roots(self) -> ndarray:
        return _r.roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    # -- text (NumPy's, from a host copy) --------------------------------------------------------
    def _host(self) -> numpy.poly1d:
        return numpy.poly1d(self._coeffs.get(), variable=self._variable)

    def __repr__(self) -> str:
        return repr(self._host())

    def __str__(self) -> str:
        return str(self._host())

    def __array__(self, t=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed: use `.get()`.")

    # -- host copies (CuPy's) --------------------------------------------------------------------
    def get(self, stream=None) -> numpy.poly1d:
        """A `numpy.poly1d` with these coefficients copied to the host (CuPy's `poly1d.get`)."""
        return numpy.poly1d(self._coeffs.get(stream=stream), variable=self._variable)

    def set(self, value, stream=None) -> None:
        """Copy a `numpy.poly1d`'s coefficients (same length and dtype) and variable into this
        one (CuPy's `poly1d.set`)."""
        if not isinstance(value, numpy.poly1d):
            raise TypeError("Only numpy.poly1d can be set to cuarray.poly1d")
        self._variable = value.variable
        self._coeffs.set(value.coeffs, stream)

    def __len__(self) -> int:
        return self.order

    # -- evaluation and arithmetic -----------------------------------------------------------------
    def __call__(self, val):
        return _r.polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(_r.polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if _isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(_r.polymul(poly1d(other)._coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(_r.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other):
        return poly1d(_r.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __sub__(self, other):
        return poly1d(_r.polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(_r.polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not _isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")

        res = array([1])
        for _ in range(val):  # (NumPy's range(val): a float power such as 2.0 is a TypeError)
            res = _r.polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if _isscalar(other):
            return poly1d(self._coeffs / other)
        return _r.polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if _isscalar(other):
            return poly1d(other / self._coeffs)
        return _r.polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # -- coefficients by power -------------------------------------------------------------------------
    def __getitem__(self, val):
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        ind = self.order - key
        if key > self.order:
            self._coeffs = concatenate((zeros((key - self.order,), self._coeffs.dtype), self._coeffs))
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """See `numpy.poly1d.integ`."""
        return poly1d(_r.polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """See `numpy.poly1d.deriv`."""
        return poly1d(_r.polyder(self._coeffs, m=m))
