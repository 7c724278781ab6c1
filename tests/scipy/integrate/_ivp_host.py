"""cuarray.scipy.integrate's ODE modules with NumPy standing in for the cuarray routines they
import (`fake_device.host_packages`: private copies, nothing of cuarray patched), so the real
step loop, controller and event handling run on the CPU against scipy.integrate.solve_ivp."""

import types

import numpy as np

from cuarray.testing.fake_device import host_packages

MODULES = ("_ivp_base", "_rk", "_rk_tableaux", "_ivp", "_ivp_batched", "_dop853_coefficients")
SPECIAL = {
    "as_array": lambda x, fn=None: np.asarray(x),
    "as_parameter": lambda x, fn=None: np.asarray(x),
    "as_literal_or_array": lambda x, fn=None: np.asarray(x),
    "to_host": np.asarray,
}


def standins(module):
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.scipy.integrate"):
            continue
        if name in SPECIAL:
            out[name] = SPECIAL[name]
        else:
            out[name] = getattr(np, name[:-1] if name.endswith("_") else name)
    return out


def host_integrate():
    """The package's private copy with NumPy arrays as its device arrays."""
    import importlib

    from cuarray.scipy import integrate

    mods = [importlib.import_module("cuarray.scipy.integrate." + m) for m in MODULES]
    return host_packages([integrate], {m: standins(m) for m in mods})[integrate]
