"""cuarray.lib: the array-code parts of `numpy.lib` (stride_tricks, array_utils)."""

from . import array_utils as array_utils
from . import stride_tricks as stride_tricks
