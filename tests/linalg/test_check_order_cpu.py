"""linalg's checks in NumPy's order, on the host (the module's copy with NumPy stand-ins for the
device reads): eig/eigvals check finiteness before the dtype, so a float16 matrix holding inf
is NumPy's LinAlgError and a finite one its TypeError (roots of float16 coefficients whose
companion row overflows: fuzz seed 11 index 11)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.linalg import LinAlgError, _decomp
from cuarray.testing.fake_device import host_module


@pytest.fixture(scope="module")
def host_decomp():
    return host_module(_decomp, {"all_": np.all, "isfinite": np.isfinite, "as_array": lambda a, fn: a})


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
def test_eig_finiteness_before_dtype(host_decomp, fn):
    cases = [np.array([[np.inf, 0], [1, 0]], np.float16), np.array([[1, 0], [1, 0]], np.float16),
             np.zeros((0, 0), np.float16), np.array([[1, np.nan], [1, 0]], np.float16), np.ones((2, 3), np.float16)]
    for a in cases:
        want = got = None
        try:
            getattr(np.linalg, fn)(a)
        except Exception as e:  # noqa: BLE001 - NumPy's exception is the oracle
            want = (type(e).__name__, str(e))
        try:
            getattr(host_decomp, fn)(a)
        except (LinAlgError, TypeError) as e:
            got = (type(e).__name__, str(e))
        assert want is not None and got == want, (a, got, want)
