"""cuarray.scipy.fftpack on the GPU against scipy.fftpack: the transforms over CuPy's own test grid
(n = None, 5, 10, 15; shapes (9,), (10,), (10, 9), (10, 10); axis -1 and 0; every dtype; strided
and F-order input), fftpack's packed rfft/irfft, the n-d shape/axes grid, the DCT/DST with
fftpack's inverse conventions, the pseudo-differential operators, `convolve`, the helpers, list
input, and cupyx's `plan=` and ``with plan:``."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sf = pytest.importorskip("scipy.fftpack")
import scipy.fftpack.convolve as sconv  # noqa: E402

import cuarray  # noqa: E402
import cuarray.scipy.fftpack as cf  # noqa: E402
from cuarray.scipy.fftpack import convolve as cconv  # noqa: E402

G = cuarray.asarray
DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int32, np.uint8, np.bool_]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=shape) * 4
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=shape)
    if np.dtype(dtype).kind in "biu":
        x = np.abs(x)
    return x.astype(dtype)


def _check(got, want, what):
    assert isinstance(got, cuarray.ndarray), what
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype, got.shape, want.shape)
    single = want.dtype in (np.float32, np.complex64)
    tol = 2e-5 if single else 1e-12
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max(initial=0))),
                               err_msg=what)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_1d_transforms(name, dtype):
    if name in ("rfft", "irfft") and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError, match="real sequence"):
            getattr(cf, name)(G(_data((10,), dtype)))
        return
    for shape in ((9,), (10,), (10, 9), (10, 10)):
        x = _data(shape, dtype, seed=len(shape))
        for axis in (-1, 0):
            for n in (None, 5, 10, 15):
                want = getattr(sf, name)(x, n=n, axis=axis)
                xg = G(x)
                got = getattr(cf, name)(xg, n=n, axis=axis, overwrite_x=True)
                _check(got, want, "{} {} n={} axis={}".format(name, shape, n, axis))
                np.testing.assert_array_equal(xg.get(), x)  # never overwritten
        with pytest.raises(ValueError):
            getattr(cf, name)(G(x), n=0)


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft"])
def test_1d_strided_and_f_order(name):
    x = _data((12, 10), np.float64, seed=3)
    views = {"step": lambda a: a[::2, ::3], "T": lambda a: a.T, "reversed": lambda a: a[:, ::-1]}
    for key, view in views.items():
        for axis in (0, 1):
            _check(getattr(cf, name)(view(G(x)), axis=axis), getattr(sf, name)(view(x), axis=axis),
                   "{} {} axis={}".format(name, key, axis))
    f = np.asfortranarray(x)
    for axis in (0, 1):
        _check(getattr(cf, name)(cuarray.asfortranarray(G(x)), axis=axis), getattr(sf, name)(f, axis=axis),
               "{} F-order axis={}".format(name, axis))


NDCASES = [((3, 4), None, None), ((3, 4), (1, 5), None), ((3, 4), None, (-2, -1)), ((3, 4), None, (-1, -2)),
           ((3, 4), None, (0,)), ((2, 3, 4), None, None), ((2, 3, 4), (1, 4, 10), None), ((2, 3, 4), None, (-3, -2, -1)),
           ((2, 3, 4), None, (-1, -2, -3)), ((2, 3, 4), None, (0, 1)), ((2, 3, 4, 5), None, None)]


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_nd_transforms(name, dtype):
    for shape, s, axes in NDCASES:
        x = _data(shape, dtype, seed=len(shape))
        kw = {} if axes is None and name.endswith("2") else {"axes": axes}
        try:
            want = getattr(sf, name)(x, shape=s, **kw)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(cf, name)(G(x), shape=s, **kw)
            continue
        _check(getattr(cf, name)(G(x), shape=s, **kw), want, "{} {} s={} axes={}".format(name, shape, s, axes))


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
def test_real_transforms(name, t):
    for dtype in (np.float32, np.float64, np.complex128, np.int16):
        x = _data((6, 9), dtype, seed=t)
        for norm in (None, "ortho"):
            for n, axis in ((None, -1), (None, 0), (5, -1), (12, 0)):
                want = getattr(sf, name)(x, type=t, n=n, axis=axis, norm=norm)
                got = getattr(cf, name)(G(x), type=t, n=n, axis=axis, norm=norm)
                _check(got, want, "{} type {} {} norm={} n={} axis={}".format(name, t, x.dtype, norm, n, axis))


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_real_transforms_nd(name):
    x = _data((4, 5, 6), np.float64, seed=9)
    for t in (1, 2, 3, 4):
        for shape, axes in ((None, None), ((3, 7), (0, 2)), (None, (-1,)), ((5, 5, 5), None), (-1, 1)):
            for norm in (None, "ortho"):
                want = getattr(sf, name)(x, type=t, shape=shape, axes=axes, norm=norm)
                got = getattr(cf, name)(G(x), type=t, shape=shape, axes=axes, norm=norm)
                _check(got, want, "{} type {} shape={} axes={} norm={}".format(name, t, shape, axes, norm))


def _ops(mod, x):
    return {
        "diff": lambda: mod.diff(x), "diff2": lambda: mod.diff(x, 2, 3.0), "diff-1": lambda: mod.diff(x, -1),
        "diff3": lambda: mod.diff(x, 3), "tilbert": lambda: mod.tilbert(x, 0.4), "itilbert": lambda: mod.itilbert(x, 0.4, 5.0),
        "hilbert": lambda: mod.hilbert(x), "ihilbert": lambda: mod.ihilbert(x), "cs_diff": lambda: mod.cs_diff(x, 0.2, 0.5),
        "sc_diff": lambda: mod.sc_diff(x, 0.2, 0.5, 3.0), "ss_diff": lambda: mod.ss_diff(x, 0.2, 0.5),
        "cc_diff": lambda: mod.cc_diff(x, 0.2, 0.5), "shift": lambda: mod.shift(x, 0.7), "shift-p": lambda: mod.shift(x, 0.7, 4.0)}


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64, np.int32], ids=lambda d: np.dtype(d).name)
def test_pseudo_diffs(dtype):
    for n in (1, 2, 7, 16, 33):
        x = _data((n,), dtype, seed=n)
        want, got = _ops(sf, x), _ops(cf, G(x))
        for key in want:
            with np.errstate(all="ignore"):
                w = want[key]()
            _check(got[key](), w, "{} n={} {}".format(key, n, x.dtype))
    x = _data((8,), dtype)
    assert cf.diff(G(x), 0).dtype == x.dtype  # order 0: the input itself, as SciPy's


def test_convolve_module():
    rng = np.random.default_rng(2)
    for n in (1, 4, 9):
        x, w, wi = rng.normal(size=(3, n))
        for swap in (False, True):
            _check(cconv.convolve(G(x), G(w), swap_real_imag=swap), sconv.convolve(x, w, swap_real_imag=swap),
                   "convolve n={} swap={}".format(n, swap))
        _check(cconv.convolve(G(x), w), sconv.convolve(x, w), "convolve, host kernel")  # a kernel: a parameter
        _check(cconv.convolve_z(G(x), G(w), G(wi)), sconv.convolve_z(x, w, wi), "convolve_z n={}".format(n))
        for d in (0, 1, 2, 3):
            got = cconv.init_convolution_kernel(n, lambda k: 0.5 + k, d=d)
            _check(got, sconv.init_convolution_kernel(n, lambda k: 0.5 + k, d=d), "kernel n={} d={}".format(n, d))


def test_helpers():
    for n, d in ((8, 0.1), (9, 1.0), (1, 2.0), (0, 1.0)):
        if n:
            _check(cf.fftfreq(n, d), sf.fftfreq(n, d), "fftfreq")
        _check(cf.rfftfreq(n, d), sf.rfftfreq(n, d), "rfftfreq {}".format(n))
    x = _data((4, 5), np.float32)
    for axes in (None, 0, (1,), (0, 1)):
        _check(cf.fftshift(G(x), axes), sf.fftshift(x, axes), "fftshift")
        _check(cf.ifftshift(G(x), axes), sf.ifftshift(x, axes), "ifftshift")


def test_python_lists_are_taken():
    _check(cf.fft([1.0, 2.0, 3.0]), sf.fft([1.0, 2.0, 3.0]), "fft of a list")
    _check(cf.rfft((1, 2, 3, 4)), sf.rfft((1, 2, 3, 4)), "rfft of a tuple")
    _check(cf.dct([[1.0, 2.0], [3.0, 5.0]]), sf.dct([[1.0, 2.0], [3.0, 5.0]]), "dct of a nested list")
    _check(cf.diff([1.0, 2.0, 0.5, 4.0]), sf.diff([1.0, 2.0, 0.5, 4.0]), "diff of a list")
    _check(cf.fftshift([1, 2, 3, 4, 5]), sf.fftshift([1, 2, 3, 4, 5]), "fftshift of a list")
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cf.fft(np.ones(4))


def test_plans():
    x = _data((10, 9), np.complex64)
    for n, axis in ((None, -1), (15, 0), (5, -1)):
        plan = cf.get_fft_plan(G(x), shape=n, axes=axis)
        _check(cf.fft(G(x), n=n, axis=axis, plan=plan), sf.fft(x, n=n, axis=axis), "fft with a plan")
        _check(cf.ifft(G(x), n=n, axis=axis, plan=plan), sf.ifft(x, n=n, axis=axis), "ifft with a plan")
        with plan:
            _check(cf.fft(G(x), n=n, axis=axis), sf.fft(x, n=n, axis=axis), "fft inside the plan")
            with pytest.raises(RuntimeError, match="either as a context manager or as an argument"):
                cf.fft(G(x), n=n, axis=axis, plan=plan)
        with pytest.raises(ValueError, match="does not match"):
            cf.fft(G(x), n=(n or 9) + 1, axis=axis, plan=plan)
    plan = cf.get_fft_plan(G(x))
    _check(cf.fftn(G(x), plan=plan), sf.fftn(x), "fftn with a plan")
    _check(cf.fft2(G(x), plan=plan), sf.fft2(x), "fft2 with a plan")
    r = _data((10, 9), np.float32)
    plan = cf.get_fft_plan(G(r), axes=0, value_type="R2C")
    _check(cf.rfft(G(r), axis=0, plan=plan), sf.rfft(r, axis=0), "rfft with a plan")
    with pytest.raises(ValueError, match="does not match"):
        cf.fft(G(r), axis=0, plan=plan)
    with pytest.raises(ValueError, match="contiguous"):
        cf.get_fft_plan(G(x)[:, ::2])
