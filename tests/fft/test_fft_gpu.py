"""cuarray.fft on the device against numpy.fft: every function, dtypes (float16 ... complex128,
ints, bools), axes (negative, interleaved, repeated, more than 3), n/s padding and truncation,
length 1, odd and prime lengths, non-contiguous and negative-stride inputs, out=, norms, errors.
Values are compared with NumPy's transform of the same data in double precision; the tolerance is
the result dtype's epsilon times log2 of the transform size, relative to the result's largest
magnitude (the error bound of an FFT is norm-wise, not element-wise)."""

from __future__ import annotations

import math
import threading
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
import cuarray.fft as cfft  # noqa: E402
from cuarray import testing  # noqa: E402

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
ND = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
DTYPES = [np.dtype(c) for c in "efdFD?q"]
REAL_IN = {"rfft", "ihfft", "rfftn", "rfft2"}


def seed_of(request) -> int:
    return zlib.crc32(request.node.nodeid.encode())


def host_data(shape, dtype, seed):
    return testing.shaped_random(shape, np, dtype=dtype, seed=seed)


def _hi(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def check(name, host, *args, view=None, size=None, **kwargs):
    """Run numpy.fft.<name> and cuarray.fft.<name> on `host` (through `view`, applied to both)."""
    view = view or (lambda x: x)
    np_fn, cu_fn = getattr(np.fft, name), getattr(cfft, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expect = np_fn(view(host), *args, **kwargs)
        ref = np_fn(view(_hi(host)), *args, **kwargs)
        dev = cuarray.asarray(host)
        before = dev.get()
        got = cu_fn(view(dev), *args, **kwargs)
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == expect.dtype, (got.dtype, expect.dtype)
    assert got.shape == expect.shape, (got.shape, expect.shape)
    np.testing.assert_array_equal(dev.get(), before, err_msg="the input was modified")
    close(got.get(), ref, expect.dtype, size or max(ref.size, 2))
    return got


def close(got, ref, dtype, n):
    eps = np.finfo(dtype).eps
    tol = 8 * eps * max(1.0, math.log2(n))
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
    err = float(np.max(np.abs(got.astype(ref.dtype) - ref))) if ref.size else 0.0
    assert err <= tol * scale, "max error {:.3g} > {:.3g} (relative to {:.3g})".format(err, tol * scale, scale)


# -- 1-D --------------------------------------------------------------------------------------
CASES_1D = [
    ((16,), {}),
    ((17,), {}),                       # odd, prime
    ((1,), {}),                        # length 1
    ((2,), {}),
    ((7,), {"n": 12}),                 # zero-padding
    ((20,), {"n": 9}),                 # truncation
    ((20,), {"n": 1}),
    ((5, 33), {"axis": 0}),            # strided transform axis, contiguous batch
    ((5, 33), {"axis": -1}),
    ((4, 6, 10), {"axis": 1, "n": 7}),  # batch on both sides
    ((3, 4, 97), {"axis": -1}),        # prime length, batched
]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", range(len(CASES_1D)))
@pytest.mark.parametrize("name", ONE_D)
def test_1d(name, case, dtype, request):
    if name in REAL_IN and dtype.kind == "c":
        pytest.skip("complex input to a real transform: see test_errors")
    shape, kw = CASES_1D[case]
    n_default = shape[kw.get("axis", -1)]
    if name in ("irfft", "hfft") and "n" not in kw and n_default == 1:
        pytest.skip("NumPy: irfft of length 1 has n = 0")
    norm = ("backward", "ortho", "forward")[seed_of(request) % 3]
    check(name, host_data(shape, dtype, seed_of(request)), norm=norm, **kw)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("name", ONE_D)
def test_norms(name, norm, request):
    check(name, host_data((3, 24), np.complex64 if name not in REAL_IN else np.float32, seed_of(request)),
          norm=norm)


LAYOUTS = {
    "T": lambda x: x.T,
    "step": lambda x: x[::2, 1::3],
    "neg": lambda x: x[::-1, ::-2],
    "cut": lambda x: x[1:, :9],
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("name", ONE_D)
def test_1d_layouts(name, axis, layout, request):
    dt = np.float32 if name in REAL_IN else np.complex64
    check(name, host_data((12, 20), dt, seed_of(request)), axis=axis, view=LAYOUTS[layout])


def test_alignment_of_real_data(request):
    # cuFFT needs real data aligned as its complex type: views at odd float32 offsets are copied;
    # the cached recipe of an aligned view must not serve a misaligned one of the same layout.
    host = host_data((65,), np.float32, seed_of(request))
    x = cuarray.asarray(host)
    for _ in range(2):
        for lo in (0, 1, 0):
            close(cfft.rfft(x[lo:lo + 64]).get(), np.fft.rfft(_hi(host)[lo:lo + 64]), np.float32, 64)
    spec = cuarray.asarray(np.fft.rfft(host[:64]).astype(np.complex64))
    out = cuarray.empty((65,), np.float32)[1:]
    assert cfft.irfft(spec, out=out) is out
    close(out.get(), np.fft.irfft(np.fft.rfft(_hi(host)[:64])), np.float32, 64)


def test_irfft_ignores_imag_of_real_bins(request):
    # NumPy ignores the imaginary parts of X[0] and X[n/2]; so does cuarray at every length.
    for m in (9, 2**12 + 1, 2**14 + 1):
        check("irfft", host_data((3, m), np.complex64, seed_of(request)))
        check("irfft", host_data((3, m), np.complex128, seed_of(request)), n=2 * m - 1)


def test_broadcast_input(request):
    host = host_data((1, 32), np.complex64, seed_of(request))
    expect = np.fft.fft(np.broadcast_to(host, (5, 32)), axis=-1)
    got = cfft.fft(cuarray.broadcast_to(cuarray.asarray(host), (5, 32)), axis=-1)
    close(got.get(), expect, np.float32, 32)


def test_large_1d(request):
    for n, dt in ((2**20, np.complex64), (65537, np.complex128), (3 * 5 * 7 * 11 * 13, np.complex64)):
        check("fft", host_data((n,), dt, seed_of(request)))
    check("rfft", host_data((2**20 + 2,), np.float32, seed_of(request)))
    check("irfft", host_data((4, 2**12 + 1), np.complex64, seed_of(request)))


# -- N-d --------------------------------------------------------------------------------------
CASES_ND = [
    ((8, 12), {}),
    ((4, 6, 10), {"axes": (0, 2)}),            # interleaved batch axis
    ((4, 6, 10), {"axes": (2, 0)}),
    ((4, 6, 10), {"axes": (-1, -2, 0)}),
    ((3, 4, 5, 6), {}),                        # 4 axes: composed
    ((3, 4, 2, 5, 6), {"axes": (0, 1, 2, 3, 4)}),
    ((6, 8), {"s": (4, 10), "axes": (0, 1)}),  # truncate one, pad the other
    ((5, 6), {"axes": (0, 0)}),                # repeated
    ((5, 6), {"axes": (1, 1), "s": (4, 8)}),
    ((7, 9), {"axes": (-1, -2), "s": (5, 12)}),
    ((2, 3, 8, 8), {"axes": (-2, -1)}),        # batched 2-D
    ((8,), {}),
    ((1, 8), {"axes": (0, 1)}),                # length-1 axis
    ((8, 1), {"axes": (0, 1), "s": (8, 1)}),
    ((6, 7), {"s": (-1, 5), "axes": (0, 1)}),
    ((6, 7), {"s": (3, 4)}),                   # s without axes: NumPy's deprecated last axes
]


@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "efdFq"], ids=str)
@pytest.mark.parametrize("case", range(len(CASES_ND)))
@pytest.mark.parametrize("name", ND)
def test_nd(name, case, dtype, request):
    if name in REAL_IN and dtype.kind == "c":
        pytest.skip("complex input to a real transform")
    shape, kw = CASES_ND[case]
    if name.endswith("2") and ("axes" not in kw and len(shape) < 2):
        pytest.skip("2-D transform of a 1-D array")
    if name.endswith("2") and "axes" in kw and len(kw["axes"]) != 2:
        kw = dict(kw, axes=tuple(kw["axes"])[-2:])
        if "s" in kw:
            kw["s"] = tuple(kw["s"])[-2:]
    if name.startswith("irfft") and "s" not in kw:
        axes = kw.get("axes", (-2, -1) if name.endswith("2") else range(-len(shape), 0))
        if shape[list(axes)[-1]] == 1:
            pytest.skip("NumPy: irfftn with a last axis of length 1 has n = 0")
    norm = ("backward", "ortho", "forward")[seed_of(request) % 3]
    check(name, host_data(shape, dtype, seed_of(request)), norm=norm, **kw)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_nd_layouts(name, layout, request):
    dt = np.float32 if name in REAL_IN else np.complex64
    check(name, host_data((12, 20), dt, seed_of(request)), view=LAYOUTS[layout])
    check(name.replace("2", "n"), host_data((12, 20, 3), dt, seed_of(request)), axes=(0, 1),
          view=lambda x: LAYOUTS[layout](x.transpose(2, 0, 1)).transpose(1, 2, 0))


def test_big_nd(request):
    check("fft2", host_data((512, 768), np.complex64, seed_of(request)))
    check("rfftn", host_data((64, 64, 66), np.float64, seed_of(request)))
    check("irfftn", host_data((16, 32, 33), np.complex64, seed_of(request)), s=(16, 32, 64))


# -- out= ---------------------------------------------------------------------------------------
def test_out(request):
    host = host_data((6, 16), np.complex64, seed_of(request))
    x = cuarray.asarray(host)
    out = cuarray.empty((6, 16), np.complex64)
    r = cfft.fft(x, out=out)
    assert r is out
    close(out.get(), np.fft.fft(_hi(host)), np.float32, 16)
    outT = cuarray.empty((16, 6), np.complex64).T  # non-contiguous out
    assert cfft.fft(x, axis=0, out=outT) is outT
    close(outT.get(), np.fft.fft(_hi(host), axis=0), np.float32, 16)
    out128 = cuarray.empty((6, 16), np.complex128)  # a wider out: cast
    assert cfft.ifft(x, out=out128) is out128
    close(out128.get(), np.fft.ifft(_hi(host)), np.float32, 16)
    out_r = cuarray.empty((6, 30), np.float32)
    assert cfft.irfft(x, out=out_r) is out_r
    close(out_r.get(), np.fft.irfft(_hi(host)), np.float32, 30)
    out2 = cuarray.empty((6, 16), np.complex64)
    assert cfft.fftn(x, out=out2) is out2
    close(out2.get(), np.fft.fftn(_hi(host)), np.float32, 96)
    # in place: out is the input
    y = cuarray.asarray(host)
    assert cfft.fft(y, out=y) is y
    close(y.get(), np.fft.fft(_hi(host)), np.float32, 16)
    with pytest.raises(ValueError):
        cfft.fft(x, out=cuarray.empty((6, 17), np.complex64))
    with pytest.raises(TypeError):
        cfft.fft(x, out=cuarray.empty((6, 16), np.float32))


# -- errors, empty, 0-d ---------------------------------------------------------------------------
ERRORS = [
    ("fft", (8,), {"n": 0}),
    ("fft", (8,), {"n": -3}),
    ("fft", (8,), {"n": 2.5}),
    ("fft", (8,), {"norm": "bad"}),
    ("fft", (8,), {"axis": 1}),
    ("fft", (8,), {"axis": 1, "n": 4}),
    ("fft", (), {}),
    ("fft", (3, 0), {}),
    ("rfft", (8,), {"dtype": np.complex64}),
    ("irfft", (1,), {}),
    ("hfft", (8,), {"norm": "bad"}),
    ("fftn", (3, 4), {"s": (3,), "axes": (0, 1)}),
    ("fftn", (3, 4), {"s": (3, 0), "axes": (0, 1)}),
    ("fftn", (3, 4), {"axes": (0, 5)}),
    ("fftn", (3, 4), {"s": (3, 3), "axes": (0, 5)}),
    ("rfftn", (3, 4), {"axes": ()}),
    ("irfftn", (3, 4), {"axes": ()}),
    ("fft2", (4,), {}),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors(case, request):
    name, shape, kw = ERRORS[case]
    kw = dict(kw)
    dt = kw.pop("dtype", np.complex64 if name not in REAL_IN else np.float32)
    host = host_data(shape, dt, seed_of(request))
    with pytest.raises(Exception) as np_err:
        getattr(np.fft, name)(host, **kw)
    with pytest.raises(type(np_err.value)):
        getattr(cfft, name)(cuarray.asarray(host), **kw)


def test_empty_and_identity(request):
    check("fft", np.zeros((0, 8), np.complex64))
    check("rfft", np.zeros((0, 8), np.float32))
    check("fft", np.zeros((3, 0), np.complex64), n=4)   # padding an empty axis
    check("fftn", np.zeros((0, 4, 4), np.complex128), axes=(1, 2))
    x = cuarray.asarray(host_data((3, 4), np.float64, seed_of(request)))
    assert cfft.fftn(x, axes=()) is x        # NumPy returns its input
    z = cuarray.asarray(np.float64(2.0))
    assert cfft.fftn(z) is z


# -- helpers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 8, 9])
@pytest.mark.parametrize("d", [1.0, 0.1, np.float32(0.25)])
def test_freq(n, d):
    for name in ("fftfreq", "rfftfreq"):
        e = getattr(np.fft, name)(n, d)
        g = getattr(cfft, name)(n, d)
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g.get(), e, rtol=1e-15)
    g = cfft.fftfreq(n, d, dtype=np.float32)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g.get(), np.fft.fftfreq(n, d), rtol=1e-6)
    with pytest.raises(ValueError):
        cfft.fftfreq(8.0)


