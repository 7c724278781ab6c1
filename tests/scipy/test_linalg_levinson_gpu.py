"""solve_toeplitz (Levinson's recursion, one block per system, or the dense matrix and LU where
_toeplitz_plan routes there) on the GPU against SciPy 1.18: real and complex, c alone or (c, r),
b 1-D and 2-D with more right-hand sides than a block has warps, batches of c, r and b broadcast
against each other, n = 1 and n past the block size, empty b, the singular-minor LinAlgError
(where LU would have solved), dtype and shape errors; both routes on the same systems, and large
single systems (n = 2048) by the dense route."""

from __future__ import annotations

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

G = cuarray.asarray


def _draw(rng, complex_, *shape):
    v = rng.normal(size=shape)
    return v + 1j * rng.normal(size=shape) if complex_ else v


def _cmp(got, want):
    got = got.get()
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("n,k", [(1, 1), (5, 3), (33, 1), (300, 11)])
def test_solve_toeplitz_levinson(complex_, n, k):
    rng = np.random.default_rng(n * 7 + k + complex_)
    c, r, b = _draw(rng, complex_, n), _draw(rng, complex_, n), _draw(rng, complex_, n, k)
    c[0] += 3 * np.sqrt(n)
    r[0] = c[0]
    _cmp(cla.solve_toeplitz(G(c), G(b)), sla.solve_toeplitz(c, b))
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b)), sla.solve_toeplitz((c, r), b))
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b[:, 0])), sla.solve_toeplitz((c, r), b[:, 0]))
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b[::-1, ::2])), sla.solve_toeplitz((c, r), b[::-1, ::2]))


@pytest.mark.parametrize("complex_", [False, True])
def test_batches(complex_):
    rng = np.random.default_rng(3 + complex_)
    n = 6
    c, r = _draw(rng, complex_, 4, 1, n), _draw(rng, complex_, 3, n)
    c[..., 0] += 8
    b2, b1 = _draw(rng, complex_, 3, n, 2), _draw(rng, complex_, n)
    for args in (((c, r), b2), ((c, r), b1), (c[:, 0], b1), ((c[0, 0], r), b2), (c[0, 0], b2[0])):
        cr, b = args
        want = sla.solve_toeplitz(cr, b)
        got = cla.solve_toeplitz(tuple(G(v) for v in cr) if isinstance(cr, tuple) else G(cr), G(b))
        _cmp(got, want)


def test_float32_and_int_give_float64():
    c = np.array([4, 1, 0], dtype=np.int64)
    b = np.array([5.0, 6.0, 5.0], dtype=np.float32)
    _cmp(cla.solve_toeplitz(G(c), G(b)), sla.solve_toeplitz(c, b))
    _cmp(cla.solve_toeplitz(G(c.astype(np.float32)), G(b)), sla.solve_toeplitz(c.astype(np.float32), b))


def test_singular_minor_and_errors():
    for c, r in (([1.0, 1.0, 3.0], [1.0, 1.0, 2.0]), ([0.0, 1.0], [0.0, 2.0])):
        with pytest.raises(np.linalg.LinAlgError):
            sla.solve_toeplitz((np.array(c), np.array(r)), np.ones(len(c)))
        with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
            cla.solve_toeplitz((G(np.array(c)), G(np.array(r))), G(np.ones(len(c))))
    with pytest.raises(ValueError):
        cla.solve_toeplitz(G(np.array([2.0, 1.0, 0.0])), G(np.ones(2)))
    with pytest.raises(ValueError):
        cla.solve_toeplitz((G(np.array([2.0, 1.0, 0.0])), G(np.array([3.0]))), G(np.ones(3)))
    e = cla.solve_toeplitz(G(np.array([2.0, 1.0])), G(np.ones((2, 0))))
    assert e.shape == (2, 0) and e.dtype == np.float64



def _route(n, k, systems, matrices, complex_):
    from cuarray.cuda import device
    from cuarray.scipy.linalg import _toeplitz_plan

    return _toeplitz_plan.route(n, k, systems, matrices, complex_, device._sm_count(device.get_device_id()))


def _dominant(rng, complex_, n, *lead):
    """c, r of well-conditioned systems (the diagonal 8 sqrt(n) against N(0, 1) entries: Levinson,
    SciPy's algorithm, is accurate on them, so both routes must match it closely)."""
    c, r = _draw(rng, complex_, *lead, n), _draw(rng, complex_, *lead, n)
    c[..., 0] = r[..., 0] = 8 * np.sqrt(n)
    return c, r


@pytest.mark.parametrize("complex_", [False, True])
def test_large_single_system_dense_route(complex_):
    n = 2048
    assert _route(n, 1, 1, 1, complex_) == "dense-lu" and _route(n, 2, 3, 1, complex_) == "dense-lu"
    rng = np.random.default_rng(2048 + complex_)
    c, r = _dominant(rng, complex_, n)
    b1, b2 = _draw(rng, complex_, n), _draw(rng, complex_, 3, n, 2)
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b1)), sla.solve_toeplitz((c, r), b1))
    _cmp(cla.solve_toeplitz(G(c), G(b2[0])), sla.solve_toeplitz(c, b2[0]))            # r = conj(c)
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b2)), sla.solve_toeplitz((c, r), b2))       # 3 systems, one matrix
    _cmp(cla.solve_toeplitz((G(c), G(r)), G(b2[1, ::-1, :1])), sla.solve_toeplitz((c, r), b2[1, ::-1, :1]))
    bad = c.copy()
    bad[5] = np.nan
    with pytest.raises(ValueError):
        cla.solve_toeplitz(G(bad), G(b1))
    c0 = c.copy()
    c0[0] = 0  # the first leading minor: SciPy's LinAlgError by either route
    with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
        cla.solve_toeplitz((G(c0), G(r)), G(b1))


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("rows_c,rows_r", [(3, 3), (1, 3), (1, 1)])
def test_both_routes_agree_with_scipy(complex_, rows_c, rows_r):
    """The same systems (order 300, past the block size) by each route directly: distinct matrices,
    c or r shared, one matrix for all; right-hand sides k = 3."""
    from cuarray.scipy.linalg import _levinson, _structured

    n, k, rows = 300, 3, 3
    rng = np.random.default_rng(300 + 7 * rows_c + rows_r + complex_)
    c, r = _dominant(rng, complex_, n, 3)
    c, r = c[:rows_c], r[:rows_r]
    y = _draw(rng, complex_, rows, n, k)
    want = np.stack([sla.solve_toeplitz((c[i % rows_c], r[i % rows_r]), y[i]) for i in range(rows)])
    for solve in (_levinson.levinson, _structured._dense_lu):
        _cmp(solve(G(c), G(r), G(y)), want)


def test_dense_route_solves_an_inner_singular_minor():
    """The documented difference: the dense route solves a nonsingular matrix whose 2 x 2 leading minor
    is singular (SciPy's Levinson raises; the public function takes Levinson at this size)."""
    from cuarray.scipy.linalg import _structured

    c, r = np.array([1.0, 1.0, 3.0]), np.array([1.0, 1.0, 2.0])
    y = np.array([1.0, 2.0, 3.0])
    dense = sla.toeplitz(c, r)
    got = _structured._dense_lu(G(c[None]), G(r[None]), G(y[None, :, None]))
    np.testing.assert_allclose(got.get()[0, :, 0], np.linalg.solve(dense, y), rtol=1e-12, atol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
        cla.solve_toeplitz((G(c), G(r)), G(y))
