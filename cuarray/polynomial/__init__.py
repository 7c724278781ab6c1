"""Power series (the basics of `numpy.polynomial`): the `Polynomial` class and the
`cuarray.polynomial.polynomial` functions, coefficients lowest power first. See
docs/polynomials.md; the other bases (Chebyshev, Legendre, ...) are not provided."""

from . import polynomial as polynomial
from . import polyutils as polyutils
from .polynomial import Polynomial as Polynomial

__all__ = ["Polynomial", "polynomial", "polyutils"]
