"""cuarray.scipy.fftpack without a GPU: its names and signatures against scipy.fftpack's (cupyx's
keyword-only `plan` the one addition), the host rules (n-d `shape`/`axes`, next_fast_len, the
convolution kernels) and the code the GPU runs written over a NumPy-named namespace (the packed
real layout, the pseudo-differential operators, `convolve`) run here with NumPy against
scipy.fftpack; cupyx's plan checks; the argument errors raised before any device work."""

from __future__ import annotations

import inspect
import threading
import types

import numpy as np
import pytest

sf = pytest.importorskip("scipy.fftpack")
import scipy.fftpack.convolve as sconv  # noqa: E402
try:  # scipy.fftpack's own shape rules: SciPy 1.18's module, 1.17's
    from scipy.fft._duccfft import helper as _sh  # noqa: E402
except ImportError:
    from scipy.fft._pocketfft import helper as _sh  # noqa: E402

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

import cuarray.scipy.fftpack as cf  # noqa: E402
from cuarray.scipy.fftpack import _layout as L  # noqa: E402
from cuarray.scipy.fftpack import _plan  # noqa: E402
from cuarray.scipy.fftpack import _pseudo_diffs as P  # noqa: E402
from cuarray.scipy.fftpack import convolve as cconv  # noqa: E402

NP = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np) if not n.startswith("_")})
NP.rfft, NP.irfft = np.fft.rfft, np.fft.irfft


def test_names_are_scipys_and_cupyxs():
    assert set(cf.__all__) == set(sf.__all__) | {"get_fft_plan"}
    assert all(callable(getattr(cf, n)) for n in cf.__all__)
    assert set(cconv.__all__) == set(sconv.__all__)


@pytest.mark.parametrize("name", sorted(sf.__all__))
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cf, name)), inspect.signature(getattr(sf, name))
    params = list(ours.parameters.values())
    if params and params[-1].name == "plan":  # cupyx's keyword, keyword-only here
        assert params[-1].kind is inspect.Parameter.KEYWORD_ONLY and params[-1].default is None
        params = params[:-1]
    ref = list(theirs.parameters.values())
    assert [(p.name, p.kind) for p in params] == [(p.name, p.kind) for p in ref]
    for p, q in zip(params, ref):
        if p.name == "_cache":  # SciPy's per-thread kernel store: a threading.local of our own
            assert isinstance(p.default, threading.local) and isinstance(q.default, threading.local)
        else:
            assert p.default == q.default, p.name


@pytest.mark.parametrize("name", sorted(sconv.__all__))
def test_convolve_signature_is_scipys(name):
    assert str(inspect.signature(getattr(cconv, name))) == str(inspect.signature(getattr(sconv, name)))


