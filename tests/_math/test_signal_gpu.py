"""convolve, correlate, interp, gradient, trapezoid, packbits/unpackbits, window functions and
cumulative_sum/prod of 0-d input on the device, against NumPy. Fresh random data."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._math import convolution  # noqa: E402

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float16, numpy.float32,
          numpy.float64, numpy.complex64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
MODES = pytest.mark.parametrize("mode", ["full", "same", "valid", 1])
TOL = {"rtol": {"e": 1e-2, "f": 1e-5, "F": 1e-5, "default": 1e-11},
       "atol": {"e": 1e-2, "f": 1e-4, "F": 1e-4, "default": 1e-10}}


def rand(xp, shape, dtype, seed=None, scale=5):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


# -- convolve / correlate --------------------------------------------------------------------------
@dtypes
@MODES
@pytest.mark.parametrize("na,nv", [(10, 3), (3, 10), (7, 7), (1, 5), (33, 1)])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@testing.numpy_cuarray_allclose(**TOL)
def test_convolve_correlate_direct(xp, fn, na, nv, mode, dtype):
    a = rand(xp, (na,), dtype, seed=na)
    v = rand(xp, (nv,), dtype, seed=nv + 100)
    return getattr(xp, fn)(a, v, mode)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("na,nv", [(3000, 1100), (1100, 2500), (4099, 1030), (40000, 1100), (1100, 50001)])
@pytest.mark.parametrize("blocks", [False, True])
def test_convolve_correlate_fft_path(fn, mode, dtype, na, nv, blocks, monkeypatch):
    switch = convolution.FFT_MIN_SHORT_TILED if numpy.dtype(dtype).kind == "f" else convolution.FFT_MIN_SHORT
    assert min(na, nv) >= switch  # this goes through cuarray.fft
    if blocks:  # overlap-save wherever four blocks fit (the default threshold: 2^21 samples)
        from cuarray._math import fft_convolve

        monkeypatch.setattr(fft_convolve, "BLOCKS_MIN", 0)
    a, v = rand(numpy, (na,), dtype), rand(numpy, (nv,), dtype)
    ref = getattr(numpy, fn)(a, v, mode)
    got = getattr(cuarray, fn)(cuarray.asarray(a), cuarray.asarray(v), mode)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    scale = numpy.abs(ref).max()
    tol = 1e-4 if numpy.dtype(dtype).char in "fF" else 1e-10
    numpy.testing.assert_allclose(got.get(), ref, atol=tol * scale, rtol=0)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("nv", [1024, 2048, 3001])
def test_float32_one_pass_blocks(fn, mode, nv, monkeypatch):
    """Issue 52's float32 convolve routes: k = 2048 / 3001 take overlap-save blocks of 8192 (B / S
    1.33 / 1.58, no longer 8 k). Either operand first, against NumPy at the FFT path's tolerance."""
    from cuarray._math import fft_convolve

    monkeypatch.setattr(fft_convolve, "BLOCKS_MIN", 0)  # (blocks at this size; the default: 2^21)
    f4 = numpy.dtype(numpy.float32)
    assert convolution.uses_fft(40000, nv, f4) and fft_convolve.use_blocks(40000, nv, True, f4)
    assert nv < 1024 or fft_convolve.block_len(nv, f4) == 8192
    rng = numpy.random.default_rng(nv)
    a = rng.standard_normal(40000).astype(f4)
    v = rng.standard_normal(nv).astype(f4)
    for x, y in ((a, v), (v, a)):
        ref = getattr(numpy, fn)(x, y, mode)
        got = getattr(cuarray, fn)(cuarray.asarray(x), cuarray.asarray(y), mode)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        numpy.testing.assert_allclose(got.get(), ref, atol=1e-4 * numpy.abs(ref).max(), rtol=0)


