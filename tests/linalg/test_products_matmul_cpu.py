"""matmul's host path without a GPU: shapes, broadcasting, dtype loops, layouts -> transpose flags
and leading dimensions, batch collapsing, out= and aliasing, errors. cuBLAS and the integer kernel
are replaced by NumPy stand-ins that check their arguments as cuBLAS does (_host_fake.py)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuarray.linalg import _matmul

from . import _host_fake as hf


@pytest.fixture
def fake():
    """matmul on the host fakes (`_host_fake.host_matmul`), `CALLS` emptied."""
    host = hf.host_matmul()
    return types.SimpleNamespace(CALLS=hf.CALLS, matmul=host.matmul, matmul_operator=host.matmul_operator,
                                 module=host.module)


def _layout(a: np.ndarray, kind: str) -> np.ndarray:
    """`a`'s values in another memory layout."""
    if kind == "C" or a.ndim == 0:
        return np.ascontiguousarray(a)
    if kind == "F":
        return np.asfortranarray(a)
    if kind == "T" and a.ndim >= 2:  # a transposed view of a C array
        return np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
    if kind == "step":
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        big[..., ::2] = a
        return big[..., ::2]
    if kind == "neg":
        return np.ascontiguousarray(a[..., ::-1])[..., ::-1]
    return np.ascontiguousarray(a)


