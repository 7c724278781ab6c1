"""`ufunc.reduceat` on the GPU against NumPy's (cuarray/_core/reduceat.py): random arrays of every
dtype, 1-3 dimensions, every axis, random indices (decreasing, repeated, the last one alone, none),
empty axes, strided, reversed and F-ordered inputs, associative and non-associative ufuncs, NaNs,
`dtype=`, `out=` (contiguous, strided, another dtype, the input itself), indices on the device,
NumPy's exceptions, and an array past 2**31 elements."""

from __future__ import annotations

import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

UFUNCS = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "subtract", "divide", "logical_and",
          "logical_or", "bitwise_or", "bitwise_xor", "power", "arctan2"]
DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.int32, numpy.int64, numpy.uint64,
          numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _data(rng, shape, dt):
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -4
        return rng.integers(lo, 5, size=shape).astype(dt)
    x = rng.standard_normal(shape) * 2
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    if x.size and rng.random() < 0.3:  # a NaN somewhere (maximum propagates it, fmax skips it)
        x.flat[int(rng.integers(x.size))] = numpy.nan
    return x


def _tol(dt, uf):
    dt = numpy.dtype(dt)
    if dt.kind not in "fc":
        return dict(rtol=0, atol=0)
    # float16 folds in float32 (NumPy's float16 reduction loop does too); products and powers of
    # random normals span many magnitudes: relative error only
    size = dt.itemsize if dt.kind == "f" else dt.itemsize // 2
    return dict(rtol={2: 2e-3, 4: 2e-5, 8: 1e-12}[size],
                atol=0 if uf in ("multiply", "power", "divide") else {2: 1e-2, 4: 1e-5, 8: 1e-12}[size])


def _compare(got, want, tol):
    assert isinstance(got, cp.ndarray)
    assert got.shape == want.shape and got.dtype == want.dtype, ((got.shape, got.dtype), (want.shape, want.dtype))
    numpy.testing.assert_allclose(got.get(), want, equal_nan=True, **tol)


# NumPy's float `power` and `arctan2` reduce out of order on this hardware (their SIMD loops do not
# re-read the running value: arctan2.reduceat([1, -1, 2, 3], [0]) is 0.3218, arctan2(1, 3), where
# the in-order fold, NumPy's own arctan2.accumulate(...)[-1], is 0.2813; reduceat differed from
# accumulate's last value at 7 of 8 lengths for both, and for no other ufunc here). Their oracle is
# the fold the documentation defines, computed by NumPy's accumulate.
_FOLDED_BY_ACCUMULATE = {"power", "arctan2"}


def _fold_reference(nu, h, idx, axis):
    """`nu.reduceat(h, idx, axis)` by its definition: each slice folded in order (NumPy's accumulate)."""
    n = h.shape[axis]
    parts = []
    for i, s in enumerate(idx):
        e = n if i + 1 == len(idx) else (idx[i + 1] if idx[i + 1] > s else s + 1)
        piece = numpy.take(h, numpy.arange(s, e), axis=axis)
        parts.append(numpy.take(nu.accumulate(piece, axis=axis), [-1], axis=axis))
    return numpy.concatenate(parts, axis=axis) if parts else nu.reduceat(h, idx, axis=axis)


def _indices(rng, n):
    k = int(rng.integers(0, 7))
    if n == 0:
        return numpy.zeros(0, numpy.int64)
    idx = rng.integers(0, n, size=k)
    if k and rng.random() < 0.5:
        idx = numpy.sort(idx)  # (the common use: increasing starts)
    return idx


@pytest.mark.parametrize("seed", range(40))
def test_random_against_numpy(seed):
    rng = numpy.random.default_rng(seed + 9100)
    cases = 0
    for _ in range(25):
        uf = UFUNCS[int(rng.integers(len(UFUNCS)))]
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(0 if rng.random() < 0.15 else 1, 7, size=ndim))
        h = _data(rng, shape, dt)
        if uf == "power" and h.dtype.kind == "i":
            h = numpy.abs(h)  # (NumPy raises for a negative integer power, a device cannot)
        axis = int(rng.integers(-ndim, ndim))
        layout = int(rng.integers(0, 4))
        d = cp.asarray(h)
        if layout == 1:  # reversed along the axis
            h, d = numpy.flip(h, axis), cp.flip(d, axis)
        elif layout == 2 and ndim > 1:  # F order
            h, d = numpy.asfortranarray(h), cp.asfortranarray(d)
        elif layout == 3:  # every other element of a longer array
            big = _data(rng, shape[:-1] + (2 * shape[-1],), dt)
            if uf == "power" and big.dtype.kind == "i":
                big = numpy.abs(big)
            h, d = big[..., ::2], cp.asarray(big)[..., ::2]
        idx = _indices(rng, h.shape[axis])
        nu, cu = getattr(numpy, uf), getattr(cp, uf)
        with numpy.errstate(all="ignore"):
            try:
                want = nu.reduceat(h, idx, axis=axis)
                if uf in _FOLDED_BY_ACCUMULATE:
                    want = _fold_reference(nu, h, idx, axis)
            except TypeError as exc:  # NumPy has no loop: ours raises the same class
                with pytest.raises(type(exc)):
                    cu.reduceat(d, idx, axis=axis)
                continue
        got = cu.reduceat(d, cp.asarray(idx) if rng.random() < 0.3 else list(idx), axis=axis)
        _compare(got, want, _tol(want.dtype, uf))
        cases += 1
    assert cases >= 10


