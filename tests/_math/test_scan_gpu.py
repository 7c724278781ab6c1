"""Scans on the GPU against NumPy: cumsum/cumprod/nancum*, ufunc.accumulate, diff/ediff1d and the
internal `inclusive_sum_1d`. Sizes stress the look-back (1, tile-1, tile, tile+1, 10^6+7,
2^27+3); integers compare exactly; floats within a bound scaled by the running sum of |x| (the
parallel order differs from NumPy's sequential one); two runs are bit-identical."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray._core import scan  # noqa: E402
from cuarray._math import arithmetic, extrema, sums_scan  # noqa: E402
from cuarray._logic import ops as logic_ops  # noqa: E402
from cuarray._bitwise import ops as bitwise_ops  # noqa: E402

TILE = 32 * scan.flat_knobs(True)[0] * scan._ITEMS  # float32 tile of the flat kernel (threads x 48)


def cu(name):
    return getattr(cuarray, name, None) or getattr(sums_scan, name)


def _rand(shape, dt, seed, positive=False):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if (positive or dt.kind == "u") else -50
        return rng.integers(lo, 50, size=shape).astype(dt)
    if dt.kind == "c":
        v = rng.random(shape) + 0.5 + 1j * (rng.random(shape) - 0.5)
        return v.astype(dt)
    lo = 0.5 if positive else -1.0
    return (lo + rng.random(shape) * (1.5 - lo)).astype(dt)


def _check(got, x, ref_fn, dtype=None, rtol=None):
    """Compare a device result with NumPy's on host `x`; ints exactly, floats within
    rtol * (running sum of |x| in float64) for sums."""
    got_h = got.get()
    ref = ref_fn(x)
    assert got_h.dtype == ref.dtype, (got_h.dtype, ref.dtype)
    assert got_h.shape == ref.shape
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(got_h, ref)
        return
    if rtol is None:
        rtol = {"e": 2e-3, "f": 1e-5, "F": 1e-5, "d": 1e-12, "D": 1e-12}[ref.dtype.char]
    ref64 = ref_fn(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)) if x.dtype.kind != "b" else ref
    scale = np.abs(ref_fn(np.abs(x).astype(np.float64))) if x.dtype.kind != "b" else 1
    err = np.abs(got_h.astype(ref64.dtype) - ref64)
    bound = rtol * (scale + 1)
    bad = ~(err <= bound) & ~(np.isnan(got_h) & np.isnan(ref64))
    assert not bad.any(), "max err {} at {}".format(err[bad].max(), np.argwhere(bad)[:3].tolist())


# -- sizes around the tile, long 1-D ---------------------------------------------------------------

@pytest.mark.parametrize("n", [1, TILE - 1, TILE, TILE + 1, 3 * TILE + 17, 10**6 + 7])
@pytest.mark.parametrize("dt", ["float32", "int32", "float64", "bool"])
def test_cumsum_1d_sizes(n, dt):
    x = _rand(n, dt, seed=n)
    _check(cu("cumsum")(cuarray.asarray(x)), x, np.cumsum)


def test_cumsum_1d_huge():
    n = 2**27 + 3
    x = _rand(n, "int32", seed=1)
    got = cu("cumsum")(cuarray.asarray(x))
    np.testing.assert_array_equal(got.get(), np.cumsum(x))
    y = _rand(n, "float32", seed=2, positive=True)
    _check(cu("cumsum")(cuarray.asarray(y)), y, np.cumsum, rtol=1e-4)


@pytest.mark.parametrize("dt,n", [("int32", 3 * 10**7 + 5), ("float32", 3 * 10**7 + 5), ("float64", 2 * 10**7 + 1),
                                  ("complex128", 10**7 + 3), ("float16", 3 * 10**7 + 5), ("int16", 2 * 10**7 + 9)])
def test_cumsum_many_tiles_per_block(dt, n):
    # Thousands of tiles (more than the GPU holds at once: blocks wait on predecessors that ran
    # in earlier waves); an unaligned view takes the 1-element path; rows are segments.
    x = _rand(n, dt, seed=n, positive=dt == "float16")
    d = cuarray.asarray(x)
    if dt == "float16":
        got = cu("cumsum")(d, dtype=np.float32)
        # the reference sums in float32 from float16 input, in float64 from the float64 copy
        _check(got, x, lambda v: np.cumsum(v.astype(np.float32) if v.dtype == np.float16 else v), rtol=1e-4)
    else:
        _check(cu("cumsum")(d), x, np.cumsum, rtol=1e-4 if dt == "float32" else None)
    if dt in ("float32", "int32"):
        _check(cu("cumsum")(d[1:]), x[1:], np.cumsum, rtol=1e-4 if dt == "float32" else None)
        rows = x[: 400 * 50021].reshape(400, 50021)
        _check(cu("cumsum")(cuarray.asarray(rows), axis=1), rows, lambda v: np.cumsum(v, axis=1),
               rtol=1e-4 if dt == "float32" else None)


# -- dtypes x axes ------------------------------------------------------------------------------

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
SHAPES_AXES = [((37, 5003), 1), ((37, 5003), 0), ((3000, 65), 0), ((3000, 65), -1), ((5, 7, 300), 0),
               ((5, 7, 300), 1), ((5, 7, 300), 2), ((5, 7, 300), None), ((4, 2000, 3), 1), ((100000, 2), 0)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,axis", SHAPES_AXES, ids=lambda v: str(v))
def test_cumsum_axes(dt, shape, axis):
    x = _rand(shape, dt, seed=zlib.crc32(repr((dt, shape, axis)).encode()))
    _check(cu("cumsum")(cuarray.asarray(x), axis=axis), x, lambda v: np.cumsum(v, axis=axis))


@pytest.mark.parametrize("dt", ["int8", "int64", "uint32", "float32", "float64", "complex64", "bool"])
@pytest.mark.parametrize("shape,axis", SHAPES_AXES[::2], ids=lambda v: str(v))
def test_cumprod_axes(dt, shape, axis):
    rng = np.random.default_rng(7)
    if np.dtype(dt).kind in "fc":
        x = (0.99 + 0.02 * rng.random(shape)).astype(dt)  # products stay near 1
    else:
        x = _rand(shape, dt, seed=8)
    _check(cu("cumprod")(cuarray.asarray(x), axis=axis), x, lambda v: np.cumprod(v, axis=axis), rtol=1e-4
           if np.dtype(dt).char in "fF" else None)


def test_dtype_argument_and_float16():
    x = _rand((300, 17), "int8", seed=3)
    _check(cu("cumsum")(cuarray.asarray(x), axis=0, dtype=np.int16), x, lambda v: np.cumsum(v, axis=0, dtype=np.int16))
    _check(cu("cumsum")(cuarray.asarray(x), axis=1, dtype=np.float32), x,
           lambda v: np.cumsum(v, axis=1, dtype=np.float32))
    # float16: accumulated in float32, rounded once (closer to the exact sum than NumPy's).
    h = _rand(5000, "float16", seed=4, positive=True)
    got = cu("cumsum")(cuarray.asarray(h)).get()
    assert got.dtype == np.float16
    exact = np.cumsum(h.astype(np.float64))
    assert np.all(np.abs(got - exact) <= np.abs(exact) * 2**-10)


# -- layouts, out=, empty, 0-d -----------------------------------------------------------------------

def test_non_contiguous_inputs():
    x = _rand((300, 400), "float32", seed=5)
    d = cuarray.asarray(x)
    for axis in (0, 1, None):
        _check(cu("cumsum")(d[:, ::3], axis=axis), x[:, ::3], lambda v: np.cumsum(v, axis=axis))
        _check(cu("cumsum")(d.T, axis=axis), x.T, lambda v: np.cumsum(v, axis=axis))  # F-ordered
        _check(cu("cumsum")(d[::-2], axis=axis), x[::-2], lambda v: np.cumsum(v, axis=axis))


def test_out():
    x = _rand((64, 999), "int32", seed=6)
    d = cuarray.asarray(x)
    out = cuarray.empty((64, 999), np.int64)
    r = cu("cumsum")(d, axis=1, out=out)
    assert r is out
    np.testing.assert_array_equal(out.get(), np.cumsum(x, axis=1))
    out32 = cuarray.empty((64, 999), np.float32)  # another dtype: cast on store
    cu("cumsum")(d, axis=0, out=out32)
    np.testing.assert_array_equal(out32.get(), np.cumsum(x, axis=0).astype(np.float32))
    big = cuarray.empty((64, 2 * 999), np.int64)  # non-contiguous out
    cu("cumsum")(d, axis=1, out=big[:, ::2])
    np.testing.assert_array_equal(big.get()[:, ::2], np.cumsum(x, axis=1))
    y = _rand(10**5, "float64", seed=7)
    dy = cuarray.asarray(y)
    cu("cumsum")(dy, out=dy)  # in place
    _check(dy, y, np.cumsum)
    with pytest.raises(ValueError):
        cu("cumsum")(d, axis=1, out=cuarray.empty((64, 998), np.int64))


def test_empty_and_0d():
    for shape, axis in (((0,), None), ((0, 3), 0), ((2, 0, 3), 1), ((2, 0, 3), None)):
        x = np.ones(shape, np.int32)
        got = cu("cumsum")(cuarray.asarray(x), axis=axis)
        ref = np.cumsum(x, axis=axis)
        assert got.shape == ref.shape and got.dtype == ref.dtype
    z = cu("cumsum")(cuarray.asarray(np.array(5, np.int8)))
    assert z.shape == (1,) and z.dtype == np.int64 and z.get()[0] == 5
    z = cu("cumprod")(cuarray.asarray(np.array(2.5)), axis=0)
    assert z.shape == (1,) and z.get()[0] == 2.5
    with pytest.raises(TypeError):
        scan.ufunc_accumulate(arithmetic.add, cuarray.asarray(np.array(5)))
    with pytest.raises(np.exceptions.AxisError):
        cu("cumsum")(cuarray.asarray(np.ones((2, 3))), axis=2)


# -- nan-, accumulate, internal API, determinism ------------------------------------------------------

def test_nancumsum_nancumprod():
    x = _rand((50, 3001), "float32", seed=9, positive=True)
    x[np.random.default_rng(9).random(x.shape) < 0.1] = np.nan
    for axis in (0, 1, None):
        _check(cu("nancumsum")(cuarray.asarray(x), axis=axis), x, lambda v: np.nancumsum(v, axis=axis))
    y = (0.99 + 0.02 * np.random.default_rng(10).random(20000)).astype(np.float64)
    y[::7] = np.nan
    _check(cu("nancumprod")(cuarray.asarray(y)), y, np.nancumprod)
    i = _rand(1000, "int16", seed=11)
    _check(cu("nancumsum")(cuarray.asarray(i)), i, np.nancumsum)


ACC_UFUNCS = [(extrema.maximum, "float32"), (extrema.minimum, "int16"), (extrema.fmax, "float64"),
              (extrema.fmin, "float32"), (logic_ops.logical_and, "bool"), (logic_ops.logical_or, "float32"),
              (bitwise_ops.bitwise_xor, "uint8"), (bitwise_ops.bitwise_or, "int64"),
              (arithmetic.subtract, "int32"), (arithmetic.divide, "float64"), (arithmetic.add, "int8"),
              (extrema.maximum, "complex64")]


@pytest.mark.parametrize("uf,dt", ACC_UFUNCS, ids=lambda v: getattr(v, "__name__", v))
@pytest.mark.parametrize("shape,axis", [((20011,), 0), ((41, 997), 1), ((700, 33), 0), ((3, 5, 7), 1)],
                         ids=lambda v: str(v))
def test_ufunc_accumulate(uf, dt, shape, axis):
    x = _rand(shape, dt, seed=12, positive=uf.__name__ == "divide")
    if x.dtype.kind == "f" and uf.__name__ in ("maximum", "fmin"):
        x.flat[::97] = np.nan
    if uf.__name__ == "logical_and":
        x = np.random.default_rng(1).random(shape) < 0.999
    npf = getattr(np, uf.__name__)
    got = scan.ufunc_accumulate(uf, cuarray.asarray(x), axis=axis)
    ref = npf.accumulate(x, axis=axis)
    if uf.__name__ == "divide":
        np.testing.assert_allclose(got.get(), ref, rtol=1e-12)
    else:
        np.testing.assert_array_equal(got.get(), ref)
        assert got.dtype == ref.dtype


@pytest.mark.parametrize("n", [1, 5, 8191, 8192, 8193, 10**7 + 3])
def test_inclusive_sum_1d_mask(n):
    m = np.random.default_rng(n).random(n) < 0.5
    got = scan.inclusive_sum_1d(cuarray.asarray(m))
    assert got.dtype == np.int64 and got.flags.c_contiguous
    np.testing.assert_array_equal(got.get(), np.cumsum(m))
    ex = scan.exclusive_sum_1d(cuarray.asarray(m), dtype=np.int32)
    ref = np.concatenate([[0], np.cumsum(m)[:-1]]).astype(np.int32)
    np.testing.assert_array_equal(ex.get(), ref)
    i = np.random.default_rng(n + 1).integers(0, 3, n).astype(np.uint8)
    np.testing.assert_array_equal(scan.inclusive_sum_1d(cuarray.asarray(i)).get(), np.cumsum(i, dtype=np.int64))


def test_deterministic():
    x = _rand(2 * 10**7 + 11, "float32", seed=13)
    d = cuarray.asarray(x)
    a = cu("cumsum")(d).get()
    for _ in range(3):
        b = cu("cumsum")(d).get()
        assert a.tobytes() == b.tobytes()
    m = cuarray.asarray(_rand((3000, 4000), "float32", seed=14))
    a = cu("cumsum")(m, axis=0).get()
    assert a.tobytes() == cu("cumsum")(m, axis=0).get().tobytes()


# -- diff / ediff1d -----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["int16", "float32", "bool", "uint8"])
def test_diff(dt):
    x = _rand((6, 9), dt, seed=15)
    d = cuarray.asarray(x)
    for n, axis in ((1, -1), (2, 0), (3, 1), (12, 1), (0, 0)):
        got = cu("diff")(d, n=n, axis=axis)
        ref = np.diff(x, n=n, axis=axis)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_array_equal(got.get(), ref)
    if dt != "bool":
        got = cu("diff")(d, axis=0, prepend=1, append=cuarray.asarray(x[:2]))
        np.testing.assert_array_equal(got.get(), np.diff(x, axis=0, prepend=1, append=x[:2]))
    with pytest.raises(ValueError):
        cu("diff")(cuarray.asarray(np.array(3)))


def test_ediff1d():
    x = _rand((4, 5), "int32", seed=16)
    d = cuarray.asarray(x)
    np.testing.assert_array_equal(cu("ediff1d")(d).get(), np.ediff1d(x))
    got = cu("ediff1d")(d, to_end=cuarray.asarray([7, 8]), to_begin=-1)
    np.testing.assert_array_equal(got.get(), np.ediff1d(x, to_end=[7, 8], to_begin=-1))
    with pytest.raises(TypeError):
        cu("ediff1d")(cuarray.asarray(np.ones(3, np.int8)), to_begin=3.5)
    assert cu("ediff1d")(cuarray.asarray(np.ones(1))).shape == (0,)