def test_plan_is_where_the_old_code_had_none():
    plans = [n for n in cf.__all__ if "plan" in inspect.signature(getattr(cf, n)).parameters]
    assert sorted(plans) == ["fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "irfft", "rfft"]


def _scipy_shape_axes(xshape, shape, axes):
    x = np.empty(xshape)
    if shape is not None and axes is None:
        shape = _sh._iterable_of_int(shape, "shape")
        if len(shape) != x.ndim:
            raise ValueError("when given, axes and shape arguments have to be of the same length")
    s, a = _sh._init_nd_shape_and_axes(x, shape, axes)
    return list(s), list(a)


SHAPE_CASES = [((3, 4), None, None), ((3, 4), (1, 5), None), ((3, 4), None, (-2, -1)), ((3, 4), None, (-1, -2)),
               ((3, 4), None, (0,)), ((2, 3, 4), (1, 4, 10), None), ((2, 3, 4), None, (0, 1)), ((3, 4), (5,), (1,)),
               ((3, 4), 5, 1), ((3, 4), (-1, 6), (0, 1)), ((3, 4), (5,), None), ((3, 4), (2, 2), (0,)),
               ((3, 4), None, (0, 0)), ((3, 4), None, (2,)), ((3, 4), None, (-3,)), ((3, 4), (0, 2), None),
               ((3, 4), (2.5, 2), None), ((3, 4), None, "a"), ((3, 4), (2, 3, 4), (0, 1, 1)), ((3, 0), None, None),
               ((3, 4), (), ()), ((3, 4), None, ())]


@pytest.mark.parametrize("xshape,shape,axes", SHAPE_CASES, ids=[str(c) for c in SHAPE_CASES])
def test_shape_axes_is_scipys(xshape, shape, axes):
    try:
        want = _scipy_shape_axes(xshape, shape, axes)
    except Exception as e:
        with pytest.raises(type(e)):
            L.shape_axes(list(xshape), shape, axes)
        return
    assert L.shape_axes(list(xshape), shape, axes) == want


@pytest.mark.parametrize("n", [1, 2, 3, 4, 9, 10])
def test_packed_layout_is_fftpacks(n):
    rng = np.random.default_rng(n)
    for shape, axis in (((n,), 0), ((3, n), 1), ((n, 4), 0), ((2, n, 3), 1), ((2, n, 3), -2)):
        x = rng.normal(size=shape)
        Y = np.fft.rfft(x, axis=axis)
        want = sf.rfft(x, axis=axis)
        strided = np.moveaxis(np.moveaxis(Y, axis, 0).copy(), 0, axis)  # the spectrum's axis strided
        for spec in (Y, strided, Y.astype(np.complex64)):
            got = L.pack(NP, spec, n, axis)
            assert got.dtype == spec.real.dtype and got.shape == want.shape and got.flags.c_contiguous
            np.testing.assert_allclose(got, want, rtol=1e-5 if got.dtype == np.float32 else 1e-13, atol=1e-12)
        for cd in (np.complex128, np.complex64):
            back = np.fft.irfft(L.unpack(NP, want.astype(np.dtype(cd).char.lower()), n, axis, cd), n, axis=axis)
            np.testing.assert_allclose(back, sf.irfft(want, axis=axis), rtol=1e-5, atol=1e-5)


def test_packed_strided_path_is_taken_and_right():
    """The three-copy path (a spectrum whose axis is not contiguous) against the two-copy one."""
    Y = np.fft.rfft(np.random.default_rng(3).normal(size=(8, 5)), axis=0)
    Yf = np.asfortranarray(Y)
    assert np.moveaxis(Yf, 0, -1).strides[-1] == Yf.itemsize  # contiguous along the axis: view path
    Yc = np.ascontiguousarray(Y)
    assert np.moveaxis(Yc, 0, -1).strides[-1] != Yc.itemsize  # strided: three copies
    np.testing.assert_array_equal(L.pack(NP, Yf, 8, 0), L.pack(NP, Yc, 8, 0))


def test_fix_length_is_scipys():
    x = np.arange(12.0).reshape(3, 4)
    for n, axis in ((2, 1), (6, 1), (3, 0), (5, 0)):
        np.testing.assert_array_equal(L.fix_length(NP, x, n, axis), _sh._fix_shape_1d(x, n, axis)[0])


def _ops(x):
    return [("diff", (1, None), lambda: sf.diff(x, 1)), ("diff", (2, None), lambda: sf.diff(x, 2)),
            ("diff", (3, 2.0), lambda: sf.diff(x, 3, 2.0)), ("diff", (-1, None), lambda: sf.diff(x, -1)),
            ("diff", (-2, 5.0), lambda: sf.diff(x, -2, 5.0)), ("tilbert", (0.5, None), lambda: sf.tilbert(x, 0.5)),
            ("itilbert", (0.5, 3.0), lambda: sf.itilbert(x, 0.5, 3.0)), ("hilbert", (), lambda: sf.hilbert(x)),
            ("cs_diff", (0.3, 0.7, None), lambda: sf.cs_diff(x, 0.3, 0.7)),
            ("sc_diff", (0.3, 0.7, 2.0), lambda: sf.sc_diff(x, 0.3, 0.7, 2.0)),
            ("ss_diff", (0.3, 0.7, None), lambda: sf.ss_diff(x, 0.3, 0.7)),
            ("cc_diff", (0.3, 0.7, 4.0), lambda: sf.cc_diff(x, 0.3, 0.7, 4.0)),
            ("shift", (0.4, None), lambda: sf.shift(x, 0.4)), ("shift", (0.4, 3.0), lambda: sf.shift(x, 0.4, 3.0))]


@pytest.mark.parametrize("n", [1, 2, 3, 8, 17])
def test_pseudo_diffs_are_scipys(n):
    rng = np.random.default_rng(n)
    for x in (rng.normal(size=n), rng.normal(size=n) + 1j * rng.normal(size=n)):
        for name, args, ref in _ops(x):
            with np.errstate(all="ignore"):
                want, got = ref(), getattr(P, name)(NP, x, *args)
            assert got.dtype == want.dtype, name
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(want).max()),
                                       err_msg="{}{}".format(name, args))


