"""vectorized_filter without a device: `_vectorized`'s code path (padding, sliding windows, the
batches under batch_memory, footprints, axes and origins, output arrays) with NumPy's pad,
sliding_window_view, moveaxis and empty standing for cuarray's (`cuarray.testing.fake_device.
host_module`), against scipy.ndimage.vectorized_filter; and SciPy's argument errors, message for
message. The cuarray routines themselves are checked against NumPy in their own tests, and the
whole on the device in test_ndimage_extra_gpu.py."""

import re

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.scipy import ndimage as cnd
from cuarray.testing.fake_device import host_modules

RNG = np.random.default_rng(77)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap", "valid"]


@pytest.fixture(scope="module")
def hv():
    """A private copy of `_vectorized` over NumPy arrays; its calls to `function` recorded."""
    from cuarray.scipy.ndimage import _support, _vectorized

    def as_array(x, fn):
        assert not isinstance(x, (list, tuple)), "the host-input policy refuses these"
        return np.asarray(x)

    return host_modules({
        _support: dict(ndarray=np.ndarray, as_array=lambda x, fn: np.asarray(x)),
        _vectorized: dict(as_array=as_array, ndarray=np.ndarray, _empty=np.empty, _moveaxis=np.moveaxis, _pad=np.pad,
                          _sliding_window_view=np.lib.stride_tricks.sliding_window_view),
    })[_vectorized]


def check(hv, x, function, **kw):
    ref = snd.vectorized_filter(x, function, **kw)
    got = hv.vectorized_filter(x, function, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_array_equal(got, ref)
    return got


def _peak_to_peak(w, axis):
    return w.max(axis=axis) - w.min(axis=axis)


def _weighted(w, axis):  # depends on the order of the window's elements
    ax = axis if isinstance(axis, tuple) else (axis,)
    ramp = np.arange(np.prod([w.shape[a] for a in ax])).reshape([w.shape[a] for a in ax])
    return (w * ramp).sum(axis=axis)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("function", [np.mean, np.median, _peak_to_peak, _weighted], ids=lambda f: f.__name__)
def test_modes_sizes_and_origins(hv, mode, function):
    x = RNG.normal(size=(9, 11)) * 10
    for size, origin in ((3, None), ((2, 5), None), ((4, 3), (1, -1)), (1, 0), ((5, 2), (-2, 0))):
        if mode == "valid" and origin:
            continue
        cval = {} if mode not in ("constant", "grid-constant") else dict(cval=2.5)
        check(hv, x, function, size=size, mode=mode, origin=origin, **cval)


@pytest.mark.parametrize("mode", MODES)
def test_footprints(hv, mode):
    x = RNG.integers(-20, 20, size=(8, 10)).astype(np.int16)
    fp = RNG.random((3, 4)) < 0.5
    fp[1, 1] = True
    for function in (np.max, np.sum, _weighted):
        check(hv, x, function, footprint=fp, mode=mode)
    if mode != "valid":
        check(hv, x, np.min, footprint=fp.astype(int), mode=mode, origin=(1, 0))  # any array-like, read as bool
        check(hv, x, np.min, footprint=[[0, 1, 0], [1, 1, 1]], mode=mode)


def test_axes_and_dimensions(hv):
    x1 = RNG.normal(size=23)
    x3 = RNG.normal(size=(5, 6, 7))
    check(hv, x1, np.mean, size=4)
    check(hv, x1, np.median, size=5, mode="wrap", origin=-1)
    check(hv, x3, np.mean, size=3, mode="mirror")
    check(hv, x3, np.median, size=(2, 3), axes=(2, 0), origin=(0, 1))
    check(hv, x3, _weighted, size=(3, 2), axes=(-1, 1), mode="nearest")
    check(hv, x3, np.max, size=3, axes=1)
    check(hv, x3, np.max, size=(3,), axes=(0,), mode="constant", cval=-1.0)
    check(hv, x3, np.max, footprint=np.array([[1, 0, 1]], bool), axes=(1, 2), mode="valid")
    check(hv, x3[:, ::2, ::-1], np.mean, size=(2, 2, 3))  # a non-contiguous view
    check(hv, x3.T, np.median, size=2, axes=(0, 2))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.complex128, np.float16, np.bool_])
