"""The elementwise engine on the GPU: every layout path against NumPy, with fresh random data."""

import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


def _rand(shape, dtype=numpy.float32, seed=None):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def test_flat_and_vector_paths_and_tail():
    # n not a multiple of the vector width exercises the tail loop; offset views break alignment.
    for n in (1, 3, 4, 1023, 4097, 1_000_003):
        a, b = _rand(n), _rand(n)
        da, db = cp.asarray(a), cp.asarray(b)
        numpy.testing.assert_array_equal((da + db).get(), a + b)
        numpy.testing.assert_array_equal((da[1:] + db[:-1]).get(), a[1:] + b[:-1])  # misaligned


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int8, numpy.uint16, numpy.float16,
                                   numpy.complex64, numpy.bool_])
def test_add_dtypes_contiguous(dtype):
    rng = numpy.random.default_rng()
    a = (rng.standard_normal(1001) * 5).astype(dtype)
    b = (rng.standard_normal(1001) * 5).astype(dtype)
    r = (cp.asarray(a) + cp.asarray(b)).get()
    assert r.dtype == (a + b).dtype
    numpy.testing.assert_allclose(r, a + b, rtol=1e-3 if dtype == numpy.float16 else 1e-6)


def test_layouts_transposed_negative_broadcast_fortran():
    a = _rand((64, 33))
    b = _rand((33,))
    da, db = cp.asarray(a), cp.asarray(b)
    cases = [
        (lambda x, y: x.T * 2, "T"),
        (lambda x, y: x[::-1, ::2] - 1.5, "neg"),
        (lambda x, y: x + y, "bcast"),
        (lambda x, y: x[:, None, :] * y[None, :, None][:, :1, :], "bcast3"),
        (lambda x, y: x.T + x.T, "T+T"),
        (lambda x, y: x + x.T.T[::-1], "mixed"),
    ]
    for f, name in cases:
        ref = f(a, b)
        got = f(da, db)
        assert got.shape == ref.shape, name
        numpy.testing.assert_allclose(got.get(), ref, rtol=1e-6, err_msg=name)


def test_transpose_output_keeps_K_order():
    a = _rand((128, 96))
    out = cp.asarray(a).T * 2
    assert out.flags.f_contiguous and not out.flags.c_contiguous
    numpy.testing.assert_array_equal(out.get(), a.T * 2)


def test_zero_d_and_empty():
    a = cp.asarray(numpy.float32(3.5))
    assert (a * 2).shape == () and (a * 2).get() == numpy.float32(7)
    e = cp.asarray(numpy.zeros((0, 4), numpy.float32))
    r = e + 1
    assert r.shape == (0, 4) and r.dtype == numpy.float32


def test_weak_scalars_nep50():
    x = cp.asarray(_rand(10))
    assert (x * 2).dtype == numpy.float32
    assert (x * 2.5).dtype == numpy.float32
    i8 = cp.asarray(numpy.arange(10, dtype=numpy.int8))
    with pytest.raises(OverflowError):
        i8 + 1000
    assert (i8 + 1.5).dtype == numpy.float64
    numpy.testing.assert_array_equal((3 - i8).get(), 3 - numpy.arange(10, dtype=numpy.int8))


def test_out_and_inplace_and_overlap():
    a = _rand(1000)
    da = cp.asarray(a)
    out = cp.empty(1000, numpy.float64)
    r = cp.add(da, 1, out=out)
    assert r is out and out.dtype == numpy.float64
    numpy.testing.assert_allclose(out.get(), a.astype(numpy.float64) + 1, rtol=1e-6)
    # Partial overlap: NumPy semantics are "as if the inputs were read first".
    h = a.copy()
    numpy.add(h[1:], h[:-1], out=h[1:])
    cp.add(da[1:], da[:-1], out=da[1:])
    numpy.testing.assert_array_equal(da.get(), h)
    ia = cp.asarray(numpy.arange(5))
    with pytest.raises(TypeError):
        ia += 1.5
    ia += 2
    numpy.testing.assert_array_equal(ia.get(), numpy.arange(5) + 2)


def test_where_mask():
    a, b = _rand(100), _rand(100)
    m = a > 0
    out = numpy.full(100, -7, numpy.float32)
    numpy.add(a, b, out=out, where=m)
    dout = cp.asarray(numpy.full(100, -7, numpy.float32))
    cp.add(cp.asarray(a), cp.asarray(b), out=dout, where=cp.asarray(m))
    numpy.testing.assert_array_equal(dout.get(), out)


def test_no_host_arrays_implicitly():
    with pytest.raises(TypeError):
        cp.add(cp.asarray(_rand(3)), numpy.ones(3, numpy.float32))
    with pytest.raises(TypeError):
        numpy.asarray(cp.asarray(_rand(3)))