def _rand(shape, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(-100 if dt.kind == "i" else 0, 100, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _check(got, want):
    got = hf.to_np(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        tol = 1e-2 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


DTYPES = ["float32", "float64", "complex64", "complex128", "float16", "int8", "int64", "uint16", "bool"]
LAYOUTS = ["C", "F", "T", "step", "neg"]


@st.composite
def operands(draw):
    m, k, n = (draw(st.integers(0, 4)) for _ in range(3))
    nb = draw(st.integers(0, 3))
    batch = [draw(st.integers(1, 3)) for _ in range(nb)]
    b1 = [d if draw(st.booleans()) else 1 for d in batch][draw(st.integers(0, nb)):]
    b2 = [d if draw(st.booleans()) else 1 for d in batch][draw(st.integers(0, nb)):]
    v1, v2 = draw(st.booleans()), draw(st.booleans())
    s1 = (k,) if v1 and draw(st.booleans()) else tuple(b1) + (m, k)
    s2 = (k,) if v2 and draw(st.booleans()) else tuple(b2) + (k, n)
    return s1, s2, draw(st.sampled_from(LAYOUTS)), draw(st.sampled_from(LAYOUTS))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operands(), st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.integers(0, 2**32 - 1))
def test_matmul_matches_numpy(ops, dt1, dt2, seed):
    matmul = hf.host_matmul().matmul
    s1, s2, l1, l2 = ops
    rng = np.random.default_rng(seed)
    a = _layout(_rand(s1, dt1, rng), l1)
    b = _layout(_rand(s2, dt2, rng), l2)
    want = np.matmul(a, b)
    _check(matmul(hf.from_np(a), hf.from_np(b)), np.asarray(want))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operands(), st.sampled_from(["float32", "complex128", "int32"]), st.integers(0, 2**32 - 1))
def test_broadcast_operand_uses_stride_zero(ops, dt, seed):
    """A batch operand broadcast with stride 0 (numpy.broadcast_to) is never materialised."""
    matmul = hf.host_matmul().matmul
    s1, s2, _, _ = ops
    rng = np.random.default_rng(seed)
    a = _rand(s1, dt, rng)
    b = _rand(s2, dt, rng)
    if len(s1) >= 2:
        lead = (3,) + a.shape[:-2] if len(s2) < 2 else np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
        a = np.broadcast_to(a, lead + a.shape[-2:])
    want = np.matmul(a, b)
    _check(matmul(hf.from_np(a), hf.from_np(b)), np.asarray(want))
    assert not [c for c in hf.CALLS if c[0] == "copy"]


def test_transposed_and_fortran_operands_are_flags_not_copies(fake):
    rng = np.random.default_rng(0)
    a = np.asfortranarray(_rand((5, 7), "float32", rng))
    b = _rand((9, 7), "float32", rng).T  # a transposed view
    got = fake.matmul(hf.from_np(a), hf.from_np(b))
    _check(got, a @ b)
    (kind, args), = fake.CALLS
    assert kind == "gemm"
    # C^T = B^T A^T in column-major terms: B (C-ordered 9x7, seen transposed) -> 'T'; A (F) -> 'T'
    assert args[:6] == ("f", "T", "T", 9, 5, 7)


@pytest.mark.parametrize("la", ["C", "F"])
@pytest.mark.parametrize("lb", ["C", "F"])
def test_operator_fast_path_flags_and_results(fake, la, lb):
    # `a @ b` of two arrays goes to matmul_into without the ufunc's __call__, and _fast_2d calls
    # cuBLAS itself: the flags and leading dimensions must be what _gemm passes.
    rng = np.random.default_rng(1)
    a = _layout(_rand((5, 7), "float32", rng), la)
    b = _layout(_rand((7, 9), "float32", rng), lb)
    A, B = hf.from_np(a), hf.from_np(b)
    _check(fake.matmul_operator(A, B), a @ b)
    (kind, args), = fake.CALLS
    assert kind == "gemm"
    assert args[:9] == ("f", "N" if lb == "C" else "T", "N" if la == "C" else "T", 9, 5, 7,
                        9 if lb == "C" else 7, 7 if la == "C" else 5, 9)
    fake.CALLS.clear()
    _check(fake.matmul(A, B), a @ b)
    assert [c[1][:9] for c in fake.CALLS] == [args[:9]]
    assert A.__matmul__([1.0]) is NotImplemented  # a list is left to Python, as before


@pytest.mark.parametrize("la", ["C", "F"])
@pytest.mark.parametrize("lb", ["C", "F"])
@pytest.mark.parametrize("m, n, k, dt", [(2, 2, 6000, "float64"), (3, 5, 4096 + 777, "complex64"),
                                         (2, 9, 5000, "float32"), (9, 2, 4099, "complex128")])
def test_a_small_product_over_a_long_k_is_split(fake, monkeypatch, la, lb, m, n, k, dt):
    """_split_k: one strided-batched GEMM over pieces of k (each operand's piece stride by its
    layout), one more GEMM for the remainder, the parts summed (NumPy on the host here); the
    thresholds lowered so small arrays take it (k under `_long_k.MIN_K`, or a side over 8)."""
    monkeypatch.setattr(fake.module, "_SPLIT_K_MIN", 4096)
    monkeypatch.setattr(fake.module, "_SPLIT_K_MIN_PART", 256)
    monkeypatch.setattr(fake.module, "_SPLIT_K_PARTS", 16)
    rng = np.random.default_rng(k)
    a = _layout(_rand((m, k), dt, rng), la)
    b = _layout(_rand((k, n), dt, rng), lb)
    wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64
    want = (a.astype(wide) @ b.astype(wide)).astype(dt)  # k products: float32 rounds differently by order
    tol = 1e-4 if np.dtype(dt).itemsize <= 8 and dt != "float64" else 1e-10

    def check(got):
        got = hf.to_np(got)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))

    check(fake.matmul_operator(hf.from_np(a), hf.from_np(b)))
    parts, rem = 16, k - 16 * (k // 16)
    batched = [c for c in fake.CALLS if c[0] == "gemm" and c[1][9] > 1]
    assert len(batched) == 1 and batched[0][1][9] == parts and batched[0][1][5] == k // 16
    assert len([c for c in fake.CALLS if c[0] == "gemm"]) == 1 + (rem > 0)
    fake.CALLS.clear()
    monkeypatch.setattr(fake.module, "_SPLIT_K_MIN", k + 1)  # under the threshold: one GEMM
    check(fake.matmul_operator(hf.from_np(a), hf.from_np(b)))
    assert [c[1][9] for c in fake.CALLS] == [1]


@pytest.mark.parametrize("m, n", [(1, 16), (16, 1)])
def test_a_side_of_one_is_not_split(fake, monkeypatch, m, n):
    """(1, k, 64) float32 gained nothing from pieces of k and (1, k, 32) complex64 lost: one GEMM."""
    monkeypatch.setattr(fake.module, "_SPLIT_K_MIN", 4096)
    rng = np.random.default_rng(3)
    a, b = _rand((m, 5000), "float64", rng), _rand((5000, n), "float64", rng)
    _check(fake.matmul_operator(hf.from_np(a), hf.from_np(b)), a @ b)
    assert [(c[0], c[1][9]) for c in fake.CALLS] == [("gemm", 1)]


@pytest.mark.parametrize("la", ["C", "F", "T"])
@pytest.mark.parametrize("lb", ["C", "F", "T"])
@pytest.mark.parametrize("m, n, k, dt", [(2, 2, 9000, "float64"), (3, 5, 8192, "complex64"),
                                         (8, 8, 8200, "float32"), (1, 8, 8193, "complex128"),
                                         (8, 1, 10_001, "float64")])
def test_a_small_c_over_a_long_k_is_one_reduction(fake, la, lb, m, n, k, dt):
    """_long_k: m, n <= 8 and k >= MIN_K take the reduction kernel (emulated in NumPy from the
    pointers and item strides it is given: A's (i, kk) at i a_i + kk a_k, B's (kk, j) at
    kk b_k + j b_j), every layout of A and B, and no cuBLAS call."""
    rng = np.random.default_rng(k)
    a = _layout(_rand((m, k), dt, rng), la)
    b = _layout(_rand((k, n), dt, rng), lb)
    want = a @ b
    got = hf.to_np(fake.matmul_operator(hf.from_np(a), hf.from_np(b)))
    assert got.shape == (m, n) and got.dtype == want.dtype
    tol = 1e-4 if dt in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))
    assert [c[0] for c in fake.CALLS] == ["long_k"]
    assert fake.CALLS[0][1][:4] == (np.dtype(dt).char, m, n, k)