@pytest.mark.parametrize("axes", [None, 0, -1, (0, 1), (1,)])
def test_shift(axes, request):
    host = host_data((5, 8), np.float32, seed_of(request))
    for name in ("fftshift", "ifftshift"):
        e = getattr(np.fft, name)(host, axes=axes)
        g = getattr(cfft, name)(cuarray.asarray(host), axes=axes)
        np.testing.assert_array_equal(g.get(), e)


# -- plan cache, streams, threads ------------------------------------------------------------------
def test_plan_cache(request):
    cfg = cfft.config
    cache = cfg.get_plan_cache()
    old_size, old_mem = cfg.get_plan_cache_size(), cfg.get_plan_cache_max_memsize()
    try:
        cfg.clear_plan_cache()
        assert cache.get_curr_size() == 0
        cfg.set_plan_cache_size(2)
        for n in (16, 24, 32, 40):
            check("fft", host_data((n,), np.complex64, seed_of(request)))
        assert cache.get_curr_size() == 2
        cfg.set_plan_cache_size(0)  # caching off: plans are made and destroyed per call
        check("fft", host_data((48,), np.complex64, seed_of(request)))
        check("fft", host_data((48,), np.complex64, seed_of(request)))
        assert cache.get_curr_size() == 0
        cfg.set_plan_cache_size(16)
        cfg.set_plan_cache_max_memsize(0)  # only plans without a work area stay
        check("fft", host_data((2**16, 8), np.complex64, seed_of(request)), axis=0)
        assert cache.get_curr_memsize() == 0
        cfg.show_plan_cache_info()
        with pytest.raises(ValueError):
            cfg.set_plan_cache_size(-2)
    finally:
        cfg.set_plan_cache_size(old_size)
        cfg.set_plan_cache_max_memsize(old_mem)