def test_elementwise_kernel_seed_examples():
    x, y = _rand((5, 7)), _rand((7,))
    typed = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    numpy.testing.assert_allclose(typed(cp.asarray(x), cp.asarray(y)).get(), (x - y) ** 2, rtol=1e-6)
    generic = cp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")
    xd = x.astype(numpy.float64)
    r = generic(cp.asarray(xd), cp.asarray(xd[0]))
    assert r.dtype == numpy.float64
    numpy.testing.assert_allclose(r.get(), (xd - xd[0]) ** 2)
    z = cp.empty((5, 7), numpy.float32)
    typed(cp.asarray(x), 2.0, z)
    numpy.testing.assert_allclose(z.get(), (x - 2) ** 2, rtol=1e-6)


def test_elementwise_kernel_raw_bincount():
    rng = numpy.random.default_rng()
    data = rng.integers(0, 16, size=10000)
    bincount = cp.ElementwiseKernel("S x", "raw U bin", "atomicAdd(&bin[x], U(1))", "bincount_kernel")
    bins = cp.zeros(16, numpy.uint32)
    bincount(cp.asarray(data), bins)
    numpy.testing.assert_array_equal(bins.get(), numpy.bincount(data, minlength=16))


def test_elementwise_kernel_index_and_size():
    k = cp.ElementwiseKernel("", "int64 y", "y = i + _ind.size()", "iota_plus_n")
    y = cp.empty(10, numpy.int64)
    k(y)
    numpy.testing.assert_array_equal(y.get(), numpy.arange(10) + 10)


def test_compile_error_is_compile_error():
    bad = cp.ElementwiseKernel("float32 x", "float32 y", "y = x +* 2", "bad_kernel")
    with pytest.raises(cp.cuda.CompileError) as info:
        bad(cp.asarray(_rand(4)))
    assert "y = x +* 2" in str(info.value)
    # The library still works afterwards.
    assert (cp.asarray(_rand(4)) * 0).get().sum() == 0


def test_astype_and_copy_layouts():
    a = _rand((20, 30), numpy.float64)
    d = cp.asarray(a)
    for order in ("C", "F", "K", "A"):
        c = d.T.copy(order=order)
        numpy.testing.assert_array_equal(c.get(), a.T.copy(order=order))
        assert c.flags.c_contiguous == a.T.copy(order=order).flags.c_contiguous
    for dt in (numpy.int32, numpy.float16, numpy.complex64, numpy.bool_, numpy.uint8):
        numpy.testing.assert_array_equal(d[::2, ::-3].astype(dt).get(), a[::2, ::-3].astype(dt))


def test_elementwise_kernel_index_is_c_order_for_any_layout():
    # `i` is the C-order index of the output shape whatever the operands' memory layouts.
    a = _rand((6, 5))
    k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x + i", "add_c_index")
    ref = a.T + numpy.arange(30, dtype=numpy.float32).reshape(5, 6)
    numpy.testing.assert_array_equal(k(cp.asarray(a).T).get(), ref)
    out_f = cp.ndarray((5, 6), numpy.float32, order="F")
    k(cp.asarray(a).T, out_f)
    numpy.testing.assert_array_equal(out_f.get(), ref)
    k(cp.asarray(numpy.asfortranarray(a.T)), out_f)
    numpy.testing.assert_array_equal(out_f.get(), ref)


def test_comparison_with_out_of_range_python_int():
    u8 = numpy.arange(5, dtype=numpy.uint8)
    d = cp.asarray(u8)
    for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        for v in (-1, 300, 2**70):
            ref = getattr(numpy, op)(u8, v)
            got = getattr(cp, op)(d, v)
            assert got.dtype == ref.dtype
            numpy.testing.assert_array_equal(got.get(), ref, err_msg="{} {}".format(op, v))
            numpy.testing.assert_array_equal(getattr(cp, op)(v, d).get(), getattr(numpy, op)(v, u8))
    with pytest.raises(OverflowError):
        d + 300


def test_numpy_scalar_call_does_not_poison_array_fast_path():
    # A NumPy scalar operand has the same dtype key as an array: a kernel that takes it by value
    # must not be reused for two arrays (seen as garbage results in later, unrelated calls).
    a = _rand(1000, numpy.float64)
    b = _rand(1000, numpy.float64)
    da, db = cp.asarray(a), cp.asarray(b)
    for uf in ("subtract", "add", "multiply"):
        f = getattr(cp, uf)
        numpy.testing.assert_array_equal(f(da, numpy.float64(2.5)).get(), getattr(numpy, uf)(a, 2.5))
        numpy.testing.assert_array_equal(f(numpy.float64(2.5), da).get(), getattr(numpy, uf)(2.5, a))
        numpy.testing.assert_array_equal(f(da, db).get(), getattr(numpy, uf)(a, b))
        numpy.testing.assert_array_equal(f(da, 2.5).get(), getattr(numpy, uf)(a, 2.5))
