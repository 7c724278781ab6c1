"""The spatial names of issue #58 without a GPU (the host shim: NumPy in place of the device and
of the kernels, _host_shim.py) against SciPy: `Rectangle`, `SphericalVoronoi`, the plot helpers,
`transform.RigidTransform` (every constructor and converter, composition, apply, inv, pow, mean,
containers, batches), and their signatures."""

from __future__ import annotations

import inspect
import pickle
import zlib

import numpy as np
import pytest

ss = pytest.importorskip("scipy.spatial")
st = pytest.importorskip("scipy.spatial.transform")

import cuarray.scipy.spatial as cs  # noqa: E402
from cuarray.scipy.spatial import transform as ct  # noqa: E402

from . import _host_shim  # noqa: E402
from ._host_shim import H  # noqa: E402


@pytest.fixture(scope="module")
def host():
    return _host_shim.HostSpatial()


_BEFORE_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) < (1, 18)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _params(f):
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


# -- signatures -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Rectangle", "SphericalVoronoi", "convex_hull_plot_2d", "delaunay_plot_2d",
                                  "voronoi_plot_2d"])
def test_module_names_are_scipys(name):
    assert _params(getattr(cs, name)) == _params(getattr(ss, name))


def _public_methods(cls):
    return sorted(m for m, v in vars(cls).items() if (not m.startswith("_") or m in (
        "__init__", "__mul__", "__rmul__", "__pow__", "__getitem__", "__setitem__", "__len__", "__iter__",
        "__reduce__")) and callable(getattr(cls, m)))


# RigidTransform methods SciPy 1.18 added (read from scipy/spatial/transform/_rigid_transform.py at
# v1.18.1): the reference under an older SciPy
_RIGID_1_18 = {"__rmul__": [("self", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty),
                            ("other", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty)],
               "mean": [("self", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty),
                        ("weights", inspect.Parameter.POSITIONAL_OR_KEYWORD, None),
                        ("axis", inspect.Parameter.POSITIONAL_OR_KEYWORD, None)]}


@pytest.mark.parametrize("cls, ref", [("RigidTransform", st.RigidTransform), ("Rectangle", ss.Rectangle),
                                      ("SphericalVoronoi", ss.SphericalVoronoi)], ids=str)
def test_methods_are_scipys(cls, ref):
    ours = ct.RigidTransform if cls == "RigidTransform" else getattr(cs, cls)
    extra = set(_RIGID_1_18) - set(vars(ref)) if cls == "RigidTransform" else set()
    assert _public_methods(ours) == sorted(set(_public_methods(ref)) | extra)
    for m in _public_methods(ours):
        want = _RIGID_1_18[m] if m in extra else _params(getattr(ref, m))
        assert _params(getattr(ours, m)) == want, m
    props = sorted(m for m, v in vars(ref).items() if isinstance(v, property))
    assert props == sorted(m for m, v in vars(ours).items() if isinstance(v, property))


# -- Rectangle ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [1, 2, 3.5, np.inf])
def test_rectangle(host, p):
    R = host("cuarray.scipy.spatial").Rectangle
    rng = _rng("rect", p)
    a, b = rng.normal(size=3), rng.normal(size=3)
    got, ref = R(H(a), H(b)), ss.Rectangle(a, b)
    assert repr(got) == repr(ref) and got.m == ref.m
    np.testing.assert_array_equal(np.asarray(got.maxes), ref.maxes)
    assert float(got.volume()) == pytest.approx(ref.volume(), rel=1e-15)
    for g, r in zip(got.split(1, 0.1), ref.split(1, 0.1)):
        assert repr(g) == repr(r)
    x = rng.normal(size=(5, 3)) * 2
    for method in ("min_distance_point", "max_distance_point"):
        np.testing.assert_allclose(np.asarray(getattr(got, method)(H(x), p)), getattr(ref, method)(x, p),
                                   rtol=1e-14)
        np.testing.assert_allclose(np.asarray(getattr(got, method)(H(x[0]), p)), getattr(ref, method)(x[0], p),
                                   rtol=1e-14)
    c, d = rng.normal(size=3) + 3, rng.normal(size=3) - 1
    for method in ("min_distance_rectangle", "max_distance_rectangle"):
        np.testing.assert_allclose(np.asarray(getattr(got, method)(R(H(c), H(d)), p)),
                                   getattr(ref, method)(ss.Rectangle(c, d), p), rtol=1e-14)
    # p <= 0: SciPy 1.18's distance.minkowski raises ValueError (1.17's kd-tree helper divided by zero)
    with pytest.raises(ZeroDivisionError if _BEFORE_118 else ValueError):
        ref.min_distance_point(x, p=0)
    with pytest.raises(ValueError, match="p must be greater than 0"):
        got.min_distance_point(H(x), p=0)


