"""scipy.linalg.solve_triangular's host path without a GPU: host-backed operands
(cuarray.testing.fake_device) and a NumPy stand-in for cuBLAS trsm that reads only the triangle, the
diagonal and the leading dimension it is given, so every layout decision (an `a` read in place as
column- or row-major blocks, the flipped triangle and `trans` of the row-major case, copies, batch
offsets of broadcast stacks) is checked against SciPy on the values; SciPy's dtype rule."""

from __future__ import annotations

import inspect
import itertools
import warnings

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cuarray.testing.fake_device import from_np, host_modules, host_view, to_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.cuda.libs import cublas_trsm  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _triangular, _triangular_checks, _validate  # noqa: E402

CALLS: list = []


def _fake_trsm(char, side, uplo, trans, diag, m, n, a, lda, b, ldb):
    CALLS.append((char, uplo, trans, lda))
    assert side == cublas_trsm.SIDE_LEFT and lda >= max(1, m) and ldb >= max(1, m)
    dt = np.dtype(char)
    A = host_view((m, m), (dt.itemsize, lda * dt.itemsize), dt, a)  # column-major, as cuBLAS reads
    B = host_view((m, n), (dt.itemsize, ldb * dt.itemsize), dt, b)
    t = np.tril(A) if uplo == cublas_trsm.FILL_LOWER else np.triu(A)
    if diag == cublas_trsm.DIAG_UNIT:
        np.fill_diagonal(t, 1)
    op = (t, t.T, t.T.conj())[trans]
    try:
        B[...] = np.linalg.solve(op, B)
    except np.linalg.LinAlgError:  # a zero on the diagonal: cuBLAS raises nothing (infs and NaNs)
        B[...] = np.nan


class _HostPending:
    """The checks' read on its way (`_triangular_checks.Pending`): the bits the kernel would OR
    together, computed by `reference` from the planned descriptions over the host memory."""
    reads = 0

    def __init__(self, bits):
        self.bits = bits

    def wait(self):
        _HostPending.reads += 1
        CALLS.append(("wait",))
        return self.bits


def _fake_launch(a, b, grid, da, db, dd):
    CALLS.append(("checks", grid, da, db, dd))
    assert grid >= 1
    return _HostPending(_triangular_checks.reference(to_np(a), to_np(b), grid, da, db, dd))


class _Device:
    @staticmethod
    def get_device_id():
        return 0

    @staticmethod
    def _sm_count(device_id):
        return 132


def _stacked_copy(a, char, order="C"):
    assert order == "F"
    h = np.swapaxes(np.ascontiguousarray(np.swapaxes(to_np(a), -1, -2), dtype=char), -1, -2)
    CALLS.append(("copy", h.shape))
    return from_np(h)


def _astype(a, dtype, order="K"):
    assert order == "F" and a.ndim == 2  # one matrix: b's column-major copy
    return _stacked_copy(a, dtype, order)


def _host_copy(**standins):
    """A private copy of `_triangular` (and of `cublas_trsm`, for its trsm, and of
    `_triangular_checks`, whose real planner runs, the launch and read replaced) on the host
    stand-ins."""
    return host_modules({cublas_trsm: {"trsm": _fake_trsm},
                         _triangular_checks: {"_launch": _fake_launch, "_device": _Device,
                                              "_copy": lambda x: from_np(np.ascontiguousarray(to_np(x)))},
                         _triangular: {"stacked_copy": _stacked_copy, "astype": _astype, **standins}})[_triangular]


@pytest.fixture(scope="module")
def host_triangular():
    return _host_copy()


@pytest.fixture
def host(host_triangular):
    """`_triangular`'s copy, its calls and reads counted from zero."""
    CALLS.clear()
    _HostPending.reads = 0
    return host_triangular


def _tri(rng, shape, dtype, lower):
    """A triangular stack whose other triangle holds junk (a solver reading it gives wrong values)."""
    a = rng.normal(size=shape) + (1j * rng.normal(size=shape) if np.dtype(dtype).kind == "c" else 0)
    a = a + 3 * shape[-1] * np.eye(shape[-1])
    return a.astype(dtype)


