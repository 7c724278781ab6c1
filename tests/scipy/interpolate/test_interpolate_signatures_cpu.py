"""Every public name of cuarray.scipy.interpolate, and every public method its classes define,
has SciPy's signature (SciPy 1.18's: the `random_state` SciPy 1.17 still lists is left out)."""

import inspect
import types

import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

NAMES = sorted(n for n in vars(ci) if not n.startswith("_") and not isinstance(getattr(ci, n), types.ModuleType))


import scipy

# Parameters SciPy 1.18 added (ours has them): left out when the installed SciPy is older.
_NEW_IN_118 = {"simplex_tolerance"} if tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18) else set()


def _sig(obj):
    s = inspect.signature(obj)
    drop = {"random_state"} | _NEW_IN_118
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
    assert _sig(getattr(getattr(ci, name), method)) == _sig(getattr(getattr(si, name), method))