# -- SphericalVoronoi ---------------------------------------------------------------------------------------

def _on_sphere(n, dim, radius, center, key):
    x = _rng("sv", n, dim, key).normal(size=(n, dim))
    return x / np.linalg.norm(x, axis=1, keepdims=True) * radius + center


@pytest.mark.parametrize("radius, center", [(1.0, None), (2.5, [0.5, -1.0, 2.0])])
def test_spherical_voronoi_3d(host, radius, center):
    SV = host("cuarray.scipy.spatial").SphericalVoronoi
    pts = _on_sphere(60, 3, radius, 0 if center is None else np.array(center), radius)
    ref = ss.SphericalVoronoi(pts, radius, center)
    got = SV(H(pts), radius, None if center is None else H(center))
    np.testing.assert_allclose(np.asarray(got.vertices), ref.vertices, rtol=1e-12, atol=1e-12)
    assert got.regions == [list(r) for r in ref.regions]
    np.testing.assert_allclose(np.asarray(got.calculate_areas()), ref.calculate_areas(), rtol=1e-10)
    assert got.regions == ref.regions  # sorted by calculate_areas, both sides: SciPy's walk
    assert float(np.asarray(got.calculate_areas()).sum()) == pytest.approx(4 * np.pi * radius ** 2, rel=1e-10)


def test_spherical_voronoi_2d_and_4d(host):
    SV = host("cuarray.scipy.spatial").SphericalVoronoi
    pts = _on_sphere(25, 2, 1.5, np.array([0.3, -0.2]), "2d")
    ref, got = ss.SphericalVoronoi(pts, 1.5, [0.3, -0.2]), SV(H(pts), 1.5, [0.3, -0.2])
    np.testing.assert_allclose(np.asarray(got.vertices), ref.vertices, rtol=1e-12, atol=1e-12)
    assert got.regions == [list(r) for r in ref.regions]
    np.testing.assert_allclose(np.asarray(got.calculate_areas()), ref.calculate_areas(), rtol=1e-12)
    with pytest.raises(TypeError, match="three-dimensional"):
        got.sort_vertices_of_regions()
    pts4 = _on_sphere(30, 4, 1.0, 0.0, "4d")
    ref4, got4 = ss.SphericalVoronoi(pts4), SV(H(pts4))
    np.testing.assert_allclose(np.asarray(got4.vertices), ref4.vertices, atol=1e-12)
    assert got4.regions == [list(r) for r in ref4.regions]
    with pytest.raises(TypeError, match="2D and 3D"):
        got4.calculate_areas()


@pytest.mark.parametrize("case", ["radius-none", "rank", "duplicate", "radius"])
def test_spherical_voronoi_errors_are_scipys(host, case):
    SV = host("cuarray.scipy.spatial").SphericalVoronoi
    pts = _on_sphere(20, 3, 1.0, 0.0, case)
    args = {"radius-none": (pts, None), "rank": (np.array([[1.0, 0, 0], [0, 1.0, 0], [-1.0, 0, 0], [0, -1.0, 0]]),),
            "duplicate": (np.concatenate([pts, pts[:1]]),), "radius": (pts, 2.0)}[case]
    with pytest.raises(ValueError) as want:
        ss.SphericalVoronoi(*args)
    with pytest.raises(ValueError) as have:
        SV(H(args[0]), *args[1:])
    assert str(have.value) == str(want.value)


# -- plot helpers -------------------------------------------------------------------------------------------

def _segments(fig):
    ax = fig.axes[0]
    lines = [np.asarray(line.get_xydata()) for line in ax.lines]
    colls = [np.asarray(seg) for c in ax.collections for seg in c.get_segments()]
    return lines, colls, ax.get_xlim(), ax.get_ylim()


