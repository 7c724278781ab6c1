"""Index tricks without a GPU: mgrid/ogrid's host plan (sizes, dtype, start/step per axis) and
r_/c_'s directive parsing against NumPy; the pure index objects are NumPy's; require's flags."""

import numpy
import pytest

import cuarray
from cuarray._indexing import index_tricks as it
from cuarray._manipulation import kind

GRID_KEYS = [
    (slice(0, 5),),
    (slice(-1, 1, 0.5), slice(0, 3)),
    (slice(0, 1, 5j), slice(2, 8, 3)),
    (slice(None, 4), slice(1, 2, 1j)),
    (slice(0, 10, 3), slice(5, 0, -1)),
    (slice(numpy.float32(0), 2, 0.25),),
    (slice(3, 1),),
]


@pytest.mark.parametrize("key", GRID_KEYS, ids=str)
def test_grid_plan_matches_numpy(key):
    size, typ, coeffs = it.grid_plan(key)
    if any(s < 0 for s in size):  # NumPy's dense grid refuses a negative size
        with pytest.raises(ValueError):
            numpy.mgrid[key]
        return
    ref = numpy.mgrid[key]
    assert typ == ref.dtype
    assert tuple(size) == ref.shape[1:]
    # the affine map index -> value reproduces NumPy's grid
    for k, (start, step) in enumerate(coeffs):
        idx = numpy.indices(ref.shape[1:], typ)[k]
        numpy.testing.assert_allclose(idx * step + start, ref[k])


@pytest.mark.parametrize("key,expect", [
    ((1, 2), ([1, 2], 0, 1, -1)),
    (("1", 1, 2), ([1, 2], 1, 1, -1)),
    (("0,2", 1), ([1], 0, 2, -1)),
    (("0,2,0", 1), ([1], 0, 2, 0)),
    ((slice(0, 3),), ([slice(0, 3)], 0, 1, -1)),
])
def test_parse_concat_key(key, expect):
    assert it.parse_concat_key(key) == expect


@pytest.mark.parametrize("key,exc", [
    ((1, "0"), ValueError),
    (("x", 1), ValueError),
    (("1,x", 1), ValueError),
    (("r", 1, 2), NotImplementedError),
    ("1 2; 3 4", NotImplementedError),
])
def test_parse_concat_key_errors(key, exc):
    with pytest.raises(exc):
        it.parse_concat_key(key)
    if exc is ValueError:
        with pytest.raises(exc):
            numpy.r_[key]


def test_pure_index_objects_are_numpys():
    assert cuarray.s_[1:2, ::3] == numpy.s_[1:2, ::3]
    assert cuarray.index_exp[1:2] == numpy.index_exp[1:2]
    assert list(cuarray.ndindex(2, 3)) == list(numpy.ndindex(2, 3))
    assert len(cuarray.r_) == 0 and len(cuarray.mgrid) == 0


@pytest.mark.parametrize("reqs,expect", [
    (["C"], ("C", set())), (["F", "W"], ("F", {"W"})), (["aligned", "owndata"], ("A", {"O"})),
    (["E", "contiguous"], ("C", set())), ("CW", ("C", {"W"})),
])
def test_require_flags(reqs, expect):
    assert kind.parse_requirements(reqs) == expect


def test_require_errors_are_numpys():
    for reqs, exc in ((["C", "F"], ValueError), (["X"], KeyError)):
        with pytest.raises(exc):
            kind.parse_requirements(reqs)
        with pytest.raises(exc):
            numpy.require(numpy.ones(2), requirements=reqs)
