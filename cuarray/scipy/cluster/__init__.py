"""cuarray.scipy.cluster: `scipy.cluster` on the GPU. See docs/scipy-cluster.md.

`vq` (whiten, vector quantisation, k-means); imported on its own (``import cuarray.scipy.cluster``),
never by `import cuarray`."""

from . import vq as vq
