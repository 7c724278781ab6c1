"""solve_toeplitz's Levinson recursion without a GPU: the recursion the kernel runs
(`_levinson.reference`, step for step the template's) against SciPy's solve_toeplitz for real and
complex, symmetric and not, several right-hand sides, and its singular-minor LinAlgError; the
kernel family compiles for sm_90 (both types) and its declaration matches; the signature."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cubin_info import FRAME_SIZE, compile_sm90, kernel_attributes  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _levinson  # noqa: E402


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("n,k", [(1, 1), (2, 3), (7, 1), (40, 4), (129, 2)])
def test_reference_is_scipys(complex_, n, k):
    rng = np.random.default_rng(n * 10 + k + complex_)

    def draw(*shape):
        v = rng.normal(size=shape)
        return v + 1j * rng.normal(size=shape) if complex_ else v

    c, r, y = draw(n), draw(n), draw(n, k)
    c[0] += 3.0 * np.sqrt(n)
    r[0] = c[0]
    for cr in ((c, r), c):
        want = sla.solve_toeplitz(cr, y)
        rr = r if isinstance(cr, tuple) else np.conj(c)
        got = _levinson.reference(c, rr, y.astype(want.dtype))
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(sla.toeplitz(c, rr) @ got, y, rtol=1e-9, atol=1e-9)


def test_reference_singular_minor_as_scipy():
    for c, r in (([1.0, 1.0, 3.0], [1.0, 1.0, 2.0]), ([0.0, 1.0], [0.0, 2.0])):
        y = np.ones((len(c), 1))
        with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
            sla.solve_toeplitz((c, r), y)
        with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
            _levinson.reference(np.array(c), np.array(r), y)


@pytest.mark.parametrize("complex_", [False, True])
def test_kernel_compiles_sm90(complex_):
    name = _levinson.kernel_name(complex_)
    cubin, _ = compile_sm90(_levinson.LEVINSON.source(), [name])
    frames = {k: v.get(FRAME_SIZE, 0) for k, v in kernel_attributes(cubin).items() if "levinson" in k}
    assert frames and all(f == 0 for f in frames.values()), frames  # no local-memory frame (spills)


def test_errors_and_signature():
    assert inspect.signature(cla.solve_toeplitz) == inspect.signature(sla.solve_toeplitz)


@pytest.fixture
def numpy_wrapper():
    """A private copy of `_structured` (solve_toeplitz's wrapper) with NumPy for the device
    (`cuarray.testing.fake_device.host_module`)."""
    from cuarray.scipy.linalg import _structured
    from cuarray.testing.fake_device import host_module

    def levinson(c, r, y):
        return np.stack([_levinson.reference(c[i % c.shape[0]], r[i % r.shape[0]], y[i]) for i in range(y.shape[0])])

    return host_module(_structured, {
        "as_parameter": lambda v, fn: np.asarray(v), "conj": np.conj, "broadcast_to": np.broadcast_to,
        "empty": np.empty, "require_finite": lambda *a: None, "levinson": levinson,
        # the dense route (_dense_lu) by NumPy's LU, on an H100's 132 SMs
        "_sm_count": lambda: 132, "_read_any": lambda x: bool(np.any(x)), "concatenate": np.concatenate,
        "moveaxis": np.moveaxis, "sliding_window_view": np.lib.stride_tricks.sliding_window_view,
        "_la": types.SimpleNamespace(solve=np.linalg.solve)})


@pytest.mark.parametrize("complex_", [False, True])
def test_wrapper_batches_as_scipy(numpy_wrapper, complex_):
    """solve_toeplitz's batch and shape handling (SciPy 1.18: c, r 1-D cores, b 1-D or 2-D), with
    the NumPy recursion standing in for the kernel."""
    rng = np.random.default_rng(9 + complex_)
    n = 6

    def draw(*shape):
        v = rng.normal(size=shape)
        return v + 1j * rng.normal(size=shape) if complex_ else v

    c, r = draw(4, 1, n), draw(3, n)
    c[..., 0] += 8
    b2, b1 = draw(3, n, 2), draw(n)
    for cr, b in (((c, r), b2), ((c, r), b1), (c[:, 0], b1), ((c[0, 0], r), b2), (c[0, 0], b2[0]), (c[0, 0], b1)):
        want = sla.solve_toeplitz(cr, b)
        got = numpy_wrapper.solve_toeplitz(cr, b)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="Incompatible"):
        numpy_wrapper.solve_toeplitz(c[0, 0], b1[:5])
    e = numpy_wrapper.solve_toeplitz(c[0, 0], np.ones((n, 0)))
    assert e.shape == (n, 0) and e.dtype == sla.solve_toeplitz(c[0, 0], np.ones((n, 0))).dtype


@pytest.mark.parametrize("complex_", [False, True])
def test_wrapper_dense_route_as_scipy(numpy_wrapper, complex_):
    """The dense route's matrix (strided windows of one vector, reversed) and its batch handling (one
    matrix for all systems: one LU; distinct matrices: one each), NumPy's LU standing in for
    cuSOLVER's, against SciPy; shapes on both sides of the planner's crossover (n 325 | 326, float64)."""
    from cuarray.scipy.linalg import _toeplitz_plan

    rng = np.random.default_rng(21 + complex_)

    def draw(*shape):
        v = rng.normal(size=shape)
        return v + 1j * rng.normal(size=shape) if complex_ else v

    for n in (325, 400):
        c, r = draw(n), draw(n)
        c[0] = r[0] = 4 * np.sqrt(n)
        b2, b1 = draw(3, n, 2), draw(n)
        assert (_toeplitz_plan.route(n, 1, 1, 1, complex_, 132) == "dense-lu") == (n == 400)
        for cr, b in (((c, r), b1), ((c, r), b2), (c, b2[0]), ((c, r), b2[:, :, :1])):
            want = sla.solve_toeplitz(cr, b)
            got = numpy_wrapper.solve_toeplitz(cr, b)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # distinct matrices, straight through the dense route (two systems of order 400: Levinson's by the plan)
    n = 60
    cc, rr, y = draw(2, n), draw(2, n), draw(2, n, 3)
    cc[:, 0] = rr[:, 0] = 30.0
    got = numpy_wrapper._dense_lu(cc, rr, y)
    for i in range(2):
        np.testing.assert_allclose(got[i], sla.solve_toeplitz((cc[i], rr[i]), y[i]), rtol=1e-10, atol=1e-12)
    got = numpy_wrapper._dense_lu(cc[:1], rr, y)  # one column, two rows: broadcast
    for i in range(2):
        np.testing.assert_allclose(got[i], sla.solve_toeplitz((cc[0], rr[i]), y[i]), rtol=1e-10, atol=1e-12)
    # SciPy's errors: c[0] == 0 (the first minor), and a singular matrix
    with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
        numpy_wrapper._dense_lu(np.zeros((1, 4)) + np.eye(1, 4, 1), np.ones((1, 4)), np.ones((1, 4, 1)))
    with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
        numpy_wrapper._dense_lu(np.ones((1, 4)), np.ones((1, 4)), np.ones((1, 4, 1)))
