"""cuarray.scipy.fft's DCT/DST family on the CPU: `_realtransforms` is written over a NumPy-named
namespace, so the code the GPU runs is checked here with numpy.fft against scipy.fft for every
type, norm, `orthogonalize` and direction; plus the argument errors raised before any device
work and the fast-length helpers."""

from __future__ import annotations

import inspect
import re
import types

import numpy as np
import pytest

sfft = pytest.importorskip("scipy.fft")

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import fft as cfft  # noqa: E402
from cuarray.scipy._fft_shapes import nd_shape_axes  # noqa: E402

try:
    from scipy.fft._duccfft.helper import _init_nd_shape_and_axes
except ImportError:  # SciPy < 1.18
    from scipy.fft._pocketfft.helper import _init_nd_shape_and_axes
from cuarray.scipy._realtransforms import numpy_rotate, numpy_rotate_part, r2r  # noqa: E402

NP = types.SimpleNamespace(asarray=np.asarray, concatenate=np.concatenate, real=np.real, imag=np.imag,
                           rfft=np.fft.rfft, irfft=np.fft.irfft, fft=np.fft.fft, zeros=np.zeros,
                           ones=np.ones, rotate=numpy_rotate, rotate_part=numpy_rotate_part)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 17])
@pytest.mark.parametrize("kind", ["dct", "dst"])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
@pytest.mark.parametrize("inverse", [False, True])
def test_r2r_is_scipys(n, kind, t, inverse):
    x = np.random.default_rng(n * 100 + t).normal(size=(3, n))
    fn = getattr(sfft, ("i" if inverse else "") + kind)
    for norm in (None, "backward", "ortho", "forward"):
        for orth in (None, False, True):
            try:
                want = fn(x, type=t, norm=norm, orthogonalize=orth)
            except Exception as e:  # DCT-I of one point
                with pytest.raises(type(e)):
                    r2r(NP, x, kind, t, norm, orth, inverse)
                continue
            got = r2r(NP, x, kind, t, norm, orth, inverse)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


def test_r2r_float32_stays_float32():
    x = np.random.default_rng(1).normal(size=(4, 9)).astype(np.float32)
    for kind in ("dct", "dst"):
        for t in (1, 2, 3, 4):
            got = r2r(NP, x, kind, t, None, None, False)
            assert got.dtype == np.float32
            np.testing.assert_allclose(got, getattr(sfft, kind)(x, type=t), rtol=1e-4, atol=1e-4)


ERRORS = {
    "type": lambda m, c: m.dct(c(np.ones(3)), type=5),
    "dst-type": lambda m, c: m.dst(c(np.ones(3)), type=0),
    "norm": lambda m, c: m.dct(c(np.ones(3)), norm="bad"),
    "n": lambda m, c: m.dct(c(np.ones(3)), n=0),
    "empty": lambda m, c: m.dst(c(np.ones((2, 0)))),
    "axis": lambda m, c: m.idct(c(np.ones(3)), axis=2),
    "dctn-s": lambda m, c: m.dctn(c(np.ones((3, 3))), s=(2, 2), axes=(0,)),
    # cupyx's TestDctDst/TestDctnDstn: n and s that are not positive, or not integers
    "n-negative": lambda m, c: m.idst(c(np.ones(3)), n=-1),
    "n-float": lambda m, c: m.dct(c(np.ones(3)), n=1.5),
    "n-float-whole": lambda m, c: m.idst(c(np.ones(3)), type=4, n=2.0),
    "s-zero": lambda m, c: m.idctn(c(np.ones((3, 4))), s=(0, 2)),
    "s-negative": lambda m, c: m.dstn(c(np.ones((3, 4))), s=(-2, 3)),
    "s-scalar-zero": lambda m, c: m.dctn(c(np.ones((3, 4))), s=0),
    "s-float": lambda m, c: m.idctn(c(np.ones((3, 4))), type=3, s=(1.5, 2.5)),
    "s-float-whole": lambda m, c: m.idstn(c(np.ones((3, 4))), s=(2.0, 3.0)),
    "s-too-long": lambda m, c: m.dctn(c(np.ones((3, 4))), s=(2, 3, 4)),
    "next_fast_len": lambda m, c: m.next_fast_len(-1),
    "next_fast_len-float": lambda m, c: m.next_fast_len(1.5),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        ERRORS[case](cfft, from_np)
    with pytest.raises(Exception) as theirs:
        ERRORS[case](sfft, np.asarray)
    # (AxisError, NumPy's, is an IndexError: SciPy's real transforms raise a bare IndexError)
    assert isinstance(ours.value, type(theirs.value)), (ours.value, theirs.value)


SHAPE_CASES = [((3, 4), (-1, -1), None), ((3, 4), (2, -1), None), ((3, 4), -1, None), ((3, 4), 2, None),
               ((3, 4), (np.int32(2), 3), None), ((3, 4), (5,), (0,)), ((3, 4), None, (-1, 0)), ((3, 4), (), ()),
               ((2, 3, 4), (-1, 6), (0, 2)), ((3, 4), (0, 2), None), ((3, 4), (1.5, 2.5), None), ((3, 4), 0, None)]


@pytest.mark.parametrize("xshape,s,axes", SHAPE_CASES, ids=[str(c) for c in SHAPE_CASES])
def test_nd_sizes_and_axes_are_scipys(xshape, s, axes):
    # dctn & co: a scalar s, -1 for the input's size (cupyx's s=(-1, -1) was refused)
    try:
        want = _init_nd_shape_and_axes(np.empty(xshape), s, axes)
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            nd_shape_axes(xshape, s, axes)
        return
    assert list(nd_shape_axes(xshape, s, axes)) == [list(want[0]), list(want[1])]


@pytest.mark.parametrize("name", "dct idct dst idst dctn idctn dstn idstn next_fast_len prev_fast_len".split())
def test_signatures_are_scipys(name):
    assert str(inspect.signature(getattr(cfft, name))) == str(inspect.signature(getattr(sfft, name)))


def test_fast_lengths_are_7_smooth():
    for target in range(0, 400):
        n = cfft.next_fast_len(target)
        assert n >= target and (n == 0 or _smooth(n))
        assert all(not _smooth(m) for m in range(target, n))
        p = cfft.prev_fast_len(target)
        assert p <= target and (p == 0 or _smooth(p))


def _smooth(n):
    for p in (2, 3, 5, 7):
        while n % p == 0:
            n //= p
    return n == 1


@pytest.mark.parametrize("real", [np.float32, np.float64])
def test_twiddle_kernels_compile(real):
    """The device's rotate/rotate_part kernels (cuarray/scipy/_twiddle.py) compile with NVRTC for
    sm_90 in each layout, for float32/complex64 and float64/complex128."""
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch="sm_90")
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    from cuarray.scipy import _twiddle

    r, c = np.dtype(real), np.result_type(real, np.complex64)
    rot, part = _twiddle.definition("rotate", r, c), _twiddle.definition("rotate_part", c, r)
    for d in (rot, part):
        for layout, nd, it in (("flat", 1, np.int32), ("nd", 2, np.int64)):
            name, src = d.source(layout, nd, it)
            compiler.compile_cubin(src, arch="sm_90")
