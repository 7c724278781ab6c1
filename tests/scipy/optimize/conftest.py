"""Host copies of cuarray.scipy.optimize and cuarray.scipy.differentiate with NumPy in place of the
cuarray routines their modules import, so the real algorithms run on the host against SciPy:
`host_elementwise` / `host_differentiate` (the loop, Chandrupatla's steps, the bracket expansion,
the finite differences) and `host_optimize` (line search driving, BFGS/CG loops, finite
differences, callbacks, results)."""

import importlib
import types

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages

from elementwise_host import standins
@pytest.fixture(scope="session")
def host_scipy():
    """{"optimize": copy, "differentiate": copy} of the two packages on NumPy."""
    import cuarray.scipy.differentiate as differentiate
    import cuarray.scipy.optimize as optimize
    from cuarray.scipy import _elementwise_loop
    from cuarray.scipy.differentiate import _differentiate
    from cuarray.scipy.optimize import _bracket, _chandrupatla

    group = {m: standins(m) for m in (_elementwise_loop, _bracket, _chandrupatla, _differentiate)}
    copies = host_packages([optimize, differentiate], group)
    return {"optimize": copies[optimize], "differentiate": copies[differentiate]}


@pytest.fixture(scope="session")
def host_elementwise(host_scipy):
    return host_scipy["optimize"].elementwise


@pytest.fixture(scope="session")
def host_differentiate(host_scipy):
    return host_scipy["differentiate"]


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
