"""`host_integrate`: cuarray.scipy.integrate's private copy with NumPy in place of the cuarray
routines its modules import, so the package's real code (validation, the rules, the scans, the
refinement loops) runs without a device against scipy.integrate."""

import importlib

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages, numpy_standins

MODULES = ["_quadrature", "_tanhsinh", "_quad_vec", "_gk_batch", "_quadpack", "_nsum", "_qmc_quad", "_cubature"]


def standins_of(module):
    """NumPy stand-ins of the cuarray routines `module` imports (`fake_device.numpy_standins`)."""
    return numpy_standins(module, "cuarray.scipy.integrate")


@pytest.fixture(scope="module")
def host_integrate():
    from cuarray.scipy import integrate

    modules = [importlib.import_module("cuarray.scipy.integrate." + m) for m in MODULES]
    copies = host_packages([integrate], {m: standins_of(m) for m in modules})
    return copies[integrate]