@pytest.mark.parametrize("nv", [1024, 2048])
def test_float32_long_convolve_default_plan(nv):
    """The bench rows' route with the default plan (2^21 + 5 samples, 'same'): overlap-save blocks,
    against a float64 FFT convolution on the host (NumPy's direct one is ~2e9 products here)."""
    scipy_signal = pytest.importorskip("scipy.signal")
    rng = numpy.random.default_rng(nv + 1)
    a = rng.standard_normal((1 << 21) + 5).astype(numpy.float32)
    v = rng.standard_normal(nv).astype(numpy.float32)
    assert convolution.uses_fft(a.size, nv, a.dtype)
    ref = scipy_signal.fftconvolve(a.astype(numpy.float64), v.astype(numpy.float64), "same")
    got = cuarray.convolve(cuarray.asarray(a), cuarray.asarray(v), "same")
    assert got.dtype == numpy.float32 and got.shape == ref.shape
    numpy.testing.assert_allclose(got.get(), ref, atol=1e-4 * numpy.abs(ref).max(), rtol=0)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_overlap_save_views_and_orders(fn, mode, monkeypatch):
    """The overlap-save path (cuarray/_math/fft_convolve.py) on strided and reversed views, the
    short operand first or second, float32 with float64 (float64 blocks)."""
    from cuarray._math import fft_convolve

    monkeypatch.setattr(fft_convolve, "BLOCKS_MIN", 0)  # (blocks at this size; the default: 2^21)
    a = rand(numpy, (150000,), numpy.float32)
    v = rand(numpy, (1500,), numpy.float64)
    da, dv = cuarray.asarray(a), cuarray.asarray(v)
    for x, y, dx, dy in ((a[::3], v, da[::3], dv), (v[::-1], a[::-3], dv[::-1], da[::-3])):
        ref = getattr(numpy, fn)(x, y, mode)
        got = getattr(cuarray, fn)(dx, dy, mode)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        numpy.testing.assert_allclose(got.get(), ref, atol=1e-10 * numpy.abs(ref).max(), rtol=0)


