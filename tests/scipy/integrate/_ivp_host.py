"""cuarray.scipy.integrate's ODE modules with NumPy standing in for the cuarray routines they
import (`fake_device.host_packages`: private copies, nothing of cuarray patched), so the real
step loop, controller and event handling run on the CPU against scipy.integrate.solve_ivp."""


import numpy as np
import scipy.linalg

from cuarray.testing.fake_device import host_packages, numpy_standins

MODULES = ("_ivp_base", "_rk", "_rk_tableaux", "_ivp", "_ivp_batched", "_dop853_coefficients", "_implicit", "_radau", "_bdf",
           "_lsoda_core", "_lsoda", "_odeint")
SPECIAL = {
    "as_array": lambda x, fn=None: np.asarray(x),
    "as_parameter": lambda x, fn=None: np.asarray(x),
    "as_literal_or_array": lambda x, fn=None: np.asarray(x),
    "to_host": np.asarray,
    "lu_factor": scipy.linalg.lu_factor,
    "lu_solve": scipy.linalg.lu_solve,
}


def standins(module):
    return numpy_standins(module, "cuarray.scipy.integrate", SPECIAL)


def host_integrate():
    """The package's private copy with NumPy arrays as its device arrays."""
    import importlib

    from cuarray.scipy import integrate

    mods = [importlib.import_module("cuarray.scipy.integrate." + m) for m in MODULES]
    return host_packages([integrate], {m: standins(m) for m in mods})[integrate]