def test_plot_helpers(host):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spatial = host("cuarray.scipy.spatial")
    pts = _rng("plot").random((30, 2))
    for ours, ref, plot in [(spatial.Delaunay(H(pts)), ss.Delaunay(pts), "delaunay_plot_2d"),
                            (spatial.Voronoi(H(pts)), ss.Voronoi(pts), "voronoi_plot_2d"),
                            (spatial.ConvexHull(H(pts), qhull_options="Qt"), ss.ConvexHull(pts), "convex_hull_plot_2d")]:
        got, want = _segments(getattr(spatial, plot)(ours)), _segments(getattr(ss, plot)(ref))
        for g, w in zip(got[:2], want[:2]):
            assert len(g) == len(w)
            for a, b in zip(g, w):
                np.testing.assert_allclose(a, b, rtol=1e-12)
        np.testing.assert_allclose(np.array(got[2:]), np.array(want[2:]), rtol=1e-12)
        plt.close("all")
    fig, ax = plt.subplots()
    assert spatial.voronoi_plot_2d(spatial.Voronoi(H(pts)), ax, show_vertices=False, line_colors="r") is fig
    plt.close("all")
    with pytest.raises(ValueError, match="not 2-D"):
        spatial.delaunay_plot_2d(spatial.Delaunay(H(_rng("p3").random((10, 3)))))


# -- RigidTransform -----------------------------------------------------------------------------------------

SHAPES = [(), (1,), (7,), (3, 4)]


def _random_tf(shape, key):
    rng = _rng("tf", shape, key)
    return st.RigidTransform.from_exp_coords(rng.normal(size=tuple(shape) + (6,)) * 1.5)


