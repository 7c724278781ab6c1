"""`cuarray.scipy.integrate`: SciPy's integration routines on the device. See docs/scipy-integrate.md."""

from ._quadrature import cumulative_simpson as cumulative_simpson
from ._quadrature import cumulative_trapezoid as cumulative_trapezoid
from ._quadrature import fixed_quad as fixed_quad
from ._quadrature import newton_cotes as newton_cotes
from ._quadrature import romb as romb
from ._quadrature import simpson as simpson
from ._quadrature import trapezoid as trapezoid
from ._tanhsinh import tanhsinh as tanhsinh
from ._quad_vec import quad_vec as quad_vec
from ._ivp import OdeResult as OdeResult
from ._ivp import solve_ivp as solve_ivp
from ._ivp_base import DenseOutput as DenseOutput
from ._ivp_base import OdeSolution as OdeSolution
from ._ivp_base import OdeSolver as OdeSolver
from ._ivp_batched import solve_ivp_batched as solve_ivp_batched
from ._bdf import BDF as BDF
from ._radau import Radau as Radau
from ._rk import DOP853 as DOP853
from ._rk import RK23 as RK23
from ._rk import RK45 as RK45
from ._quadpack import dblquad as dblquad
from ._quadpack import nquad as nquad
from ._quadpack import quad as quad
from ._quadpack import tplquad as tplquad
from ._nsum import nsum as nsum
from ._qmc_quad import qmc_quad as qmc_quad
