"""The spatial names of issue #58 on the GPU against scipy.spatial on the host: Rectangle,
SphericalVoronoi, the plot helpers, transform.RigidTransform (constructors, converters,
composition with transforms and rotations, apply, inv, pow, mean, containers, pickling; single,
1-D and N-D batches, float32), directed_hausdorff's `seed`; fresh random and edge inputs, errors."""

from __future__ import annotations

import pickle
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

ss = pytest.importorskip("scipy.spatial")
st = pytest.importorskip("scipy.spatial.transform")

import cuarray  # noqa: E402
import cuarray.scipy.spatial as cs  # noqa: E402
from cuarray.scipy.spatial import distance as cd  # noqa: E402
from cuarray.scipy.spatial import transform as ct  # noqa: E402

G = cuarray.asarray
T, HT = ct.RigidTransform, st.RigidTransform
_BEFORE_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) < (1, 18)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _same(got, want, tol=1e-12):
    assert isinstance(got, cuarray.ndarray), type(got)
    got = got.get()
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got.shape, got.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


# -- Rectangle ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [1, 2, 3.5, np.inf])
def test_rectangle(p):
    rng = _rng("rect", p)
    a, b = rng.normal(size=4), rng.normal(size=4)
    got, ref = cs.Rectangle(G(a), G(b)), ss.Rectangle(a, b)
    assert repr(got) == repr(ref)
    _same(got.volume(), ref.volume(), 1e-14)
    x = rng.normal(size=(6, 50, 4)) * 2
    for method in ("min_distance_point", "max_distance_point"):
        _same(getattr(got, method)(G(x), p), getattr(ref, method)(x, p), 1e-13)
        _same(getattr(got, method)(G(x)[:, ::3], p), getattr(ref, method)(x[:, ::3], p), 1e-13)
        _same(getattr(got, method)(G(x[0, 0]), p), getattr(ref, method)(x[0, 0], p), 1e-13)
    lo, hi = got.split(2, 0.0)
    rlo, rhi = ref.split(2, 0.0)
    assert repr(lo) == repr(rlo) and repr(hi) == repr(rhi)
    c, d = rng.normal(size=4) + 2, rng.normal(size=4)
    _same(got.min_distance_rectangle(cs.Rectangle(G(c), G(d)), p), ref.min_distance_rectangle(ss.Rectangle(c, d), p))
    _same(got.max_distance_rectangle(cs.Rectangle(G(c), G(d)), p), ref.max_distance_rectangle(ss.Rectangle(c, d), p))
    with pytest.raises(TypeError):
        got.min_distance_point(x)  # host points: the host-input policy


# -- SphericalVoronoi ---------------------------------------------------------------------------------------

def _on_sphere(n, dim, radius, center, key, dtype=np.float64):
    x = _rng("sv", n, dim, key).normal(size=(n, dim))
    return (x / np.linalg.norm(x, axis=1, keepdims=True) * radius + center).astype(dtype)


@pytest.mark.parametrize("n, dim, radius, center", [(500, 3, 1.0, None), (2000, 3, 3.0, (1.0, -2.0, 0.5)),
                                                    (40, 2, 2.0, (0.5, 0.5)), (60, 4, 1.0, None)], ids=str)
def test_spherical_voronoi(n, dim, radius, center):
    pts = _on_sphere(n, dim, radius, 0 if center is None else np.array(center), "v")
    ref = ss.SphericalVoronoi(pts, radius, center)
    got = cs.SphericalVoronoi(G(pts), radius, None if center is None else list(center))
    _same(got.vertices, ref.vertices, 1e-12)
    assert got.regions == [list(r) for r in ref.regions]
    if dim in (2, 3):
        _same(got.calculate_areas(), ref.calculate_areas(), 1e-10)
        assert got.regions == ref.regions
        total = 4 * np.pi * radius ** 2 if dim == 3 else 2 * np.pi * radius
        assert float(got.calculate_areas().sum()) == pytest.approx(total, rel=1e-10)


def test_spherical_voronoi_float32_and_errors():
    pts = _on_sphere(100, 3, 1.0, 0.0, "f4", np.float32)
    ref, got = ss.SphericalVoronoi(pts, threshold=1e-5), cs.SphericalVoronoi(G(pts), threshold=1e-5)
    _same(got.vertices, ref.vertices, 1e-10)
    for args in [(pts, None), (np.array([[1.0, 0, 0], [0, 1.0, 0], [-1.0, 0, 0], [0, -1.0, 0]]),),
                 (np.concatenate([pts, pts[:1]]),), (pts, 2.0)]:
        with pytest.raises(ValueError) as want:
            ss.SphericalVoronoi(*args)
        with pytest.raises(ValueError) as have:
            cs.SphericalVoronoi(G(args[0]), *args[1:])
        assert str(have.value) == str(want.value)
    with pytest.raises(TypeError):
        cs.SphericalVoronoi(pts)


