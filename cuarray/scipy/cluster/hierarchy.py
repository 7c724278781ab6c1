"""cuarray.scipy.cluster.hierarchy: `scipy.cluster.hierarchy` with the data on the device. See
docs/scipy-cluster.md."""

from ._hierarchy import cophenet as cophenet
from ._hierarchy import dendrogram as dendrogram
from ._hierarchy import fcluster as fcluster
from ._hierarchy import inconsistent as inconsistent
from ._hierarchy import is_valid_linkage as is_valid_linkage
from ._hierarchy import leaves_list as leaves_list
from ._hierarchy import linkage as linkage
