"""What the cuSOLVER-backed linalg routines decide before any launch, checked without a GPU:
NumPy's dtype rule (which inputs are accepted, which precision), the shape checks and their
exception types and messages, argument validation, the svd algorithm table, and that importing
cuarray.linalg loads no math library. Arrays are host-backed cuarray views (tests/linalg/_host_fake)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cuarray.linalg as la
from cuarray.linalg import _svd, _util

from . import _host_fake as hf

ALL = [np.dtype(c) for c in "?bhilqBHILQefdFD"]


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_compute_dtype_follows_numpy_result_kind(dt):
    a = np.ones((2, 2), dt)
    if dt.char == "e":
        with pytest.raises(TypeError, match="unsupported in linalg"):
            np.linalg.inv(a)
        with pytest.raises(TypeError, match="unsupported in linalg"):
            _util.compute_char(a)
        return
    want = np.linalg.inv(a + np.eye(2, dtype=dt) if dt != bool else np.eye(2, dtype=dt)).dtype
    assert _util.compute_char(a) == want.char


@pytest.mark.parametrize("pair", [("f", "d"), ("f", "F"), ("F", "d"), ("i", "f"), ("f", "f"), ("F", "F")])
def test_compute_dtype_of_two_operands(pair):
    a, b = np.ones((2, 2), pair[0]), np.ones(2, pair[1])
    assert _util.compute_char(a, b) == np.linalg.solve(a + np.eye(2, dtype=pair[0]), b).dtype.char


def _raises_like_numpy(fn, *args, **kw):
    host_args = [hf.to_np(a) if isinstance(a, la.__dict__.get("ndarray", type(None))) else a for a in args]
    with pytest.raises(Exception) as ours:
        getattr(la, fn)(*args, **kw)
    with pytest.raises(Exception) as theirs:
        getattr(np.linalg, fn)(*[hf.to_np(a) if hasattr(a, "data") and hasattr(a, "_shape") else a
                                 for a in host_args], **kw)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    assert str(ours.value) == str(theirs.value)


SQUARE_FNS = ["solve", "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eig", "eigvals"]


@pytest.mark.parametrize("fn", SQUARE_FNS + ["qr", "svd", "svdvals", "pinv", "matrix_norm"])
def test_one_dimensional_input_is_linalgerror(fn):
    x = hf.from_np(np.arange(1.0, 4.0))
    args = (x, x) if fn == "solve" else (x,)
    _raises_like_numpy(fn, *args)


@pytest.mark.parametrize("fn", SQUARE_FNS)
def test_non_square_is_linalgerror(fn):
    x = hf.from_np(np.ones((2, 3, 4)))
    args = (x, hf.from_np(np.ones((2, 3, 1)))) if fn == "solve" else (x,)
    _raises_like_numpy(fn, *args)


# (eig and eigvals check finiteness first, as NumPy, which reads the device: their float16 order is
# test_check_order_cpu.py's)
@pytest.mark.parametrize("fn", [f for f in SQUARE_FNS if f not in ("eig", "eigvals")] + ["qr", "svd", "pinv"])
def test_float16_is_typeerror(fn):
    x = hf.from_np(np.ones((3, 3), np.float16))
    args = (x, x) if fn == "solve" else (x,)
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        getattr(la, fn)(*args)


def test_host_arrays_are_refused():
    with pytest.raises(TypeError, match="asarray"):
        la.solve(np.eye(2), np.ones(2))
    with pytest.raises(TypeError, match="asarray"):
        la.norm([1.0, 2.0])


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
def test_bad_uplo(fn):
    _raises_like_numpy(fn, hf.from_np(np.eye(3)), UPLO="X")


def test_qr_bad_mode():
    _raises_like_numpy("qr", hf.from_np(np.eye(3)), mode="bogus")


@pytest.mark.parametrize("kw", [dict(ord="nuc", axis=0), dict(ord="fro", axis=1), dict(ord=3, axis=(0, 1)),
                                dict(axis=(0, 0)), dict(axis=(0, 1, 2)), dict(axis="a")])
def test_norm_argument_errors(kw):
    _raises_like_numpy("norm", hf.from_np(np.ones((2, 3, 4))), **kw)


def test_solve_core_dimension_mismatch():
    a, b = hf.from_np(np.eye(3)), hf.from_np(np.ones((4, 2)))
    with pytest.raises(ValueError):
        la.solve(a, b)
    with pytest.raises(ValueError):
        np.linalg.solve(np.eye(3), np.ones((4, 2)))


def test_lstsq_incompatible():
    _raises_like_numpy("lstsq", hf.from_np(np.ones((3, 2))), hf.from_np(np.ones(4)))


def test_pinv_rtol_and_rcond_both_set():
    _raises_like_numpy("pinv", hf.from_np(np.ones((3, 2))), rcond=0.1, rtol=0.1)


def test_tensorinv_bad_ind():
    _raises_like_numpy("tensorinv", hf.from_np(np.ones((4, 2, 2))), ind=0)


@pytest.mark.parametrize("rows,cols,full", [(4096, 4096, True), (4096, 4096, False), (8192, 1024, True),
                                            (8192, 1024, False), (20, 10, True), (5, 5, False)])
def test_svd_algorithm_table(rows, cols, full):
    algo = _svd.choose_algorithm(rows, cols, full, True)
    assert algo in _svd.ALGORITHMS
    if cols <= 32:
        assert algo == "gesvdj"


class _Asked(Exception):
    pass


@pytest.mark.parametrize("fn", ["pinv", "matrix_rank", "lstsq"])
def test_rank_revealing_callers_ask_the_qr_iteration_svd(fn, monkeypatch):
    """pinv, matrix_rank and lstsq count or invert the small singular values: they ask gesvd, not
    the default gesvdp, whose perturbation of a rank-deficient matrix leaves its zero singular values
    ~1e-11 of the largest, above NumPy's cutoffs (a 40 x 33 stack with zero columns: pinv entries of
    1e10 where NumPy's are 0), nor gesvdj, which returns 0 for singular values below eps of the norm
    that LAPACK returns exactly (docs/perf-notes.md, "svd: which cuSOLVER routine")."""
    asked = []

    def record(a, full_matrices=True, compute_uv=True, algorithm=None, fn="linalg.svd"):
        asked.append(algorithm)
        raise _Asked

    monkeypatch.setattr(_svd, "_svd", record)
    a = hf.from_np(np.ones((2, 40, 33)) if fn != "lstsq" else np.ones((40, 33)))
    args = (a, hf.from_np(np.ones(40))) if fn == "lstsq" else (a,)
    with pytest.raises(_Asked):
        getattr(la, fn)(*args)
    assert asked == ["gesvd"]


def test_import_loads_no_math_library():
    code = "import sys, cuarray, cuarray.linalg; print(any(m.startswith('nvmath') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- pinv's host path on NumPy stand-ins -----------------------------------------------------------
def _single_precision_jacobi(a, full_matrices, hermitian):
    """NumPy's SVD of `a`, with what cuSOLVER's Jacobi SVD leaves of an exactly rank-deficient
    matrix in its own precision: zero singular values at rounding level, 4 eps of the largest (LAPACK
    reaches ~1e-17 on such matrices, under NumPy's default cutoff 1e-15 either way)."""
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices, hermitian=hermitian)
    floor = 4 * np.finfo(s.dtype).eps * s[..., :1]
    return u, np.maximum(s, floor).astype(s.dtype), vh


