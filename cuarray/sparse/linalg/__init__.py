"""cuarray.sparse.linalg: linear operators, norms, iterative solvers and (with the optional
`cuarray[cudss]`) direct solvers. See `scipy.sparse.linalg`.

The solvers keep every scalar of the iteration on the device (0-d arrays) and read one value
per iteration on the host: the convergence test.
"""

from ._interface import LinearOperator as LinearOperator
from ._interface import aslinearoperator as aslinearoperator
from ._norm import norm as norm
from ._iterative import cg as cg
from ._iterative import bicgstab as bicgstab
from ._iterative import gmres as gmres
from ._minres import minres as minres
from ._triangular import spsolve_triangular as spsolve_triangular
from ._lsqr import lsqr as lsqr
from ._eigsh import eigsh as eigsh
from ._svds import svds as svds
from ._lsmr import lsmr as lsmr
from ._direct import MatrixRankWarning as MatrixRankWarning
from ._direct import SuperLU as SuperLU
from ._direct import factorized as factorized
from ._direct import spilu as spilu
from ._direct import splu as splu
from ._direct import spsolve as spsolve
from ._cgs import cgs as cgs
from ._cgs import matrix_power as matrix_power
from ._lobpcg import lobpcg as lobpcg
from ._bicg import bicg as bicg
from ._bicg import qmr as qmr
from ._tfqmr import tfqmr as tfqmr
from ._lgmres import lgmres as lgmres
from ._gcrotmk import gcrotmk as gcrotmk
from ._arpack_errors import ArpackError as ArpackError
from ._arpack_errors import ArpackNoConvergence as ArpackNoConvergence
from ._eigs import eigs as eigs
from ._onenormest import onenormest as onenormest
from ._matfuncs import expm as expm
from ._matfuncs import inv as inv
from ._expm_multiply import expm_multiply as expm_multiply
from ._funm import funm_multiply_krylov as funm_multiply_krylov
from ._laplacian import LaplacianNd as LaplacianNd
from ._structure import is_sptriangular as is_sptriangular
from ._structure import spbandwidth as spbandwidth
from ._direct import use_solver as use_solver
