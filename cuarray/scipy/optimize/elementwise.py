"""cuarray.scipy.optimize.elementwise: `scipy.optimize.elementwise` on the GPU, root finding and
minimisation of many independent scalar functions at once. See docs/scipy-optimize.md."""

from ._bracket import bracket_minimum as bracket_minimum
from ._bracket import bracket_root as bracket_root
from ._chandrupatla import find_minimum as find_minimum
from ._chandrupatla import find_root as find_root

__all__ = ["find_root", "find_minimum", "bracket_root", "bracket_minimum"]
