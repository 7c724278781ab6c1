"""The host copies of tests/scipy/optimize/conftest.py (loaded by path: tests/scipy is no
package), whose `host_differentiate` fixture runs cuarray.scipy.differentiate on NumPy."""

import importlib.util
import pathlib
import sys

_HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "optimize"))  # elementwise_compare.py

_spec = importlib.util.spec_from_file_location("optimize_tests_conftest", _HERE.parent / "optimize" / "conftest.py")
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)

host_scipy = _conftest.host_scipy
host_differentiate = _conftest.host_differentiate
