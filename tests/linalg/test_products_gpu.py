"""Matrix products on the device against NumPy: matmul / `@` / `@=` over every dtype, batches and
broadcasting, transposed, Fortran, strided and negative-stride operands, empty and 1x1 shapes,
out= (aliasing included), dtype=; the integer kernel bit for bit (wrapping like NumPy); dot, vdot,
inner, outer, tensordot, kron, cross, vecdot, matvec, vecmat, multi_dot, matrix_power, einsum;
precision modes (full float32 by default, TF32 only when asked); streams."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

ALL = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
FLOATS = [np.dtype(c) for c in "efdFD"]
TOL = {np.dtype("e"): 2e-2, np.dtype("f"): 1e-4, np.dtype("F"): 1e-4, np.dtype("d"): 1e-11,
       np.dtype("D"): 1e-11}
RTOL = {k: v for k, v in TOL.items()}
ATOL = {k: v * 10 for k, v in TOL.items()}


def rand(xp, shape, dtype, seed=0):
    return testing.shaped_random(shape, xp, dtype, scale=3, seed=seed)


def layout(xp, x, kind):
    if kind == "T" and x.ndim >= 2:
        return xp.ascontiguousarray(xp.swapaxes(x, -1, -2)).swapaxes(-1, -2)
    if kind == "F":
        return xp.asfortranarray(x)
    if kind == "step":
        big = xp.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        big[..., ::2] = x
        return big[..., ::2]
    if kind == "neg":
        return xp.ascontiguousarray(x[..., ::-1])[..., ::-1]
    return x


SHAPES = [((3, 4), (4, 5)), ((1, 1), (1, 1)), ((4,), (4,)), ((5, 4), (4,)), ((4,), (4, 6)),
          ((2, 3, 4), (4, 5)), ((7, 1, 3, 4), (6, 4, 2)), ((4,), (3, 4, 2)), ((3, 4, 5), (5,)),
          ((64, 64), (64, 64)), ((33, 129), (129, 65)), ((0, 3), (3, 4)), ((3, 0), (0, 4)),
          ((2, 0, 3), (3, 4)), ((1000, 8, 8), (1000, 8, 8))]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: d.name)
@pytest.mark.parametrize("s1,s2", SHAPES, ids=str)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL)
def test_matmul_dtypes_shapes(xp, dtype, s1, s2):
    return xp.matmul(rand(xp, s1, dtype, 1), rand(xp, s2, dtype, 2))


@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "fdFDeq?"], ids=lambda d: d.name)
@pytest.mark.parametrize("l1", ["C", "T", "F", "step", "neg"])
@pytest.mark.parametrize("l2", ["C", "T", "step"])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL)
def test_matmul_layouts(xp, dtype, l1, l2):
    a = layout(xp, rand(xp, (3, 17, 9), dtype, 3), l1)
    b = layout(xp, rand(xp, (9, 13), dtype, 4), l2)
    return a @ b


@testing.numpy_cuarray_allclose(rtol=1e-4, atol=1e-3)
def test_matmul_broadcast_batch_stride_zero(xp):
    a = xp.broadcast_to(rand(xp, (1, 8, 5), "float32", 5), (6, 8, 5))
    return a @ rand(xp, (6, 5, 3), "float32", 6)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.int16], ids=str)
@testing.numpy_cuarray_array_equal()
def test_integer_matmul_is_exact_and_wraps(xp, dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    a = xp.asarray(rng.integers(info.min, info.max, (5, 40, 70), dtype=dtype, endpoint=True))
    b = xp.asarray(rng.integers(info.min, info.max, (70, 33), dtype=dtype, endpoint=True))
    return a @ b


@pytest.mark.parametrize("d1,d2", [("float32", "float64"), ("int8", "float32"), ("bool", "int32"),
                                   ("complex64", "float64"), ("float16", "float32"), ("int64", "uint64")])
@testing.numpy_cuarray_allclose(rtol=1e-4, atol=1e-3)
def test_matmul_mixed_dtypes(xp, d1, d2):
    return rand(xp, (4, 6), d1, 8) @ rand(xp, (6, 3), d2, 9)


@testing.numpy_cuarray_allclose(rtol=1e-4, atol=1e-3)
def test_matmul_out_aliases_input_and_imatmul(xp):
    a = rand(xp, (2, 6, 6), "float32", 10)
    b = rand(xp, (6, 6), "float32", 11)
    xp.matmul(a, b, out=a)
    c = rand(xp, (6, 6), "float32", 12)
    c @= b
    v = rand(xp, (6,), "float32", 13)
    v @= c
    return a, c, v


@testing.numpy_cuarray_allclose(rtol=1e-4, atol=1e-3)
def test_matmul_out_cast_and_noncontiguous(xp):
    a, b = rand(xp, (5, 7), "float32", 14), rand(xp, (7, 4), "float32", 15)
    o1 = xp.zeros((5, 4), xp.float64)
    o2 = xp.zeros((5, 8), xp.float32)[:, ::2]
    o3 = xp.zeros((4, 5), xp.float32).T
    return xp.matmul(a, b, out=o1), xp.matmul(a, b, out=o2), xp.matmul(a, b, out=o3), o2


@pytest.mark.parametrize("args", [((3,), ()), ((2, 3), (4, 5)), ((2, 2, 3), (3, 3, 4))], ids=str)
@testing.numpy_cuarray_allclose(accept_error=ValueError)
def test_matmul_errors(xp, args):
    s1, s2 = args
    return xp.matmul(rand(xp, s1, "float32"), rand(xp, s2, "float32"))


@testing.numpy_cuarray_allclose(accept_error=TypeError)
def test_matmul_bad_out_cast(xp):
    a = rand(xp, (2, 2), "float32")
    return xp.matmul(a, a, out=xp.zeros((2, 2), xp.int32))


@testing.numpy_cuarray_allclose(rtol=1e-10)
def test_matmul_dtype_and_axes(xp):
    a = rand(xp, (3, 2, 5), "int16", 16)
    b = rand(xp, (5, 2, 4), "int16", 17)
    return xp.matmul(a, b, axes=[(0, 2), (0, 2), (1, 0)], dtype="float64")


def test_k_zero_gives_zeros():
    a = cuarray.ones((3, 0), cuarray.float32)
    b = cuarray.ones((0, 4), cuarray.float32)
    np.testing.assert_array_equal((a @ b).get(), np.zeros((3, 4), np.float32))


def test_full_float32_by_default_tf32_on_request():
    rng = np.random.default_rng(18)
    a = rng.standard_normal((512, 512)).astype(np.float32)
    b = rng.standard_normal((512, 512)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    ca, cb = cuarray.asarray(a), cuarray.asarray(b)
    err = np.abs((ca @ cb).get() - ref).max() / np.abs(ref).max()
    assert cuarray.linalg.get_matmul_precision() == "highest"
    assert err < 1e-5, err
    with cuarray.linalg.matmul_precision("tf32"):
        err_tf32 = np.abs((ca @ cb).get() - ref).max() / np.abs(ref).max()
    assert cuarray.linalg.get_matmul_precision() == "highest"
    assert 1e-5 < err_tf32 < 1e-2, err_tf32  # TF32 really ran: a 10-bit mantissa


def test_matmul_on_another_stream():
    a = rand(cuarray, (64, 64), "float64", 19)
    b = rand(cuarray, (64, 64), "float64", 20)
    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        c = a @ b
        d = cuarray.matmul(a[None], b[None])
    s.synchronize()
    want = a.get() @ b.get()
    np.testing.assert_allclose(c.get(), want, rtol=1e-12)
    np.testing.assert_allclose(d.get()[0], want, rtol=1e-12)
    np.testing.assert_allclose((a @ b).get(), want, rtol=1e-12)


# -- the other products -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "fdDq?"], ids=lambda d: d.name)
@pytest.mark.parametrize("s1,s2", [((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)),
                                   ((2, 3), (3, 4)), ((2, 4, 3), (5, 3, 2)), ((4, 3), (2, 3, 5))], ids=str)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL)
def test_dot(xp, dtype, s1, s2):
    a, b = rand(xp, s1, dtype, 21), rand(xp, s2, dtype, 22)
    return xp.dot(a, b), (a.dot(b) if a.ndim else xp.dot(a, b))


@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "fdFDi"], ids=lambda d: d.name)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL)
def test_vdot_inner_outer(xp, dtype):
    a, b = rand(xp, (3, 4), dtype, 23), rand(xp, (2, 6), dtype, 24)
    c = rand(xp, (5, 4), dtype, 25)
    return xp.vdot(a, b), xp.inner(a, c), xp.outer(a, c), xp.inner(a[0], c[1]), xp.linalg.outer(a[0], c[0])


@pytest.mark.parametrize("axes,bshape", [(0, (2, 3)), (1, (5, 2)), (2, (4, 5, 2)), (([1, 0], [0, 1]), (4, 3, 2)),
                                         (([2], [0]), (5, 2)), (-1, (2, 2))], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10)
def test_tensordot(xp, axes, bshape):
    return xp.tensordot(rand(xp, (3, 4, 5), "float64", 26), rand(xp, bshape, "float64", 27), axes=axes)


@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10)
def test_tensordot_transposed_views(xp):
    a = rand(xp, (6, 5, 4), "float64", 28).transpose(2, 0, 1)
    b = rand(xp, (5, 7), "float64", 29).T
    return xp.tensordot(a, b, axes=([2], [1]))


@pytest.mark.parametrize("s1,s2", [((2, 3), (4, 5)), ((3,), (2, 2)), ((), (3,)), ((2, 1, 3), (3, 2))], ids=str)
@testing.numpy_cuarray_allclose()
def test_kron(xp, s1, s2):
    return xp.kron(rand(xp, s1, "int64", 30), rand(xp, s2, "int64", 31))


@pytest.mark.parametrize("n1,n2", [(3, 3), (2, 3), (3, 2), (2, 2)])
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-12, accept_error=ValueError)
def test_cross(xp, n1, n2):
    a = rand(xp, (4, n1), "float64", 32)
    b = rand(xp, (2, 1, n2), "float64", 33)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return xp.cross(a, b), xp.cross(a.T, b[0], axisa=0)


@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "fDq"], ids=lambda d: d.name)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL)
def test_vecdot_matvec_vecmat(xp, dtype):
    a = rand(xp, (4, 3, 5), dtype, 34)
    v = rand(xp, (3, 5), dtype, 35)
    w = rand(xp, (4, 1, 3), dtype, 36)
    return (xp.vecdot(a, v), xp.vecdot(a, a, axis=1), xp.matvec(a, v[0]), xp.vecmat(w, a),
            xp.linalg.vecdot(a, v))


@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5), (5, 2)], [(10,), (10, 3), (3, 20), (20, 2)],
                                    [(4, 10), (10, 30), (30, 5), (5,)], [(6,), (6, 2), (2,)]], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10)
def test_multi_dot(xp, shapes):
    return xp.linalg.multi_dot([rand(xp, s, "float64", i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6])
@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "dq"], ids=lambda d: d.name)
@testing.numpy_cuarray_allclose(rtol=1e-9, atol=1e-9)
def test_matrix_power(xp, n, dtype):
    a = testing.shaped_random((2, 4, 4), xp, dtype, scale=2, seed=37)
    return xp.linalg.matrix_power(a, n)


@pytest.mark.parametrize("subs,shapes", [
    ("ij,jk->ik", [(5, 6), (6, 7)]), ("bij,bjk->bik", [(3, 4, 5), (3, 5, 2)]), ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("i,i", [(5,), (5,)]), ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]), ("ijk,kl,lm->im", [(2, 3, 4), (4, 5), (5, 6)]),
    ("abc,cd,bd->a", [(3, 4, 5), (5, 6), (4, 6)]), ("ij,ij->i", [(3, 4), (3, 4)]), ("i->", [(7,)]),
    ("iij->j", [(3, 3, 2)]), ("ij,j->i", [(3, 4), (1,)]),
], ids=str)
@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "dDq"], ids=lambda d: d.name)
@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10)
def test_einsum(xp, subs, shapes, dtype):
    ops = [rand(xp, s, dtype, 40 + i) for i, s in enumerate(shapes)]
    return xp.einsum(subs, *ops), xp.einsum(subs, *ops, optimize=True)


def test_einsum_path_matches_numpy():
    shapes = [(30, 40), (40, 50), (50, 60), (60, 2)]
    ops = [cuarray.ones(s) for s in shapes]
    got = cuarray.einsum_path("ij,jk,kl,lm->im", *ops)[0]
    want = np.einsum_path("ij,jk,kl,lm->im", *[np.ones(s) for s in shapes])[0]
    assert got == want


@testing.numpy_cuarray_allclose(rtol=1e-4, atol=1e-4)
def test_seed_logreg_steps(xp):
    """The Theano tutorial's logistic regression, as written for NumPy, 20 steps."""
    rng = np.random.default_rng(0)
    X = xp.asarray(rng.standard_normal((400, 784)).astype(np.float32))
    y = xp.asarray((rng.random(400) < 0.5).astype(np.float32))
    w = xp.zeros(784, dtype=xp.float32)
    b = xp.float32(0.0)
    for _ in range(20):
        p = 1 / (1 + xp.exp(-(X @ w) - b))
        gw = X.T @ (p - y) / 400 + 0.01 * w
        gb = (p - y).mean()
        w = w - 0.1 * gw
        b = b - 0.1 * gb
    return w, b