def test_dtypes_follow_the_function(hv, dtype):
    x = RNG.normal(size=(7, 9)) * 30
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)
    check(hv, x, np.max, size=3)
    check(hv, x, np.any if dtype == np.bool_ else np.mean, size=(2, 3), mode="wrap")


def test_constant_values(hv):
    x = RNG.normal(size=(6, 7))
    check(hv, x, np.mean, size=3, mode="constant")  # cval None: 0
    check(hv, x, np.mean, size=3, mode="grid-constant", cval=4)
    check(hv, x, np.sum, size=3, mode="constant", cval=[1.5, -2])  # numpy.pad's broadcasting of constant_values
    check(hv, x, np.sum, size=(3, 2), mode="constant", cval=[[1, 2], [3, 4]])
    check(hv, x.astype(np.int32), np.max, size=3, mode="constant", cval=2.75)  # cast to the input's type


def test_batches_under_batch_memory(hv):
    x = RNG.normal(size=(13, 10))
    calls = []

    def mean(w, axis):
        calls.append(w.shape)
        return np.mean(w, axis=axis)

    per_row = 10 * 3 * 3 * 8  # one slice of the view's first axis: 720 bytes
    for bm in (per_row, 4 * per_row + 1, 13 * per_row, 2**30):
        calls.clear()
        check(hv, x, mean, size=3, batch_memory=bm)
        want = -(-13 // min(13, bm // per_row))
        assert len(calls) == 2 * want  # (twice: SciPy's call records too)
    out = np.full((10, 13), -1.0).T  # a non-contiguous output, filled batch by batch
    ref = snd.vectorized_filter(x, np.mean, size=3)
    got = hv.vectorized_filter(x, np.mean, size=3, output=out, batch_memory=3 * per_row)
    np.testing.assert_array_equal(out, ref)
    assert np.shares_memory(got, out) and got.shape == out.shape
    out32 = np.zeros((13, 10), np.int32)
    check(hv, x * 10, np.median, size=(3, 3), output=out32, batch_memory=5 * per_row)
    np.testing.assert_array_equal(out32, snd.vectorized_filter(x * 10, np.median, size=3, output=np.zeros_like(out32)))
    x3 = RNG.normal(size=(4, 5, 6))
    out3 = np.zeros((4, 5, 6))
    got = hv.vectorized_filter(x3, np.max, size=(2, 3), axes=(0, 2), output=out3, batch_memory=2 * 4 * 6 * 2 * 3 * 8)
    np.testing.assert_array_equal(out3, snd.vectorized_filter(x3, np.max, size=(2, 3), axes=(0, 2)))
    assert np.shares_memory(got, out3)


def test_edges(hv):
    # empty input: SciPy returns the input itself, its filtered axes moved last
    e = np.zeros((0, 3))
    for axes in ((1, 0), (1,), None):
        got = hv.vectorized_filter(e, np.mean, size=3 if axes is None else (3,) * len(axes), axes=axes)
        assert got.shape == snd.vectorized_filter(e, np.mean, size=3 if axes is None else (3,) * len(axes),
                                                  axes=axes).shape
    assert hv.vectorized_filter(np.float64(3.5), np.mean, size=()) == 3.5  # 0-d, no window axes
    assert hv.vectorized_filter(np.array(2.0), np.sum, footprint=np.array(True)) == 2.0
    check(hv, RNG.normal(size=5), np.mean, size=3, axes=())  # no window axes: function(x, axis=())
    check(hv, RNG.normal(size=1), np.mean, size=4, mode="reflect")  # windows wider than the input
    check(hv, RNG.normal(size=(2, 3)), np.median, size=(5, 7), mode="wrap")
    check(hv, RNG.normal(size=(3, 4)), np.mean, size=(3, 4), mode="valid")  # one window
    check(hv, RNG.normal(size=(4, 4)), lambda w, axis: w.std(axis=axis) * 2, size=2, mode="mirror")


BAD = [
    (dict(f=3, size=3), "function not callable"),
    (dict(), "neither size nor footprint"),
    (dict(size=3, footprint=np.ones((3, 3))), "size and footprint"),
    (dict(size=3, axes=(0, 1, 2)), "too many axes"),
    (dict(size=3.0), "float size"),
    (dict(size=True), "bool size"),
    (dict(size=0), "zero size"),
    (dict(size=(3, -1)), "negative size"),
    (dict(size=(3,)), "size and axes"),
    (dict(size=(3, 3, 3)), "size rank"),
    (dict(footprint=np.ones(3)), "footprint rank"),
    (dict(size=3, origin=1.0), "float origin"),
    (dict(size=3, origin=(1,)), "origin length"),
    (dict(size=3, origin=(1, 1, 1)), "origin length 3"),
    (dict(size=3, origin=2), "origin past the window"),
    (dict(size=3, mode="mirror", origin=(5, 0)), "origin far past"),
    (dict(size=3, mode="valid", origin=1), "valid with origin"),
    (dict(size=3, mode="valid", origin=(0, 1)), "valid with origin tuple"),
    (dict(size=3, cval=1), "cval without constant"),
    (dict(size=3, mode="wrap", cval=0.0), "cval with wrap"),
    (dict(size=3, mode="constant", cval="a"), "cval string"),
    (dict(size=3, mode="constant", cval=True), "cval bool"),
    (dict(size=3, batch_memory=0), "batch_memory zero"),
    (dict(size=3, batch_memory=-5), "batch_memory negative"),
    (dict(size=3, batch_memory=True), "batch_memory bool"),
    (dict(size=3, batch_memory=[1]), "batch_memory list"),
    (dict(size=3, batch_memory=71), "batch_memory too small"),
    (dict(size=3, axes=(0, 0)), "repeated axes"),
    (dict(size=5, mode="valid"), "valid window too large"),
    (dict(size=3, output=np.zeros((4, 3))), "output shape"),
]


@pytest.mark.parametrize("kw,what", BAD, ids=[b[1] for b in BAD])
def test_errors_are_scipys(hv, kw, what):
    x = RNG.normal(size=(3, 4))
    kw = dict(kw)
    f = kw.pop("f", np.mean)
    with pytest.raises(Exception) as ref:
        snd.vectorized_filter(x, f, **kw)
    with pytest.raises(ref.type, match=re.escape(str(ref.value))):
        hv.vectorized_filter(x, f, **kw)


def test_mode_errors_name_every_mode(hv):
    x = RNG.normal(size=(3, 4))
    for mode in ("bogus", ["reflect"], None):
        with pytest.raises(Exception) as ref:
            snd.vectorized_filter(x, np.mean, size=3, mode=mode)
        with pytest.raises(ref.type) as got:
            hv.vectorized_filter(x, np.mean, size=3, mode=mode)
        if ref.type is TypeError:  # a list: unhashable, in both
            continue
        # (the message lists a set of strings: its order is the process's string hashing)
        assert str(got.value).startswith("`mode` must be one of {")
        assert sorted(re.findall(r"'([a-z-]+)'", str(got.value))) == sorted(MODES)


def test_axis_errors_are_numpys(hv):
    x = RNG.normal(size=(3, 4))
    with pytest.raises(np.exceptions.AxisError):
        snd.vectorized_filter(x, np.mean, size=3, axes=(0, 5))
    with pytest.raises(np.exceptions.AxisError):
        hv.vectorized_filter(x, np.mean, size=3, axes=(0, 5))


def test_host_data_is_refused():
    with pytest.raises(TypeError, match="vectorized_filter"):
        cnd.vectorized_filter(np.ones((4, 4)), np.mean, size=3)  # the host-input policy (no device needed)
