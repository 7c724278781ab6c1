"""`scipy.stats.qmc` on the GPU: the `Sobol`, `Halton` and `LatinHypercube` engines (points
computed on the device), the discrepancy measures of a sample and `scale`.
Import it as ``from cuarray.scipy.stats import qmc``."""

from ._discrepancy import discrepancy as discrepancy
from ._discrepancy import scale as scale
from ._halton import Halton as Halton
from ._lhs import LatinHypercube as LatinHypercube
from ._sobol import QMCEngine as QMCEngine
from ._sobol import Sobol as Sobol
