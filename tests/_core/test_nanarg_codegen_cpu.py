"""nanargmax/nanargmin's kernels without a GPU: NaN reads as the worst value (NumPy replaces it by
-inf/+inf and takes argmax/argmin), an all-NaN slice is written as index -1 (the caller's
ValueError), and the kernels compile with NVRTC for sm_90 for every value type."""

import numpy
import pytest

from cuarray._core import reduction_ops as R
from cuarray._core.reduction import Stage


def _def(op, c):
    dt = numpy.dtype(c)
    o = R.OPS[op]
    res = R.result_dtype(o.np_fn, dt)
    acc = R.acc_dtype_for(o, dt, res)
    post = R._POST_NANARG
    return R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())


@pytest.mark.parametrize("op", ["nanargmax", "nanargmin"])
def test_nan_is_an_element_not_skipped(op):
    d = _def(op, "f")
    _, src = d.source(Stage("map", "out", 1, 2, 1, 1, 1, numpy.int32))
    assert "cuarray::{}_combine".format(op) in src
    assert "isnan(x) ? cuarray::arg_none" not in src  # the old rule: NaN skipped, [nan, -inf] gave 1
    assert "-1LL" in src  # all-NaN slices


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("op", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("c", ["e", "f", "d", "F", "D", "i"])
def test_kernels_compile(op, c):
    from cubin_info import compile_sm90  # tests/ is on sys.path

    d = _def(op, c)
    for st in (Stage("map", "out", 1, 2, 1, 1, 1, numpy.int32), Stage("map", "fused", 1, 8, 1, 1, 1, numpy.int64,
                                                                      256, 8, 1)):
        _, src = d.source(st)
        cubin, _ = compile_sm90(src, [])
        assert cubin
