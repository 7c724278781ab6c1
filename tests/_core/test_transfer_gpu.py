"""Host <-> device transfers: direct and pinned-staged paths, every dtype and layout."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._core import _staging  # noqa: E402

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]


@pytest.fixture(params=["direct", "staged"])
def path(request, monkeypatch):
    if request.param == "staged":
        # Tiny thresholds so that small test arrays take the staged path with many chunks.
        monkeypatch.setattr(_staging, "PINNED_THRESHOLD", 64)
        for st in _staging._per_device.values():
            monkeypatch.setattr(st, "size", 4096)
        monkeypatch.setattr(_staging, "_HOST_SPLIT_MIN", 1024)
    return request.param


@pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
@pytest.mark.parametrize("layout", ["C", "F", "T", "step2", "neg"])
def test_roundtrip(path, dtype, layout):
    h = testing.shaped_random((37, 129), numpy, dtype, seed=1)
    if layout == "F":
        h = numpy.asfortranarray(h)
    elif layout == "T":
        h = h.T
    elif layout == "step2":
        h = h[::2, ::2]
    elif layout == "neg":
        h = h[::-1, ::-3]
    a = cuarray.asarray(h)
    numpy.testing.assert_array_equal(a.get(), h)
    out = numpy.empty(h.shape, h.dtype, order="F")
    assert a.get(out=out) is out
    numpy.testing.assert_array_equal(out, h)
    new = testing.shaped_random(h.shape, numpy, dtype, seed=2)
    a.set(new)
    numpy.testing.assert_array_equal(a.get(), new)
    assert cuarray.asarray(h[:0]).get().shape == h[:0].shape


def test_staged_large_default_constants():
    # Above the real threshold with an odd size: several chunks, a partial last one.
    n = (_staging.PINNED_CHUNK * 2 + 12345) // 8
    h = numpy.random.default_rng(0).standard_normal(n)
    a = cuarray.asarray(h)
    numpy.testing.assert_array_equal(a.get(), h)
    h2 = numpy.random.default_rng(1).standard_normal(n)
    a.set(h2)
    del h2  # the source may go as soon as set() returns
    numpy.testing.assert_array_equal(a[-5:].get(), numpy.random.default_rng(1).standard_normal(n)[-5:])


def test_staged_on_stream():
    s = cuarray.cuda.Stream()
    h = numpy.arange(3_000_000, dtype=numpy.float32)
    with s:
        a = cuarray.asarray(h)
        b = a.get(stream=s)
    numpy.testing.assert_array_equal(b, h)
