"""`host_optimize`: cuarray.scipy.optimize's private copy with NumPy standing in for the cuarray
routines its modules import, so the real algorithms (line search driving, BFGS/CG loops, finite
differences, callbacks, results) run on the host against scipy.optimize."""

import importlib
import types

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages

MODULES = ["_result", "_differentiate", "_objective", "_linesearch", "_neldermead", "_newtoncg", "_minimize", "_rosen", "_scalar"]


def numpy_standins(module):
    """{name: NumPy's routine} for each cuarray routine `module` imports from outside the package
    (a trailing `_` marks a name that would hide a builtin: `sum_` is NumPy's `sum`)."""
    special = {"as_array": lambda x, fn=None: np.asarray(x), "as_parameter": lambda x, fn=None: np.array(x),
               "to_host": np.asarray}
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.scipy.optimize"):
            continue
        key = name[:-1] if name.endswith("_") else name
        if key in special:
            out[name] = special[key]
        elif key == "max":
            out[name] = np.max
        elif key == "min":
            out[name] = np.min
        else:
            out[name] = getattr(np, key)
    return out


@pytest.fixture(scope="session")
def host_optimize():
    from cuarray.scipy import optimize

    mods = [importlib.import_module("cuarray.scipy.optimize." + m) for m in MODULES]
    return host_packages([optimize], {m: numpy_standins(m) for m in mods})[optimize]
