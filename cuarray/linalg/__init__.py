"""cuarray.linalg: NumPy's numpy.linalg on cuBLAS and cuSOLVER. See `numpy.linalg`.

Products (matmul, dot, einsum, ...) live in `_products`/`_einsum` and are also exported from the
main namespace; decompositions, solvers and norms in the modules named after them.
"""

from numpy.linalg import LinAlgError as LinAlgError

# -- products (main-namespace names re-exported here as numpy.linalg does) -----------------------
from ._matmul import matmul as matmul
from ._products import tensordot as tensordot
from ._products import vecdot as vecdot
from ._products import multi_dot as multi_dot
from ._products import matrix_power as matrix_power
from ._products import linalg_outer as outer
from ._products import linalg_cross as cross
from .._manipulation.transpose import matrix_transpose as matrix_transpose
# float32 GEMM precision: full float32 by default; TF32 only when asked for (docs/linalg.md)
from ..cuda.libs.cublas import compute_mode as matmul_precision
from ..cuda.libs.cublas import set_compute_mode as set_matmul_precision
from ..cuda.libs.cublas import get_compute_mode as get_matmul_precision

# -- decompositions, eigenvalues, solvers, norms and numbers ------------------------------------
from ._decomp import cholesky as cholesky
from ._decomp import qr as qr
from ._svd import svd as svd
from ._svd import svdvals as svdvals
from ._decomp import eig as eig
from ._decomp import eigh as eigh
from ._decomp import eigvals as eigvals
from ._decomp import eigvalsh as eigvalsh
from ._norms import norm as norm
from ._norms import matrix_norm as matrix_norm
from ._norms import vector_norm as vector_norm
from ._norms import cond as cond
from ._solve import det as det
from ._norms import matrix_rank as matrix_rank
from ._solve import slogdet as slogdet
from ._norms import trace as trace
from ._solve import solve as solve
from ._solve import tensorsolve as tensorsolve
from ._solve import lstsq as lstsq
from ._solve import inv as inv
from ._solve import pinv as pinv
from ._solve import tensorinv as tensorinv
from ._norms import diagonal as diagonal
