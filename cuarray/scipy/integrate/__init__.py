"""SciPy's `scipy.integrate` on the GPU. See docs/scipy-integrate.md."""

from ._ivp import OdeResult as OdeResult
from ._ivp import solve_ivp as solve_ivp
from ._ivp_base import DenseOutput as DenseOutput
from ._ivp_base import OdeSolution as OdeSolution
from ._ivp_base import OdeSolver as OdeSolver
from ._ivp_batched import solve_ivp_batched as solve_ivp_batched
from ._rk import DOP853 as DOP853
from ._rk import RK23 as RK23
from ._rk import RK45 as RK45