@pytest.mark.parametrize("m, n, k, dt", [(2, 2, 8191, "float64"), (9, 2, 9000, "float64"),
                                         (2, 9, 9000, "float32"), (8, 8, 9000, "complex128"),
                                         (2, 2, 9000, "float16")])
def test_long_k_bounds(fake, m, n, k, dt):
    """Under MIN_K, a side over 8, a C over 512 bytes (8 x 8 complex128 spills) and float16: cuBLAS."""
    rng = np.random.default_rng(5)
    a, b = _rand((m, k), dt, rng), _rand((k, n), dt, rng)
    got = hf.to_np(fake.matmul_operator(hf.from_np(a), hf.from_np(b)))
    assert got.shape == (m, n)
    assert [c[0] for c in fake.CALLS] == ["gemm"]


def test_batched_is_one_strided_batched_call(fake):
    rng = np.random.default_rng(1)
    a = _rand((6, 4, 3, 5), "float64", rng)
    b = _rand((5, 2), "float64", rng)
    _check(fake.matmul(hf.from_np(a), hf.from_np(b)), a @ b)
    (kind, args), = fake.CALLS
    assert args[9:] == (24, 0, 15, 6)  # batch 24; B broadcast with stride 0 (passed first: C^T = B^T A^T)


def test_batched_loops_over_dims_that_do_not_collapse(fake):
    rng = np.random.default_rng(1)
    a = _rand((6, 4, 3, 5), "float64", rng)
    b = _rand((4, 1, 5, 2), "float64", rng)[:, 0]  # broadcast over the leading 6
    got = fake.matmul(hf.from_np(a), hf.from_np(b))
    _check(got, a @ b)
    # batch dims (6, 4): b's are (0, 10) elements apart, a's (60, 15): they collapse to one dim
    # for neither, so 6 strided-batched calls of 4, b's batch stride 10, no copy
    assert len(fake.CALLS) == 6
    assert all(c[0] == "gemm" and c[1][9] == 4 for c in fake.CALLS)
    assert {c[1][10] for c in fake.CALLS} | {c[1][11] for c in fake.CALLS} == {10, 15}


def test_matrix_vector_is_gemv(fake):
    rng = np.random.default_rng(2)
    x = _rand((400, 784), "float32", rng)
    w = _rand((784,), "float32", rng)
    _check(fake.matmul(hf.from_np(x), hf.from_np(w)), x @ w)
    assert fake.CALLS[0][0] == "gemv"
    r = _rand((400,), "float32", rng)
    _check(fake.matmul(hf.from_np(x.T), hf.from_np(r)), x.T @ r)
    assert fake.CALLS[-1][0] == "gemv"


