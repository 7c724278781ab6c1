"""Advanced indexing, ufunc.at, nonzero & co. and the indexing routines on the device, against NumPy."""

import types

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._core import indexing  # noqa: E402
from cuarray._indexing import generating, inserting  # noqa: E402
from cuarray._sorting import searching_nonzero  # noqa: E402

cp = types.SimpleNamespace(**{k: getattr(cuarray, k) for k in dir(cuarray) if not k.startswith("__")})
for _mod in (generating, inserting, searching_nonzero):
    for _name in _mod.__all__:
        setattr(cp, _name, getattr(_mod, _name))

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
rng = numpy.random.default_rng()


def H(xp, h):
    return h if xp is numpy else cuarray.asarray(h)


def rand(shape, dtype):
    """Fresh random host data (never constant), see cuarray.testing.shaped_random."""
    return testing.shaped_random(shape, numpy, dtype, scale=20)


def both(fn):
    """fn(xp) under NumPy and cuarray: same result or same exception type; library usable after."""
    try:
        expected = fn(numpy)
    except Exception as exc:
        with pytest.raises(type(exc)):
            r = fn(cp)
            cuarray.cuda.Stream.null.synchronize()
            cuarray.check_index_errors()
            if isinstance(r, cuarray.ndarray):
                r.get()
        assert float(cuarray.ones(2).sum().get() if hasattr(cuarray, "sum") else 2) == 2
        return
    got = fn(cp)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for e, g in zip(expected, got):
            testing.assert_array_equal(g.get() if isinstance(g, cuarray.ndarray) else g, e)
        return
    g = got.get() if isinstance(got, cuarray.ndarray) else got
    assert numpy.shape(g) == numpy.shape(expected), (numpy.shape(g), numpy.shape(expected))
    if isinstance(got, cuarray.ndarray):
        assert got.dtype == numpy.asarray(expected).dtype
    numpy.testing.assert_array_equal(g, expected)


def pair(host):
    return host, cuarray.asarray(host)


INDEXES = [
    lambda xp, n: ([0, -1, 2, 2],),
    lambda xp, n: (xp.asarray([[1, 0], [2, -3]]),),
    lambda xp, n: (slice(None), [1, 0, 1]),
    lambda xp, n: ([0, 1], slice(None), [1, 0]),
    lambda xp, n: (0, slice(None), [1, 2]),
    lambda xp, n: (Ellipsis, xp.asarray([0, -1])),
    lambda xp, n: (None, [1], None, slice(1, None), [[0], [1]]),
    lambda xp, n: (True,),
    lambda xp, n: (slice(None), False),
    lambda xp, n: ([],),
    lambda xp, n: (slice(None, None, -1), xp.asarray(numpy.array([2, 0], numpy.uint8))),
    lambda xp, n: (xp.asarray(numpy.array(1)), [0, 2]),
]


@dtypes
@pytest.mark.parametrize("k", range(len(INDEXES)))
def test_getitem_int_arrays(dtype, k):
    host = rand((4, 3, 5), dtype)
    dev = cuarray.asarray(host)
    both(lambda xp: (host if xp is numpy else dev)[INDEXES[k](xp, None)])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int8, numpy.complex128], ids=testing.dtype_id)
def test_getitem_noncontiguous_source(dtype):
    host = rand((6, 8, 5), dtype)
    dev = cuarray.asarray(host)
    for idx in [([1, 3, 0],), (slice(None), [0, 3]), ([0, 2], [1, 1])]:
        both(lambda xp: (host if xp is numpy else dev)[::2, ::-1].transpose(2, 0, 1)[idx])


@dtypes
def test_getitem_bool_masks(dtype):
    host = rand((5, 4, 3), dtype)
    dev = cuarray.asarray(host)
    m3 = rng.random((5, 4, 3)) < 0.5
    m2 = rng.random((5, 4)) < 0.5
    m1 = rng.random(4) < 0.3
    for idx in [lambda xp: xp.asarray(m3), lambda xp: xp.asarray(m2), lambda xp: (slice(None), xp.asarray(m1)),
                lambda xp: (xp.asarray(m2), [0, 2, 1][: 1]), lambda xp: (1, xp.asarray(m1)),
                lambda xp: m2, lambda xp: xp.asarray(numpy.zeros((5, 4), bool))]:
        both(lambda xp: (host if xp is numpy else dev)[idx(xp)])
    # non-contiguous source under a mask
    both(lambda xp: (host if xp is numpy else dev)[:, ::-1].transpose(1, 0, 2)[xp.asarray(m2.T)])