@pytest.mark.parametrize("m, n, k, dt", [(2, 2, 400_000, "float64"), (8, 8, 300_001, "float32"),
                                         (4, 3, 270_001, "complex128"), (2, 2, 1 << 18, "complex64"),
                                         (3, 5, 8192, "float64"), (8, 1, 100_003, "complex64"),
                                         (1, 64, 1_000_003, "float32"), (4, 16, (1 << 18) + 5, "float64"),
                                         (2, 2, 8191, "float64"), (8, 8, 20_000, "complex128")])
def test_a_small_product_over_a_long_k(m, n, k, dt):
    """`_long_k` (m, n <= 8, k >= 8192: one reduction kernel), `_split_k` (a side over 8, k >= 2**18:
    pieces of k, a remainder piece where k is odd) and the cuBLAS cases just outside both: A @ B,
    every operand layout (a C array, a transposed view, Fortran order), against NumPy in
    float64/complex128."""
    rng = np.random.default_rng(np.random.SeedSequence().entropy % 2**32)
    wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64

    def rand(shape):
        x = rng.standard_normal(shape)
        if np.dtype(dt).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return x.astype(dt)

    a, b = rand((m, k)), rand((k, n))
    want = a.astype(wide) @ b.astype(wide)
    tol = 1e-12 if dt in ("float64", "complex128") else 2e-5
    for A, B in ((a, b), (np.ascontiguousarray(a.T).T, b), (a, np.asfortranarray(b)),
                 (np.asfortranarray(a), np.ascontiguousarray(b.T).T)):
        got = cuarray.asarray(A) @ cuarray.asarray(B)
        assert got.shape == (m, n) and got.dtype == np.dtype(dt)
        np.testing.assert_allclose(got.get().astype(wide), want, rtol=tol, atol=tol * np.sqrt(k))
    r = cuarray.asarray(rand((k, m)))  # the EM step's r.T @ X
    x = cuarray.asarray(b)
    np.testing.assert_allclose((r.T @ x).get().astype(wide), r.get().T.astype(wide) @ b.astype(wide),
                               rtol=tol, atol=tol * np.sqrt(k))


