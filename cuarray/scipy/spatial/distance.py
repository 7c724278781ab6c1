"""cuarray.scipy.spatial.distance: pairwise distances on the GPU. See `scipy.spatial.distance`
and docs/scipy-spatial.md (GEMM-based metrics, 0-d device results of the vector functions, a
callable metric's host path). Beside SciPy's names, cupyx's own: `distance_matrix`, `hellinger`,
`kl_divergence` (and their metric names in `cdist`/`pdist`)."""

from ._distance_pair import cdist as cdist
from ._distance_pair import directed_hausdorff as directed_hausdorff
from ._distance_pair import pdist as pdist
from ._distance_vec import braycurtis as braycurtis
from ._distance_vec import canberra as canberra
from ._distance_vec import chebyshev as chebyshev
from ._distance_vec import cityblock as cityblock
from ._distance_vec import correlation as correlation
from ._distance_vec import cosine as cosine
from ._distance_vec import dice as dice
from ._distance_vec import euclidean as euclidean
from ._distance_vec import hamming as hamming
from ._distance_vec import jaccard as jaccard
from ._distance_vec import jensenshannon as jensenshannon
from ._distance_vec import mahalanobis as mahalanobis
from ._distance_vec import minkowski as minkowski
from ._distance_vec import rogerstanimoto as rogerstanimoto
from ._distance_vec import russellrao as russellrao
from ._distance_vec import seuclidean as seuclidean
from ._distance_vec import sokalsneath as sokalsneath
from ._distance_vec import sqeuclidean as sqeuclidean
from ._distance_vec import yule as yule
from ._cupyx_distance import distance_matrix as distance_matrix
from ._distance_vec import hellinger as hellinger
from ._distance_vec import kl_divergence as kl_divergence
from ._squareform import is_valid_dm as is_valid_dm
from ._squareform import is_valid_y as is_valid_y
from ._squareform import num_obs_dm as num_obs_dm
from ._squareform import num_obs_y as num_obs_y
from ._squareform import squareform as squareform

__all__ = ["braycurtis", "canberra", "cdist", "chebyshev", "cityblock", "correlation", "cosine", "dice",
           "directed_hausdorff", "euclidean", "hamming", "is_valid_dm", "is_valid_y", "jaccard", "jensenshannon",
           "mahalanobis", "minkowski", "num_obs_dm", "num_obs_y", "pdist", "rogerstanimoto",
           "russellrao", "seuclidean", "sokalsneath", "sqeuclidean", "squareform", "yule",
           "distance_matrix", "hellinger", "kl_divergence"]
CUPYX_NAMES = ("distance_matrix", "hellinger", "kl_divergence")  # cupyx's own names, not SciPy's