@pytest.mark.parametrize("d", [0, 1, 2, 3, -1, 5])
@pytest.mark.parametrize("n", [1, 4, 7])
def test_kernels_are_scipys(d, n):
    for zero_nyquist in (None, 0, 1):
        want = sconv.init_convolution_kernel(n, lambda k: 1.5 * k + 0.25, d=d, zero_nyquist=zero_nyquist)
        np.testing.assert_allclose(P.kernel_omega(NP, n, lambda k: 1.5 * k + 0.25, 0.25, d, zero_nyquist), want,
                                   rtol=1e-15)
        host = cconv.host_kernel(n, lambda k, a: a * k + 0.25, d, zero_nyquist, (1.5,))
        np.testing.assert_array_equal(host, want)


def test_convolve_is_scipys():
    rng = np.random.default_rng(5)
    for n in (1, 2, 5, 8):
        x, w, wi = rng.normal(size=(3, n))
        for swap in (False, True):
            np.testing.assert_allclose(P.convolve(NP, x, w, swap), sconv.convolve(x, w, swap_real_imag=swap),
                                       rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(P.convolve_z(NP, x, w, wi), sconv.convolve_z(x, w, wi), rtol=1e-12, atol=1e-12)


def test_next_fast_len_is_scipys():
    for t in list(range(0, 300)) + [2**40 + 1, 10**12 + 7, 3**20 + 1, True]:
        assert cf.next_fast_len(t) == sf.next_fast_len(t), t
    for bad in (-1, 2.5, "3"):
        with pytest.raises(Exception) as ours:
            cf.next_fast_len(bad)
        with pytest.raises(Exception) as theirs:
            sf.next_fast_len(bad)
        assert type(ours.value) is type(theirs.value)


def test_plan_records():
    rec = _plan.plan_record((4, 8), True, False, np.complex64, None, -1, "C2C")
    assert rec == _plan.call_record("C2C", np.complex64, (4, 8), (1,), (8,))
    assert rec != _plan.call_record("C2C", np.complex128, (4, 8), (1,), (8,))
    assert _plan.plan_record((4, 8), True, False, np.float64, (3, 5), None, "C2C") == \
        _plan.call_record("C2C", np.float64, (4, 8), (0, 1), (3, 5))
    assert _plan.plan_record((2, 3, 4), True, False, np.float32, None, None, "R2C")[3] == (0, 1, 2)
    for args, match in ((((4, 8), False, False, "D", None, None, "C2C"), "contiguous"),
                        (((4, 8), True, False, "D", (2,), (0, 1), "C2C"), "different lengths"),
                        (((2, 2, 2, 2), True, False, "D", None, None, "C2C"), "three axes"),
                        (((4, 8), True, False, "D", None, 2, "C2C"), "exceeds"),
                        (((4, 8), True, False, "D", None, None, "Z2Z"), "value_type"),
                        (((4, 8), False, True, "d", None, None, "R2C"), "F-order")):
        with pytest.raises(ValueError, match=match):
            _plan.plan_record(*args)


def test_plan_checks():
    plan = _plan.FFTPlan(_plan.call_record("C2C", np.complex64, (8,), (0,), (8,)))
    _plan.check_plan(plan, plan.record)
    with pytest.raises(ValueError, match="does not match"):
        _plan.check_plan(plan, _plan.call_record("C2C", np.complex64, (8,), (0,), (16,)))
    with pytest.raises(ValueError, match="get_fft_plan"):
        _plan.check_plan(object(), plan.record)
    with plan:
        _plan.check_plan(None, plan.record)  # the current plan is checked
        with pytest.raises(ValueError, match="does not match"):
            _plan.check_plan(None, _plan.call_record("R2C", np.float32, (8,), (0,), (8,)))
        with pytest.raises(RuntimeError, match="either as a context manager or as an argument"):
            _plan.check_plan(plan, plan.record)
        seen = []
        t = threading.Thread(target=lambda: seen.append(_plan._current.__dict__.get("plan")))
        t.start()
        t.join()
        assert seen == [None]  # per thread
    _plan.check_plan(None, _plan.call_record("R2C", np.float32, (8,), (0,), (8,)))  # none current after


ERRORS = {
    "fft-n0": lambda m, c: m.fft(c(np.ones(4)), n=0),
    "fft-axis": lambda m, c: m.fft(c(np.ones(4)), axis=1),
    "fft-empty": lambda m, c: m.fft(c(np.ones((3, 0)))),
    "fftn-axes": lambda m, c: m.fftn(c(np.ones((3, 4))), axes=(0, 0)),
    "fftn-shape": lambda m, c: m.fftn(c(np.ones((3, 4))), shape=(5,)),
    "fft2-axis": lambda m, c: m.fft2(c(np.ones(4))),
    "rfft-complex": lambda m, c: m.rfft(c(np.ones(4, complex))),
    "irfft-complex": lambda m, c: m.irfft(c(np.ones(4, complex))),
    "rfft-n": lambda m, c: m.rfft(c(np.ones(4)), n=-1),
    "idct-type": lambda m, c: m.idct(c(np.ones(4)), type=5),
    "idctn-type": lambda m, c: m.idctn(c(np.ones(4)), type=0),
    "dctn-shape": lambda m, c: m.dctn(c(np.ones((3, 4))), shape=(2,)),
    "diff-0d": lambda m, c: m.diff(c(np.float64(1.0))),
    "diff-empty": lambda m, c: m.diff(c(np.ones(0))),
    "diff-2d": lambda m, c: m.diff(c(np.ones((3, 2)))),
    "shift-2d": lambda m, c: m.shift(c(np.ones((3, 2))), 0.5),
    "rfftfreq": lambda m, c: m.rfftfreq(-1),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        ERRORS[case](cf, from_np)
    with pytest.raises(Exception) as theirs:
        ERRORS[case](sf, np.asarray)
    # (AxisError, NumPy's, is an IndexError: SciPy's own raise a bare IndexError)
    assert isinstance(ours.value, type(theirs.value)), (ours.value, theirs.value)


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fftn", "dct", "idctn", "diff", "hilbert", "shift"])
def test_host_data_is_refused(name):
    args = {"shift": (0.5,)}.get(name, ())
    with pytest.raises(TypeError, match="cuarray.asarray"):
        getattr(cf, name)(np.ones(4), *args)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cconv.convolve(np.ones(4), from_np(np.ones(4)))


def test_convolve_shapes_are_checked():
    for x, w in ((np.ones(4), np.ones(3)), (np.ones((2, 2)), np.ones(2)), (np.ones(4), np.ones((4, 1)))):
        with pytest.raises(ValueError):
            sconv.convolve(x, w)
        with pytest.raises(ValueError, match="1-dimensional arrays of the same length"):
            cconv.convolve(from_np(x), from_np(w))
