"""NumPy stand-ins of the cuarray routines the elementwise methods' modules import (used by
conftest.py's host copies and by the tests that make their own copy)."""


import numpy as np

from cuarray.testing.fake_device import numpy_standins

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
    """NumPy stand-ins of the cuarray routines `module` imports (its own `cuarray.scipy` helpers are
    copied with it)."""
    return numpy_standins(module, "cuarray.scipy", SPECIAL)