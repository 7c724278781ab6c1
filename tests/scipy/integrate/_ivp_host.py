"""cuarray.scipy.integrate's ODE modules with NumPy standing in for the cuarray routines they
import (`fake_device.host_packages`: private copies, nothing of cuarray patched), so the real
step loop, controller and event handling run on the CPU against scipy.integrate.solve_ivp."""


import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg

from cuarray.testing.fake_device import host_packages, numpy_standins

MODULES = ("_ivp_base", "_rk", "_rk_tableaux", "_ivp", "_ivp_batched", "_dop853_coefficients", "_sparse_jac", "_implicit",
           "_radau", "_bdf", "_lsoda_core", "_lsoda", "_odeint", "_ode")
SPECIAL = {
    "as_array": lambda x, fn=None: np.asarray(x),
    "as_parameter": lambda x, fn=None: np.asarray(x),
    "as_literal_or_array": lambda x, fn=None: np.asarray(x),
    "to_host": np.asarray,
    "lu_factor": scipy.linalg.lu_factor,
    "lu_solve": scipy.linalg.lu_solve,
    # a sparse Jacobian: SciPy's CSC and SuperLU for cuarray's CSC and cuDSS
    "csc_matrix": scipy.sparse.csc_matrix,
    "sparse_eye": scipy.sparse.eye,
    "splu": scipy.sparse.linalg.splu,
    "solve_banded": scipy.linalg.solve_banded,
    "sparse_lu_available": lambda: True,
}


def standins(module, special=SPECIAL):
    return numpy_standins(module, "cuarray.scipy.integrate", special)


def host_copies(sparse_lu=True):
    """{module name ("" for the package): private copy} with NumPy arrays as its device arrays;
    with `sparse_lu` False, as where cuDSS is not installed (a tridiagonal sparse Jacobian solved as
    banded, any other made dense)."""
    import importlib

    from cuarray.scipy import integrate

    special = {**SPECIAL, "sparse_lu_available": lambda: sparse_lu}
    mods = [importlib.import_module("cuarray.scipy.integrate." + m) for m in MODULES]
    copies = host_packages([integrate], {m: standins(m, special) for m in mods})
    return {m.__name__.rpartition("integrate")[2].lstrip("."): c for m, c in copies.items()}


def host_integrate(sparse_lu=True):
    """The package's private copy (`host_copies`)."""
    return host_copies(sparse_lu)[""]