@pytest.fixture(scope="module")
def host_pinv():
    """`linalg.pinv` of a private copy of `_solve` whose array routines are NumPy's on host-backed
    arrays; `asked` records the dtype each SVD is asked in."""
    import types

    from cuarray.linalg import _solve
    from cuarray.testing.fake_device import host_module

    asked = []
    H, F = hf.to_np, hf.from_np

    def h(x):  # an operand: a host-backed array's values, a scalar as it is
        return H(x) if hasattr(x, "_shape") else x

    def svd(x, full_matrices=True, hermitian=False):
        asked.append(x.dtype)
        return tuple(F(r) for r in _single_precision_jacobi(H(x), full_matrices, hermitian))

    mod = host_module(_solve, {
        "rank_svd": svd, "conj": lambda x: F(np.conj(H(x))), "_matmul": lambda x, y: F(H(x) @ H(y)),
        "max_": lambda x, axis=None, keepdims=False: F(np.max(H(x), axis=axis, keepdims=keepdims)),
        "where": lambda c, x, y: F(np.where(H(c), h(x), h(y))), "greater": lambda x, y: F(np.greater(h(x), h(y))),
        "divide": lambda x, y: F(np.divide(h(x), h(y))), "multiply": lambda x, y: F(np.multiply(h(x), h(y))),
        "astype": lambda x, dt: F(H(x).astype(dt)), "expand_dims": lambda x, ax: F(np.expand_dims(H(x), ax)),
        "as_parameter": lambda x, fn: F(np.asarray(x)), "empty": lambda shape, dtype=float: F(np.empty(shape, dtype))})
    return types.SimpleNamespace(pinv=mod.pinv, asked=asked)


