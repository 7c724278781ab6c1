"""`host_optimize` / `host_differentiate`: cuarray.scipy.optimize.elementwise and
cuarray.scipy.differentiate with NumPy in place of the cuarray routines their modules import, so
the real algorithms (the loop, Chandrupatla's steps, the bracket expansion, the finite
differences) run on the host against SciPy."""

import types

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages

SPECIAL = {
    "as_array": lambda x, fn: np.asarray(x),
    "as_parameter": lambda x, fn: np.asarray(x),
    "astype": lambda x, dtype, copy=True: np.asarray(x).astype(dtype, copy=copy),
    "to_host": np.asarray,
    "copy": lambda a: np.array(a, copy=True),
    "result_type": np.result_type,
    "take": np.take,
    "concatenate": np.concatenate,
}


def standins(module):
    """{name: NumPy's routine} for each cuarray routine `module` imports (a trailing `_` names
    one that would hide a builtin: `abs_`)."""
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.scipy"):
            continue
        key = name[:-1] if name.endswith("_") else name
        out[name] = SPECIAL[key] if key in SPECIAL else getattr(np, key)
    return out


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