# -- plot helpers -------------------------------------------------------------------------------------------

def test_plot_helpers():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = _rng("plot").random((40, 2))
    for ours, ref, plot in [(cs.Delaunay(G(pts)), ss.Delaunay(pts), "delaunay_plot_2d"),
                            (cs.Voronoi(G(pts)), ss.Voronoi(pts), "voronoi_plot_2d"),
                            (cs.ConvexHull(G(pts)), ss.ConvexHull(pts), "convex_hull_plot_2d")]:
        fig_got, fig_ref = getattr(cs, plot)(ours), getattr(ss, plot)(ref)
        a, b = fig_got.axes[0], fig_ref.axes[0]
        assert len(a.lines) == len(b.lines) and len(a.collections) == len(b.collections)
        np.testing.assert_allclose(a.get_xlim(), b.get_xlim(), rtol=1e-12)
        np.testing.assert_allclose(a.lines[0].get_xydata(), b.lines[0].get_xydata(), rtol=1e-12)
        plt.close("all")


# -- RigidTransform -----------------------------------------------------------------------------------------

SHAPES = [(), (1,), (100,), (5, 7)]


def _tf(shape, key, scale=1.5):
    return HT.from_exp_coords(_rng("tf", shape, key).normal(size=tuple(shape) + (6,)) * scale)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rigid_round_trips(shape):
    h = _tf(shape, "rt")
    m = h.as_matrix()
    t = T.from_matrix(G(m))
    assert t.single == h.single and t.shape == h.shape
    _same(t.as_matrix(), m)
    _same(t.as_exp_coords(), h.as_exp_coords(), 1e-10)
    _same(T.from_exp_coords(G(h.as_exp_coords())).as_matrix(), m, 1e-10)
    small = h.as_exp_coords() * 1e-5  # the series branches
    _same(T.from_exp_coords(G(small)).as_exp_coords(), HT.from_exp_coords(small).as_exp_coords())
    for sf in (False, True):
        _same(t.as_dual_quat(scalar_first=sf), h.as_dual_quat(scalar_first=sf))
        dq = h.as_dual_quat(scalar_first=sf) * 1.3  # not unit: normalised as SciPy
        _same(T.from_dual_quat(G(dq), scalar_first=sf).as_matrix(),
              HT.from_dual_quat(dq, scalar_first=sf).as_matrix())
    tr, rot = t.as_components()
    _same(tr, h.translation)
    _same(rot.as_matrix(), h.rotation.as_matrix())
    _same(T.from_components(G(h.translation), ct.Rotation.from_quat(G(h.rotation.as_quat()))).as_matrix(), m)
    _same(T.from_translation(G(h.translation)).as_matrix(), HT.from_translation(h.translation).as_matrix())
    _same(T.identity(shape=shape or None).as_matrix(), HT.identity(shape=shape or None).as_matrix())
    m2 = m.copy()
    m2[..., :3, :3] *= 1.0005  # projected back to rotations
    _same(T(G(m2)).as_matrix(), HT(m2).as_matrix(), 1e-10)
    _same(T(G(m2), normalize=False).as_matrix(), m2)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rigid_operations(shape):
    a, b = _tf(shape, "a"), _tf(shape, "b")
    ga, gb = T.from_matrix(G(a.as_matrix())), T.from_matrix(G(b.as_matrix()))
    _same((ga * gb).as_matrix(), (a * b).as_matrix())
    c = _tf((), "c")
    _same((T.from_matrix(G(c.as_matrix())) * gb).as_matrix(), (c * b).as_matrix())
    r = st.Rotation.from_quat(_rng("r", shape).normal(size=tuple(shape) + (4,)))
    gr = ct.Rotation.from_quat(G(r.as_quat()))
    rt = HT.from_rotation(r)
    _same((ga * gr).as_matrix(), (a * rt).as_matrix())
    _same((gr * ga).as_matrix(), (rt * a).as_matrix())
    _same(ga.inv().as_matrix(), a.inv().as_matrix())
    for n in (0, 1, -1, 3, 0.25, -2.5):
        _same((ga ** n).as_matrix(), (a ** n).as_matrix(), 1e-10)
    rng = _rng("v", shape)
    for vshape in (tuple(shape) + (3,), (3,), (1,) * len(shape) + (3,)):
        v = rng.normal(size=vshape)
        for inverse in (False, True):
            _same(ga.apply(G(v), inverse), a.apply(v, inverse))
    if not shape:
        v = rng.normal(size=(1000, 3))
        _same(ga.apply(G(v)), a.apply(v))
        _same(ga.apply(G(v)[::2]), a.apply(v[::2]))  # a non-contiguous batch
        _same(ga.apply(G(v.astype(np.float32))), a.apply(v.astype(np.float32)))  # cast to the matrices' dtype
    if shape:
        _same(ga[1:].as_matrix(), a[1:].as_matrix())
        _same(ga[G(np.array([0, 0]))].as_matrix(), a[np.array([0, 0])].as_matrix())
        mask = np.arange(shape[0]) % 2 == 0
        _same(ga[G(mask)].as_matrix(), a[mask].as_matrix())
        gc, hc = T.from_matrix(G(a.as_matrix())), HT.from_matrix(a.as_matrix())
        gc[0], hc[0] = gb[-1], b[-1]
        _same(gc.as_matrix(), hc.as_matrix())
        assert len(ga) == len(a)
        _same(T.concatenate([ga, gb]).as_matrix(), HT.concatenate([a, b]).as_matrix())
    _same(pickle.loads(pickle.dumps(ga)).as_matrix(), a.as_matrix())
    assert repr(ga) == repr(a)