@pytest.mark.parametrize("dt", ["float32", "complex64", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 4, 4), (2, 3, 5, 3), (2, 2, 3, 5)])
def test_pinv_of_rank_deficient_stacks_as_numpy(host_pinv, dt, shape):
    """Small-integer stacks (most matrices exactly singular: NumPy cuts their zero singular values
    at the default rcond) with each matrix's own cutoff, rtol=None and an rcond per matrix: NumPy's
    pinv. Single precision is decomposed in double (a single-precision SVD's rounding-level zeros,
    4e-7 of the largest, would pass the 1e-15 cutoff and be inverted), the result in the input's type."""
    rng = np.random.default_rng()
    a = rng.integers(-1, 2, shape).astype(dt)
    if dt.startswith("complex"):
        a = a + 1j * rng.integers(-1, 2, shape).astype(dt)
    a[0, 0] = 1  # a rank-1 matrix
    for kw in ({}, {"rtol": None}, {"rcond": rng.random(shape[:-2]) * 0.5}, {"hermitian": True}):
        if kw.get("hermitian") and shape[-1] != shape[-2]:
            continue
        x = (a + np.conj(np.swapaxes(a, -1, -2))) if kw.get("hermitian") else a
        del host_pinv.asked[:]
        got = hf.to_np(host_pinv.pinv(hf.from_np(x), **kw))
        want = np.linalg.pinv(x, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert host_pinv.asked == [np.dtype({"float32": "float64", "complex64": "complex128"}.get(dt, dt))]
        tol = 1e-4 if dt != "float64" else 1e-9
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1, np.abs(want).max()), err_msg=str(kw))


@pytest.mark.parametrize("dt", ["e", "i", "d"])
@pytest.mark.parametrize("fn", ["pinv", "svd"])
def test_hermitian_checks_the_shape_before_the_dtype(fn, dt):
    """hermitian=True goes through eigh, which checks squareness before the dtype: a non-square
    float16 matrix is NumPy's LinAlgError, not the TypeError of float16 (the old code's for pinv)."""
    _raises_like_numpy(fn, hf.from_np(np.ones((5, 1), dt)), hermitian=True)


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -1, np.inf, -np.inf, None, 2])
@pytest.mark.parametrize("dt", ["F", "D", "f"])
def test_cond_of_an_empty_stack_is_real(recorded_launches, dt, p):
    """The condition number is real: complex input gave a complex result for p other than None/2/-2."""
    import cuarray

    want = np.linalg.cond(np.ones((0, 3, 3), dt), p=p)
    got = la.cond(cuarray.empty((0, 3, 3), dt), p=p)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)


@pytest.mark.parametrize("dt, want", [("f", "d"), ("F", "D"), ("d", "d"), ("D", "D")])
def test_cond_inverts_in_double_as_numpy(recorded_launches, monkeypatch, dt, want):
    """NumPy's cond inverts through its 'd->d' / 'D->D' signatures and casts the product back: a
    float32 matrix of 1e-20 entries has a 1e19 inverse whose norm's squares overflow single
    (cuarray gave inf where NumPy gives 3.41; GPU fuzz seed 13)."""
    import cuarray
    from cuarray.linalg import _norms

    seen = []

    class Stop(Exception):
        pass

    def inverse(a, char, check):
        seen.append(char)
        raise Stop

    monkeypatch.setattr(_norms, "_inverse", inverse)
    with pytest.raises(Stop):
        la.cond(cuarray.empty((2, 2), dt), p="fro")
    assert seen == [want]