def test_bool_mask_errors():
    host = rand((5, 4), numpy.float32)
    dev = cuarray.asarray(host)
    both(lambda xp: (host if xp is numpy else dev)[xp.asarray(numpy.ones(4, bool))])
    both(lambda xp: (host if xp is numpy else dev)[[0, 1], False])


_VALS = {}


def _setitem_cases(dtype):
    vals = rand((3, 5), dtype)
    m = rng.random((6, 5)) < 0.5
    cnt = int(m.sum())
    v_m = rand(cnt, dtype)
    v5 = rand((5, 5), dtype)
    return [
        lambda xp, a: a.__setitem__(([0, 2, 5],), xp.asarray(vals)),
        lambda xp, a: a.__setitem__(([0, 2, 5], slice(None)), xp.asarray(vals[0])),
        lambda xp, a: a.__setitem__((slice(None), [-1, 1]), 1),
        lambda xp, a: a.__setitem__(xp.asarray(m), 0),
        lambda xp, a: a.__setitem__(xp.asarray(m), xp.asarray(v_m)),
        lambda xp, a: a.__setitem__(xp.asarray(m[:, 0]), xp.asarray(vals[0])),
        lambda xp, a: a.__setitem__(([1, 1, 1],), xp.asarray(vals)),          # repeated: last wins
        lambda xp, a: a.__setitem__(([4, 0, 4, 4, 0],), xp.asarray(v5)),
        lambda xp, a: a.__setitem__(xp.asarray([[0, 1], [2, 3]]), 7),
        lambda xp, a: a.__setitem__(([0, 1],), xp.asarray(vals)),              # shape mismatch
        lambda xp, a: a.__setitem__((m,), list(v_m)),
        lambda xp, a: a.__setitem__((slice(None), xp.asarray([4, 0, 4])), xp.asarray(vals[:, :1].T)),
    ]


@dtypes
@pytest.mark.parametrize("case", range(12))
def test_setitem(dtype, case):
    base = rand((6, 5), dtype)
    fn = _setitem_cases(dtype)[case]

    def run(xp):
        a = base.copy() if xp is numpy else cuarray.asarray(base)
        fn(xp, a)
        return a
    both(run)


def test_setitem_repeated_last_wins_large():
    idx = rng.integers(0, 50, 10000)
    vals = rng.standard_normal(10000)
    for _ in range(3):
        def run(xp):
            a = numpy.zeros(50) if xp is numpy else cuarray.zeros(50)
            a[xp.asarray(idx)] = xp.asarray(vals)
            return a
        both(run)


def test_out_of_bounds_device_index_raises_and_recovers():
    dev = cuarray.asarray(numpy.arange(5.0))
    bad = cuarray.asarray(numpy.array([0, 10, 1]))
    r = dev[bad]  # asynchronous: the error surfaces at the next synchronisation point
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 5"):
        r.get()
        cuarray.check_index_errors()
    cuarray.check_index_errors()  # reset
    testing.assert_array_equal(dev[cuarray.asarray(numpy.array([4, -5]))].get(), [4.0, 0.0])
    # negative out of range, scatter
    with pytest.raises(IndexError, match="index -6 is out of bounds"):
        dev[cuarray.asarray(numpy.array([-6]))] = 1.0
        cuarray.cuda.Stream.null.synchronize()
        cuarray.check_index_errors()
    testing.assert_array_equal(dev.get(), numpy.arange(5.0))  # nothing written out of bounds
    # host index arrays fail at once, like NumPy
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        dev[[7]]


def test_sync_index_checks_mode():
    prev = cuarray.set_sync_index_checks(True)
    try:
        dev = cuarray.arange(5) if hasattr(cuarray, "arange") else cuarray.asarray(numpy.arange(5))
        with pytest.raises(IndexError, match="out of bounds"):
            dev[cuarray.asarray(numpy.array([9]))]
        assert dev[cuarray.asarray(numpy.array([3]))].get()[0] == 3
    finally:
        cuarray.set_sync_index_checks(prev)