def test_long_k_repeats_bit_for_bit_beside_fused_reductions():
    """The long-k kernel shares its stream's one-launch workspace (the counter the last block resets)
    with the fused reductions: alternating with them, on the null stream and another stream, every
    call gives the same bits, and non-finite values propagate as in NumPy."""
    rng = np.random.default_rng(np.random.SeedSequence().entropy % 2**32)
    r = cuarray.asarray(rng.random((400_000, 2)))
    x = cuarray.asarray(rng.standard_normal((400_000, 3)))
    h = r.get()
    first = (r.T @ x).get()
    np.testing.assert_allclose(first, h.T @ x.get(), rtol=1e-12, atol=1e-9)
    for stream in (cuarray.cuda.Stream.null, cuarray.cuda.Stream()):
        with stream:
            for _ in range(5):
                s = r.sum(axis=0)  # a fused plan: the same counter and partials
                got = (r.T @ x).get()
                assert got.tobytes() == first.tobytes()
                np.testing.assert_allclose(s.get(), h.sum(axis=0), rtol=1e-12)
    h[1234, 0], h[99_999, 1] = np.nan, np.inf
    got = (cuarray.asarray(h).T @ x).get()
    want = h.T @ x.get()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-12)



def test_long_k_from_a_new_thread():
    """A thread that never used the GPU before: its own current stream (the null stream, then a
    stream it creates) and that stream's workspace give the main thread's bits."""
    import threading

    rng = np.random.default_rng(np.random.SeedSequence().entropy % 2**32)
    r = cuarray.asarray(rng.random((300_000, 3)))
    x = cuarray.asarray(rng.standard_normal((300_000, 2)))
    want = (r.T @ x).get()
    got, errors = [], []

    def work():
        try:
            got.append((r.T @ x).get())
            with cuarray.cuda.Stream():
                got.append((r.T @ x).get())
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not errors, errors
    assert [g.tobytes() for g in got] == [want.tobytes()] * 2


@pytest.mark.slow
def test_long_k_past_2_31_rows():
    """k = 2**31 + 37 (64-bit row indices): float64 ones with marked first and last rows; the sum is exact."""
    k = 2**31 + 37
    free, _ = cuarray.cuda.Device().mem_info
    if free < 2 * 8 * k + 2**30:
        pytest.skip("needs {:.1f} GiB free on the device".format(2 * 8 * k / 2**30))
    a = cuarray.ones((1, k))
    b = cuarray.ones((k, 1))
    a[0, k - 1] = 5.0
    b[0, 0], b[k - 1, 0] = 3.0, 2.0**20
    got = (a @ b).get()
    del a, b
    cuarray.get_default_memory_pool().free_all_blocks()
    assert got.shape == (1, 1) and got[0, 0] == (k - 2) + 3.0 + 5.0 * 2.0**20
