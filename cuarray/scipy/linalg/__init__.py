"""cuarray.scipy.linalg: SciPy's linear algebra on cuSOLVER/cuBLAS, over cuarray.linalg's
factorisations (one LU, one Cholesky). See `scipy.linalg` and docs/scipy.md."""

from numpy.linalg import LinAlgError as LinAlgError
from ._validate import LinAlgWarning as LinAlgWarning

# -- basics ---------------------------------------------------------------------------------------
from ._basic import solve as solve
from ._basic import solve_banded as solve_banded
from ._decomp_extra import solveh_banded as solveh_banded
from ._triangular import solve_triangular as solve_triangular
from ._basic import inv as inv
from ._basic import det as det
from ._decomp_extra import lstsq as lstsq
from ._decomp_extra import norm as norm
from ._decomp_extra import pinv as pinv
from ._structured import pinvh as pinvh
from ._structured import solve_circulant as solve_circulant
from ._structured import solve_toeplitz as solve_toeplitz
from ._host_lapack import cholesky_banded as cholesky_banded
from ._host_lapack import cho_solve_banded as cho_solve_banded
from ._special_more import bandwidth as bandwidth
from ._symmetry import issymmetric as issymmetric
from ._symmetry import ishermitian as ishermitian
from ._structured import matmul_toeplitz as matmul_toeplitz

# -- decompositions ---------------------------------------------------------------------------------
from ._decomp_lu import lu as lu
from ._decomp_lu import lu_factor as lu_factor
from ._decomp_lu import lu_solve as lu_solve
from ._decomp_qr import qr as qr
from ._decomp_rq import rq as rq
from ._decomp_rq import qr_multiply as qr_multiply
from ._decomp_update import qr_update as qr_update
from ._decomp_update import qr_insert as qr_insert
from ._decomp_update import qr_delete as qr_delete
from ._decomp_extra import cholesky as cholesky
from ._triangular import cho_factor as cho_factor
from ._triangular import cho_solve as cho_solve
from ._basic import eigh as eigh
from ._decomp_extra import eigvalsh as eigvalsh
from ._decomp_extra import eig as eig
from ._decomp_extra import eigvals as eigvals
from ._basic import svd as svd
from ._basic import svdvals as svdvals
from ._decomp_forms import diagsvd as diagsvd
from ._basic import null_space as null_space
from ._basic import orth as orth
from ._basic import orthogonal_procrustes as orthogonal_procrustes
from ._decomp_extra import polar as polar
from ._host_lapack import ldl as ldl
from ._host_lapack import schur as schur
from ._host_lapack import rsf2csf as rsf2csf
from ._decomp_forms import cdf2rdf as cdf2rdf
from ._host_lapack import hessenberg as hessenberg
from ._host_lapack import cossin as cossin
from ._host_lapack import qz as qz
from ._host_lapack import ordqz as ordqz
from ._host_lapack import matrix_balance as matrix_balance
from ._host_lapack import eigh_tridiagonal as eigh_tridiagonal
from ._host_lapack import eig_banded as eig_banded
from ._host_lapack import eigvals_banded as eigvals_banded
from ._host_lapack import eigvalsh_tridiagonal as eigvalsh_tridiagonal
from ._structured import subspace_angles as subspace_angles

# -- matrix functions ---------------------------------------------------------------------------
from ._expm import expm as expm
from ._matfuncs import logm as logm
from ._matfuncs import sqrtm as sqrtm
from ._matfuncs import cosm as cosm
from ._matfuncs import sinm as sinm
from ._matfuncs import tanm as tanm
from ._matfuncs import coshm as coshm
from ._matfuncs import sinhm as sinhm
from ._matfuncs import tanhm as tanhm
from ._host_lapack import funm as funm
from ._host_lapack import signm as signm
from ._host_lapack import fractional_matrix_power as fractional_matrix_power
from ._structured import expm_frechet as expm_frechet
from ._expm_cond import expm_cond as expm_cond

# -- matrix equation solvers ----------------------------------------------------------------------
from ._solvers import solve_sylvester as solve_sylvester
from ._solvers import solve_continuous_lyapunov as solve_continuous_lyapunov
from ._solvers import solve_lyapunov as solve_lyapunov
from ._solvers import solve_discrete_lyapunov as solve_discrete_lyapunov
from ._solvers import solve_continuous_are as solve_continuous_are
from ._solvers import solve_discrete_are as solve_discrete_are

# -- sketches and low-level routines --------------------------------------------------------------
from ._sketches import clarkson_woodruff_transform as clarkson_woodruff_transform
from ._blas_lapack import find_best_blas_type as find_best_blas_type
from ._blas_lapack import get_blas_funcs as get_blas_funcs
from ._blas_lapack import get_lapack_funcs as get_lapack_funcs

# -- special matrices -----------------------------------------------------------------------------
from ._special_matrices import block_diag as block_diag
from ._special_matrices import circulant as circulant
from ._special_matrices import companion as companion
from ._special_matrices import hadamard as hadamard
from ._special_matrices import hankel as hankel
from ._special_matrices import helmert as helmert
from ._special_matrices import hilbert as hilbert
from ._special_matrices import invhilbert as invhilbert
from ._special_matrices import khatri_rao as khatri_rao
from ._special_matrices import kron as kron
from ._special_matrices import leslie as leslie
from ._special_matrices import toeplitz as toeplitz
from ._special_more import convolution_matrix as convolution_matrix
from ._special_more import dft as dft
from ._special_more import fiedler as fiedler
from ._special_more import fiedler_companion as fiedler_companion
from ._special_more import invpascal as invpascal
from ._special_more import pascal as pascal
from ..._creation.matrices import tri as tri
