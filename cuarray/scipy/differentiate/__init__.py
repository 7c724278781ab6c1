"""cuarray.scipy.differentiate: `scipy.differentiate` on the GPU (adaptive finite differences of
many independent points at once). See docs/scipy-differentiate.md.

Imported on its own (``import cuarray.scipy.differentiate``), never by `import cuarray`."""

from ._differentiate import derivative as derivative
from ._differentiate import hessian as hessian
from ._differentiate import jacobian as jacobian
