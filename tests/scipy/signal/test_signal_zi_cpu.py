"""lfilter's and sosfilt's initial conditions without a device (conftest's `host_lfilter`: the
public functions over templates/iir.cuh built with g++), SciPy the oracle: the grid cupyx's own
lfilter tests run (4-D signals, every axis, FIR orders 1-3 and IIR orders 0-3, every pair of input
and coefficient dtypes), with SciPy's zi (the filter's delay states, from lfiltic and lfilter_zi);
the zi shapes SciPy accepts and refuses; cupyx's other zi convention named in the error; and
lfilter_zi/sosfilt_zi/filtfilt as SciPy 1.18."""

import itertools

import numpy as np
import pytest
import scipy
import scipy.signal as ss

RNG = np.random.default_rng(88)
DTYPES = [np.dtype(c) for c in "bhilBHILfdFD"]  # cupyx's for_all_dtypes_combination(no_float16, no_bool)
ORDERS = list(itertools.product((1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)))  # (fir_order, iir_order, axis)
SCIPY_1_18 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def host_lfilter(lfilter_standins, host_signal_of):
    """conftest's `host_lfilter` with complex coefficients' helpers on the host too."""
    from cuarray.scipy.signal import _lfilter_complex as lc

    return host_signal_of({**lfilter_standins, lc: dict(_zeros=np.zeros, _concatenate=np.concatenate)})


def _random(shape, dt, scale):
    """cupyx's shaped_random: integers in [0, 10), floats in [0, scale)."""
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return RNG.integers(0, 10, size=shape).astype(dt)
    v = RNG.random(shape) * scale
    return (v + 1j * RNG.random(shape) * scale if dt.kind == "c" else v).astype(dt)


def _close(got, ref, what):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (what, got.dtype, ref.dtype, got.shape, ref.shape)
    tol = 2e-5 if ref.dtype.char in "fF" else 1e-10
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))),
                               err_msg=what)


def _lfiltic_zi(b, a, z, axis):
    """cupyx's test conversion: each line's fir + iir - 1 past values (outputs then inputs, newest
    last) through SciPy's lfiltic into SciPy's delay states, along `axis`."""
    nb, na = len(b), len(a)
    m = np.moveaxis(z, axis, -1)
    lines = m.reshape(int(np.prod(m.shape[:-1])), m.shape[-1])
    out = np.stack([ss.lfiltic(b, a, v[-(na - 1):][::-1] if na > 1 else [], v[:nb - 1][::-1]) for v in lines])
    return np.moveaxis(out.reshape(m.shape[:-1] + (out.shape[-1],)), -1, axis)


