"""unravel_index, ravel_multi_index, put, choose and extract: the errors NumPy raises at once
(mode='raise', invalid indices, mismatched conditions) and wrap/clip, against NumPy. Device index
arrays are checked too: these raise at the call (one synchronisation), not later, except `put`,
a scatter, whose IndexError surfaces at the next synchronisation (docs/differences.md)."""

import zlib

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

def up(xp, h):
    return h if xp is numpy else xp.asarray(h)


@pytest.mark.parametrize("idx", [[0, 5, 6], [-1, 2], [3, 30], 6, [True, False]])
@pytest.mark.parametrize("device", [False, True])
@testing.numpy_cuarray_array_equal(accept_error=(ValueError, TypeError))
def test_unravel_index_bounds(xp, idx, device):
    h = numpy.asarray(idx)
    return xp.unravel_index(up(xp, h) if device else idx, (2, 3))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("wrap", "clip"), ("clip", "raise")])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("device", [False, True])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_ravel_multi_index_modes(xp, mode, order, device):
    # One seed for both calls (NumPy's and cuarray's): a module-level generator drew other
    # coordinates for the second call, so every wrap/clip result differed.
    rng = numpy.random.default_rng(zlib.crc32(repr((mode, order, device)).encode()))
    coords = [rng.integers(-8, 8, 20), rng.integers(-8, 8, 20)]
    return xp.ravel_multi_index([up(xp, c) if device else c for c in coords], (4, 5), mode=mode, order=order)


@pytest.mark.parametrize("device", [False, True])
@testing.numpy_cuarray_array_equal()
def test_ravel_multi_index_bool_coordinates(xp, device):
    c = numpy.array([True, False, True])
    return xp.ravel_multi_index([up(xp, c) if device else c, [1, 2, 0]], (3, 4))


@pytest.mark.parametrize("ind", [[10], [-6], [-5, 4], [0, 2]])
@pytest.mark.parametrize("device", [False, True])
@testing.numpy_cuarray_array_equal(accept_error=IndexError)
def test_put_raise(xp, ind, device):
    a = up(xp, testing.shaped_random((5,), numpy, numpy.float64))
    xp.put(a, up(xp, numpy.asarray(ind)) if device else ind, up(xp, numpy.array([7.5])))
    if device and xp is not numpy:
        xp.check_index_errors()  # a device index's IndexError: at the next synchronisation, as x[idx] = v's
    return a


@pytest.mark.parametrize("choice", [[0, 3], [0, -1], [1, 0]])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_choose_raise(xp, choice):
    choices = [up(xp, testing.shaped_random((2,), numpy, numpy.float32)) for _ in range(3)]
    return xp.choose(up(xp, numpy.asarray(choice)), choices)


@pytest.mark.parametrize("cond", [[True, False], [True, False, False, False, False, True],
                                  [False] * 5 + [True], [1, 0, 1, 0, 0, 0], numpy.ones((2, 3))])
@testing.numpy_cuarray_array_equal(accept_error=IndexError)
def test_extract_mismatched_condition(xp, cond):
    return xp.extract(up(xp, numpy.asarray(cond)), up(xp, testing.shaped_random((4,), numpy, numpy.int32)))


@testing.parameterize(*testing.product({"n": [-1, 0, 1, 3], "k": [-2, 0, 1, 5], "m": [None, 0, 2, 4]}))
class TestTriIndices:
    # CuPy's grid (negative n, k beyond the matrix, m of 0 included).
    @testing.numpy_cuarray_array_equal()
    def test_tril_indices(self, xp):
        return xp.tril_indices(self.n, self.k, self.m)

    @testing.numpy_cuarray_array_equal()
    def test_triu_indices(self, xp):
        return xp.triu_indices(self.n, self.k, self.m)