@testing.numpy_cuarray_allclose()
def test_convolve_mixed_dtypes_noncontiguous_and_0d(xp):
    a = rand(xp, (20,), numpy.int16, seed=1)[::3]
    v = rand(xp, (8,), numpy.float32, seed=2)[::-2]
    return xp.convolve(a, v), xp.correlate(a, v, "same"), xp.convolve(xp.asarray(numpy.float64(2.5)), v)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("case", ["empty_a", "empty_v", "2d", "badmode", "intmode", "nonemode"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_convolve_errors(xp, fn, case):
    a, v = rand(xp, (5,), numpy.float64), rand(xp, (3,), numpy.float64)
    if case == "empty_a":
        a = a[:0]
    elif case == "empty_v":
        v = v[:0]
    elif case == "2d":
        a = a.reshape(5, 1)
    mode = {"badmode": "bad", "intmode": 5, "nonemode": None}.get(case, "full")
    return getattr(xp, fn)(a, v, mode)


# -- interp ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("xdt", [numpy.float64, numpy.float32, numpy.int64, numpy.float16], ids=testing.dtype_id)
@pytest.mark.parametrize("fdt", [numpy.float64, numpy.float32, numpy.int32, numpy.complex128, numpy.complex64],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("lr", [(None, None), (-100.0, 100.0), (numpy.nan, 0)])
@testing.numpy_cuarray_allclose()
def test_interp(xp, xdt, fdt, lr):
    xp_h = numpy.sort(testing.shaped_random((12,), numpy, numpy.float64, scale=10, seed=3))
    x = rand(xp, (5, 7), xdt, seed=4, scale=14)
    fp = rand(xp, (12,), fdt, seed=5)
    left, right = lr
    if numpy.dtype(fdt).kind == "c" and left is not None:
        left, right = left + 1j, right - 2j
    return xp.interp(x, xp.asarray(xp_h), fp, left=left, right=right)


@testing.numpy_cuarray_allclose()
def test_interp_edges(xp):
    xph = xp.asarray(numpy.array([0.0, 1.0, 1.0, 2.0, 3.0]))
    fp = xp.asarray(numpy.array([0.0, numpy.inf, 5.0, -numpy.inf, 1.0]))
    x = xp.asarray(numpy.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, numpy.nan]))
    one = xp.interp(x, xp.asarray(numpy.array([1.0])), xp.asarray(numpy.array([7.0])))
    return xp.interp(x, xph, fp), one, xp.interp(2.5, xph[:2], xph[1:3])


@pytest.mark.parametrize("period", [360, -2.5])
@pytest.mark.parametrize("fdt", [numpy.float64, numpy.complex128], ids=testing.dtype_id)
@testing.numpy_cuarray_allclose()
def test_interp_period(xp, period, fdt):
    xph = rand(xp, (9,), numpy.float64, seed=6, scale=400)
    fp = rand(xp, (9,), fdt, seed=7)
    x = rand(xp, (20,), numpy.float64, seed=8, scale=800)
    return xp.interp(x, xph, fp, period=period)


@pytest.mark.parametrize("case", ["empty", "len", "period0", "complex_x", "2d"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_interp_errors(xp, case):
    x, xph, fp = rand(xp, (4,), numpy.float64), rand(xp, (5,), numpy.float64), rand(xp, (5,), numpy.float64)
    if case == "empty":
        return xp.interp(x, xph[:0], fp[:0])
    if case == "len":
        return xp.interp(x, xph, fp[:4])
    if case == "period0":
        return xp.interp(x, xph, fp, period=0)
    if case == "complex_x":
        return xp.interp(x + 1j, xph, fp)
    return xp.interp(x, xph.reshape(5, 1), fp)


# -- gradient / trapezoid --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64, numpy.complex128, numpy.float16],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("case", ["plain", "scalar_dx", "axis", "axes_coords", "neg_axis", "1d_coords", "T"])
@testing.numpy_cuarray_allclose(rtol={"e": 5e-2, "default": 1e-6}, atol={"e": 5e-2, "default": 1e-6})
def test_gradient(xp, dtype, edge_order, case):
    f = rand(xp, (5, 6), dtype, seed=11)
    if case == "plain":
        return xp.gradient(f, edge_order=edge_order)
    if case == "scalar_dx":
        return xp.gradient(f, 0.5, edge_order=edge_order)
    if case == "axis":
        return xp.gradient(f, 2.0, axis=1, edge_order=edge_order)
    if case == "axes_coords":
        x = xp.asarray(numpy.cumsum(numpy.random.default_rng(1).random(5) + 0.1))
        return xp.gradient(f, x, 3, edge_order=edge_order)
    if case == "neg_axis":
        return xp.gradient(f, axis=(-1,), edge_order=edge_order)
    if case == "1d_coords":
        return xp.gradient(f[0], xp.asarray(numpy.arange(6) * 2), edge_order=edge_order)
    return xp.gradient(f.T, edge_order=edge_order)


@pytest.mark.parametrize("case", ["small", "edge3", "args", "dist2d", "distlen"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_gradient_errors(xp, case):
    f = rand(xp, (2, 3), numpy.float64)
    if case == "small":
        return xp.gradient(f, edge_order=2)
    if case == "edge3":
        return xp.gradient(f, edge_order=3)
    if case == "args":
        return xp.gradient(f, 1.0, 2.0, 3.0)
    if case == "dist2d":
        return xp.gradient(f, f, f)
    return xp.gradient(f, xp.asarray(numpy.arange(3.0)), 1.0)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.complex64], ids=testing.dtype_id)
@pytest.mark.parametrize("case", ["dx", "x1d", "xnd", "axis0", "empty"])
@testing.numpy_cuarray_allclose(rtol=1e-5, atol=1e-5)
def test_trapezoid(xp, dtype, case):
    y = rand(xp, (4, 6), dtype, seed=12)
    if case == "dx":
        return xp.trapezoid(y, dx=0.25)
    if case == "x1d":
        return xp.trapezoid(y, xp.asarray(numpy.linspace(0, 1, 6) ** 2))
    if case == "xnd":
        return xp.trapezoid(y, rand(xp, (4, 6), numpy.float64, seed=13))
    if case == "axis0":
        return xp.trapezoid(y.T, axis=0)
    return xp.trapezoid(y[:, :0])


# -- packbits / unpackbits -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint8, numpy.int64, numpy.uint32], ids=testing.dtype_id)
@pytest.mark.parametrize("shape,axis", [((13,), None), ((3, 11), None), ((3, 11), 1), ((9, 4), 0), ((2, 3, 17), -1),
                                        ((), None), ((), 0), ((0, 5), 1), ((4, 8), 1)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@testing.numpy_cuarray_array_equal()
def test_packbits(xp, dtype, shape, axis, bitorder):
    a = rand(xp, shape, dtype, seed=14, scale=2)
    return xp.packbits(a, axis=axis, bitorder=bitorder)


@pytest.mark.parametrize("shape,axis", [((5,), None), ((3, 4), None), ((3, 4), 1), ((3, 4), 0), ((), None),
                                        ((2, 0), 1)])
@pytest.mark.parametrize("count", [None, 0, 5, 13, 40, -3])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_unpackbits(xp, shape, axis, count, bitorder):
    a = testing.shaped_random(shape, xp, numpy.uint8, scale=255, seed=15)
    out = xp.unpackbits(a, axis=axis, count=count, bitorder=bitorder)
    if a.size == 0 and count:
        # NumPy 2.5 leaves the padding of an empty input uninitialised; it is documented as zeros
        assert not bool((out != 0).any()) if xp is not numpy else True
        return out.shape
    return out


@pytest.mark.parametrize("case", ["float_pack", "int_unpack", "order", "axis", "bigcount"])
@testing.numpy_cuarray_array_equal(accept_error=True)
def test_packbits_errors(xp, case):
    a = rand(xp, (4, 8), numpy.uint8, seed=16, scale=9)
    if case == "float_pack":
        return xp.packbits(a.astype(numpy.float32))
    if case == "int_unpack":
        return xp.unpackbits(a.astype(numpy.int8))
    if case == "order":
        return xp.packbits(a, bitorder="middle")
    if case == "axis":
        return xp.packbits(a, axis=2)
    return xp.unpackbits(a, count=-1000)


# -- window functions ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("M", [0, 1, 2, 7, 64, -3, 5.0, numpy.int16(9)], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-14)
def test_windows(xp, name, M):
    return getattr(xp, name)(M)


@pytest.mark.parametrize("M,beta", [(0, 1.0), (1, 5.0), (12, 0.0), (51, 14.0), (8, 2.5), (-2, 3)])
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-14)
def test_kaiser(xp, M, beta):
    return xp.kaiser(M, beta)


# -- cumulative_sum / cumulative_prod on 0-d -------------------------------------------------------
@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"include_initial": True}, {"axis": -1, "include_initial": True},
                                {"axis": 1}, {"dtype": numpy.float32}])
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float64, numpy.bool_], ids=testing.dtype_id)
@testing.numpy_cuarray_allclose(accept_error=True)
def test_cumulative_0d(xp, fn, kw, dtype):
    return getattr(xp, fn)(rand(xp, (), dtype, seed=17), **kw)


