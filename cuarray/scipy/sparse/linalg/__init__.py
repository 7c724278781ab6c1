"""cuarray.scipy.sparse.linalg is `cuarray.sparse.linalg`. See `scipy.sparse.linalg`."""

from ....sparse.linalg import LinearOperator as LinearOperator
from ....sparse.linalg import MatrixRankWarning as MatrixRankWarning
from ....sparse.linalg import SuperLU as SuperLU
from ....sparse.linalg import aslinearoperator as aslinearoperator
from ....sparse.linalg import bicgstab as bicgstab
from ....sparse.linalg import cg as cg
from ....sparse.linalg import cgs as cgs
from ....sparse.linalg import eigsh as eigsh
from ....sparse.linalg import factorized as factorized
from ....sparse.linalg import gmres as gmres
from ....sparse.linalg import lobpcg as lobpcg
from ....sparse.linalg import lsmr as lsmr
from ....sparse.linalg import lsqr as lsqr
from ....sparse.linalg import matrix_power as matrix_power
from ....sparse.linalg import minres as minres
from ....sparse.linalg import norm as norm
from ....sparse.linalg import spilu as spilu
from ....sparse.linalg import splu as splu
from ....sparse.linalg import spsolve as spsolve
from ....sparse.linalg import spsolve_triangular as spsolve_triangular
from ....sparse.linalg import svds as svds