LAYOUTS = {
    "C": lambda a: a,
    "F": lambda a: np.asfortranarray(a) if a.ndim == 2 else np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2),
    "rows-reversed": lambda a: np.ascontiguousarray(a[..., ::-1, :])[..., ::-1, :],
    "strided": lambda a: np.repeat(np.repeat(a, 2, axis=-1), 2, axis=-2)[..., ::2, ::2],
    "col-slice": lambda a: np.concatenate([a, a], axis=-1)[..., :a.shape[-1]],
    "F-row-slice": lambda a: np.swapaxes(np.concatenate([np.swapaxes(a, -1, -2)] * 2, axis=-1), -1, -2)[..., :a.shape[-2], :],
}


def _case(rng, dtype, lower, batch_a, layout):
    a = LAYOUTS[layout](_tri(rng, batch_a + (5, 5), dtype, lower))
    return a


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
def test_matches_scipy_every_layout_and_trans(host, dtype, layout, trans):
    rng = np.random.default_rng([len(layout), trans if isinstance(trans, int) else ord(trans), np.dtype(dtype).num])
    for lower, unit in itertools.product([False, True], [False, True]):
        a = _case(rng, dtype, lower, (), layout)
        assert np.shares_memory(a, a) and a.shape == (5, 5)
        b = rng.normal(size=(5, 3)).astype(dtype)
        want = sla.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit)
        got = to_np(host.solve_triangular(from_np(a), from_np(b), trans=trans, lower=lower, unit_diagonal=unit))
        assert got.dtype == want.dtype
        tol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_in_place_reads_and_copies(host):
    rng = np.random.default_rng(1)
    a, b = _tri(rng, (6, 6), np.float64, True), rng.normal(size=6)
    for layout, copies in [("C", 1), ("F", 1), ("col-slice", 1), ("F-row-slice", 1), ("strided", 2),
                           ("rows-reversed", 2)]:
        CALLS.clear()
        host.solve_triangular(from_np(LAYOUTS[layout](a)), from_np(b), lower=True)
        # b is always copied; a only when it is no column- or row-major block
        assert sum(c[0] == "copy" for c in CALLS) == copies, (layout, CALLS)
    CALLS.clear()
    host.solve_triangular(from_np(a.astype(np.complex128)), from_np(b), trans=2, lower=True)
    assert sum(c[0] == "copy" for c in CALLS) == 2  # conj(a)^T has no cuBLAS op: a column-major copy
    CALLS.clear()
    host.solve_triangular(from_np(np.asfortranarray(a.astype(np.complex128))), from_np(b), trans=2, lower=True)
    assert sum(c[0] == "copy" for c in CALLS) == 1


@pytest.mark.parametrize("batch_a,b_shape", [((3,), (6,)), ((3,), (6, 2)), ((), (4, 6, 2)), ((2, 1), (3, 6, 2)),
                                             ((1, 3), (2, 1, 6, 1)), ((3,), (3, 6, 2))])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_batches_broadcast_as_scipy(host, batch_a, b_shape, layout):
    rng = np.random.default_rng([len(batch_a), len(b_shape), len(layout)])
    a = LAYOUTS[layout](_tri(rng, batch_a + (6, 6), np.float64, False))
    b = rng.normal(size=b_shape)
    for trans, lower in itertools.product([0, 1, 2], [False, True]):
        want = sla.solve_triangular(a, b, trans=trans, lower=lower)
        got = to_np(host.solve_triangular(from_np(a), from_np(b), trans=trans, lower=lower))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_broadcast_a_is_not_copied(host):
    rng = np.random.default_rng(2)
    a = _tri(rng, (6, 6), np.float64, False)
    ab = np.broadcast_to(a, (4, 6, 6))
    b = rng.normal(size=(4, 6, 2))
    got = to_np(host.solve_triangular(from_np(ab), from_np(b)))
    np.testing.assert_allclose(got, sla.solve_triangular(ab, b), rtol=1e-12, atol=1e-12)
    assert sum(c[0] == "copy" for c in CALLS) == 1 and sum(c[0] == "d" for c in CALLS) == 4


@pytest.mark.parametrize("da,db", [("int8", "int8"), ("bool", "float32"), ("int16", "float32"), ("uint8", "complex64"),
                                   ("int32", "float32"), ("int64", "complex64"), ("float32", "float64"),
                                   ("complex64", "float32"), ("float32", "int64")])
