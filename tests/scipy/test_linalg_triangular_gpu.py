"""scipy.linalg.solve_triangular on the GPU against SciPy: every `trans` spelling, `lower`,
`unit_diagonal`, float32/float64/complex64/complex128 and SciPy's dtype rule for integers; `a` in
C, F, negative-stride, strided and sliced layouts (read in place or copied), broadcast and batched
stacks; `b` 1-D, 2-D, batched and non-contiguous; the checks' errors. Small sizes."""

from __future__ import annotations

import itertools
import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sla = pytest.importorskip("scipy.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402

TOL = {"f": 2e-4, "F": 2e-4, "d": 1e-11, "D": 1e-11}


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _tri(rng, shape, dtype):
    """Both triangles random (a solver reading the wrong one is wrong), a dominant diagonal."""
    a = rng.normal(size=shape) + (1j * rng.normal(size=shape) if np.dtype(dtype).kind == "c" else 0)
    return (a + 2 * shape[-1] * np.eye(shape[-1])).astype(dtype)


def _rhs(rng, shape, dtype):
    """Right-hand sides of `dtype`: normal entries (complex ones with both parts random)."""
    return (rng.normal(size=shape) + (1j * rng.normal(size=shape) if np.dtype(dtype).kind == "c" else 0)).astype(dtype)


def G(x):
    return cuarray.asarray(x)


# host layout -> the device view of the same values in that layout
def _device(a, layout):
    n = a.shape[-1]
    if layout == "C":
        return G(a)
    if layout == "F":
        return cuarray.swapaxes(G(np.ascontiguousarray(np.swapaxes(a, -1, -2))), -1, -2)
    if layout == "neg":  # negative row and column strides
        return G(np.ascontiguousarray(a[..., ::-1, ::-1]))[..., ::-1, ::-1]
    if layout == "strided":
        return G(np.repeat(np.repeat(a, 2, axis=-1), 2, axis=-2))[..., ::2, ::2]
    if layout == "col-slice":  # row-major blocks with a leading dimension 2n
        return G(np.concatenate([a, np.zeros_like(a)], axis=-1))[..., :n]
    if layout == "F-slice":  # column-major blocks with a leading dimension 2n
        wide = np.concatenate([np.swapaxes(a, -1, -2), np.zeros_like(a)], axis=-1)
        return cuarray.swapaxes(G(np.ascontiguousarray(wide)), -1, -2)[..., :n, :]
    raise AssertionError(layout)


LAYOUTS = ["C", "F", "neg", "strided", "col-slice", "F-slice"]


def _check(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    t = TOL[want.dtype.char]
    np.testing.assert_allclose(got.get(), want, rtol=t, atol=t)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_trans_lower_unit_layout(dtype, layout):
    rng = _rng("tri", np.dtype(dtype).char, layout)
    a = _tri(rng, (7, 7), dtype)
    # unit_diagonal solves ignore the dominant diagonal: with these seeds SciPy's float32/complex64
    # answers are within 1% of TOL of the float64 ones in every case (the data are well conditioned).
    b = _rhs(rng, (7, 3), dtype)
    da, db = _device(a, layout), G(b)
    np.testing.assert_array_equal(da.get(), a)
    for trans, lower, unit in itertools.product([0, 1, 2, "N", "T", "C"], [False, True], [False, True]):
        want = sla.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit)
        _check(cla.solve_triangular(da, db, trans=trans, lower=lower, unit_diagonal=unit), want)
        _check(cla.solve_triangular(da, db[:, 0], trans=trans, lower=lower, unit_diagonal=unit), want[:, 0])


@pytest.mark.parametrize("layout", ["C", "F", "neg", "strided"])
@pytest.mark.parametrize("shapes", [((3, 6, 6), (6,)), ((3, 6, 6), (6, 2)), ((6, 6), (4, 6, 2)),
                                    ((2, 1, 6, 6), (3, 6, 2)), ((1, 3, 6, 6), (2, 1, 6, 1)), ((3, 6, 6), (3, 6, 2))])
def test_batches_broadcast(layout, shapes):
    sa, sb = shapes
    rng = _rng("batch", layout, shapes)
    a, b = _tri(rng, sa, np.float64), rng.normal(size=sb)
    da = _device(a, layout)
    for trans, lower in itertools.product([0, 1, 2], [False, True]):
        _check(cla.solve_triangular(da, G(b), trans=trans, lower=lower), sla.solve_triangular(a, b, trans=trans, lower=lower))


def test_broadcast_and_noncontiguous_b():
    rng = _rng("bview")
    a = _tri(rng, (5, 5), np.complex128)
    stack = np.broadcast_to(a, (3, 5, 5))
    b = rng.normal(size=(3, 5, 4)) + 1j * rng.normal(size=(3, 5, 4))
    db = G(b)[:, ::-1, ::2]  # negative and strided b
    hb = b[:, ::-1, ::2]
    for trans, lower, unit in itertools.product([0, 1, 2], [False, True], [False, True]):
        want = sla.solve_triangular(stack, hb, trans=trans, lower=lower, unit_diagonal=unit)
        _check(cla.solve_triangular(cuarray.broadcast_to(G(a), (3, 5, 5)), db, trans=trans, lower=lower,
                                    unit_diagonal=unit), want)
        _check(cla.solve_triangular(G(a), db, trans=trans, lower=lower, unit_diagonal=unit), want)
    # a transposed complex stack (row-major blocks of a^T) with trans='C'
    at = np.swapaxes(_tri(rng, (2, 5, 5), np.complex64), -1, -2)
    bt = rng.normal(size=(2, 5, 2)).astype(np.complex64)
    _check(cla.solve_triangular(cuarray.swapaxes(G(np.swapaxes(at, -1, -2)), -1, -2), G(bt), trans="C", lower=True),
           sla.solve_triangular(at, bt, trans="C", lower=True))


@pytest.mark.parametrize("da,db", [("int8", "int8"), ("int16", "float32"), ("uint8", "complex64"), ("int32", "float32"),
                                   ("int64", "complex64"), ("float32", "float64"), ("complex64", "float32"),
                                   ("float32", "int64"), ("float16", "float16")])
def test_dtypes_follow_scipys_lapack_rule(da, db):
    a = (np.triu(np.arange(1, 26).reshape(5, 5) % 7) + 5 * np.eye(5)).astype(da)
    b = (np.arange(10).reshape(5, 2) % 4).astype(db)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = sla.solve_triangular(a, b)
        got = cla.solve_triangular(G(a), G(b))
    _check(got, want)


def test_overwrite_b_and_input_untouched():
    rng = _rng("ow")
    a, b = _tri(rng, (6, 6), np.float64), rng.normal(size=(6, 2))
    da, db = G(a), G(np.asfortranarray(b))
    got = cla.solve_triangular(da, db, overwrite_b=True, check_finite=False)
    _check(got, sla.solve_triangular(a, b))
    np.testing.assert_array_equal(da.get(), a)


def test_errors_as_scipy():
    rng = _rng("err")
    a, b = np.triu(_tri(rng, (5, 5), np.float64)), rng.normal(size=5)
    s = a.copy()
    s[3, 3] = 0
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 3"):
        sla.solve_triangular(s, b)
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 3"):
        cla.solve_triangular(G(s), G(b))
    _check(cla.solve_triangular(G(s), G(b), unit_diagonal=True), sla.solve_triangular(s, b, unit_diagonal=True))
    stack = np.stack([a, s])
    with pytest.raises(np.linalg.LinAlgError):
        cla.solve_triangular(G(stack), G(b))
    # check_finite=False reads nothing: the zero diagonal is trtrs's LinAlgError at the next
    # synchronisation (the device-error channel), the first zero of the stack in C order
    cuarray.check_index_errors()
    s1 = s.copy()
    s1[1, 1] = 0
    for arr, first in [(s, 3), (np.stack([a, s1, s]), 1), (np.stack([a, s, s1]), 3)]:
        x = cla.solve_triangular(G(arr), G(b), check_finite=False)
        with pytest.raises(np.linalg.LinAlgError, match="diagonal {}".format(first)):
            x.get()
        cuarray.check_index_errors()  # cleared: nothing left to raise
    _check(cla.solve_triangular(G(s), G(b), unit_diagonal=True, check_finite=False),
           sla.solve_triangular(s, b, unit_diagonal=True))
    cuarray.check_index_errors()  # unit_diagonal: the diagonal is not read
    old = cuarray.set_sync_index_checks(True)
    try:  # the channel's immediate mode: at the call
        with pytest.raises(np.linalg.LinAlgError, match="diagonal 3"):
            cla.solve_triangular(G(s), G(b), check_finite=False)
    finally:
        cuarray.set_sync_index_checks(old)
    for bad_a, bad_b in [(a, np.where(np.arange(5) == 2, np.nan, b)), (np.where(np.eye(5) > 0, np.inf, a), b)]:
        with pytest.raises(ValueError, match="infs or NaNs"):
            cla.solve_triangular(G(bad_a), G(bad_b))
    nan_below = a.copy()
    nan_below[4, 0] = np.nan  # outside the triangle read: SciPy still refuses it
    with pytest.raises(ValueError):
        sla.solve_triangular(nan_below, b)
    with pytest.raises(ValueError):
        cla.solve_triangular(G(nan_below), G(b))
    got = cla.solve_triangular(G(nan_below), G(b), check_finite=False)
    _check(got, sla.solve_triangular(nan_below, b, check_finite=False))
    with pytest.raises(ValueError):
        cla.solve_triangular(G(a), G(b), trans=3)
    with pytest.raises(ValueError):
        cla.solve_triangular(G(a), G(np.ones(4)))
    with pytest.raises(ValueError):
        cla.solve_triangular(G(np.ones((0, 5, 5))), G(b))


def test_empty_as_scipy():
    for sa, sb, da in [((0, 0), (0,), "float32"), ((3, 3), (3, 0), "float64"), ((0, 0), (0, 2), "int8")]:
        a, b = np.eye(sa[0], dtype=da), np.ones(sb, dtype=da)
        want = sla.solve_triangular(a, b)
        got = cla.solve_triangular(G(a), G(b))
        assert got.shape == want.shape and got.dtype == want.dtype


def test_cho_solve_zero_diagonal_raises_nothing_as_scipy():
    """SciPy's cho_solve (potrs) reports no singularity: a zero on the factor's diagonal gives
    infs or NaNs, at the call and at the next synchronisation alike."""
    rng = _rng("cho0")
    c = np.triu(_tri(rng, (4, 4), np.float64))
    c[2, 2] = 0
    b = rng.normal(size=4)
    with np.errstate(all="ignore"):
        want = sla.cho_solve((c, False), b)
    cuarray.check_index_errors()
    got = cla.cho_solve((G(c), False), G(b)).get()
    cuarray.check_index_errors()  # nothing recorded
    assert got.shape == want.shape and not np.isfinite(want).all() and not np.isfinite(got).all()