def test_streams_and_threads(request):
    host = host_data((8, 256), np.complex64, seed_of(request))
    ref = np.fft.fft(_hi(host))
    x = cuarray.asarray(host)
    cfft.fft(x)  # warm plan on the default stream
    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        r = cfft.fft(x)
        r2 = cfft.ifft(r)
    s.synchronize()
    close(r.get(), ref, np.float32, 256)
    close(r2.get(), _hi(host), np.float32, 256)
    errors = []

    def work():
        try:
            for _ in range(5):
                close(cfft.fft(x).get(), ref, np.float32, 256)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_warm_path_repeats(request):
    host = host_data((4096,), np.complex64, seed_of(request))
    x = cuarray.asarray(host)
    ref = np.fft.ifft(_hi(host))
    for _ in range(3):  # the cached recipe (and its scaling pass) gives the same result
        close(cfft.ifft(x).get(), ref, np.float32, 4096)


# -- scipy.fft backend ----------------------------------------------------------------------------
SCIPY = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2",
         "irfft2", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn"]


@pytest.mark.parametrize("name", SCIPY)
def test_scipy_backend(name, request):
    sfft = pytest.importorskip("scipy.fft")
    real_in = name in ("rfft", "ihfft", "rfft2", "rfftn", "ihfft2", "ihfftn")
    host = host_data((6, 10), np.float32 if real_in else np.complex64, seed_of(request))
    expect = getattr(sfft, name)(host, norm="ortho")
    ref = getattr(sfft, name)(_hi(host), norm="ortho")
    with sfft.set_backend(cuarray.fft_backend):
        got = getattr(sfft, name)(cuarray.asarray(host), norm="ortho")
        host_res = getattr(sfft, name)(host, norm="ortho")  # NumPy input: scipy's own backend
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == expect.dtype and got.shape == expect.shape
    close(got.get(), ref, np.float32, 60)
    assert isinstance(host_res, np.ndarray)
    with sfft.set_backend(cuarray.fft_backend):
        with pytest.raises(Exception):
            sfft.dct(cuarray.asarray(host))  # not provided: NotImplemented from every backend
