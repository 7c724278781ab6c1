"""cuarray.scipy.optimize: `scipy.optimize` on the GPU. See docs/scipy-optimize.md.

Imported on its own (``import cuarray.scipy.optimize``), never by `import cuarray`."""

from . import elementwise as elementwise