def test_numpy_functions_dispatch_to_the_device():
    """NEP 18: NumPy's own functions called on cuarray arrays run these implementations."""
    a = cuarray.asarray(numpy.arange(6.0))
    for fn, args in ((numpy.convolve, (a, a[:3])), (numpy.correlate, (a, a[:2])), (numpy.interp, (a, a, a)),
                     (numpy.gradient, (a,)), (numpy.trapezoid, (a,)), (numpy.cov, (a,)),
                     (numpy.polyval, (a[:3], a)), (numpy.packbits, (a.astype(numpy.uint8),))):
        out = fn(*args)
        assert isinstance(out, cuarray.ndarray), fn.__name__


# -- the tiled direct kernel (float32/float64): interior tiles, edge tiles, several w rounds ----------
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64], ids=testing.dtype_id)
@pytest.mark.parametrize("na,nv", [(100_003, 255), (70_001, 3), (5000, 1), (20_000, 97), (3001, 200)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_tiled_direct_against_numpy(dtype, na, nv, mode):
    assert nv < convolution.FFT_MIN_SHORT  # the direct path
    rng = numpy.random.default_rng(na + nv)
    a = rng.standard_normal(na).astype(dtype)
    v = rng.standard_normal(nv).astype(dtype)
    for fn in ("convolve", "correlate"):
        ref = getattr(numpy, fn)(a, v, mode)
        got = getattr(cuarray, fn)(cuarray.asarray(a), cuarray.asarray(v), mode)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        tol = 2e-5 if dtype == numpy.float32 else 1e-12
        numpy.testing.assert_allclose(got.get(), ref, atol=tol * numpy.sqrt(nv) * 4, rtol=0, err_msg=fn)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64], ids=testing.dtype_id)
@pytest.mark.parametrize("nv", [257, 700, 1025])
def test_tiled_direct_several_rounds_of_w(dtype, nv):
    # Kernels longer than one staged chunk (256) reach the direct kernel only when asked for it.
    rng = numpy.random.default_rng(nv)
    a = rng.standard_normal(50_000).astype(dtype)
    w = rng.standard_normal(nv).astype(dtype)
    for mode in ("full", "same", "valid"):
        start, length = convolution.correlate_plan(a.size, nv, mode)
        got = convolution._direct(cuarray.asarray(a), cuarray.asarray(w), start, length, numpy.dtype(dtype))
        ref = numpy.correlate(a, w, mode)
        tol = 5e-5 if dtype == numpy.float32 else 1e-11
        numpy.testing.assert_allclose(got.get(), ref, atol=tol * numpy.sqrt(nv) * 4, rtol=0, err_msg=mode)


def test_tiled_direct_inf_in_kernel_matches_numpy_at_the_edges():
    # Edge tiles must not multiply padding zeros by inf (NumPy skips those products).
    a = numpy.random.default_rng(3).standard_normal(20_000)
    v = numpy.random.default_rng(4).standard_normal(31)
    v[0], v[-1] = numpy.inf, -numpy.inf
    for mode in ("full", "same"):
        ref = numpy.convolve(a, v, mode)
        got = cuarray.convolve(cuarray.asarray(a), cuarray.asarray(v), mode).get()
        numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(ref))
        finite = numpy.isfinite(ref)
        numpy.testing.assert_allclose(got[finite], ref[finite], atol=1e-9)
        numpy.testing.assert_array_equal(got[~finite], ref[~finite])


def test_tiled_direct_noncontiguous_inputs():
    a = numpy.random.default_rng(5).standard_normal(60_000).astype(numpy.float32)
    v = numpy.random.default_rng(6).standard_normal(90).astype(numpy.float32)
    got = cuarray.convolve(cuarray.asarray(a)[::2], cuarray.asarray(v)[::-3], "same").get()
    numpy.testing.assert_allclose(got, numpy.convolve(a[::2], v[::-3], "same"), atol=1e-4)
