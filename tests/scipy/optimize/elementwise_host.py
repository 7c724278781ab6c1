"""NumPy stand-ins of the cuarray routines the elementwise methods' modules import (used by
conftest.py's host copies and by the tests that make their own copy)."""

import types

import numpy as np

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
