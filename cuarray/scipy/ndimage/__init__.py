"""`scipy.ndimage` on the GPU: filters (see docs/scipy-ndimage-signal.md for what exists and how it
differs from SciPy). Import it as ``from cuarray.scipy import ndimage``."""

from ._filters import convolve as convolve
from ._filters import convolve1d as convolve1d
from ._filters import correlate as correlate
from ._filters import correlate1d as correlate1d
from ._filters import gaussian_filter as gaussian_filter
from ._filters import gaussian_filter1d as gaussian_filter1d
from ._filters import gaussian_gradient_magnitude as gaussian_gradient_magnitude
from ._filters import gaussian_laplace as gaussian_laplace
from ._filters import generic_gradient_magnitude as generic_gradient_magnitude
from ._filters import generic_laplace as generic_laplace
from ._filters import laplace as laplace
from ._filters import maximum_filter as maximum_filter
from ._filters import maximum_filter1d as maximum_filter1d
from ._filters import median_filter as median_filter
from ._filters import minimum_filter as minimum_filter
from ._filters import minimum_filter1d as minimum_filter1d
from ._filters import percentile_filter as percentile_filter
from ._filters import prewitt as prewitt
from ._filters import rank_filter as rank_filter
from ._filters import sobel as sobel
from ._filters import uniform_filter as uniform_filter
from ._filters import uniform_filter1d as uniform_filter1d
from ._interpolation import affine_transform as affine_transform
from ._interpolation import map_coordinates as map_coordinates
from ._interpolation import rotate as rotate
from ._interpolation import shift as shift
from ._interpolation import spline_filter as spline_filter
from ._interpolation import spline_filter1d as spline_filter1d
from ._interpolation import zoom as zoom
