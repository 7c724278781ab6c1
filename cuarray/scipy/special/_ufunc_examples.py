"""The Examples section of each special ufunc's docstring, by the ufunc's name: special_ufunc
appends it. The table is generated in two halves (_ufunc_examples_1.py, _ufunc_examples_2.py: no
file over 800 lines) by `python -m scripts.docstring_examples special-ufuncs`."""

from ._ufunc_examples_1 import EXAMPLES as _FIRST
from ._ufunc_examples_2 import EXAMPLES as _SECOND

EXAMPLES = {**_FIRST, **_SECOND}