AT_DTYPES = [numpy.int8, numpy.int32, numpy.uint32, numpy.int64, numpy.uint64, numpy.float16, numpy.float32,
             numpy.float64, numpy.complex64, numpy.complex128, numpy.bool_]


@pytest.mark.parametrize("dtype", AT_DTYPES, ids=testing.dtype_id)
@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "minimum", "multiply"])
def test_ufunc_at(dtype, name):
    if numpy.dtype(dtype) == bool and name == "subtract":
        pytest.skip("NumPy has no boolean subtract")
    base = (rand(20, dtype) if numpy.dtype(dtype).kind != "u" else rng.integers(0, 100, 20).astype(dtype))
    idx = rng.integers(-20, 20, 200)
    vals = (rand(200, dtype) if numpy.dtype(dtype).kind not in "u" else rng.integers(0, 5, 200).astype(dtype))
    if numpy.dtype(dtype) == numpy.float16:
        vals = (vals / 40).astype(dtype)  # keep float16 sums exact enough

    def run(xp):
        a = base.copy() if xp is numpy else cuarray.asarray(base)
        getattr(xp, name).at(a, xp.asarray(idx) if xp is not numpy else idx, xp.asarray(vals) if xp is not numpy else vals)
        return a

    expected = run(numpy)
    a = base.copy()
    a_dev = cuarray.asarray(base)
    indexing.ufunc_at(getattr(cuarray, name), a_dev, cuarray.asarray(idx), cuarray.asarray(vals))
    tol = {"e": 1e-2, "f": 1e-4, "F": 1e-4}.get(numpy.dtype(dtype).char, 1e-10)
    if numpy.dtype(dtype).kind in "fc":
        numpy.testing.assert_allclose(a_dev.get(), expected, rtol=tol, atol=tol)
    else:
        numpy.testing.assert_array_equal(a_dev.get(), expected)


def test_ufunc_at_forms():
    base = rand((4, 5), numpy.float64)
    for idx, b in [(([0, 0, 3], slice(None)), 1.5), ((slice(None), [1, 1]), rand((4, 2), numpy.float64)),
                   (2, 3.0), (([1, 1], [2, 2]), rand(2, numpy.float64))]:
        e = base.copy()
        numpy.add.at(e, idx, b)
        d = cuarray.asarray(base)
        indexing.ufunc_at(cuarray.add, d, idx, cuarray.asarray(b) if isinstance(b, numpy.ndarray) else b)
        numpy.testing.assert_allclose(d.get(), e)
    e = base.copy()
    numpy.negative.at(e, [0, 2])
    d = cuarray.asarray(base)
    indexing.ufunc_at(cuarray.negative, d, [0, 2])
    numpy.testing.assert_allclose(d.get(), e)


@dtypes
def test_nonzero_family(dtype):
    host = rand((7, 6), dtype)
    host[host.real > 0] = 0 if numpy.dtype(dtype) != bool else False
    dev = cuarray.asarray(host)
    both(lambda xp: xp.nonzero(host if xp is numpy else dev))
    both(lambda xp: xp.flatnonzero(host if xp is numpy else dev))
    both(lambda xp: xp.argwhere(host if xp is numpy else dev))
    both(lambda xp: xp.nonzero(host[:0] if xp is numpy else dev[:0]))
    both(lambda xp: xp.argwhere(host[::2, ::-1] if xp is numpy else dev[::2, ::-1]))


def test_large_mask_multiblock():
    host = rng.random(3_000_001) < 0.3
    x = rng.standard_normal(3_000_001).astype(numpy.float32)
    d = cuarray.asarray(x)[cuarray.asarray(host)]
    numpy.testing.assert_array_equal(d.get(), x[host])
    testing.assert_array_equal(searching_nonzero.flatnonzero(cuarray.asarray(host)).get(), numpy.flatnonzero(host))