def test_numpys_example_and_the_slice_rule():
    x = numpy.linspace(0, 15, 16).reshape(4, 4)
    d = cp.asarray(x)
    for idx in ([0, 3, 1, 2, 0], [0, 3, 3, 1], [2], []):
        _compare(cp.add.reduceat(d, idx), numpy.add.reduceat(x, idx), dict(rtol=0, atol=0))
        _compare(cp.multiply.reduceat(d, idx, axis=1), numpy.multiply.reduceat(x, idx, axis=1), dict(rtol=0, atol=0))
    # NumPy's own ufunc method on a cuarray array dispatches here (__array_ufunc__)
    got = numpy.add.reduceat(d, [0, 2], axis=1)
    _compare(got, numpy.add.reduceat(x, [0, 2], axis=1), dict(rtol=0, atol=0))
    # a non-associative fold in NumPy's order
    _compare(cp.subtract.reduceat(cp.arange(6.0), [0, 3, 1, 5]), numpy.subtract.reduceat(numpy.arange(6.0), [0, 3, 1, 5]),
             dict(rtol=0, atol=0))


def test_dtype_and_out():
    h = numpy.array([100, 100, 1, 7], numpy.int64)
    d = cp.asarray(h)
    # dtype=: the loop's type
    _compare(cp.add.reduceat(d, [0, 2], dtype=numpy.float32), numpy.add.reduceat(h, [0, 2], dtype=numpy.float32),
             dict(rtol=0, atol=0))
    # out of another dtype and no dtype: the loop runs in out's (int8 wraps, as NumPy's)
    o, ho = cp.zeros(2, numpy.int8), numpy.zeros(2, numpy.int8)
    r = cp.add.reduceat(d, [0, 2], out=o)
    numpy.add.reduceat(h, [0, 2], out=ho)
    assert r is o
    numpy.testing.assert_array_equal(o.get(), ho)
    # out strided, and out as a one-tuple
    big = cp.full(6, -1.0)
    view = big[::2]
    r = cp.maximum.reduceat(cp.asarray([3.0, 1.0, 4.0, 1.0, 5.0]), [0, 2, 4], out=(view,))
    assert r is view
    numpy.testing.assert_array_equal(big.get(), [3.0, -1.0, 4.0, -1.0, 5.0, -1.0])
    # out overlapping the input (NumPy reads the input first)
    hx = numpy.arange(6.0)
    x = cp.asarray(hx)
    cp.add.reduceat(x, [0, 3], out=x[:2])
    numpy.add.reduceat(hx, [0, 3], out=hx[:2])
    numpy.testing.assert_array_equal(x.get(), hx)


def test_errors_are_numpys():
    d = cp.arange(5.0)
    with pytest.raises(IndexError, match=r"index 5 out-of-bounds in add\.reduceat \[0, 5\)"):
        cp.add.reduceat(d, [0, 5])
    with pytest.raises(IndexError, match="index -1"):
        cp.add.reduceat(d, cp.asarray([-1]))
    with pytest.raises(ValueError, match="too small depth"):
        cp.add.reduceat(d, 2)
    with pytest.raises(ValueError, match="too deep"):
        cp.add.reduceat(d, numpy.array([[0, 1]]))
    with pytest.raises(TypeError, match="scalar"):
        cp.add.reduceat(cp.asarray(3.0), [0])
    with pytest.raises(numpy.exceptions.AxisError):
        cp.add.reduceat(d, [0], axis=1)
    with pytest.raises(ValueError, match="multiple axes"):
        cp.add.reduceat(cp.ones((2, 2)), [0], axis=None)
    with pytest.raises(ValueError, match="binary"):
        cp.sin.reduceat(d, [0])
    with pytest.raises(ValueError, match="single value"):
        cp.divmod.reduceat(d, [0])
    with pytest.raises(ValueError, match="wrong size"):
        cp.add.reduceat(d, [0, 2], out=cp.empty(3))
    with pytest.raises(TypeError):
        cp.subtract.reduceat(cp.asarray([True, False]), [0])
    # and the library is still usable
    numpy.testing.assert_array_equal(cp.add.reduceat(d, [0, 2]).get(), [1.0, 9.0])


