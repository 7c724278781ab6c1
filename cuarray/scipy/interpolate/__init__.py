"""`scipy.interpolate` on the GPU (see docs/scipy-interpolate.md). Import it as
``from cuarray.scipy import interpolate``."""

from ._cubic import Akima1DInterpolator as Akima1DInterpolator
from ._cubic import CubicHermiteSpline as CubicHermiteSpline
from ._cubic import PchipInterpolator as PchipInterpolator
from ._cubic import pchip_interpolate as pchip_interpolate
from ._cubic_spline import CubicSpline as CubicSpline
from ._interp1d import interp1d as interp1d
from ._ppoly import PPoly as PPoly
from ._bspline import BSpline as BSpline
from ._bspline import splantider as splantider
from ._bspline import splder as splder
from ._make import make_interp_spline as make_interp_spline
from ._make import make_lsq_spline as make_lsq_spline
from ._make import make_smoothing_spline as make_smoothing_spline
from ._ndbspline import NdBSpline as NdBSpline
from ._rgi import RegularGridInterpolator as RegularGridInterpolator
from ._rgi import interpn as interpn
from ._rbf import RBFInterpolator as RBFInterpolator
from ._polyint import BarycentricInterpolator as BarycentricInterpolator
from ._polyint import FloaterHormannInterpolator as FloaterHormannInterpolator
from ._polyint import KroghInterpolator as KroghInterpolator
from ._polyint import barycentric_interpolate as barycentric_interpolate
from ._polyint import krogh_interpolate as krogh_interpolate
from ._fitpack import InterpolatedUnivariateSpline as InterpolatedUnivariateSpline
from ._fitpack import LSQUnivariateSpline as LSQUnivariateSpline
from ._fitpack import RectBivariateSpline as RectBivariateSpline
from ._fitpack import UnivariateSpline as UnivariateSpline
from ._fitpack import splev as splev
from ._fitpack import splint as splint
from ._fitpack import splrep as splrep
from ._fitpack import sproot as sproot
from ._bpoly import BPoly as BPoly
from ._ndppoly import NdPPoly as NdPPoly