# -- lstsq's host path on NumPy arrays -------------------------------------------------------------
class _Host(np.ndarray):
    """A NumPy array with the one cuarray method lstsq's host path calls (the rank's read-back)."""

    def get(self):
        return np.asarray(self)


@pytest.fixture(scope="module")
def host_lstsq():
    """`linalg.lstsq` of a private copy of `_solve` on NumPy arrays; its SVD is LAPACK's gesdd in
    the precision it is asked in (scipy.linalg.svd: sgesdd for float32, as a GPU SVD of float32
    would be), and `asked` records that precision."""
    import types

    import scipy.linalg

    from cuarray.linalg import _solve
    from cuarray.testing.fake_device import host_module

    asked = []

    def v(x):
        return np.asarray(x).view(_Host)

    def svd(x, full_matrices=True):
        asked.append(x.dtype)
        return tuple(v(r) for r in scipy.linalg.svd(np.asarray(x), full_matrices=full_matrices,
                                                   lapack_driver="gesdd"))

    mod = host_module(_solve, {
        "as_array": lambda x, fn: v(x), "rank_svd": svd, "conj": lambda x: v(np.conj(x)),
        "_matmul": lambda x, y: v(np.asarray(x) @ np.asarray(y)), "where": lambda c, x, y: v(np.where(c, x, y)),
        "all_": lambda x: v(np.all(x)), "isfinite": lambda x: v(np.isfinite(x)),
        "count_nonzero": lambda x: v(np.count_nonzero(x)), "abs_": lambda x: v(np.abs(x)),
        "sum_": lambda x, axis=None: v(np.sum(x, axis=axis))})
    return types.SimpleNamespace(lstsq=mod.lstsq, asked=asked)


# fuzz seed 12 (NumPy 2.5.2): float32/complex64 matrices of full rank in NumPy's double-precision
# gelsd, whose smallest singular values (1e-7 to 1e-12 of the largest) lie under float32's eps
_LSTSQ_GRADED = [(np.float32, [1.0, 0.25, 3.6e-5, 2.5e-9], 7, 1), (np.complex64, [1e-2, 3e-6, 1e-10, 1.6e-11], 5, 1),
                 (np.float32, [1.0, 1e-7, 1e-7], 4, 2), (np.complex64, [32.9, 8.3e-9], 3, 1)]


@pytest.mark.parametrize("dt,sv,m,k", _LSTSQ_GRADED, ids=["f32-7x4", "c64-5x4", "f32-4x3", "c64-3x2"])
def test_lstsq_of_single_precision_ranks_as_numpy(host_lstsq, dt, sv, m, k):
    """NumPy's lstsq solves float32/complex64 in double with the cutoff eps(float64) * max(M, N):
    these graded matrices have full rank there and residuals (M > N). Decomposed in single precision
    with float32's eps, the rank was lower and the residuals empty (the fuzz's 'shape: expected (1,)
    got (0,)'). The results keep the input's type."""
    rng = np.random.default_rng()
    n = len(sv)
    q1 = np.linalg.qr(rng.standard_normal((m, n)))[0]
    q2 = np.linalg.qr(rng.standard_normal((n, n)))[0]
    a = ((q1 * np.array(sv)) @ q2).astype(dt)
    b = rng.standard_normal((m, k)).astype(dt)
    if np.dtype(dt).kind == "c":
        b = b + 1j * rng.standard_normal((m, k)).astype(dt)
    want = np.linalg.lstsq(a, b)
    del host_lstsq.asked[:]
    got = host_lstsq.lstsq(a, b)
    assert host_lstsq.asked == [np.dtype({np.float32: "float64", np.complex64: "complex128"}[dt])]
    assert int(got[2]) == want[2] == n
    for g, w, name in zip(got[:2] + got[3:], want[:2] + want[3:], ("x", "residuals", "s")):
        assert (g.dtype, g.shape) == (w.dtype, w.shape), name
    np.testing.assert_allclose(np.asarray(got[3]), want[3], rtol=1e-5)
    np.testing.assert_allclose(np.asarray(got[1]), want[1], rtol=1e-3, atol=1e-6 * np.abs(b).max() ** 2)
