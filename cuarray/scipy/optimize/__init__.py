"""cuarray.scipy.optimize: `scipy.optimize` on the GPU. See docs/scipy-optimize.md.

Imported on its own (``import cuarray.scipy.optimize``), never by `import cuarray`."""

from . import elementwise as elementwise
from ._curve_fit import curve_fit as curve_fit
from ._least_squares import least_squares as least_squares
from ._lsq_batched import least_squares_batched as least_squares_batched
from ._lbfgsb import LbfgsInvHessProduct as LbfgsInvHessProduct
from ._minimize import minimize as minimize
from ._lsq_linear import lsq_linear as lsq_linear
from ._lsap import linear_sum_assignment as linear_sum_assignment
from ._nnls import nnls as nnls
from ._nonlin import NoConvergence as NoConvergence
from ._nonlin import newton_krylov as newton_krylov
from ._nonlin_broyden import broyden1 as broyden1
from ._nonlin_broyden import broyden2 as broyden2
from ._nonlin_mixing import anderson as anderson
from ._nonlin_mixing import diagbroyden as diagbroyden
from ._nonlin_mixing import excitingmixing as excitingmixing
from ._nonlin_mixing import linearmixing as linearmixing
from ._result import Bounds as Bounds
from ._result import LinearConstraint as LinearConstraint
from ._result import NonlinearConstraint as NonlinearConstraint
from ._result import OptimizeResult as OptimizeResult
from ._rosen import approx_fprime as approx_fprime
from ._rosen import check_grad as check_grad
from ._rosen import rosen as rosen
from ._rosen import rosen_der as rosen_der
from ._rosen import rosen_hess as rosen_hess
from ._rosen import rosen_hess_prod as rosen_hess_prod
from ._scalar import minimize_scalar as minimize_scalar
from ._tnc import fmin_tnc as fmin_tnc
from ._scalar import root_scalar as root_scalar
from ._root import root as root
