"""`scipy.stats.qmc` on the GPU: the discrepancy measures of a sample and `scale` (the samplers,
`Sobol`, `Halton`, `LatinHypercube`, are not here yet). Import it as
``from cuarray.scipy.stats import qmc``."""

from ._discrepancy import discrepancy as discrepancy
from ._discrepancy import scale as scale