def test_empty_dims_make_no_library_call(fake):
    for s1, s2 in [((0, 3), (3, 4)), ((2, 3), (3, 0)), ((0, 2, 3), (3, 4)), ((2, 0), (0, 4)), ((0,), (0,))]:
        a = np.ones(s1, np.float32)
        b = np.ones(s2, np.float32)
        _check(fake.matmul(hf.from_np(a), hf.from_np(b)), np.asarray(a @ b))
    assert fake.CALLS == []


@pytest.mark.parametrize("dt", ["float32", "int64"])
def test_out_aliasing_an_input(fake, dt):
    rng = np.random.default_rng(3)
    a = _rand((4, 4), dt, rng)
    b = _rand((4, 4), dt, rng)
    ca = hf.from_np(a)
    res = fake.matmul(ca, hf.from_np(b), out=ca)
    assert res is ca
    _check(ca, a @ b)


def test_out_other_dtype_and_layout(fake):
    rng = np.random.default_rng(4)
    a = _rand((3, 5), "float32", rng)
    b = _rand((5, 2), "float32", rng)
    out = hf.from_np(np.zeros((2, 3), np.float64).T)
    assert fake.matmul(hf.from_np(a), hf.from_np(b), out=out) is out
    _check(out, (a @ b).astype(np.float64))
    out = hf.from_np(np.zeros((3, 4), np.float32)[:, ::2])
    fake.matmul(hf.from_np(a), hf.from_np(b), out=out)
    _check(out, a @ b)


def test_dtype_argument(fake):
    rng = np.random.default_rng(5)
    a = _rand((3, 5), "int16", rng)
    b = _rand((5, 2), "int16", rng)
    _check(fake.matmul(hf.from_np(a), hf.from_np(b), dtype="float64"), np.matmul(a, b, dtype="float64"))


def test_axes_argument(fake):
    rng = np.random.default_rng(6)
    a = _rand((3, 2, 5), "float32", rng)
    b = _rand((5, 2, 4), "float32", rng)
    axes = [(0, 2), (0, 2), (1, 0)]
    want = np.matmul(a, b, axes=axes)
    _check(fake.matmul(hf.from_np(a), hf.from_np(b), axes=axes), want)


@pytest.mark.parametrize("s1,s2", [((), (3,)), ((3,), ()), ((2, 3), (4, 5)), ((2, 2, 3), (3, 3, 4)),
                                   ((3,), (4,)), ((2, 3), (2,))])
def test_shape_errors_like_numpy(fake, s1, s2):
    a, b = np.ones(s1), np.ones(s2)
    with pytest.raises(ValueError) as np_err:
        np.matmul(a, b)
    with pytest.raises(ValueError) as cu_err:
        fake.matmul(hf.from_np(a), hf.from_np(b))
    assert str(cu_err.value) == str(np_err.value)


def test_out_errors_like_numpy(fake):
    a, b = np.ones((2, 3)), np.ones((3, 4))
    for out in (np.empty((2, 5)), np.empty((2, 4), np.int64), np.empty((3, 2, 4))):
        try:
            want = np.matmul(a, b, out=out)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                fake.matmul(hf.from_np(a), hf.from_np(b), out=hf.from_np(out))
        else:
            got = fake.matmul(hf.from_np(a), hf.from_np(b), out=hf.from_np(out))
            _check(got, want)


def test_unsupported_dtype_combination_raises_numpys_error(fake):
    with pytest.raises(TypeError):
        fake.matmul(hf.from_np(np.ones((2, 2), np.float32)), hf.from_np(np.ones((2, 2))), dtype=np.int32,
               casting="same_kind")


