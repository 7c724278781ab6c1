"""cuarray.scipy.cluster.vq: `scipy.cluster.vq` on the GPU. See docs/scipy-cluster.md."""

from ._vq import ClusterError as ClusterError
from ._vq import kmeans as kmeans
from ._vq import kmeans2 as kmeans2
from ._vq import vq as vq
from ._vq import whiten as whiten