def test_result_dtype_is_scipys(host, da, db):
    a = np.triu(np.arange(1, 17).reshape(4, 4) % 5 + 4 * np.eye(4)).astype(da)
    if da == "bool":
        a = np.eye(4, dtype=bool)
    b = np.arange(4).astype(db)
    with pytest.warns(DeprecationWarning) if da == "bool" else _nothing():
        got = to_np(host.solve_triangular(from_np(a), from_np(b)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = sla.solve_triangular(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_checks_queued_before_the_solve_read_once_after(host):
    """One check launch before the trsm and one wait after it (the host waits for the checks, not
    for the solve); SciPy's ValueError for an inf or NaN in either operand, anywhere."""
    rng = np.random.default_rng(3)
    a, b = _tri(rng, (4, 4), np.float64, False), rng.normal(size=(4, 2))
    host.solve_triangular(from_np(a), from_np(b))
    assert [c[0] for c in CALLS] == ["copy", "checks", "d", "wait"] and _HostPending.reads == 1
    host.solve_triangular(from_np(a), from_np(b), check_finite=False, unit_diagonal=True)
    assert _HostPending.reads == 1  # nothing to read
    CALLS.clear()
    host.solve_triangular(from_np(a.astype(np.int64)), from_np(b.astype(np.int32)), unit_diagonal=True)
    assert not any(c[0] == "checks" for c in CALLS) and _HostPending.reads == 1  # integers are finite
    for bad_a, bad_b in [(np.nan, None), (None, np.inf)]:
        aa, bb = a.copy(), b.copy()
        if bad_a is not None:
            aa[0, 3] = bad_a
        else:
            bb[2, 1] = bad_b
        with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
            sla.solve_triangular(aa, bb)
        with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
            host.solve_triangular(from_np(aa), from_np(bb))
    # a NaN in the triangle not read is still SciPy's ValueError (it checks the whole array)
    aa = a.copy()
    aa[3, 0] = np.nan
    with pytest.raises(ValueError):
        host.solve_triangular(from_np(aa), from_np(b))
    # a zero diagonal with unit_diagonal=True is not looked at (nor by SciPy)
    aa = a.copy()
    aa[2, 2] = 0
    got = to_np(host.solve_triangular(from_np(aa), from_np(b), unit_diagonal=True))
    np.testing.assert_allclose(got, sla.solve_triangular(aa, b, unit_diagonal=True), rtol=1e-12, atol=1e-12)


def test_zero_diagonal_bit_raises_trtrs_error(host):
    """The checks' zero-diagonal bit: SciPy's LinAlgError naming the first zero (the diagonal read
    only then); an inf or NaN wins over it, as SciPy checks before it solves."""
    rng = np.random.default_rng(4)
    a, b = _tri(rng, (2, 4, 4), np.float64, False), rng.normal(size=(4, 2))
    a[1, 2, 2] = 0
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 2$"):
        sla.solve_triangular(a[1], b)
    host_diag = _host_copy(diagonal=lambda x, *args: _Got(np.diagonal(to_np(x), *args)))
    with pytest.raises(np.linalg.LinAlgError, match="resolution failed at diagonal 2$"):
        host_diag.solve_triangular(from_np(a), from_np(b))
    b[0, 0] = np.nan
    with pytest.raises(ValueError, match="infs or NaNs"):
        host_diag.solve_triangular(from_np(a), from_np(b))


class _Got:
    """A host array with the device array's `reshape` and `get`."""

    def __init__(self, values):
        self.values = values

    def reshape(self, *shape):
        return _Got(self.values.reshape(*shape))

    def get(self):
        return self.values


def test_argument_errors_as_scipy(host):
    a, b = np.triu(np.ones((3, 3))) + np.eye(3), np.ones(3)
    for kw in [dict(trans=3), dict(trans="X")]:
        with pytest.raises(ValueError):
            host.solve_triangular(from_np(a), from_np(b), **kw)
    with pytest.raises(ValueError, match="expected square matrix"):
        host.solve_triangular(from_np(np.ones((3, 2))), from_np(b))
    with pytest.raises(ValueError, match="incompatible"):
        host.solve_triangular(from_np(a), from_np(np.ones(4)))
    with pytest.raises(ValueError, match="zero-size batches"):
        sla.solve_triangular(np.ones((0, 3, 3)), b)
    with pytest.raises(ValueError, match="zero-size batches"):
        host.solve_triangular(from_np(np.ones((0, 3, 3))), from_np(b))


def test_signature_is_scipys():
    assert inspect.signature(cla.solve_triangular) == inspect.signature(sla.solve_triangular)


@pytest.mark.parametrize("scores", [("int8", "uint16"), ("int32",), ("complex64", "int64"), ("complex64", "uint16")])
def test_lapack_char_is_find_best_blas_type(scores):
    arrays = [from_np(np.ones(2, d)) for d in scores]
    want = sla.blas.find_best_blas_type([np.ones(2, d) for d in scores])[0]
    assert _validate.lapack_char(*arrays) == {"s": "f", "d": "d", "c": "F", "z": "D"}[want]


def test_check_finite_false_defers_the_zero_diagonal(host):
    """check_finite=False reads nothing: the diagonal goes to the device-error channel's recording
    kernel (one launch, flag 2); unit_diagonal=True launches nothing."""
    launches = []

    class _Channel:
        @staticmethod
        def error_buffer():
            return "err"

        @staticmethod
        def after_launch():
            launches.append("after")

    host = _host_copy(_errors=_Channel, _record_zero=lambda d, err, n: launches.append((to_np(d).copy(), err, n)))
    rng = np.random.default_rng(5)
    a, b = _tri(rng, (2, 4, 4), np.float64, False), rng.normal(size=(4, 2))
    got = to_np(host.solve_triangular(from_np(a), from_np(b), check_finite=False))
    np.testing.assert_allclose(got, sla.solve_triangular(a, b), rtol=1e-12, atol=1e-12)
    assert _HostPending.reads == 0
    assert len(launches) == 2 and launches[1] == "after"
    diag, err, n = launches[0]
    np.testing.assert_array_equal(diag, np.diagonal(a, 0, -2, -1))
    assert err == "err" and n == 4
    launches.clear()
    host.solve_triangular(from_np(a), from_np(b), check_finite=False, unit_diagonal=True)
    assert launches == [] and _HostPending.reads == 0


def test_zero_diagonal_record_raises_trtrs_error(monkeypatch):
    """The channel raises a flag-2 record (position ~i of the stacked diagonals, size n) as
    SciPy's LinAlgError naming the diagonal, in check_index_errors and raise_now alike; flag 1
    stays an IndexError."""
    from cuarray._core import device_errors

    records = [(2, ~9, 0, 4)]

    def take():  # as the reader: the record's flag to `_last_flag`, (value, axis, size) back
        if not records:
            return None
        flag, *rest = records.pop()
        device_errors._last_flag[0] = flag
        return tuple(rest)

    monkeypatch.setattr(device_errors, "_take_error", take)
    with pytest.raises(np.linalg.LinAlgError, match="resolution failed at diagonal 1$"):
        device_errors.check_index_errors()
    device_errors.check_index_errors()  # nothing left
    records.append((2, ~0, 0, 4))
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 0$"):
        device_errors.raise_now(lambda v, ax, size: ValueError("not this one"))
    records.append((1, 7, 0, 3))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3"):
        device_errors.check_index_errors()
    with pytest.raises(ValueError, match="taken"):
        device_errors.register_kind(2, lambda v, ax, size: None)
    with pytest.raises(ValueError, match="taken"):
        device_errors.register_kind(1, lambda v, ax, size: None)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128", "int8", "bool"])
def test_zero_diagonal_record_kernel_compiles_for_sm90(dt):
    from cuarray.cuda import compiler

    d = _triangular.record_zero_definition(np.dtype(dt))
    for layout in ("flat", "nd"):
        kname, src = d.source(layout, 2, np.int32)
        assert "cuarray::device_error(" in src
        try:
            cubin, _ = compiler.compile_cubin(src, arch="sm_90", options=d.options, name=kname)
        except Exception as e:  # noqa: BLE001
            if "nvrtc" in str(e).lower() and "not" in str(e).lower():
                pytest.skip("NVRTC unavailable: {}".format(e))
            raise
        assert cubin
