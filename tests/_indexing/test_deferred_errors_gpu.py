"""Issue 54, "deferred errors": an out-of-bounds device index raises at the latest at the next
synchronising call of the thread, with the operation named in the message (docs/differences.md)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


def _syncs():
    return [lambda r: r.get(), lambda r: cp.cuda.Stream.null.synchronize(), lambda r: bool(r.sum() >= 0),
            lambda r: cp.cuda.get_current_stream().synchronize()]


@pytest.mark.parametrize("k", range(4))
def test_take_out_of_bounds_at_the_next_sync(k):
    a = np.arange(5.0)
    idx = np.array([0, 7, 2])
    with pytest.raises(IndexError):
        np.take(a, idx)
    r = cp.take(cp.asarray(a), cp.asarray(idx))
    with pytest.raises(IndexError, match=r"index 7 is out of bounds for axis 0 with size 5 \(found on the device in a gather"):
        _syncs()[k](r)
    cp.check_index_errors()  # cleared


@pytest.mark.parametrize("k", range(4))
def test_advanced_indexing_out_of_bounds(k):
    a = cp.arange(12).reshape(3, 4)
    r = a[cp.asarray([0, -4]), 1]
    with pytest.raises(IndexError, match=r"index -4 is out of bounds for axis 0 with size 3 \(found on the device"):
        _syncs()[k](r)
    b = cp.zeros(4)
    b[cp.asarray([1, 9])] = 1.0
    with pytest.raises(IndexError, match=r"found on the device in a scatter"):
        cp.cuda.Stream.null.synchronize()


def test_host_indices_raise_at_the_call():
    with pytest.raises(IndexError):
        cp.take(cp.arange(5), [0, 7])
    with pytest.raises(IndexError):
        cp.arange(5)[np.array([9])]


def test_no_error_no_message():
    r = cp.take(cp.arange(5.0), cp.asarray([4, 0, -5]))
    np.testing.assert_array_equal(r.get(), np.take(np.arange(5.0), [4, 0, -5]))
    cp.check_index_errors()