@dtypes
@pytest.mark.parametrize("n", [1, 4097, 3 * 4096 + 5, (1 << 20) + 3])
def test_mask_tile_compaction(dtype, n):
    # x[mask] with a mask over all of a contiguous x takes the tile path (_core/mask_compact.py).
    x = rand(n, dtype)
    density = rng.choice([0.0, 0.03, 0.5, 1.0])
    m = rng.random(n) < density
    both(lambda xp: H(xp, x)[H(xp, m)])
    # A mask at an odd address (byte loads) over an N-d array; bool bytes other than 1 count as True.
    m2 = rng.random(n + 1) < 0.5
    d2 = cuarray.asarray(m2.view(numpy.uint8) * numpy.uint8(7)).view(numpy.bool_)[1:]
    numpy.testing.assert_array_equal(cuarray.asarray(x)[d2].get(), x[m2[1:]])


def test_mask_tile_compaction_wide_offsets_and_alignment(monkeypatch):
    from cuarray._core import mask_compact

    x = rand(50_001, numpy.complex128)
    m = rng.random(50_001) < 0.4
    monkeypatch.setattr(mask_compact, "_INT32_OFFSETS_BELOW", 0)  # 64-bit counts and offsets
    numpy.testing.assert_array_equal(cuarray.asarray(x)[cuarray.asarray(m)].get(), x[m])
    monkeypatch.undo()
    # complex128 at an 8-byte (not 16-byte) aligned address is refused as a view (CuPy's rule: the
    # kernels load complex<double> as an aligned 16-byte pair, and a misaligned load ends the context)
    f = rng.standard_normal(2 * 4099 + 1)
    with pytest.raises(ValueError, match="sufficiently aligned"):
        cuarray.asarray(f)[1:].view(numpy.complex128)
    # N-d mask over an N-d contiguous array, and the general path (mask over leading axes only).
    y = rand((33, 65, 3), numpy.float32)
    my = rng.random((33, 65, 3)) < 0.5
    both(lambda xp: H(xp, y)[H(xp, my)])
    both(lambda xp: H(xp, y)[H(xp, my[..., 0])])


@pytest.mark.parametrize("shape", [(9000,), (70, 130), (5, 0, 3), (3, 40, 37), (2, 3, 2, 5, 3, 2, 7, 11),
                                   (2,) * 9, ()])
def test_nonzero_tile_coordinates(shape):
    # Up to 8 dims the coordinates come from the tile kernel (_core/mask_compact.py); 9 and 0 dims
    # take the prefix-sum path.
    host = rng.random(shape) < rng.choice([0.0, 0.2, 0.7])
    both(lambda xp: xp.nonzero(H(xp, host)))
    both(lambda xp: xp.argwhere(H(xp, host)))
    both(lambda xp: xp.flatnonzero(H(xp, host)))
    num = (rng.integers(-2, 3, shape)).astype(numpy.int16)
    both(lambda xp: xp.nonzero(H(xp, num)[..., ::-1] if num.ndim else H(xp, num)))


@pytest.mark.parametrize("n", [7, 100_003])
def test_scatter_from_the_array_itself(n):
    # The value is the destination array itself, element for element: a scatter must still read
    # every value before any is overwritten (NumPy's result), so it works on a copy.
    host = rand(n, numpy.float64)
    perm = rng.permutation(n)

    def permute(xp):
        a = H(xp, host.copy())
        a[H(xp, perm)] = a
        return a
    both(permute)

    idx = rng.integers(0, n, n)

    def add_at(xp):
        a = H(xp, host.copy())
        xp.add.at(a, H(xp, idx), a)
        return a
    if hasattr(cp, "add") and hasattr(cp.add, "at"):
        got, exp = add_at(cp).get(), add_at(numpy)
        # Duplicate indices accumulate in atomic order on the device, index order in NumPy:
        # sums that cancel differ by rounding, so the bound is relative to the terms' size.
        numpy.testing.assert_allclose(got, exp, rtol=1e-12, atol=64 * numpy.finfo(numpy.float64).eps * numpy.abs(host).max())