def test_empty_and_degenerate():
    h = numpy.zeros((0, 3))
    assert cp.add.reduceat(cp.asarray(h), [], axis=0).shape == (0, 3)
    with pytest.raises(IndexError):
        cp.add.reduceat(cp.asarray(h), [0], axis=0)
    _compare(cp.add.reduceat(cp.zeros((2, 0)), [0, 1], axis=0), numpy.add.reduceat(numpy.zeros((2, 0)), [0, 1], axis=0),
             dict(rtol=0, atol=0))


def test_past_2_to_the_31_elements():
    """2**31 + 2048 uint8 elements, two slices along the first axis of (2**20 + 1, 2048): sums past
    2**32 in uint64, checked against NumPy's on the same values."""
    rows, cols = (1 << 20) + 1, 2048
    h = numpy.random.default_rng(5).integers(0, 256, size=(rows, cols), dtype=numpy.uint8)
    got = cp.add.reduceat(cp.asarray(h), [0, 1 << 19], axis=0)
    want = numpy.add.reduceat(h, [0, 1 << 19], axis=0)
    assert got.dtype == want.dtype == numpy.uint64
    numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("uf,dt", [("add", numpy.float32), ("add", numpy.float64), ("add", numpy.float16),
                                   ("add", numpy.complex64), ("add", numpy.int32), ("add", numpy.uint8),
                                   ("multiply", numpy.float64), ("maximum", numpy.float32), ("fmax", numpy.float64),
                                   ("minimum", numpy.int64), ("logical_or", numpy.bool_), ("bitwise_xor", numpy.int16),
                                   ("gcd", numpy.int32)])
def test_long_slices_in_blocks(uf, dt):
    """Associative ufuncs over long slices: the block-per-output kernel (the plan is checked to
    pick it), along a contiguous axis and along the first axis of a narrow matrix."""
    from cuarray._core import reduceat as R
    from cuarray._core import scan

    rng = numpy.random.default_rng(17)
    nu, cu = getattr(numpy, uf), getattr(cp, uf)
    many = sorted(int(v) for v in rng.integers(0, 200_000, size=1000))  # (blocks of 128 threads; the others 1024)
    for shape, axis, idx in (((100_003,), 0, [0, 5, 40_000, 40_001, 99_000, 3]), ((50_000, 3), 0, [0, 700, 30_000, 30_000]),
                             ((200_000,), 0, many)):
        if uf == "multiply":
            h = rng.uniform(0.9999, 1.0001, size=shape).astype(dt)  # (a product of 1e5 stays finite)
        else:
            h = _data(rng, shape, dt)
        if numpy.dtype(dt).kind == "f" and uf in ("maximum", "fmax"):
            h[123] = numpy.nan
        assert R.plan(shape, axis, len(idx), uf in scan.ASSOCIATIVE)[0] == "segment_blocks"
        with numpy.errstate(all="ignore"):
            want = nu.reduceat(h, idx, axis=axis)
        got = cu.reduceat(cp.asarray(h), idx, axis=axis)
        kind = numpy.dtype(want.dtype).kind
        size = want.dtype.itemsize if kind == "f" else want.dtype.itemsize // 2
        tol = dict(rtol=0, atol=0) if kind not in "fc" else dict(
            rtol={2: 1e-2, 4: 1e-4, 8: 1e-10}[size], atol={2: 1.0, 4: 1e-2, 8: 1e-8}[size])
        _compare(got, want, tol)


def test_from_another_thread():
    """A thread that never used the GPU (its context made current at its first launch), both kernels."""
    import threading

    h = numpy.arange(20_000, dtype=numpy.float64)
    d = cp.asarray(h)
    got = {}

    def work():
        got["few"] = cp.add.reduceat(d, [0, 7, 19_000]).get()       # a block per output
        got["many"] = cp.subtract.reduceat(d, list(range(0, 20_000, 3))).get()  # a thread per output

    t = threading.Thread(target=work)
    t.start()
    t.join()
    numpy.testing.assert_allclose(got["few"], numpy.add.reduceat(h, [0, 7, 19_000]), rtol=1e-12)
    numpy.testing.assert_array_equal(got["many"], numpy.subtract.reduceat(h, list(range(0, 20_000, 3))))
