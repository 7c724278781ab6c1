"""cuarray.scipy.spatial.transform on the GPU against scipy.spatial.transform on the host: every
constructor and converter, composition, apply, mean, reduce, align_vectors, Slerp; single
rotations, batches (1-D and N-D), float32 inputs. Tolerances are those of SciPy's own tests
(1e-12 absolute for float64 round trips; float32 at 1e-5)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

st = pytest.importorskip("scipy.spatial.transform")

import cuarray  # noqa: E402
from cuarray.scipy.spatial import transform as ct  # noqa: E402

G = cuarray.asarray
R, HR = ct.Rotation, st.Rotation


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _quats(shape, key):
    return _rng("q", shape, key).normal(size=tuple(shape) + (4,))


def _close(got, want, atol=1e-12):
    got = got.get() if hasattr(got, "get") else np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=0, atol=atol)


def _same_rotation(r, h, atol=1e-12):
    """Quaternions equal up to sign (q and -q are one rotation)."""
    _close(r.as_quat(canonical=True), h.as_quat(canonical=True), atol)


@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 4)], ids=str)
def test_quat_matrix_rotvec_mrp(shape):
    q = _quats(shape, "a")
    r, h = R.from_quat(G(q)), HR.from_quat(q)
    assert r.single == (shape == ()) and r.shape == tuple(shape)
    _close(r.as_quat(), h.as_quat())
    _close(r.as_quat(canonical=True, scalar_first=True), h.as_quat(canonical=True, scalar_first=True))
    _close(R.from_quat(G(q), scalar_first=True).as_quat(), HR.from_quat(q, scalar_first=True).as_quat())
    _close(r.as_matrix(), h.as_matrix())
    _close(r.as_rotvec(), h.as_rotvec())
    _close(r.as_rotvec(degrees=True), h.as_rotvec(degrees=True), 1e-10)
    _close(r.as_mrp(), h.as_mrp())
    _close(r.magnitude(), h.magnitude())
    _same_rotation(R.from_matrix(G(h.as_matrix())), HR.from_matrix(h.as_matrix()))
    rv = h.as_rotvec()
    _same_rotation(R.from_rotvec(G(rv)), HR.from_rotvec(rv))
    _same_rotation(R.from_rotvec(G(np.degrees(rv)), degrees=True), HR.from_rotvec(np.degrees(rv), degrees=True))
    _same_rotation(R.from_mrp(G(h.as_mrp())), HR.from_mrp(h.as_mrp()))


def test_small_angles_and_flat_matrices():
    rv = np.array([[1e-9, 0, 0], [0, 2e-4, 1e-4], [0, 0, 0], [np.pi, 0, 0]])
    _close(R.from_rotvec(G(rv)).as_quat(), HR.from_rotvec(rv).as_quat())
    _close(R.from_rotvec(G(rv)).as_rotvec(), HR.from_rotvec(rv).as_rotvec())
    m = HR.from_rotvec(rv).as_matrix() * 1.001  # not orthogonal: projected by an SVD
    _same_rotation(R.from_matrix(G(m)), HR.from_matrix(m), 1e-10)
    with pytest.raises(ValueError, match="determinant"):
        R.from_matrix(G(-np.eye(3)))
    with pytest.raises(ValueError, match="zero norm"):
        R.from_quat(G(np.zeros((2, 4))))
    with pytest.raises(ValueError):
        R.from_quat(G(np.ones(3)))


@pytest.mark.parametrize("seq", ["xyz", "ZYX", "zxz", "XYX", "yx", "Z"])
def test_euler(seq):
    a = _rng("e", seq).uniform(-np.pi, np.pi, size=(11, len(seq)))
    a[:, 1 % len(seq)] /= 2  # away from gimbal lock
    r, h = R.from_euler(seq, G(a)), HR.from_euler(seq, a)
    _same_rotation(r, h)
    _same_rotation(R.from_euler(seq, G(np.degrees(a[0])), degrees=True), HR.from_euler(seq, np.degrees(a[0]), degrees=True))
    if len(seq) == 3:
        _close(r.as_euler(seq), h.as_euler(seq), 1e-10)
        _close(r.as_euler(seq.swapcase(), degrees=True), h.as_euler(seq.swapcase(), degrees=True), 1e-8)


def test_euler_gimbal_lock():
    a = np.array([[0.3, 0.0, 0.5], [0.1, np.pi / 2, 0.2]])
    for seq in ("zxz", "xyz", "ZYX"):
        h = HR.from_euler(seq, a)
        r = R.from_quat(G(h.as_quat()))
        with pytest.warns(UserWarning, match="Gimbal lock"):
            got = r.as_euler(seq)
        with pytest.warns(UserWarning, match="Gimbal lock"):
            want = h.as_euler(seq)
        _close(got, want, 1e-7)


def test_davenport():
    axes = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1.0]])
    tilted = HR.from_rotvec([0.1, 0.2, 0.3]).apply(axes)
    ang = _rng("d").uniform(-1, 1, size=(5, 3))
    for ax in (axes, tilted):
        for order in ("e", "intrinsic"):
            r, h = R.from_davenport(G(ax), order, G(ang)), HR.from_davenport(ax, order, ang)
            _same_rotation(r, h)
            _close(r.as_davenport(G(ax), order), h.as_davenport(ax, order), 1e-10)
    with pytest.raises(ValueError, match="orthogonal"):
        R.from_davenport(G(np.array([[1.0, 0, 0], [1, 1, 0]])), "e", G(np.ones(2)))


def test_compose_inv_pow_apply():
    p, q = _quats((6,), "p"), _quats((6,), "q")
    rp, rq, hp, hq = R.from_quat(G(p)), R.from_quat(G(q)), HR.from_quat(p), HR.from_quat(q)
    _same_rotation(rp * rq, hp * hq)
    _same_rotation(rp[0] * rq, hp[0] * hq)
    _same_rotation(rp.inv(), hp.inv())
    for n in (0, 1, -1, 2.5, -0.3):
        _same_rotation(rp ** n, hp ** n, 1e-10)
    v = _rng("v").normal(size=(6, 3))
    _close(rp.apply(G(v)), hp.apply(v))
    _close(rp.apply(G(v), inverse=True), hp.apply(v, inverse=True))
    _close(rp[2].apply(G(v)), hp[2].apply(v))
    _close(rp[2].apply(G(v[0])), hp[2].apply(v[0]))
    _close(rp.apply(G(v[0])), hp.apply(v[0]))
    with pytest.raises(ValueError):
        rp.apply(G(v[:4]))
    with pytest.raises(ValueError):
        rp * R.from_quat(G(q[:4]))
    assert bool(rp.approx_equal(R.from_quat(G(-p))).all())
    np.testing.assert_array_equal(rp.approx_equal(rq).get(), hp.approx_equal(hq))


def test_apply_at_the_bench_size_with_strided_operands():
    # the bench's shapes (one rotation and 2**20 + 3 rotations against as many vectors), the vectors
    # a strided view (every other row of a Fortran-ordered array) and the output written through the
    # kernel's strided component views
    n = 2**20 + 3
    q = _quats((n,), "big")
    base = np.asfortranarray(_rng("vbig").normal(size=(2 * n, 3)))
    v, hv = G(base)[::2], base[::2]
    assert not v.flags.c_contiguous
    one, hone = R.from_quat(G(q[7])), HR.from_quat(q[7])
    _close(one.apply(v), hone.apply(hv))
    _close(one.apply(v, inverse=True), hone.apply(hv, inverse=True))
    many, hmany = R.from_quat(G(q)), HR.from_quat(q)
    got = many.apply(v)
    _close(got, hmany.apply(hv))
    _close(many[::-3].apply(v[::3]), hmany[::-3].apply(hv[::3]))
    _close(many.apply(v[-1]), hmany.apply(hv[-1]))


def test_batched_nd_and_float32():
    q = _quats((2, 3), "nd").astype(np.float32)
    r = R.from_quat(G(q))
    assert r.as_quat().dtype == np.float32 and r.shape == (2, 3)
    h = HR.from_quat(q.astype(np.float64))
    v = _rng("v32").normal(size=(2, 3, 3)).astype(np.float32)
    _close(r.apply(G(v)), h.apply(v.astype(np.float64)), 1e-5)
    _close(r.as_matrix(), h.as_matrix(), 1e-6)
    _close(r.as_euler("xyz"), h.as_euler("xyz"), 1e-4)


def test_containers():
    q = _quats((5,), "c")
    r, h = R.from_quat(G(q)), HR.from_quat(q)
    assert len(r) == 5 and r[1].single and not r[1:3].single
    _same_rotation(r[G(np.array([4, 0]))], h[np.array([4, 0])])
    _same_rotation(r[G(np.array([True, False, True, False, True]))], h[np.array([True, False, True, False, True])])
    _same_rotation(R.concatenate([r[0], r[1:3], r]), HR.concatenate([h[0], h[1:3], h]))
    r2 = R.from_quat(G(q))
    r2[1] = R.identity()
    _same_rotation(r2[1], HR.identity())
    with pytest.raises(TypeError):
        len(r[0])
    with pytest.raises(TypeError):
        r[0][0]
    _same_rotation(R.identity(3), HR.identity(3))
    assert R.identity(shape=(2, 2)).shape == (2, 2)
    _same_rotation(R.random(4, np.random.default_rng(3)), HR.random(4, np.random.default_rng(3)))


def test_mean_and_reduce():
    q = _quats((9,), "m")
    r, h = R.from_quat(G(q)), HR.from_quat(q)
    _same_rotation(r.mean(), h.mean(), 1e-10)
    w = _rng("w").random(9)
    _same_rotation(r.mean(weights=G(w)), h.mean(weights=w), 1e-10)
    q2 = _quats((3, 4), "m2")
    _same_rotation(R.from_quat(G(q2)).mean(axis=1), HR.from_quat(q2).mean(axis=1), 1e-10)
    with pytest.raises(ValueError):
        r.mean(weights=-G(w))
    g = R.create_group("O")
    hg = HR.create_group("O")
    # with both sides only r l enters the score (the scalar part of l p r is that of p r l), so
    # pairs tie and either library may pick another of them: the reduced angle is what is unique
    got, li, ri = r.reduce(g, g, return_indices=True)
    _close(got.magnitude(), h.reduce(hg, hg).magnitude(), 1e-10)
    _same_rotation(got, hg[li.get()] * h * hg[ri.get()], 1e-10)
    got = r.reduce(left=g)
    _same_rotation(got, h.reduce(left=hg), 1e-10)


def test_align_vectors():
    a = _rng("al").normal(size=(6, 3))
    rot = HR.from_rotvec([0.3, -0.2, 0.9])
    b = rot.inv().apply(a) + 1e-3 * _rng("noise").normal(size=(6, 3))
    got, rssd, sens = R.align_vectors(G(a), G(b), return_sensitivity=True)
    want, wrssd, wsens = HR.align_vectors(a, b, return_sensitivity=True)
    _same_rotation(got, want, 1e-10)
    _close(rssd, np.float64(wrssd), 1e-10)
    _close(sens, wsens, 1e-8)


def test_slerp():
    q = _quats((4,), "s")
    times = np.array([0.0, 1.0, 2.5, 3.0])
    s, hs = ct.Slerp(G(times), R.from_quat(G(q))), st.Slerp(times, HR.from_quat(q))
    t = np.array([0.0, 0.3, 1.0, 2.0, 2.9, 3.0])
    _same_rotation(s(G(t)), hs(t), 1e-10)
    _same_rotation(s(1.7), hs(1.7), 1e-10)
    with pytest.raises(ValueError):
        s(G(np.array([3.5])))
    with pytest.raises(ValueError):
        ct.Slerp(G(times[::-1].copy()), R.from_quat(G(q)))
