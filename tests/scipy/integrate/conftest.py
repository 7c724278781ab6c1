"""`host_integrate`: cuarray.scipy.integrate's private copy with NumPy in place of the cuarray
routines its modules import, so the package's real code (validation, the rules, the scans, the
refinement loops) runs without a device against scipy.integrate."""

import importlib
import types

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages

MODULES = ["_quadrature", "_tanhsinh", "_quad_vec"]


def standins_of(module):
    """{name: NumPy's routine} for each cuarray routine `module` imports from outside the package
    (a trailing `_` is NumPy's name with `_` added where it would hide a builtin: `sum_`), and the
    host-input conversions as np.asarray."""
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.scipy.integrate"):
            continue
        key = name[:-1] if name.endswith("_") else name
        if key in ("as_array", "as_parameter"):
            out[name] = lambda v, fn: np.asarray(v)
        elif key == "to_host":
            out[name] = np.asarray
        else:
            out[name] = getattr(np, key)
    return out


@pytest.fixture(scope="module")
def host_integrate():
    from cuarray.scipy import integrate

    modules = [importlib.import_module("cuarray.scipy.integrate." + m) for m in MODULES]
    copies = host_packages([integrate], {m: standins_of(m) for m in modules})
    return copies[integrate]