@pytest.mark.parametrize("pair", range(len(DTYPES) ** 2))
def test_lfilter_zi_grid_as_scipy(host_lfilter, pair):
    """Each (input, coefficient) dtype pair over a share of the (fir, iir, axis) grid, with and
    without zi; the pairs SciPy refuses (an integer result type) raise NotImplementedError."""
    in_dt, c_dt = DTYPES[pair // len(DTYPES)], DTYPES[pair % len(DTYPES)]
    x = _random((4, 5, 3, 11 + pair % 3 * 9), in_dt, 0.5)
    for fir, iir, axis in ORDERS[pair % 8::8]:
        b = _random((fir,), c_dt, 0.2)
        a = np.r_[1, _random((iir,), c_dt, 0.2)].astype(c_dt)
        what = "x {} b/a {} fir {} iir {} axis {}".format(in_dt, c_dt, fir, iir, axis)
        try:
            ref = ss.lfilter(b, a, x, axis=axis)
        except NotImplementedError:
            with pytest.raises(NotImplementedError):
                host_lfilter.lfilter(b, a, x, axis=axis)
            continue
        _close(host_lfilter.lfilter(b, a, x, axis=axis), ref, what)
        zshape = list(x.shape)
        zshape[axis] = fir + iir - 1
        zi = _lfiltic_zi(b, a, _random(zshape, np.float64, 0.5), axis)
        narrow = in_dt.kind == "c" or (in_dt.kind == "f" and zi.dtype.kind != "c")  # (zi in x's dtype too)
        for z in (zi, zi.astype(in_dt)) if narrow else (zi,):
            ry, rz = ss.lfilter(b, a, x, axis=axis, zi=z)
            gy, gz = host_lfilter.lfilter(b, a, x, axis=axis, zi=z)
            _close(gy, ry, what + " zi " + str(z.dtype))
            _close(gz, rz, what + " zf " + str(z.dtype))


@pytest.mark.parametrize("fir,iir", [(f, i) for f in (1, 2, 3) for i in (1, 2, 3)])
def test_lfilter_zi_and_lfiltic_round_trips(host_lfilter, fir, iir):
    """A step from lfilter_zi's steady state stays there; lfiltic's states continue a filtered
    signal: ours feed SciPy's lfilter and SciPy's ours, the same outputs."""
    b = _random((fir,), np.float64, 0.3)
    a = np.r_[1, _random((iir,), np.float64, 0.3)]
    zi = host_lfilter.lfilter_zi(b, a)
    _close(zi, ss.lfilter_zi(b, a), "lfilter_zi")
    for axis in (0, 1):
        x = np.ones((20, 3)) if axis == 0 else np.ones((3, 20))
        z = np.expand_dims(zi, 1 - axis) * np.ones((1, 3) if axis == 0 else (3, 1))
        for got, ref in zip(host_lfilter.lfilter(b, a, x, axis=axis, zi=z), ss.lfilter(b, a, x, axis=axis, zi=z)):
            _close(got, ref, "lfilter_zi states, axis {}".format(axis))
    x = RNG.normal(size=40)
    y = ss.lfilter(b, a, x)
    z = ss.lfiltic(b, a, y[:20][::-1], x[:20][::-1])
    _close(host_lfilter.lfilter(b, a, x[20:], zi=z)[0], y[20:], "lfiltic continuation")


def _outcome(call):
    try:
        call()
    except Exception as exc:  # (the type is compared)
        return type(exc)
    return None


def test_zi_shapes_as_scipy(host_lfilter):
    """lfilter broadcasts a zi whose other axes are 1 (SciPy's C core); sosfilt takes the exact
    shape only: the same shapes accepted, the same exception types otherwise."""
    x = RNG.normal(size=(3, 4, 10))
    sos = ss.butter(4, 0.2, output="sos")
    bad = []
    for b, a in (ss.butter(2, 0.3), ([1.0, 2, 3], [1.0]), ([1.0, 2, 3], [2.0]), ([2.0], [1.0, 0.5])):
        K = max(len(a), len(b)) - 1
        for axis in (0, 1, -1):
            sizes = [(1, n, 2) if k != axis % 3 else (K, K + 1, 1) for k, n in enumerate(x.shape)]
            for shape in list(itertools.product(*sizes)) + [(K,), (3, K), (1, 1, 1, K)]:
                zi = RNG.normal(size=shape)
                ref = _outcome(lambda: ss.lfilter(b, a, x, axis=axis, zi=zi))
                if _outcome(lambda: host_lfilter.lfilter(b, a, x, axis=axis, zi=zi)) is not ref:
                    bad.append(("lfilter", len(b), len(a), axis, shape, ref))
    for axis in (0, 1, -1):
        sizes = [(1, n) if k != axis % 3 else (2, 4) for k, n in enumerate(x.shape)]
        for shape in itertools.product((2, 1), *sizes):
            zi = RNG.normal(size=shape)
            ref = _outcome(lambda: ss.sosfilt(sos, x, axis=axis, zi=zi))
            if _outcome(lambda: host_lfilter.sosfilt(sos, x, axis=axis, zi=zi)) is not ref:
                bad.append(("sosfilt", axis, shape, ref))
    assert not bad, bad[:10]


def test_cupyx_zi_convention_is_named(host_lfilter):
    """A zi of len(b) + len(a) - 2 values along the axis (cupyx's past inputs and outputs) where
    SciPy wants max(len(a), len(b)) - 1 states: SciPy's ValueError, and ours says which convention
    it is and how to convert; where the two lengths agree nothing tells them apart (SciPy's values)."""
    b, a = [0.2, 0.3, 0.1], [1.0, -0.4, 0.1, 0.05]
    x = RNG.normal(size=(3, 30))
    for axis, shape in ((-1, (3, 5)), (0, (5, 30)), (-1, (1, 5))):
        zi = RNG.normal(size=shape)
        with pytest.raises(ValueError):
            ss.lfilter(b, a, x, axis=axis, zi=zi)
        with pytest.raises(ValueError, match=r"Unexpected shape.*cupyx\.scipy\.signal\.lfilter.*3 delay states"
                                             r".*lfiltic"):
            host_lfilter.lfilter(b, a, x, axis=axis, zi=zi)
    with pytest.raises(ValueError) as exc:  # wrong elsewhere too: SciPy's message only
        host_lfilter.lfilter(b, a, x, zi=np.ones((2, 5)))
    assert "cupyx" not in str(exc.value)
    zi = RNG.normal(size=(3, 2))  # b of one tap: cupyx's len(a) - 1 past outputs has SciPy's length
    for got, ref in zip(host_lfilter.lfilter([0.5], [1.0, -0.4, 0.1], x, zi=zi),
                        ss.lfilter([0.5], [1.0, -0.4, 0.1], x, zi=zi)):
        _close(got, ref, "one-tap numerator")
    sos = ss.butter(4, 0.2, output="sos")
    for xs, axis, shape in (((30,), -1, (2, 4)), ((3, 30), 0, (2, 4, 30)), ((3, 30), -1, (2, 3, 4))):
        xx, zi = RNG.normal(size=xs), RNG.normal(size=shape)
        with pytest.raises(ValueError):
            ss.sosfilt(sos, xx, axis=axis, zi=zi)
        with pytest.raises(ValueError, match=r"Invalid zi shape.*cupyx\.scipy\.signal\.sosfilt.*lfiltic"):
            host_lfilter.sosfilt(sos, xx, axis=axis, zi=zi)


LFILTER_ZI_VALUES = [([1.0, 2], [1.0, 0.5]), ([1, 2], [1, 0]), (np.float32([1, 2]), np.float32([1, 0.5])),
                     ([1.0, 2, 3], [2.0, 0.5]), ([1.0], [1.0, -0.5, 0.2]), ([1 + 1j, 2], [1, 0.5]), (1.0, [1.0, 0.5]),
                     (np.float32([1, 2]), [1.0, 0.5]), (np.int8([1, 2]), np.int8([1, 1])),
                     ([0.5, 0.2, 0.1, 0.05], [1.0, -0.3])]
# SciPy 1.18's (1.17 solved a singular system, dropped leading zeros of a, took len(a) == 1 for an error)
LFILTER_ZI_ERRORS = [([1.0, 1], [1.0, -1], ValueError, "sum\\(a\\) == 0"),
                     ([1.0, 2], [0.0, 1.0, 0.5], ValueError, "First coefficient"),
                     ([[1.0, 2]], [1, 0.5], ValueError, "must be 1-D arrays"), ([1.0], [], IndexError, None)]


def test_lfilter_zi_as_scipy_1_18(host_lfilter):
    for b, a in LFILTER_ZI_VALUES:
        ref = ss.lfilter_zi(b, a)
        _close(np.asarray(host_lfilter.lfilter_zi(b, a)), ref, "lfilter_zi({}, {})".format(b, a))
    for b, a in (([1.0], [1.0]), ([2.0], [4.0]), ([], [1.0])):
        assert host_lfilter.lfilter_zi(b, a).shape == (0,)
    # a Python scalar is weak in SciPy 1.18's promotion (1.17: float64)
    assert host_lfilter.lfilter_zi(1.0, np.float32([1, 0.5])).dtype == np.float32
    for b, a, exc, match in LFILTER_ZI_ERRORS:
        if SCIPY_1_18:
            with pytest.raises(exc, match=match):
                ss.lfilter_zi(b, a)
        with pytest.raises(exc, match=match):
            host_lfilter.lfilter_zi(b, a)
    for sos in (ss.butter(4, 0.2, output="sos"), ss.butter(3, 0.3, output="sos").astype(np.float32),
                np.array([[1, 2, 1, 1, 0, 0]])):
        _close(np.asarray(host_lfilter.sosfilt_zi(sos)), ss.sosfilt_zi(sos), "sosfilt_zi {}".format(sos.dtype))
    for sos in (np.array([[1, 0, 0, 1, -1, 0.0]]),):  # a pole at z = 1
        with pytest.raises(ValueError, match="sum\\(a\\) == 0"):
            host_lfilter.sosfilt_zi(sos)
    x = RNG.normal(size=40)
    with pytest.raises(ValueError, match="sum\\(a\\) == 0"):
        host_lfilter.filtfilt([1.0, 1], [1.0, -1], x)
    with pytest.raises(ValueError):  # (SciPy 1.17: "BUG: ... a[0] == 0", 1.18: "First coefficient ...")
        host_lfilter.filtfilt([1.0, 2], [0.0, 1.0, 0.5], x)
