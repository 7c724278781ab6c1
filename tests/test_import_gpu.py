"""The methods and operators whose modules `import cuarray` leaves for first use
(_array_methods._ON_FIRST_CALL) give NumPy's results on the device, on the first call (the
stand-in) and after it (the method it installed)."""

from __future__ import annotations

import io

import numpy
import pytest

import cuarray
from cuarray._core.ndarray import ndarray

pytestmark = pytest.mark.gpu


def _inplace_matmul(xp, x, sq):
    x @= xp.asarray(sq)
    return x


def _cases(rng):
    """name -> (fn(xp, x), host x): the same call on NumPy and on cuarray."""
    a = rng.standard_normal((6, 5)).astype(numpy.float32)
    sq = rng.standard_normal((5, 5)).astype(numpy.float32)
    s = numpy.sort(rng.standard_normal(7))
    return {
        "sort": (lambda xp, x: (x.sort(axis=1), x)[1], a),
        "argsort": (lambda xp, x: x.argsort(axis=0, kind="stable"), a),
        "partition": (lambda xp, x: (x.partition(2, axis=1), x[:, 2])[1], a),
        "argpartition": (lambda xp, x: xp.take_along_axis(x, x.argpartition(2, axis=1), axis=1)[:, 2], a),
        "mean": (lambda xp, x: x.mean(axis=0), a),
        "var": (lambda xp, x: x.var(ddof=1), a),
        "std": (lambda xp, x: x.std(axis=1), a),
        "cumsum": (lambda xp, x: x.cumsum(axis=1), a),
        "cumprod": (lambda xp, x: x.cumprod(), a[:2]),
        "dot": (lambda xp, x: x.dot(x.T), a),
        "__matmul__": (lambda xp, x: x @ x.T, a),
        "__rmatmul__": (lambda xp, x: x.T.__rmatmul__(x), a),
        "__imatmul__": (lambda xp, x: _inplace_matmul(xp, x, sq), a),
        "take": (lambda xp, x: x.take([1, 4], axis=1), a),
        "diagonal": (lambda xp, x: x.diagonal(1), a),
        "compress": (lambda xp, x: x.compress([True, False, True, False, True], axis=1), a),
        "choose": (lambda xp, x: (x > 0).astype(numpy.int64).choose([x, -x]), a),
        "searchsorted": (lambda xp, x: x.searchsorted(x[::2] + 0.01), s),
        "put": (lambda xp, x: (x.put(xp.asarray([0, 3, 2]), 9.0), x)[1], s),
    }


@pytest.mark.parametrize("name", sorted(_cases(numpy.random.default_rng(0))))
def test_deferred_method_matches_numpy(name):
    fn, host = _cases(numpy.random.default_rng(len(name)))[name]
    for _ in range(2):  # the stand-in's call, then the installed method's
        want = fn(numpy, host.copy())
        got = fn(cuarray, cuarray.asarray(host))
        numpy.testing.assert_allclose(cuarray.asnumpy(got), want, rtol=2e-5, atol=1e-5)
    assert "on the first call" not in (getattr(ndarray, name).__doc__ or "")  # the stand-in is gone


def test_tofile_and_dumps_round_trip(tmp_path):
    h = numpy.random.default_rng(1).standard_normal(10)
    a = cuarray.asarray(h)
    path = tmp_path / "x.bin"
    a.tofile(str(path))
    numpy.testing.assert_array_equal(numpy.fromfile(path), h)
    buf = io.BytesIO(a.dumps())
    back = numpy.load(buf, allow_pickle=True)
    numpy.testing.assert_array_equal(cuarray.asnumpy(back), h)


def test_numpy_matmul_dispatches_to_the_device():
    rng = numpy.random.default_rng(2)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    got = numpy.matmul(cuarray.asarray(x), cuarray.asarray(y))
    assert isinstance(got, cuarray.ndarray)
    numpy.testing.assert_allclose(cuarray.asnumpy(got), x @ y, rtol=1e-12)
