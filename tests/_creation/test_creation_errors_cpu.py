"""empty, zeros, ones and full raise NumPy's errors in NumPy's order when the dtype is one cuarray
does not hold (object, strings, void) or one NumPy does not know: NumPy converts the shape (more than
64 dimensions, a dimension beyond intp), then the dtype, then checks the shape against it (negative,
too many bytes), and only then would cuarray refuse the dtype NumPy makes an array of. No array is
made on these paths, so no device is needed."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray

SHAPES = {"65dims": (1,) * 65, "negative": (-1,), "past_intp": (2**63,), "below_intp": (3, -2**63 - 1),
          "too_big": (2**61, 8)}
DTYPES = ["foo", "O", "U3", "S", "V", None]


def _outcome(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the exception is the result compared)
        return type(e), str(e)
    return "result"


@pytest.mark.parametrize("name", ["empty", "zeros", "ones", "full"])
@pytest.mark.parametrize("shape", list(SHAPES), ids=str)
def test_shape_errors_before_the_dtype_as_numpy(name, shape):
    """The fuzz's full((1,) * 65, 2**64): NumPy's ValueError for 65 dimensions where cuarray raised
    its TypeError for the object dtype of the value first."""
    for dt in DTYPES:
        if dt is None and name != "full":
            continue  # (float64: an array cuarray makes, on the device)
        args = (SHAPES[shape],) + ((2**64,) if name == "full" else ())
        want = _outcome(lambda: getattr(np, name)(*args, dtype=dt))
        if want == "result":  # NumPy makes it (an unsized void): cuarray's TypeError for the dtype
            want = (TypeError, _outcome(lambda: cuarray.empty(0, dt))[1])
        got = _outcome(lambda: getattr(cuarray, name)(*args, dtype=dt))
        assert got == want, (name, shape, dt)
