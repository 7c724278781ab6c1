"""var/std with where= and nanvar/nanstd (`averages._var_of_counts`, the tail the two share): the
result's shape and dtype against NumPy's, keepdims and ddof, on the fake device (no values: the
GPU's are compared in tests/_statistics/test_reductions_gpu.py, `test_records` and `test_where_initial`)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray.testing import fake_device

CASES = [("var", {"axis": 0, "where": True}), ("std", {"axis": 1, "where": True, "ddof": 1}),
         ("var", {"axis": None, "where": True, "keepdims": True}), ("nanvar", {"axis": 0}),
         ("nanstd", {"axis": (0, 1), "keepdims": True, "ddof": 1}), ("nanvar", {"axis": 1, "where": True})]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (NumPy's, on its host data)
@pytest.mark.parametrize("dt", ["f4", "c8"])
def test_masked_and_nan_variances_have_numpys_shape_and_dtype(dt):
    host = np.ones((3, 4), dt)
    mask = np.array([[True, False, True, True]] * 3)
    with fake_device.recording_fake_compiles() as launches:
        x, w = cp.ndarray((3, 4), dt), cp.ndarray((3, 4), bool)
        for name, kw in CASES:
            kw = dict(kw, where=w) if kw.get("where") is True else kw
            got = getattr(cp, name)(x, **kw)
            want = getattr(np, name)(host, **(dict(kw, where=mask) if "where" in kw else kw))
            assert (got.shape, got.dtype) == (want.shape, want.dtype), (name, kw)
    assert launches
