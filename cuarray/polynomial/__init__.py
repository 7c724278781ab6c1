"""`numpy.polynomial` on the device: the six series classes (`Polynomial`, `Chebyshev`,
`Legendre`, `Laguerre`, `Hermite`, `HermiteE`), their modules' functions and `polyutils`.
Coefficients are device arrays, lowest degree first; domains and windows are host numbers. See
docs/polynomials.md."""

from . import chebyshev as chebyshev
from . import hermite as hermite
from . import hermite_e as hermite_e
from . import laguerre as laguerre
from . import legendre as legendre
from . import polynomial as polynomial
from . import polyutils as polyutils
from ._base import set_default_printstyle as set_default_printstyle
from .chebyshev import Chebyshev as Chebyshev
from .hermite import Hermite as Hermite
from .hermite_e import HermiteE as HermiteE
from .laguerre import Laguerre as Laguerre
from .legendre import Legendre as Legendre
from .polynomial import Polynomial as Polynomial

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev", "legendre", "Legendre",
           "hermite", "Hermite", "hermite_e", "HermiteE", "laguerre", "Laguerre", "polyutils"]