def test_generating():
    both(lambda xp: xp.indices((3, 4)))
    both(lambda xp: xp.indices((3, 4), sparse=True))
    both(lambda xp: xp.ix_([0, 2], [1, 3, 0]))
    both(lambda xp: xp.ix_(numpy.array([True, False, True]), [1]))
    both(lambda xp: xp.unravel_index(xp.asarray([0, 5, 11, 7]), (3, 4)))
    both(lambda xp: xp.unravel_index(xp.asarray([0, 5, 11, 7]), (3, 4), order="F"))
    both(lambda xp: xp.unravel_index([13], (3, 4)))
    both(lambda xp: xp.ravel_multi_index((xp.asarray([0, 2, 1]), xp.asarray([3, 0, 1])), (3, 4)))
    both(lambda xp: xp.ravel_multi_index((xp.asarray([0, 5, -1]), xp.asarray([3, 0, 9])), (3, 4), mode="wrap"))
    both(lambda xp: xp.ravel_multi_index((xp.asarray([0, 5, -1]), xp.asarray([3, 0, 9])), (3, 4), mode="clip"))
    both(lambda xp: xp.ravel_multi_index(([0, 2, 1], [3, 0, 1]), (3, 4), order="F"))
    both(lambda xp: xp.ravel_multi_index(([0, 5], [3, 0]), (3, 4)))
    # One mode per axis.
    both(lambda xp: xp.ravel_multi_index((xp.asarray([1, 2]), xp.asarray([2, -1]), xp.asarray([9, 0])), (3, 4, 5),
                                         mode=("raise", "wrap", "clip")))
    both(lambda xp: xp.ravel_multi_index(([1], [2]), (3, 4), mode=("clip",)))
    both(lambda xp: xp.diag_indices(4, 3))
    both(lambda xp: xp.tril_indices(4, -1, 5))
    both(lambda xp: xp.triu_indices(3, 1))
    both(lambda xp: xp.triu_indices_from(xp.asarray(numpy.ones((3, 4)))))
    both(lambda xp: xp.tril_indices_from(xp.asarray(numpy.ones((3, 4))), 1))
    both(lambda xp: xp.diag_indices_from(xp.asarray(numpy.ones((3, 3)))))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex64, numpy.bool_], ids=testing.dtype_id)
def test_inserting(dtype):
    h = rand((4, 5), dtype)
    d = cuarray.asarray(h)
    A = lambda xp: h if xp is numpy else d  # noqa: E731
    both(lambda xp: xp.take(A(xp), [3, -1, 0]))
    both(lambda xp: xp.take(A(xp), xp.asarray([[1, 4], [0, 0]]), axis=1))
    both(lambda xp: xp.take(A(xp), [7, -9], axis=0, mode="wrap"))
    both(lambda xp: xp.take(A(xp), [7, -9], axis=1, mode="clip"))
    both(lambda xp: xp.take(A(xp), [7], axis=0))
    ii = numpy.argsort(rng.random((4, 5)), axis=1)
    both(lambda xp: xp.take_along_axis(A(xp), xp.asarray(ii), axis=1))
    both(lambda xp: xp.take_along_axis(A(xp), xp.asarray(ii[:, :2]), axis=1))
    both(lambda xp: xp.compress([True, False, True], A(xp), axis=0))
    both(lambda xp: xp.compress(xp.asarray([False, True]), A(xp), axis=1))
    both(lambda xp: xp.compress([1, 0, 1, 1], A(xp)))
    both(lambda xp: xp.extract(xp.asarray(h.real > 0) if xp is not numpy else h.real > 0, A(xp)))
    both(lambda xp: xp.diagonal(A(xp), 1))
    both(lambda xp: xp.diagonal(A(xp), -2))
    both(lambda xp: xp.diagonal(xp.asarray(rand((3, 4, 5), dtype)) if False else A(xp).reshape(2, 2, 5), 0, 2, 0))

    def mutate(fn):
        def run(xp):
            a = h.copy() if xp is numpy else cuarray.asarray(h)
            fn(xp, a)
            return a
        both(run)

    v = rand(3, dtype)
    mutate(lambda xp, a: xp.put(a, [0, 7, 7], xp.asarray(v) if xp is not numpy else v))
    mutate(lambda xp, a: xp.put(a, [0, 7, 19, 3], xp.asarray(v) if xp is not numpy else v))
    mutate(lambda xp, a: xp.put(a, [22, -30], xp.asarray(v[:2]) if xp is not numpy else v[:2], mode="wrap"))
    mutate(lambda xp, a: xp.put_along_axis(a, xp.asarray(ii[:, :2]), xp.asarray(v[:1]) if xp is not numpy else v[:1], 1))
    m = rng.random((4, 5)) < 0.5
    mutate(lambda xp, a: xp.putmask(a, xp.asarray(m) if xp is not numpy else m, xp.asarray(v) if xp is not numpy else v))
    mutate(lambda xp, a: xp.place(a, xp.asarray(m) if xp is not numpy else m, xp.asarray(v) if xp is not numpy else v))
    mutate(lambda xp, a: xp.fill_diagonal(a, v[0]))
    mutate(lambda xp, a: xp.fill_diagonal(a.T.copy() if False else a, xp.asarray(v) if xp is not numpy else v, wrap=True))

    # Non-contiguous targets (a transposed view): NumPy's `a.flat` positions are in C order.
    def mutate_transposed(fn):
        def run(xp):
            base = h.copy() if xp is numpy else cuarray.asarray(h)
            fn(xp, base.T)
            return base
        both(run)

    mutate_transposed(lambda xp, a: xp.put(a, [0, 7, 3], xp.asarray(v) if xp is not numpy else v))
    mutate_transposed(lambda xp, a: xp.fill_diagonal(a, v[0]))