def test_rigid_float32():
    h = _tf((50,), "f4")
    m32 = h.as_matrix().astype(np.float32)
    g = T.from_matrix(G(m32))
    assert g.as_matrix().dtype == np.float32  # SciPy's rule for non-NumPy float32 arrays
    v = _rng("f4v").normal(size=(50, 3)).astype(np.float32)
    got = g.apply(G(v))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), HT.from_matrix(m32.astype(np.float64)).apply(v), rtol=1e-5, atol=1e-5)
    assert (g * g).as_matrix().dtype == np.float32
    np.testing.assert_allclose(g.as_exp_coords().get(), h.as_exp_coords(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape, axis", [((100,), None), ((5, 7), None), ((5, 7), 1), ((5, 7), (0, -1)),
                                         ((5, 7), ())], ids=str)
def test_rigid_mean(shape, axis):
    a = _tf(shape, "m", 0.3)
    g = T.from_matrix(G(a.as_matrix()))
    _same(g.mean(axis=axis).as_matrix(), a.mean(axis=axis).as_matrix(), 1e-10)
    w = _rng("w", shape).uniform(0.1, 2.0, size=shape)
    _same(g.mean(G(w), axis).as_matrix(), a.mean(w, axis).as_matrix(), 1e-10)


ERRORS = {
    "shape": lambda M, A: M(A(np.eye(3))),
    "last-row": lambda M, A: M(A(np.diag([1.0, 1, 1, 2]))),
    "last-row-batch": lambda M, A: M(A(np.stack([np.eye(4), np.diag([1.0, 1, 1, 2])]))),
    "last-row-nd": lambda M, A: M(A(np.stack([[np.eye(4), np.diag([1.0, 1, 1, 2])]] * 2))),
    "determinant": lambda M, A: M(A(np.diag([-1.0, 1, 1, 1]))),
    "translation": lambda M, A: M.from_translation(A(np.ones(2))),
    "exp": lambda M, A: M.from_exp_coords(A(np.ones(3))),
    "rotation-type": lambda M, A: M.from_rotation(A(np.eye(3))),
    "identity-both": lambda M, A: M.identity(2, shape=3),
    "mul-shapes": lambda M, A: M.identity(3) * M.identity(2),
    "mul-type": lambda M, A: M.identity(3) * 5,
    "mean-negative": lambda M, A: M.identity(3).mean(A(np.array([1.0, -1.0, 1.0]))),
    "mean-empty": lambda M, A: M.identity(0).mean(),
    "len": lambda M, A: len(M.identity()),
    "getitem": lambda M, A: M.identity()[0],
    "setitem": lambda M, A: M.identity(2).__setitem__(0, 1.0),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_rigid_errors_are_scipys(case):
    with pytest.raises(Exception) as want:
        ERRORS[case](HT, np.asarray)
    with pytest.raises(Exception) as have:
        ERRORS[case](T, G)
    assert type(have.value) is type(want.value), (have.value, want.value)
    if case.startswith("last-row"):
        assert str(have.value) == str(want.value)


def test_directed_hausdorff_seed():
    rng = _rng("dh")
    u, v = rng.random((200, 3)), rng.random((150, 3))
    d, i, j = cd.directed_hausdorff(G(u), G(v), seed=3)
    dh, ih, jh = ss.distance.directed_hausdorff(u, v, seed=3)
    assert d == pytest.approx(dh, rel=1e-9) and (i, j) == (ih, jh)
    with pytest.raises(TypeError, match="now known as `rng`"):
        cd.directed_hausdorff(G(u), G(v), rng=1, seed=1)
