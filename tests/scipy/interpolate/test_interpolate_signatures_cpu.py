"""Every public name of cuarray.scipy.interpolate, and every public method its classes define,
has SciPy's signature (SciPy 1.18's; SciPy 1.17.1 and 1.18.1 both list BarycentricInterpolator's legacy
keyword-only `random_state`, which ours has too)."""

import inspect
import types

import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

NAMES = sorted(n for n in vars(ci) if not n.startswith("_") and not isinstance(getattr(ci, n), types.ModuleType))


import scipy

_BEFORE_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)

# Parameters SciPy 1.18 added (ours has them): left out when the installed SciPy is older.
_NEW_IN_118 = {"simplex_tolerance"} if _BEFORE_118 else set()

# Methods whose signature SciPy 1.18 changed (read from scipy/interpolate/_interpolate.py at v1.18.1,
# where PPoly became a wrapper: `solve(self, y=0, ...)`, 1.17 had `y=0.`). cuarray follows 1.18, so
# under an older SciPy these are the reference; under 1.18 and later the installed SciPy is.
_METHODS_1_18 = {("PPoly", "solve"): "(self, y=0, discontinuity=True, extrapolate=None)"}


def _sig(obj):
    s = inspect.signature(obj)
    drop = _NEW_IN_118
    return str(s.replace(parameters=[p for p in s.parameters.values() if p.name not in drop]))


def test_every_name_is_scipys():
    assert len(NAMES) >= 40
    assert all(hasattr(si, n) for n in NAMES), [n for n in NAMES if not hasattr(si, n)]


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    assert _sig(getattr(ci, name)) == _sig(getattr(si, name))


METHODS = [(n, m) for n in NAMES if isinstance(getattr(ci, n), type)
           for m, v in vars(getattr(ci, n)).items()
           if not m.startswith("_") and callable(getattr(getattr(ci, n), m)) and hasattr(getattr(si, n), m)]


@pytest.mark.parametrize("name,method", METHODS, ids=["{}.{}".format(*p) for p in METHODS])
def test_method_signature(name, method):
    if _BEFORE_118 and (name, method) in _METHODS_1_18:
        assert _sig(getattr(getattr(ci, name), method)) == _METHODS_1_18[name, method]
        return
    assert _sig(getattr(getattr(ci, name), method)) == _sig(getattr(getattr(si, name), method))