def test_choose_select_piecewise():
    a = rng.integers(0, 3, (3, 4))
    ch = [rand((3, 4), numpy.float64) for _ in range(3)]
    both(lambda xp: xp.choose(xp.asarray(a) if xp is not numpy else a, [xp.asarray(c) if xp is not numpy else c for c in ch]))
    both(lambda xp: xp.choose(xp.asarray(a + 2) if xp is not numpy else a + 2,
                              [xp.asarray(c) if xp is not numpy else c for c in ch], mode="wrap"))
    both(lambda xp: xp.choose(xp.asarray(a + 2) if xp is not numpy else a + 2,
                              [xp.asarray(c) if xp is not numpy else c for c in ch], mode="clip"))
    x = rand(10, numpy.float64)
    X = lambda xp: x if xp is numpy else cuarray.asarray(x)  # noqa: E731
    both(lambda xp: xp.select([X(xp) < -5, X(xp) > 5], [X(xp) * 2, X(xp) * 3], default=-1.0))
    both(lambda xp: xp.piecewise(X(xp), [X(xp) < 0, X(xp) >= 0], [lambda t: -t, lambda t: t * 2]))
    both(lambda xp: xp.piecewise(X(xp), [X(xp) < 0], [1.0, 2.0]))


@pytest.mark.parametrize("shape,cond", [((0, 2), ()), ((0,), (0,)), ((2, 0), (2,)), ((0, 3), (0,))])
def test_piecewise_of_an_empty_x_calls_no_function(shape, cond):
    """NumPy calls a function only on a non-empty selection: an empty x with a 0-d condition
    (fuzz seed 9 index 13: negative of a bool array raised TypeError) or any condition gives zeros."""
    x = numpy.zeros(shape, bool)
    c = numpy.ones(cond, bool)

    def fn(xp):
        a = x if xp is numpy else cuarray.asarray(x)
        k = c if xp is numpy else cuarray.asarray(c)
        return xp.piecewise(a, [k], [xp.negative, xp.sin])

    both(fn)


@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.uint8, numpy.bool_, numpy.float32], ids=testing.dtype_id)
def test_fill_diagonal_casts_a_numpy_scalar_as_numpy(dtype):
    """A NumPy scalar goes in through NumPy's unsafe cast (NaN into int32: INT_MIN; -3.5 into uint8:
    253), C-ordered and transposed (the old code raised ValueError for NaN into a transposed int32)."""
    for val in (numpy.float64("nan"), numpy.float64(-3.5), numpy.complex128(1 + 2j), numpy.float64(1e300)):
        for transposed in (False, True):
            want = numpy.zeros((4, 3), dtype)
            got = cuarray.zeros((4, 3), dtype)
            numpy.fill_diagonal(want.T if transposed else want, val)
            cp.fill_diagonal(got.T if transposed else got, val)
            numpy.testing.assert_array_equal(got.get(), want, err_msg="{!r} transposed={}".format(val, transposed))
