"""`ufunc.reduceat`'s host side, without a GPU (cuarray/_core/reduceat.py): the indices converted and
checked as NumPy converts and checks them (same results, same exception classes), the
plan's (outer, n, inner, output shape), and NumPy's result dtypes. The kernel's code generation is in
test_scan_codegen.py ("segments"); its values against NumPy in test_reduceat_gpu.py."""

from __future__ import annotations

import numpy
import pytest

from cuarray._core import reduceat as R
from cuarray._core import scan
from cuarray._math import arithmetic, extrema
from cuarray._logic import ops as _logic


def _numpy_indices(indices, n):
    """What NumPy's reduceat makes of `indices` on an array of n elements: the slice starts it
    uses (read back from a reduceat of one-hot rows), or the exception it raises."""
    try:
        eye = numpy.eye(n, dtype=numpy.int64) if n else numpy.zeros((0, 1), numpy.int64)
        rows = numpy.add.reduceat(eye, indices, axis=0)
    except Exception as exc:  # noqa: BLE001 (the oracle's exception is the expected one)
        return exc
    return rows


@pytest.mark.parametrize("indices", [
    [0, 2, 1, 4], [3], [], (0, 4), numpy.array([1, 1, 0], numpy.uint8), [True, False], [0.0, 2.7],
    numpy.array([2, 0], numpy.int16), [5], [-1], [0, 6], 2, numpy.array(1), [[0, 1]], ["a"], [1j], [2 ** 70],
])
def test_indices_as_numpy_reads_them(indices):
    n = 5
    want = _numpy_indices(indices, n)
    try:
        got = R.host_indices(indices, "add", n)
    except Exception as exc:  # noqa: BLE001
        assert isinstance(want, Exception), (indices, exc, want)
        assert type(exc) is type(want), (exc, want)  # (a list two deep: NumPy's message says it otherwise)
        return
    assert not isinstance(want, Exception), (indices, got, want)
    assert got.dtype == numpy.int64 and got.ndim == 1
    # the rows NumPy's slices sum to, rebuilt from our starts (the same rule the kernel applies)
    eye = numpy.eye(n, dtype=numpy.int64)
    rows = []
    for i, s in enumerate(got):
        e = n if i + 1 == len(got) else (got[i + 1] if got[i + 1] > s else s + 1)
        rows.append(eye[s:e].sum(axis=0))
    numpy.testing.assert_array_equal(numpy.array(rows).reshape(want.shape), want)


def test_out_of_bounds_message_names_the_ufunc_and_the_range():
    with pytest.raises(IndexError, match=r"index 0 out-of-bounds in maximum\.reduceat \[0, 0\)"):
        R.host_indices([0], "maximum", 0)
    assert R.host_indices([], "add", 0).shape == (0,)


@pytest.mark.parametrize("shape,axis,nidx,want", [
    ((7,), 0, 3, (1, 7, 1, (3,))), ((2, 5, 3), 1, 4, (2, 5, 3, (2, 4, 3))), ((2, 5, 3), 0, 0, (1, 2, 15, (0, 5, 3))),
    ((2, 5, 3), 2, 6, (10, 3, 1, (2, 5, 6))), ((0, 4), 1, 2, (0, 4, 1, (0, 2))),
])
def test_plan_shapes(shape, axis, nidx, want):
    for associative in (False, True):
        assert R.plan(shape, axis, nidx, associative)[2:] == want


@pytest.mark.parametrize("shape,axis,nidx,associative,layout,block", [
    ((10 ** 7,), 0, 10, True, "segment_blocks", 1024),     # few long slices: wide blocks
    ((10 ** 7,), 0, 10, False, "segments", 256),           # subtract: NumPy's order, a thread each
    ((10 ** 7,), 0, 10 ** 4, True, "segment_blocks", 128),  # 10**4 slices of 1000
    ((10 ** 5,), 0, 10 ** 4, True, "segments", 256),       # slices of 10: a thread each
    ((4096, 4096), 0, 64, True, "segments", 256),          # 262144 outputs, coalesced across columns
    ((4096, 4096), 1, 64, True, "segments", 256),          # 262144 outputs of 64-element slices
    ((10 ** 6, 2), 0, 8, True, "segment_blocks", 1024),    # 16 outputs, slices of 125000 rows
    ((5, 0), 0, 0, True, "segments", 256),
])
def test_plan_layout(shape, axis, nidx, associative, layout, block):
    assert R.plan(shape, axis, nidx, associative)[:2] == (layout, block)


@pytest.mark.parametrize("uf", [arithmetic.add, arithmetic.multiply, arithmetic.subtract, arithmetic.divide,
                                extrema.maximum, extrema.fmin, _logic.logical_and])
@pytest.mark.parametrize("dt", "?bBhiqefdFD")
@pytest.mark.parametrize("dtype", [None, "f4", "q"])
def test_result_dtype_is_numpys(uf, dt, dtype):
    x = numpy.ones((3,), dt)
    try:
        want = uf._np.reduceat(x, [0, 1], dtype=dtype).dtype
    except TypeError as exc:
        with pytest.raises(type(exc)):
            scan.result_dtype(uf, numpy.dtype(dt), None if dtype is None else numpy.dtype(dtype), method="reduceat")
        return
    assert scan.result_dtype(uf, numpy.dtype(dt), None if dtype is None else numpy.dtype(dtype), method="reduceat") == want


def test_axis_rules():
    """reduceat's axis rules (`scan.single_axis`, accumulate's too)."""
    assert scan.single_axis(None, 1, "reduceat") == 0 and scan.single_axis((1,), 3, "reduceat") == 1
    assert scan.single_axis(-1, 2, "reduceat") == 1
    with pytest.raises(ValueError, match="reduceat does not allow multiple axes"):
        scan.single_axis(None, 2, "reduceat")
    with pytest.raises(ValueError, match="multiple axes"):
        scan.single_axis((0, 1), 2, "reduceat")
    with pytest.raises(numpy.exceptions.AxisError):
        scan.single_axis(2, 2, "reduceat")
