"""Batched calls of cuarray.scipy.linalg that the other GPU tests do not stack, each against SciPy
applied slice by slice (SciPy 1.18's batching, which 1.17 shares for these): the result shapes
first (a silently wrong shape is the worst failure), then the values (factors compared where they
are unique, through reconstructions where a sign or phase is free). Plus solve_triangular on the
batched shapes of the lead's check: SciPy 1.18 reads a 2-D `b` as one matrix for every matrix of
`a` (a (4, 4, 4) result), not as one vector per matrix (CuPy's reading)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

import cuarray
from cuarray.scipy import linalg as cla

pytestmark = pytest.mark.gpu

G = cuarray.asarray
RNG = np.random.default_rng(2024)
BATCH = (2, 3)


def _slices(fn, *arrays, batch=BATCH):
    """fn over each matrix of the broadcast batch, the results stacked (tuples element by element)."""
    arrays = [np.broadcast_to(x, batch + x.shape[-2:]) if x.ndim >= 2 else x for x in arrays]
    out = [fn(*[x[idx] if x.ndim > 2 else x for x in arrays]) for idx in np.ndindex(*batch)]
    if isinstance(out[0], tuple):
        return tuple(np.stack([np.asarray(o[k]) for o in out]).reshape(batch + np.shape(out[0][k]))
                     for k in range(len(out[0])))
    return np.stack([np.asarray(o) for o in out]).reshape(batch + np.shape(out[0]))


def _close(got, want, tol=1e-10, what=""):
    got = got.get() if hasattr(got, "get") else np.asarray(got)
    assert got.shape == np.shape(want), (what, got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.max(np.abs(want), initial=0))),
                               err_msg=what)


def _rand(shape, complex_=False):
    a = RNG.normal(size=shape)
    return a + 1j * RNG.normal(size=shape) if complex_ else a


def _spd(shape, complex_=False):
    a = _rand(shape, complex_)
    return a @ np.swapaxes(a, -1, -2).conj() + shape[-1] * np.eye(shape[-1])


@pytest.mark.parametrize("shape", [(5, 5), (6, 4), (4, 6)])
def test_lu_family(shape):
    a = _rand(BATCH + shape)
    p, l, u = cla.lu(G(a))
    wp, wl, wu = _slices(sla.lu, a)
    _close(p, wp, what="P")
    _close(l, wl, what="L")
    _close(u, wu, what="U")
    pl, u2 = cla.lu(G(a), permute_l=True)
    _close(pl, _slices(lambda x: sla.lu(x, permute_l=True)[0], a), what="PL")
    idx = cla.lu(G(a), p_indices=True)[0]
    _close(idx, _slices(lambda x: sla.lu(x, p_indices=True)[0], a), what="p_indices")
    if shape[0] == shape[1]:
        lu, piv = cla.lu_factor(G(a))
        wlu, wpiv = _slices(sla.lu_factor, a)
        _close(lu, wlu, what="lu")
        np.testing.assert_array_equal(piv.get(), wpiv)


@pytest.mark.parametrize("mode", ["full", "economic", "r"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6)])
def test_qr_modes(mode, shape):
    a = _rand(BATCH + shape, complex_=True)
    got = cla.qr(G(a), mode=mode)
    want = _slices(lambda x: sla.qr(x, mode=mode), a)
    for g, w in zip(got, want):
        assert g.shape == w.shape, (mode, g.shape, w.shape)
    r = got[-1].get()
    np.testing.assert_allclose(np.abs(r), np.abs(want[-1]), atol=1e-10)  # R up to the phases of its rows
    if mode != "r":
        np.testing.assert_allclose(got[0].get() @ r, a, atol=1e-10)


@pytest.mark.parametrize("full", [True, False])
def test_svd(full):
    a = _rand(BATCH + (5, 3))
    u, s, vh = cla.svd(G(a), full_matrices=full)
    wu, ws, wvh = _slices(lambda x: sla.svd(x, full_matrices=full), a)
    assert (u.shape, s.shape, vh.shape) == (wu.shape, ws.shape, wvh.shape)
    _close(s, ws)
    k = 3
    np.testing.assert_allclose((u.get()[..., :, :k] * s.get()[..., None, :]) @ vh.get()[..., :k, :], a, atol=1e-10)


def test_eig_eigvals_and_generalized_eigh():
    a = _rand(BATCH + (5, 5))
    w, v = cla.eig(G(a))
    ww = _slices(lambda x: sla.eig(x)[0], a)
    assert w.shape == ww.shape and v.shape == BATCH + (5, 5)
    _close(np.sort_complex(w.get()), np.sort_complex(ww), 1e-9)
    np.testing.assert_allclose(a @ v.get(), v.get() * w.get()[..., None, :], atol=1e-9)
    _close(np.sort_complex(cla.eigvals(G(a)).get()), np.sort_complex(ww), 1e-9)
    h = _spd(BATCH + (5, 5), complex_=True) - 3 * np.eye(5)
    b = _spd((3, 5, 5), complex_=True)  # broadcast against the (2, 3) batch
    w, v = cla.eigh(G(h), G(b))
    _close(w, _slices(lambda x, y: sla.eigh(x, y)[0], h, b), 1e-9)
    bb = np.broadcast_to(b, BATCH + (5, 5))
    np.testing.assert_allclose(h @ v.get(), bb @ v.get() * w.get()[..., None, :], atol=1e-8)


@pytest.mark.parametrize("name", ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm", "pinvh"])
def test_matrix_functions(name):
    a = _spd(BATCH + (4, 4)) / 10 if name == "pinvh" else _rand(BATCH + (4, 4)) / 4
    _close(getattr(cla, name)(G(a)), _slices(getattr(sla, name), a), 1e-9, name)


def test_subspace_angles_and_special_forms():
    a, b = _rand(BATCH + (6, 3)), _rand((3, 6, 2))
    _close(cla.subspace_angles(G(a), G(b)), _slices(sla.subspace_angles, a, b), 1e-9, "subspace_angles")
    _close(cla.subspace_angles(G(a), G(b)), sla.subspace_angles(a, b), 1e-9, "subspace_angles")  # SciPy's own batching
    deficient = a.copy()
    deficient[0, 0, :, 2] = deficient[0, 0, :, 0]  # one pair of rank 2 against 3: unequal angle counts
    _close(cla.subspace_angles(G(deficient[..., :1, :, :]), G(b[0])), sla.subspace_angles(deficient[..., :1, :, :], b[0]),
           1e-9, "subspace_angles")
    for x, y in ((deficient, a), (a[0, 0, 0], b[0]), (a, b[..., :5, :])):
        with pytest.raises(ValueError) as theirs:
            sla.subspace_angles(x, y)
        with pytest.raises(ValueError) as ours:
            cla.subspace_angles(G(x), G(y))
        assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    s = RNG.random(BATCH + (3,))
    got = cla.diagsvd(G(s), 4, 3)
    want = np.stack([sla.diagsvd(x, 4, 3) for x in s.reshape(-1, 3)]).reshape(BATCH + (4, 3))
    _close(got, want, what="diagsvd")
    band = np.triu(np.tril(_rand(BATCH + (5, 5)), 2), -1)
    lower, upper = cla.bandwidth(G(band))
    assert lower.shape == upper.shape == BATCH
    blocks = [_rand(BATCH + (2, 2)), _rand((3, 1, 3))]
    got = cla.block_diag(*[G(x) for x in blocks])
    assert got.shape == BATCH + (3, 5)
    _close(got[..., :2, :2], blocks[0], what="block_diag")
    _close(got[..., 2:, 2:], np.broadcast_to(blocks[1], BATCH + (1, 3)), what="block_diag")


@pytest.mark.parametrize("assume_a", ["pos", "sym", "her", "diagonal", "upper triangular", "lower triangular",
                                      "tridiagonal", "banded"])
def test_solve_and_inv_assume_a_stacks(assume_a):
    a = _spd(BATCH + (5, 5), complex_=assume_a == "her")
    if assume_a == "diagonal":
        a = np.eye(5) * a
    elif assume_a.endswith("triangular"):
        a = np.triu(a) if assume_a.startswith("upper") else np.tril(a)
    elif assume_a in ("tridiagonal", "banded"):
        a = np.triu(np.tril(a, 1), -1)
    for b in (_rand((5,)), _rand((3, 5, 2)), _rand(BATCH + (5, 1))):
        want = _slices(lambda x, y: sla.solve(x, y, assume_a=assume_a), a, b) if b.ndim > 1 else \
            _slices(lambda x: sla.solve(x, b, assume_a=assume_a), a)
        _close(cla.solve(G(a), G(b), assume_a=assume_a), want, 1e-9, assume_a)
    if assume_a not in ("tridiagonal", "banded"):
        _close(cla.inv(G(a), assume_a=assume_a), _slices(np.linalg.inv, a), 1e-9, "inv " + assume_a)


def test_solve_triangular_batched_shapes_as_scipy_1_18():
    """The lead's check: A (4, 4, 4), B (4, 4, 4), B[0] and A[0]: SciPy 1.18's shapes (4, 4, 4)
    for a 2-D b (one matrix for every matrix of A), (4, 4) only for a 1-D b."""
    A = np.triu(RNG.normal(size=(4, 4, 4))) + 4 * np.eye(4)
    B = RNG.normal(size=(4, 4, 4))
    for a, b, shape in ((A, B, (4, 4, 4)), (A, B[0], (4, 4, 4)), (A[0], B, (4, 4, 4)), (A, B[0, 0], (4, 4))):
        want = _slices(lambda x, y: sla.solve_triangular(x, y), a, b, batch=(4,)) if b.ndim > 1 else \
            _slices(lambda x: sla.solve_triangular(x, b), a, batch=(4,))
        assert want.shape == shape
        _close(cla.solve_triangular(G(a), G(b)), want, 1e-10, str((a.shape, b.shape)))