def test_layout_classifier():
    L = _matmul._layout
    assert L(3, 4, 4, 1) == ("R", 4)
    assert L(3, 4, 1, 3) == ("C", 3)
    assert L(3, 4, 8, 1) == ("R", 8)
    assert L(1, 4, 99, 1) == ("R", 4)
    assert L(1, 4, 0, 2) == ("C", 2)  # a strided row vector: column-major with ld = its stride
    assert L(4, 1, 3, 0) == ("R", 3)
    assert L(3, 4, 4, 2) is None
    assert L(3, 4, -4, 1) is None
    assert L(3, 4, 0, 1) is None  # a broadcast row: copied
    assert L(1, 1, 0, 0) == ("R", 1)


@pytest.mark.parametrize("dtype", [np.dtype(c) for c in "?bhiqBHIQ"], ids=lambda d: d.name)
def test_integer_kernel_compiles_for_sm90(dtype):
    from cuarray.cuda import compiler
    from cuarray.linalg import _int_matmul

    name = _int_matmul.kernel_name(dtype)
    try:
        cubin = compiler.compile_cubin(_int_matmul.source(), arch="sm_90", name_expressions=(name,))
    except Exception as e:  # noqa: BLE001
        if "nvrtc" in str(e).lower() and "not" in str(e).lower() and "found" in str(e).lower():
            pytest.skip("NVRTC unavailable: {}".format(e))
        raise
    assert cubin


class _FakeLt:
    """cublasLt stand-in: records descriptor/layout creation and declines what it is told to."""

    class MatmulHeuristicResult:
        def __init__(self, n):
            self.ptr = 0x1000
            self.workspace_size = 0

    def __init__(self, decline=False):
        self.layouts, self.attrs, self.calls, self.decline = [], [], [], decline

    def matmul_desc_create(self, ct, st):
        return 1

    def matmul_desc_set_attribute(self, desc, attr, buf, size):
        import ctypes

        self.attrs.append((attr, ctypes.c_int32.from_address(buf).value))

    def matrix_layout_create(self, dt, rows, cols, ld):
        self.layouts.append((rows, cols, ld))
        return 10 + len(self.layouts)

    def matmul_preference_create(self):
        return 2

    def matmul_preference_set_attribute(self, *a):
        pass

    def matmul_algo_get_heuristic(self, lth, desc, a, b, c, d, pref, n, res, count):
        import ctypes

        if self.decline:
            raise RuntimeError("CUBLAS_STATUS_NOT_SUPPORTED")
        ctypes.c_int32.from_address(count).value = 1

    def matmul_preference_destroy(self, p):
        pass

    def matmul_desc_destroy(self, d):
        self.calls.append(("destroy_desc", d))

    def matrix_layout_destroy(self, lay):
        self.calls.append(("destroy_layout", lay))

    def matmul(self, *args):
        self.calls.append(("matmul", args))


@pytest.mark.parametrize("ta,tb", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_lt_plan_layouts_follow_the_transpose_flags(monkeypatch, ta, tb):
    from cuarray.cuda.libs import cublas

    fake = _FakeLt()
    monkeypatch.setattr(cublas, "_ltlib", fake)
    p = cublas._lt_plan(0, "f", 68, ta, tb, 5, 7, 3, 9, 11, 13)
    assert p is not None
    assert fake.attrs == [(3, ta), (4, tb)]
    a = (5, 3, 9) if ta == 0 else (3, 5, 9)
    b = (3, 7, 11) if tb == 0 else (7, 3, 11)
    assert fake.layouts == [a, b, (5, 7, 13)]


def test_lt_declined_falls_back_and_is_remembered(monkeypatch):
    from cuarray.cuda.libs import cublas

    fake = _FakeLt(decline=True)
    monkeypatch.setattr(cublas, "_ltlib", fake)
    monkeypatch.setattr(cublas, "_plans", {})
    monkeypatch.setattr(cublas._lt_tls, "handles", {0: 1}, raising=False)
    monkeypatch.setattr(cublas._device._tls, "device_id", 0, raising=False)
    assert not cublas._lt_gemm("f", 68, 0, 0, 4, 4, 4, 0, 4, 0, 4, 0, 4, 0, 0)
    assert list(cublas._plans.values()) == [None]
    assert ("destroy_desc", 1) in fake.calls  # what was made is freed
    assert not cublas._lt_gemm("f", 68, 0, 0, 4, 4, 4, 0, 4, 0, 4, 0, 4, 0, 0)
