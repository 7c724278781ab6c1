"""`numpy.lib.array_utils`'s axis helpers, NumPy's own (pure Python, no arrays involved)."""

from numpy.lib.array_utils import normalize_axis_index as normalize_axis_index
from numpy.lib.array_utils import normalize_axis_tuple as normalize_axis_tuple

__all__ = ["normalize_axis_index", "normalize_axis_tuple"]
