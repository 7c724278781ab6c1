"""median and nanmedian on the device against NumPy, bit for bit: every dtype, axes (None, int,
negative, tuple), keepdims, out=, layouts (strided, transposed, negative strides), NaN rows and
all-NaN rows, even and odd lengths, empty and 0-d inputs, integer and float extremes, the
reduction strategies of long rows and many rows, 64-bit counts, and pad(mode='median'). Fresh
random data with many ties, seeded by the test id."""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
INEXACT = [np.dtype(c) for c in "efdFD"]
FUNCS = ["median", "nanmedian"]


def seed_of(request) -> int:
    return zlib.crc32(request.node.nodeid.encode()) + np.random.SeedSequence().entropy % 1000


def _specials(dt, huge):
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [info.min, info.max, info.max - 1]
    fin = np.finfo(dt.char.lower() if dt.kind == "c" else dt)
    vals = [0.0, -0.0, np.inf, -np.inf] + ([fin.max, -fin.max, fin.smallest_subnormal] if huge else [])
    if dt.kind == "c":
        vals += [complex(1.0, np.inf), complex(-np.inf, 2.0), complex(-0.0, 1.0)]
    return vals


def make(dt, shape, seed, nans=0.0, huge=True):
    """Host data: many ties (small integers, floats rounded to 0.5), a few extremes; NaNs (of
    every complex NaN class) at the rate `nans`. `huge=False` for nanmedian: NumPy's path for
    short rows adds the middle values in the input type, which overflows where median does not."""
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -40), min(info.max, 40), shape, endpoint=True).astype(dt)
    else:
        x = np.round(rng.uniform(-30, 30, shape) * 2) / 2
        if dt.kind == "c":
            x = x + 1j * np.round(rng.uniform(-3, 3, shape))
        x = x.astype(dt)
    if x.size:
        sp = np.array(_specials(dt, huge), dtype=dt)
        x.flat[rng.integers(0, x.size, max(1, x.size // 12))] = rng.choice(sp, max(1, x.size // 12))
    if nans and x.size:
        x[rng.random(shape) < nans] = np.nan
        if dt.kind == "c":
            x.flat[rng.integers(0, x.size, 3)] = [complex(1, np.nan), complex(np.nan, 2), complex(np.nan, np.nan)]
    return x


def fn(xp, name):
    return getattr(xp, name)


@pytest.mark.parametrize("dt", ALL, ids=testing.dtype_id)
@pytest.mark.parametrize("name", FUNCS)
def test_dtypes_and_axes(request, dt, name):
    seed = seed_of(request)
    h = make(dt, (6, 5, 7), seed, huge=name == "median")

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        x, f = xp.asarray(h), fn(xp, name)
        # lengths: 210 (even), 6 (even), 5, 7, 42 (even), 35, 30 (even)
        return (f(x), f(x, axis=0), f(x, axis=1), f(x, axis=-1), f(x, axis=(0, 2)), f(x, axis=(-2, -1)),
                f(x, axis=(1, 0), keepdims=True), f(x, keepdims=True), f(x[:, :, 0], axis=1))

    body()


@pytest.mark.parametrize("dt", INEXACT, ids=testing.dtype_id)
@pytest.mark.parametrize("name", FUNCS)
def test_nan_rows(request, dt, name):
    seed = seed_of(request)
    h = make(dt, (9, 8), seed, nans=0.2, huge=name == "median")
    h[1] = np.nan  # an all-NaN row
    h[2, :7] = np.nan  # one number left
    h[3, 1:] = h[3, 0]  # ties only
    h[4, :] = make(dt, (8,), seed + 1)  # no NaN

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        x, f = xp.asarray(h), fn(xp, name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's All-NaN slice (cuarray: none)
            return f(x, axis=1), f(x[:, 1:], axis=1), f(x, axis=0), f(x[2:]), f(x[4:5], axis=None)

    body()


@pytest.mark.parametrize("dt", INEXACT, ids=testing.dtype_id)
def test_complex_and_float_nan_values(dt):
    """median of a row with NaN: NumPy's largest element, part by part (complex NaN classes)."""
    if dt.kind != "c":
        rows = [[1.0, np.nan, -np.inf, 2.0], [np.nan, -np.nan, 0.0, -0.0]]
    else:
        c = complex
        nan = np.nan
        rows = [[c(5, 2), c(1, nan), c(3, nan), c(-7, 0)], [c(nan, 4), c(nan, -1), c(2, nan), c(0, 0)],
                [c(nan, nan), c(nan, 1), c(9, 9), c(1, nan)], [c(-0.0, np.inf), c(0, 1.5), c(1, 1), c(2, 2)]]
    h = np.array(rows, dtype=dt)
    got = cuarray.median(cuarray.asarray(h), axis=1).get()
    want = np.median(h, axis=1)
    np.testing.assert_array_equal(got.real, want.real)
    np.testing.assert_array_equal(np.asarray(got).imag, np.asarray(want).imag)


@testing.for_layouts()
@pytest.mark.parametrize("name", FUNCS)
def test_layouts(request, layout, name):
    seed = seed_of(request)
    hs = [make(np.dtype(dt), (9, 12, 20), seed + i, nans=0.05 if dt == "f4" else 0, huge=name == "median")
          for i, dt in enumerate(("f4", "i2"))]

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        f = fn(xp, name)
        out = []
        for h in hs:
            x = testing.non_contiguous(h, layout, xp)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                out += [f(x), f(x, axis=0), f(x, axis=1), f(x, axis=2), f(x, axis=(0, 2))]
        return tuple(out)

    body()


@pytest.mark.parametrize("shape,axis", [((3, 1_000_003), 1), ((1_000_000,), None), ((3000, 301), 0),
                                        ((256, 5000), -1), ((64, 64, 300), (0, 2))], ids=str)
@pytest.mark.parametrize("dt", ["f4", "i8"])
def test_long_rows_and_many_rows(request, shape, axis, dt):
    """The reduction engine's strategies: block and split (fused) rows, thread per column."""
    seed = seed_of(request)
    dt = np.dtype(dt)
    h = make(dt, shape, seed)
    hn = h.copy()
    if dt.kind == "f":
        hn.flat[::1000] = np.nan

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        return xp.median(xp.asarray(h), axis=axis), xp.nanmedian(xp.asarray(hn)[..., 1:], axis=axis)

    body()


@pytest.mark.parametrize("dt", ALL, ids=testing.dtype_id)
def test_extremes(dt):
    """Keys at the ends of every type: integer min/max (uint64 max), +-max floats, subnormals,
    +-0.0, +-inf; lengths 1 to 6."""
    if dt.kind == "b":
        vals = [True, False, True, True, False, True]
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [info.max, info.min, info.max, info.max - 1, info.min + 1, 0]
    else:
        fin = np.finfo(dt.char.lower() if dt.kind == "c" else dt)
        vals = [fin.max, -fin.max, fin.smallest_subnormal, -0.0, np.inf, fin.max]
    h = np.array(vals, dtype=dt)

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        x = xp.asarray(h)
        with np.errstate(all="ignore"):
            return tuple(xp.median(x[:n]) for n in range(1, 7)) + (xp.median(x[::-1][:4]), xp.median(x[1:5]))

    body()


def test_out_and_keepdims(request):
    seed = seed_of(request)
    h = make(np.dtype("f8"), (4, 6, 5), seed, huge=False)
    hi = make(np.dtype("i4"), (4, 6, 5), seed)

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        x, xi = xp.asarray(h), xp.asarray(hi)
        out1 = xp.zeros((4, 1, 5), dtype=np.float32)
        assert xp.median(x, axis=1, out=out1, keepdims=True) is out1
        out2 = xp.zeros((6,), dtype=np.float64)
        assert xp.nanmedian(x, axis=(0, 2), out=out2) is out2
        out3 = xp.zeros((4, 10))[:, ::2]  # strided out
        xp.median(x, axis=1, out=out3)
        out4 = xp.zeros((4, 5), dtype=np.int64)  # unsafe cast, as numpy.mean's out=
        xp.median(xi, axis=1, out=out4)
        out5 = xp.zeros((), dtype=np.float64)
        xp.median(xi, out=out5)
        out6 = xp.zeros((1, 1, 1), dtype=np.float32)
        xp.nanmedian(x, axis=None, out=out6, keepdims=True)
        return out1, out2, out3, out4, out5, out6

    body()


def test_out_overlapping_input():
    h = make(np.dtype("f4"), (5, 8), 3)
    x = cuarray.asarray(h)
    cuarray.median(x, axis=0, out=x[0])  # every pass reads the row being written: a temporary
    want = h.copy()
    np.median(h, axis=0, out=want[0])
    np.testing.assert_array_equal(x.get(), want)


@pytest.mark.parametrize("name", FUNCS)
def test_empty_and_0d(name):
    cases = [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((3, 0), 0), ((2, 0, 3), 1)]

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        f = fn(xp, name)
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for dt in ("i4", "e", "F", "?"):
                for shape, axis in cases:
                    out.append(f(xp.zeros(shape, dtype=dt), axis=axis))
                out.append(f(xp.asarray(np.array(7, dtype=dt))))
            out.append(f(xp.asarray(np.array(np.nan, dtype="f4"))))
            out.append(f(xp.asarray(np.array(complex(np.inf, 1), dtype="D"))))
        return tuple(out)

    body()
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        fn(cuarray, name)(cuarray.zeros((3, 0)), axis=1)


def test_errors_and_dispatch():
    @testing.numpy_cuarray_allclose(accept_error=True)
    def bad_axis(xp):
        return xp.median(xp.zeros((2, 3)), axis=2)

    @testing.numpy_cuarray_allclose(accept_error=True)
    def dup_axis(xp):
        return xp.nanmedian(xp.zeros((2, 3)), axis=(0, -2))

    @testing.numpy_cuarray_allclose(accept_error=True)
    def bad_out(xp):
        return xp.median(xp.zeros((2, 3)), axis=0, out=xp.zeros(2))

    bad_axis()
    dup_axis()
    bad_out()
    h = make(np.dtype("f4"), (7, 4), 5)
    x = cuarray.asarray(h)
    r = np.median(x, axis=0)  # __array_function__: runs on the device
    assert isinstance(r, cuarray.ndarray)
    np.testing.assert_array_equal(r.get(), np.median(h, axis=0))
    cuarray.median(x, overwrite_input=True)
    np.testing.assert_array_equal(x.get(), h)  # never modified


def test_rows_over_2_30_elements_count_in_64_bits():
    n = 2**30 + 2
    x = cuarray.zeros(n, dtype=np.int8)
    x[::3] = 1
    x[1::3] = 2

    def want(start):  # the median of x[start:], from the counts of 0, 1 and 2
        m = n - start
        c1, c2 = len(range(start + (-start) % 3, n, 3)), len(range(start + (1 - start) % 3, n, 3))
        at = lambda i: 0 if i < m - c1 - c2 else 1 if i < m - c2 else 2  # noqa: E731
        return (at(m // 2 - 1) + at(m // 2)) / 2 if m % 2 == 0 else float(at(m // 2))

    assert float(cuarray.median(x).get()) == want(0)
    assert float(cuarray.median(x[1:]).get()) == want(1)  # odd length
    assert float(cuarray.nanmedian(x[2:]).get()) == want(2)


@pytest.mark.parametrize("dtype", ["f4", "i2", "u1", "e", "F", "?"])
def test_pad_median(request, dtype):
    seed = seed_of(request)
    dt = np.dtype(dtype)
    h = make(dt, (5, 6), seed, huge=False)
    if dt.kind in "fc":
        h = np.where(np.isfinite(h), h, 1).astype(dt)  # pad means of inf - inf are NaN either way

    @testing.numpy_cuarray_array_equal()
    def body(xp):
        x = xp.asarray(h)
        return (xp.pad(x, 2, mode="median"), xp.pad(x, ((1, 3), (2, 0)), mode="median", stat_length=2),
                xp.pad(x, ((3, 1), (1, 4)), mode="median", stat_length=((1, 3), (4, 5))),
                xp.pad(x[::-1, 1:], 3, mode="median", stat_length=1))

    body()


@pytest.mark.parametrize("name", FUNCS)
def test_bad_arguments_raise_like_numpy(name):
    # NumPy's exception types for a bad axis, repeated axes, a wrong out= shape or type; the
    # library stays usable afterwards.
    h = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    d = cuarray.asarray(h)
    npf, cuf = getattr(np, name), getattr(cuarray, name)
    cases = [dict(axis=3), dict(axis=-4), dict(axis=(0, 0)), dict(axis=1.5)]
    for kw in cases:
        with pytest.raises(Exception) as np_err:
            npf(h, **kw)
        with pytest.raises(type(np_err.value)):
            cuf(d, **kw)
    with pytest.raises(ValueError):
        cuf(d, axis=0, out=cuarray.empty((4, 3), np.float32))
    with pytest.raises(TypeError):
        cuf(d, axis=0, out=np.empty((3, 4), np.float32))
    np.testing.assert_array_equal(cuf(d, axis=2).get(), npf(h, axis=2))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_nanmedian_complex_all_nan_rows_as_numpy(dt):
    """NumPy's nanmedian of rows under 600 elements along kept axes (a masked median) fills an
    all-NaN row with nan+0j (fuzz seed 12 index 154: a row [1+nanj] was 1+nanj here); rows with a
    number keep their median; its 1-D path (axis=None) is another path, left out here."""
    c, nan, inf = complex, np.nan, np.inf
    h = np.array([[c(1, nan), c(nan, 3)], [c(-inf, nan), c(nan, nan)], [c(2, 1), c(nan, 0)], [c(1, 1), c(3, -1)]], dt)
    for x, axis in ((h, 1), (h[:, :1], 1), (h.T, 0), (h.reshape(2, 2, 2), (1, 2)), (h[None], -1)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.nanmedian(x, axis=axis)
        got = cuarray.nanmedian(cuarray.asarray(x), axis=axis).get()
        what = str((x, axis, want, got))
        assert got.dtype == want.dtype and got.shape == want.shape, what
        np.testing.assert_array_equal(got.real, want.real, err_msg=what)
        np.testing.assert_array_equal(got.imag, want.imag, err_msg=what)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_nanmedian_complex_all_nan_rows_other_paths_as_numpy(dt):
    """NumPy's other nanmedian paths (axis=None, every axis, rows of 600 or more) return an all-NaN
    row's last element in the C order of the reduced axes (fuzz seed 22 index 48: [nan-1j,
    nan-0.35j] gave nan-1j, the NaN our sort order ranks first)."""
    c, nan = complex, np.nan
    h = np.array([[c(nan, -1), c(nan, -0.35)], [c(nan, 2), c(nan, 3)]], dt)
    long = np.full((3, 700), c(nan, 1), dt)
    long[:, -1] = c(nan, -5)
    long[1, 3] = c(nan, 9)
    long[2, 5] = c(4, 1)  # a number: its row keeps its median
    cases = ((h[0], None), (h[0], 0), (h, None), (h, (0, 1)), (h.T, None), (h.T[::-1], (0, 1)), (long, 1),
             (long.T, 0), (long[:, ::-2], 1))
    for x, axis in cases:
        for keepdims in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = np.asarray(np.nanmedian(x, axis=axis, keepdims=keepdims))
            got = cuarray.nanmedian(cuarray.asarray(x), axis=axis, keepdims=keepdims).get()
            what = str((x.shape, axis, keepdims, want, got))
            assert got.dtype == want.dtype and got.shape == want.shape, what
            np.testing.assert_array_equal(got.real, want.real, err_msg=what)
            np.testing.assert_array_equal(got.imag, want.imag, err_msg=what)
