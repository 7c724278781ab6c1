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
