"""cuarray.scipy.cluster: `scipy.cluster` on the GPU. See docs/scipy-cluster.md.

`vq` (whiten, vector quantisation, k-means) and `hierarchy` (linkage and the functions on a
linkage matrix); imported on its own (``import cuarray.scipy.cluster``), never by `import cuarray`."""

from . import hierarchy as hierarchy
from . import vq as vq
