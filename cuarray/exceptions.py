"""NumPy's exception and warning classes, re-exported: cuarray raises exactly these, so code that
catches `numpy.exceptions.AxisError` catches cuarray's too. See `numpy.exceptions`."""

from numpy.exceptions import AxisError as AxisError
from numpy.exceptions import ComplexWarning as ComplexWarning
from numpy.exceptions import DTypePromotionError as DTypePromotionError
from numpy.exceptions import ModuleDeprecationWarning as ModuleDeprecationWarning
from numpy.exceptions import RankWarning as RankWarning
from numpy.exceptions import TooHardError as TooHardError
from numpy.exceptions import VisibleDeprecationWarning as VisibleDeprecationWarning

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning"]