def _same(got, want, tol=1e-12):
    got = np.asarray(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rigid_constructors_converters(host, shape):
    T = host("cuarray.scipy.spatial.transform").RigidTransform
    R = host("cuarray.scipy.spatial.transform").Rotation
    h = _random_tf(shape, "c")
    m = h.as_matrix()
    t = T.from_matrix(H(m))
    assert t.single == h.single and t.shape == h.shape
    _same(t.as_matrix(), m)
    _same(T(H(m), normalize=False, copy=False).as_matrix(), m)
    _same(t.as_exp_coords(), h.as_exp_coords(), 1e-10)
    for sf in (False, True):
        _same(t.as_dual_quat(scalar_first=sf), h.as_dual_quat(scalar_first=sf))
        dq = h.as_dual_quat(scalar_first=sf)
        _same(T.from_dual_quat(H(dq), scalar_first=sf).as_matrix(),
              st.RigidTransform.from_dual_quat(dq, scalar_first=sf).as_matrix())
    e = h.as_exp_coords()
    _same(T.from_exp_coords(H(e)).as_matrix(), st.RigidTransform.from_exp_coords(e).as_matrix(), 1e-10)
    small = e * 1e-5  # the series branches of J and its inverse
    _same(T.from_exp_coords(H(small)).as_exp_coords(), st.RigidTransform.from_exp_coords(small).as_exp_coords())
    tr, rot = t.as_components()
    _same(tr, h.translation)
    _same(rot.as_matrix(), h.rotation.as_matrix())
    q = h.rotation.as_quat()
    _same(T.from_rotation(R.from_quat(H(q))).as_matrix(), st.RigidTransform.from_rotation(h.rotation).as_matrix())
    _same(T.from_translation(H(h.translation)).as_matrix(), st.RigidTransform.from_translation(h.translation).as_matrix())
    _same(T.from_components(H(h.translation), R.from_quat(H(q))).as_matrix(), m)
    _same(T.identity(shape=shape if shape else None).as_matrix(),
          st.RigidTransform.identity(shape=shape if shape else None).as_matrix())


def test_rigid_normalizes_as_scipy(host):
    T = host("cuarray.scipy.spatial.transform").RigidTransform
    m = _random_tf((4,), "n").as_matrix()
    m[:, :3, :3] *= 1.001  # not orthogonal: projected to the nearest rotation
    m[1, :3, 3] += 5
    _same(T(H(m)).as_matrix(), st.RigidTransform(m).as_matrix(), 1e-10)
    _same(T(H(m), normalize=False).as_matrix(), st.RigidTransform(m, normalize=False).as_matrix())
    m32 = m.astype(np.float32)
    assert np.asarray(T(H(m32)).as_matrix()).dtype == np.float32  # a device float32 array stays float32
    assert np.asarray(T([list(r) for r in np.eye(4)]).as_matrix()).dtype == np.float64


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rigid_operations(host, shape):
    T = host("cuarray.scipy.spatial.transform").RigidTransform
    R = host("cuarray.scipy.spatial.transform").Rotation
    a, b = _random_tf(shape, "a"), _random_tf(shape, "b")
    ga, gb = T.from_matrix(H(a.as_matrix())), T.from_matrix(H(b.as_matrix()))
    _same((ga * gb).as_matrix(), (a * b).as_matrix())
    one = _random_tf((), "one")
    _same((ga * T.from_matrix(H(one.as_matrix()))).as_matrix(), (a * one).as_matrix())
    r = st.Rotation.from_matrix(b.rotation.as_matrix())
    gr = R.from_quat(H(r.as_quat()))
    # SciPy 1.18 composes with a Rotation on either side (1.17 refuses): as with its transform
    rt = st.RigidTransform.from_rotation(r)
    _same((ga * gr).as_matrix(), (a * rt).as_matrix())
    _same((gr * ga).as_matrix(), (rt * a).as_matrix())
    if not _BEFORE_118:
        _same((ga * gr).as_matrix(), (a * r).as_matrix())
        _same((gr * ga).as_matrix(), (r * a).as_matrix())
    _same(ga.inv().as_matrix(), a.inv().as_matrix())
    inf = st.RigidTransform.from_translation(np.full(tuple(shape) + (3,), np.inf))
    _same((T.from_matrix(H(inf.as_matrix())) ** 0).as_matrix(), (inf ** 0).as_matrix())  # identity, not NaN
    for n in (0, 1, -1, 2, 0.5, -1.5):
        _same((ga ** n).as_matrix(), (a ** n).as_matrix(), 1e-10)
    v = _rng("v", shape).normal(size=tuple(shape) + (3,))
    for inverse in (False, True):
        _same(ga.apply(H(v), inverse), a.apply(v, inverse))
        one_v = v.reshape(-1, 3)[0]  # one vector against every transform
        _same(ga.apply(H(one_v), inverse), a.apply(one_v, inverse))
        if len(shape) == 2:  # a batch broadcast against the transforms' (3, 4)
            _same(ga.apply(H(v[:1]), inverse), a.apply(v[:1], inverse))
    if shape:
        _same(ga.apply(H(np.ones(3)), True), a.apply(np.ones(3), True))
        assert len(ga) == len(a)
        _same(ga[0].as_matrix(), a[0].as_matrix())
        _same(ga[1:].as_matrix(), a[1:].as_matrix())
        idx = np.array([0, 0])
        _same(ga[H(idx)].as_matrix(), a[idx].as_matrix())
        _same(ga[H(np.ones(shape[0], bool))].as_matrix(), a[np.ones(shape[0], bool)].as_matrix())
        gc, c = T.from_matrix(H(a.as_matrix())), st.RigidTransform.from_matrix(a.as_matrix())
        gc[0], c[0] = gb[-1], b[-1]
        _same(gc.as_matrix(), c.as_matrix())
        _same(np.stack([np.asarray(x.as_matrix()) for x in ga]), np.stack([x.as_matrix() for x in a]))
        _same(T.concatenate([ga, gb]).as_matrix(), st.RigidTransform.concatenate([a, b]).as_matrix())
    rebuild, args = ga.__reduce__()  # (pickling itself: the GPU tests; the shim's module copies are private)
    assert all(isinstance(x, np.ndarray) for x in args)
    _same(rebuild(*args).as_matrix(), pickle.loads(pickle.dumps(a)).as_matrix())
    # (the shim's arrays print as HostArray: compared without the layout)
    assert "".join(repr(ga).replace("HostArray", "array").split()) == "".join(repr(a).split())


@pytest.mark.parametrize("shape, axis", [((7,), None), ((3, 4), None), ((3, 4), 1), ((3, 4), (0, -1)),
                                         ((3, 4), ()), ((), None)], ids=str)
def test_rigid_mean(host, shape, axis):
    T = host("cuarray.scipy.spatial.transform").RigidTransform
    a = st.RigidTransform.from_exp_coords(_rng("m", shape).normal(size=tuple(shape) + (6,)) * 0.3)
    g = T.from_matrix(H(a.as_matrix()))
    _same(g.mean(axis=axis).as_matrix(), a.mean(axis=axis).as_matrix(), 1e-10)
    if shape:  # (SciPy's NumPy backend refuses 0-d weights for a single transform)
        w = _rng("w", shape).uniform(0.1, 2.0, size=shape)
        _same(g.mean(H(w), axis).as_matrix(), a.mean(w, axis).as_matrix(), 1e-10)


ERRORS = {
    "shape": lambda T, R: T(np.eye(3)),
    "last-row": lambda T, R: T(np.diag([1.0, 1, 1, 2])),
    "last-row-batch": lambda T, R: T(np.stack([np.eye(4), np.diag([1.0, 1, 1, 2])])),
    "last-row-nd": lambda T, R: T(np.stack([[np.eye(4), np.diag([1.0, 1, 1, 2])]] * 2)),
    "determinant": lambda T, R: T(np.diag([-1.0, 1, 1, 1])),
    "translation": lambda T, R: T.from_translation([1.0, 2.0]),
    "exp": lambda T, R: T.from_exp_coords([1.0, 2.0, 3.0]),
    "dual": lambda T, R: T.from_dual_quat(np.ones((2, 3))),
    "rotation-type": lambda T, R: T.from_rotation(np.eye(3)),
    "components": lambda T, R: T.from_components(np.ones((2, 3)), R.identity(3)),
    "identity-both": lambda T, R: T.identity(2, shape=3),
    "identity-shape": lambda T, R: T.identity(shape=[2]),
    "concatenate": lambda T, R: T.concatenate([1]),
    "len": lambda T, R: len(T.identity()),
    "getitem": lambda T, R: T.identity()[0],
    "iter": lambda T, R: iter(T.identity()).__next__(),
    "setitem": lambda T, R: T.identity(2).__setitem__(0, R.identity()),
    "mul-shapes": lambda T, R: T.identity(3) * T.identity(2),
    "mul-type": lambda T, R: T.identity(3) * 5,
    "apply-shape": lambda T, R: T.identity(3).apply(np.ones((2, 3))),
    "apply-vector": lambda T, R: T.identity(3).apply(np.ones((3, 2))),
    "mean-negative": lambda T, R: T.identity(3).mean(weights=np.array([1.0, -1.0, 1.0])),
    "mean-weights": lambda T, R: T.identity(3).mean(weights=np.ones(2)),
    "mean-empty": lambda T, R: T.identity(0).mean(),
    "mean-axis": lambda T, R: T.identity(3).mean(axis=1),
    "mean-axis-type": lambda T, R: T.identity(3).mean(axis=[0]),
    "pow-array": lambda T, R: T.identity(3) ** np.ones(2),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_rigid_errors_are_scipys(host, case):
    T = host("cuarray.scipy.spatial.transform").RigidTransform
    R = host("cuarray.scipy.spatial.transform").Rotation

    with pytest.raises(Exception) as want:
        ERRORS[case](st.RigidTransform, st.Rotation)
    with pytest.raises(Exception) as have:
        _shimmed(case, T, R)
    if case.startswith("last-row"):
        assert str(have.value) == str(want.value)
    if case == "pow-array":  # SciPy's NumPy backend: TypeError; its array-API backend (ours): ValueError
        assert type(have.value) is ValueError
        return
    assert type(have.value) is type(want.value), (have.value, want.value)


def _shimmed(case, T, R):
    """The case with its NumPy arguments as host-shim (device) arrays."""
    class Wrap:
        def __init__(self, cls):
            self.cls = cls

        def __call__(self, *a, **kw):
            return self.cls(*(H(x) if isinstance(x, np.ndarray) else x for x in a), **kw)

        def __getattr__(self, name):
            f = getattr(self.cls, name)
            if not callable(f):
                return f

            def g(*a, **kw):
                return f(*(H(x) if isinstance(x, np.ndarray) else x for x in a),
                         **{k: H(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})
            return g

    return ERRORS[case](Wrap(T), R)


@pytest.mark.parametrize("dim", [3, 5])
def test_spherical_voronoi_hull_options_are_scipys(host, monkeypatch, dim):
    """SciPy's SphericalVoronoi runs ConvexHull(points): Qhull's "Qt", and "Qx" from 5-D up; explicit
    options replace those defaults, so ours must name both where SciPy adds both."""
    seen = []
    real = ss.ConvexHull

    def spy(points, incremental=False, qhull_options=None):
        seen.append(qhull_options)
        return real(points, incremental, qhull_options)

    monkeypatch.setattr(ss, "ConvexHull", spy)
    pts = _on_sphere(40, dim, 1.0, 0.0, "opts")
    got = host("cuarray.scipy.spatial").SphericalVoronoi(H(pts))
    assert seen and set(seen[-1].split()) == ({"Qt", "Qx"} if dim >= 5 else {"Qt"})
    monkeypatch.undo()
    ref = ss.SphericalVoronoi(pts)
    np.testing.assert_allclose(np.asarray(got.vertices), ref.vertices, atol=1e-12)
    assert got.regions == [list(r) for r in ref.regions]
