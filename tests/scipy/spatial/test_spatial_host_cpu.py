"""cuarray.scipy.spatial's distance and transform logic on the host shim (NumPy in place of the
device, NumPy versions of the kernels' formulas) against SciPy: metric plans, blocks, the pdist
gather, weights, parameters, shapes and dtypes of every converter. The GPU tests run the same
comparisons on the device."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

sd = pytest.importorskip("scipy.spatial.distance")
st = pytest.importorskip("scipy.spatial.transform")

from . import _exact_cases, _host_shim  # noqa: E402
from ._host_shim import H  # noqa: E402


@pytest.fixture(scope="module")
def host():
    """cuarray.scipy.spatial's private copies on the host shim: ``host("cuarray.scipy.spatial.x")``."""
    return _host_shim.HostSpatial()


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


GEMM = {"euclidean", "sqeuclidean", "seuclidean", "mahalanobis", "cosine", "correlation", "minkowski"}
BOOLEAN = {"dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule"}
WEIGHTED = set(sd._METRICS_NAMES) - {"jensenshannon", "mahalanobis", "seuclidean"}


def _close(got, want, metric=""):
    got = np.asarray(got)
    assert got.dtype == np.float64 and got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-7 if metric in GEMM else 1e-12, equal_nan=True)


def _data(metric, shape, dtype, key):
    r = _rng(metric, shape, str(dtype), key)
    if dtype == np.bool_:
        return r.random(shape) > 0.5
    if metric in BOOLEAN:
        return (r.random(shape) > 0.5).astype(dtype)
    x = r.random(shape).astype(dtype)
    x[1] = x[0]
    return x


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_], ids=["f8", "f4", "bool"])
@pytest.mark.parametrize("metric", list(sd._METRICS_NAMES))
def test_cdist_pdist(host, metric, dtype, monkeypatch):
    _distance_pair = host("cuarray.scipy.spatial._distance_pair")
    cd = host("cuarray.scipy.spatial.distance")

    if dtype == np.bool_ and metric in ("mahalanobis", "jensenshannon", "seuclidean"):
        pytest.skip("singular or undefined on boolean rows in SciPy too")
    monkeypatch.setattr(_distance_pair, "BLOCK_ELEMENTS", 40)  # several blocks
    XA, XB = _data(metric, (13, 5), dtype, "a"), _data(metric, (9, 5), dtype, "b")
    with np.errstate(all="ignore"):
        _close(cd.cdist(H(XA), H(XB), metric), sd.cdist(XA, XB, metric), metric)
        _close(cd.pdist(H(XA), metric), sd.pdist(XA, metric), metric)
    if metric in WEIGHTED:
        w = _rng("w", metric).random(5)
        w[1] = 0
        Xf, Yf = _data(metric, (7, 5), np.float64, "wa"), _data(metric, (6, 5), np.float64, "wb")
        _close(cd.cdist(H(Xf), H(Yf), metric, w=H(w)), sd.cdist(Xf, Yf, metric, w=w), metric)
        _close(cd.pdist(H(Xf), metric, w=H(w)), sd.pdist(Xf, metric, w=w), metric)


@pytest.mark.parametrize("p", [0.5, 1, 3, np.inf])
def test_minkowski_p_and_parameters(host, p):
    cd = host("cuarray.scipy.spatial.distance")

    XA, XB = _data("m", (8, 6), np.float64, p), _data("m", (5, 6), np.float64, -p)
    _close(cd.cdist(H(XA), H(XB), "minkowski", p=p), sd.cdist(XA, XB, "minkowski", p=p), "minkowski")
    V = _rng("V").random(6) + 0.5
    _close(cd.cdist(H(XA), H(XB), "seuclidean", V=V), sd.cdist(XA, XB, "seuclidean", V=V), "seuclidean")
    X = _data("m", (20, 3), np.float64, "mah")
    VI = np.linalg.inv(np.cov(X.T))
    _close(cd.pdist(H(X), "mahalanobis", VI=VI), sd.pdist(X, "mahalanobis", VI=VI), "mahalanobis")
    _close(cd.pdist(H(X), "mahalanobis"), sd.pdist(X, "mahalanobis"), "mahalanobis")


@pytest.mark.parametrize("metric", list(sd._METRICS_NAMES))
def test_vector_functions(host, metric):
    cd = host("cuarray.scipy.spatial.distance")

    r = _rng("vec", metric)
    u, v = (r.random(9) > 0.5, r.random(9) > 0.5) if metric in BOOLEAN else (r.random(9), r.random(9))
    kw = {"seuclidean": {"V": r.random(9) + 0.5}, "mahalanobis": {"VI": np.eye(9) + 0.1}}.get(metric, {})
    _close(getattr(cd, metric)(H(u), H(v), **kw), np.float64(getattr(sd, metric)(u, v, **kw)), metric)
    if metric in WEIGHTED:
        w = r.random(9)
        _close(getattr(cd, metric)(H(u), H(v), w=H(w)), np.float64(getattr(sd, metric)(u, v, w=w)), metric)


def test_squareform_roundtrip_and_jensenshannon_axes(host):
    cd = host("cuarray.scipy.spatial.distance")

    y = sd.pdist(_data("sq", (7, 3), np.float64, "x"))
    M = cd.squareform(H(y))
    np.testing.assert_array_equal(M, sd.squareform(y))
    np.testing.assert_array_equal(cd.squareform(M), y)
    u, v = _rng("js").random((3, 4, 6)), _rng("js2").random((3, 4, 6))
    for axis, keepdims, base in ((0, False, None), (1, True, 2.0), (-1, False, None)):
        _close(cd.jensenshannon(H(u), H(v), base, axis=axis, keepdims=keepdims),
               sd.jensenshannon(u, v, base, axis=axis, keepdims=keepdims))


def _same_rotation(r, h, atol=1e-12):
    np.testing.assert_allclose(np.asarray(r.as_quat(canonical=True)), h.as_quat(canonical=True), atol=atol, rtol=0)


@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 4)], ids=str)
def test_rotation_converters(host, shape):
    R = host("cuarray.scipy.spatial.transform").Rotation

    q = _rng("q", shape).normal(size=tuple(shape) + (4,))
    r, h = R.from_quat(H(q)), st.Rotation.from_quat(q)
    assert r.single == (shape == ()) and r.shape == tuple(shape)
    for got, want in ((r.as_quat(), h.as_quat()), (r.as_matrix(), h.as_matrix()), (r.as_rotvec(), h.as_rotvec()),
                      (r.as_mrp(), h.as_mrp()), (r.magnitude(), h.magnitude()),
                      (r.as_quat(canonical=True, scalar_first=True), h.as_quat(canonical=True, scalar_first=True))):
        np.testing.assert_allclose(np.asarray(got), want, atol=1e-12, rtol=0)
    _same_rotation(R.from_matrix(H(h.as_matrix())), st.Rotation.from_matrix(h.as_matrix()))
    _same_rotation(R.from_rotvec(H(h.as_rotvec())), h)
    _same_rotation(R.from_mrp(H(h.as_mrp())), h)
    m = h.as_matrix() * 1.001
    _same_rotation(R.from_matrix(H(m)), st.Rotation.from_matrix(m), 1e-10)


def test_rotation_random_reads_rng_as_scipy(host):
    """`rng=` by keyword is a Generator seed, `random_state=` and a positional seed SciPy's legacy
    RandomState seed: the same rotations as SciPy's for each spelling; both at once is TypeError."""
    R = host("cuarray.scipy.spatial.transform").Rotation
    for args, kwargs in (((3,), {"rng": 7}), ((3,), {"random_state": 7}), ((3, 7), {}),
                         ((), {"shape": (2, 2), "rng": np.random.default_rng(3)})):
        kw = dict(kwargs)
        if isinstance(kw.get("rng"), np.random.Generator):  # one fresh generator each side
            kw["rng"], kwargs = np.random.default_rng(3), dict(kwargs, rng=np.random.default_rng(3))
        np.testing.assert_allclose(np.asarray(R.random(*args, **kwargs).as_quat()),
                                   st.Rotation.random(*args, **kw).as_quat(), rtol=0, atol=1e-15)
    with pytest.raises(TypeError, match="now known as `rng`"):
        R.random(3, rng=1, random_state=1)


@pytest.mark.parametrize("seq", ["xyz", "ZYX", "zxz", "XYX", "yx", "Z"])
def test_rotation_euler(host, seq):
    R = host("cuarray.scipy.spatial.transform").Rotation

    a = _rng("e", seq).uniform(-np.pi, np.pi, size=(11, len(seq)))
    a[:, 1 % len(seq)] /= 2
    r, h = R.from_euler(seq, H(a)), st.Rotation.from_euler(seq, a)
    _same_rotation(r, h)
    if len(seq) == 3:
        np.testing.assert_allclose(np.asarray(r.as_euler(seq)), h.as_euler(seq), atol=1e-10)
        np.testing.assert_allclose(np.asarray(r.as_euler(seq.swapcase(), degrees=True)),
                                   h.as_euler(seq.swapcase(), degrees=True), atol=1e-8)
    lock = np.array([[0.3, 0.0, 0.5], [0.1, np.pi / 2, 0.2]])
    if len(seq) == 3:
        hl = st.Rotation.from_euler(seq, lock)
        with pytest.warns(UserWarning):
            got = R.from_quat(H(hl.as_quat())).as_euler(seq)
        with pytest.warns(UserWarning):
            want = hl.as_euler(seq)
        np.testing.assert_allclose(np.asarray(got), want, atol=1e-7)


def test_rotation_davenport_compose_apply_mean_reduce_slerp(host):
    R = host("cuarray.scipy.spatial.transform").Rotation
    Slerp = host("cuarray.scipy.spatial.transform").Slerp

    axes = st.Rotation.from_rotvec([0.1, 0.2, 0.3]).apply(np.eye(3))
    ang = _rng("d").uniform(-1, 1, size=(5, 3))
    for order in ("e", "intrinsic"):
        r, h = R.from_davenport(H(axes), order, H(ang)), st.Rotation.from_davenport(axes, order, ang)
        _same_rotation(r, h)
        np.testing.assert_allclose(np.asarray(r.as_davenport(H(axes), order)), h.as_davenport(axes, order), atol=1e-10)
    p, q = _rng("p").normal(size=(6, 4)), _rng("q2").normal(size=(6, 4))
    rp, rq, hp, hq = R.from_quat(H(p)), R.from_quat(H(q)), st.Rotation.from_quat(p), st.Rotation.from_quat(q)
    _same_rotation(rp * rq, hp * hq)
    _same_rotation(rp[0] * rq, hp[0] * hq)
    _same_rotation(rp.inv(), hp.inv())
    for n in (0, 1, -1, 2.5):
        _same_rotation(rp ** n, hp ** n, 1e-10)
    v = _rng("v").normal(size=(6, 3))
    np.testing.assert_allclose(np.asarray(rp.apply(H(v))), hp.apply(v), atol=1e-12)
    np.testing.assert_allclose(np.asarray(rp.apply(H(v), inverse=True)), hp.apply(v, inverse=True), atol=1e-12)
    np.testing.assert_allclose(np.asarray(rp[2].apply(H(v[0]))), hp[2].apply(v[0]), atol=1e-12)
    np.testing.assert_array_equal(np.asarray(rp.approx_equal(rq)), hp.approx_equal(hq))
    _same_rotation(rp.mean(), hp.mean(), 1e-10)
    w = _rng("w").random(6)
    _same_rotation(rp.mean(weights=H(w)), hp.mean(weights=w), 1e-10)
    q2 = _rng("m2").normal(size=(3, 4, 4))
    _same_rotation(R.from_quat(H(q2)).mean(axis=1), st.Rotation.from_quat(q2).mean(axis=1), 1e-10)
    g, hg = R.create_group("O"), st.Rotation.create_group("O")
    # with both sides only r l enters the score (the scalar part of l p r is that of p r l), so
    # pairs tie and either library may pick another of them: the reduced angle is what is unique
    got, li, ri = rp.reduce(g, g, return_indices=True)
    np.testing.assert_allclose(np.asarray(got.magnitude()), hp.reduce(hg, hg).magnitude(), atol=1e-10)
    _same_rotation(got, hg[np.asarray(li)] * hp * hg[np.asarray(ri)], 1e-10)
    _same_rotation(rp.reduce(left=g), hp.reduce(left=hg), 1e-10)
    times = np.array([0.0, 1.0, 2.5, 3.0, 4.0, 4.5])
    s, hs = Slerp(H(times), rp), st.Slerp(times, hp)
    t = np.array([0.0, 0.3, 1.0, 2.0, 2.9, 4.5])
    _same_rotation(s(H(t)), hs(t), 1e-10)
    _same_rotation(s(1.7), hs(1.7), 1e-10)
    _same_rotation(R.concatenate([rp[0], rp[1:3], rp]), st.Rotation.concatenate([hp[0], hp[1:3], hp]))


def _points(n, d, key):
    x = _rng("pts", n, d, key).random((n, d))
    x[1] = x[0]
    return x


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, np.inf])
def test_kdtree_query_logic(host, p, monkeypatch):
    """The query's k lists, upper bound, shapes and the unsorting of many queries (the grid's
    answers by brute force; the kernel itself runs in the GPU tests)."""
    import scipy.spatial as ss

    cs = host("cuarray.scipy.spatial")
    _kdtree = host("cuarray.scipy.spatial._kdtree")

    monkeypatch.setattr(_kdtree, "SORT_QUERIES_FROM", 4)
    x, q = _points(60, 3, "x"), _rng("q").random((9, 3))
    t, h = cs.KDTree(H(x)), ss.KDTree(x)
    for k in (1, 4, [2, 5], 70):
        dg, ig = t.query(H(q), k=k, p=p)
        dh, ih = h.query(q, k=k, p=p)
        np.testing.assert_allclose(np.asarray(dg), dh, rtol=1e-12)
        assert np.asarray(ig).shape == np.shape(ih)
    dg, ig = t.query(H(q), k=3, p=p, distance_upper_bound=0.15)
    np.testing.assert_allclose(np.asarray(dg), h.query(q, k=3, p=p, distance_upper_bound=0.15)[0])
    dg, ig = t.query(H(q[0]))
    assert np.asarray(dg).shape == () and np.asarray(ig).shape == ()
    assert np.asarray(t.query(H(q.reshape(3, 3, 3)), k=2)[0]).shape == (3, 3, 2)


def test_kdtree_ball_pairs_counts_sparse(host):
    import scipy.spatial as ss

    cs = host("cuarray.scipy.spatial")

    x, y, q = _points(80, 2, "b"), _points(50, 2, "c"), _rng("bq").random((7, 2))
    t, h, t2, h2 = cs.KDTree(H(x)), ss.KDTree(x), cs.KDTree(H(y)), ss.KDTree(y)
    assert [sorted(v) for v in t.query_ball_point(H(q), 0.2)] == [sorted(v) for v in h.query_ball_point(q, 0.2)]
    rs = _rng("rs").random(7) * 0.3
    assert [sorted(v) for v in t.query_ball_point(H(q), H(rs))] == [sorted(v) for v in h.query_ball_point(q, rs)]
    assert sorted(t.query_ball_point(H(q[0]), 0.3)) == sorted(h.query_ball_point(q[0], 0.3))
    np.testing.assert_array_equal(np.asarray(t.query_ball_point(H(q), 0.2, return_length=True)),
                                  h.query_ball_point(q, 0.2, return_length=True))
    assert [sorted(v) for v in t.query_ball_tree(t2, 0.1)] == [sorted(v) for v in h.query_ball_tree(h2, 0.1)]
    assert t.query_pairs(0.1) == h.query_pairs(0.1)
    np.testing.assert_array_equal(np.asarray(t.query_pairs(0.1, output_type="ndarray")),
                                  np.array(sorted(h.query_pairs(0.1))))
    r = np.array([0.05, 0.1, 0.1, 0.3])
    assert t.count_neighbors(t2, 0.2) == h.count_neighbors(h2, 0.2)
    np.testing.assert_array_equal(np.asarray(t.count_neighbors(t2, r)), h.count_neighbors(h2, r))
    np.testing.assert_array_equal(np.asarray(t.count_neighbors(t2, r, cumulative=False)),
                                  h.count_neighbors(h2, r, cumulative=False))
    w1, w2 = _rng("w1").random(80), _rng("w2").random(50)
    np.testing.assert_allclose(np.asarray(t.count_neighbors(t2, r, weights=(H(w1), H(w2)))),
                               h.count_neighbors(h2, r, weights=(w1, w2)), rtol=1e-12)
    np.testing.assert_allclose(t.sparse_distance_matrix(t2, 0.15).toarray(),
                               h.sparse_distance_matrix(h2, 0.15).toarray(), rtol=1e-12)
    assert t.sparse_distance_matrix(t2, 0.1, output_type="dict").keys() == \
        h.sparse_distance_matrix(h2, 0.1, output_type="dict").keys()
    got = t.sparse_distance_matrix(t2, 0.1, output_type="ndarray")
    want = h.sparse_distance_matrix(h2, 0.1, output_type="ndarray")
    assert sorted(zip(got["i"], got["j"])) == sorted(zip(want["i"], want["j"]))


@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_grid_build_on_host(d):
    """Grid's build (cells, the radix argsort, the cells' starts) with NumPy for the device: every
    cell's run of sorted points lies in that cell, and perm is a permutation."""
    from cuarray.scipy.spatial import _grid
    from cuarray.testing.fake_device import host_module

    _grid = host_module(_grid, {"argsort": _host_shim._wrap(np.argsort), "take": _host_shim._wrap(np.take),
                                "searchsorted": _host_shim._wrap(np.searchsorted),
                                "arange": _host_shim._wrap(np.arange), "floor": np.floor})
    x = _points(500, d, "grid")
    g = _grid.Grid(H(x))
    perm, start, pts = np.asarray(g.perm), np.asarray(g.start), np.asarray(g.pts)
    assert sorted(perm) == list(range(500)) and np.array_equal(pts, x[perm])
    cells = np.asarray(g.cells(H(pts)))
    assert start[0] == 0 and start[-1] == 500 and len(start) == np.prod(g.plan.res) + 1
    for c in np.unique(cells):
        assert (cells[start[c]:start[c + 1]] == c).all()
    lo, h = np.array(g.plan.lo[:g.plan.g]), g.plan.h
    inside = (x[:, :g.plan.g] >= lo) & (x[:, :g.plan.g] <= lo + np.array(g.plan.res[:g.plan.g]) * h)
    assert inside.all()


def test_directed_hausdorff(host, monkeypatch):
    _distance_pair = host("cuarray.scipy.spatial._distance_pair")
    cd = host("cuarray.scipy.spatial.distance")

    monkeypatch.setattr(_distance_pair, "BLOCK_ELEMENTS", 30)
    u, v = _rng("h1").random((17, 3)), _rng("h2").random((11, 3))
    d, i, j = cd.directed_hausdorff(H(u), H(v))
    dh, ih, jh = sd.directed_hausdorff(u, v)
    assert d == pytest.approx(dh, rel=1e-9, abs=1e-7) and (i, j) == (ih, jh)
    with pytest.raises(ValueError):
        cd.directed_hausdorff(H(u), H(v[:, :2]))


def test_procrustes_and_geometric_slerp(host):
    import scipy.spatial as ss

    cs = host("cuarray.scipy.spatial")

    a = _rng("pa").random((10, 3))
    b = a @ st.Rotation.from_rotvec([0.2, 0.1, -0.3]).as_matrix() * 2 + 0.5 + 0.01 * _rng("pb").random((10, 3))
    for got, want in zip(cs.procrustes(H(a), H(b)), ss.procrustes(a, b)):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        cs.procrustes(H(a), H(b[:, :2]))
    s, e = np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    t = np.linspace(0, 1, 7)
    np.testing.assert_allclose(np.asarray(cs.geometric_slerp(s, e, H(t))), ss.geometric_slerp(s, e, t), atol=1e-14)
    np.testing.assert_allclose(np.asarray(cs.geometric_slerp(s, e, 0.3)), ss.geometric_slerp(s, e, 0.3), atol=1e-14)
    with pytest.raises(ValueError):
        cs.geometric_slerp(s * 2, e, H(t))


def _cycle_from_min(v):
    v = list(np.asarray(v))
    k = v.index(min(v))
    return v[k:] + v[:k]


@pytest.mark.parametrize("kind", ["square", "disc", "circle", "collinear-edges", "duplicates", "few"])
def test_convex_hull_2d(host, kind):
    import scipy.spatial as ss

    cs = host("cuarray.scipy.spatial")

    r = _rng("hull", kind)
    pts = {"square": r.random((300, 2)),
           "disc": r.normal(size=(400, 2)),
           "circle": np.c_[np.cos(np.linspace(0, 6.2, 50)), np.sin(np.linspace(0, 6.2, 50))],
           "collinear-edges": np.array([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2], [0, 1], [1, 1.0]]),
           "duplicates": np.repeat(r.random((20, 2)), 3, axis=0),
           "few": np.array([[0, 0], [1, 0], [0, 1.0]])}[kind]
    got, want = cs.ConvexHull(H(pts)), ss.ConvexHull(pts)
    assert _cycle_from_min(got.vertices) == _cycle_from_min(want.vertices) or kind == "duplicates"
    assert set(map(tuple, pts[np.asarray(got.vertices)].tolist())) == set(map(tuple, pts[want.vertices].tolist()))
    assert got.area == pytest.approx(want.area, rel=1e-12) and got.volume == pytest.approx(want.volume, rel=1e-12)
    edges = sorted(tuple(sorted(e)) for e in np.asarray(got.simplices).tolist())
    assert edges == sorted(tuple(sorted(e)) for e in want.simplices.tolist()) or kind == "duplicates"
    eq = np.asarray(got.equations)
    assert (pts @ eq[:, :2].T + eq[:, 2] <= 1e-12).all()  # every point on the inner side of every facet
    np.testing.assert_allclose(np.sort(np.round(eq, 10), axis=0), np.sort(np.round(want.equations, 10), axis=0))
    nb = np.asarray(got.neighbors)
    simp = np.asarray(got.simplices)
    for i in range(len(simp)):  # the neighbour opposite vertex j shares the other vertex
        for j in range(2):
            assert simp[i][1 - j] in simp[nb[i, j]]


def test_convex_hull_errors(host):
    cs = host("cuarray.scipy.spatial")

    with pytest.raises(cs.QhullError):
        cs.ConvexHull(H(np.random.rand(2, 2)))
    with pytest.raises(cs.QhullError):
        cs.ConvexHull(H(np.c_[np.arange(5.0), np.arange(5.0)]))
    with pytest.raises(ValueError):
        cs.ConvexHull(H(np.zeros(5)))
    with pytest.raises(cs.QhullError):  # 3-D: host Qhull, flat input
        cs.ConvexHull(H(np.c_[np.random.rand(10, 2), np.ones(10)]))
    assert issubclass(cs.QhullError, ValueError)


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "seuclidean"])
def test_tiles_past_one_launch_take_blocks(host, metric, monkeypatch):
    """More tiles than one launch takes: cdist goes by blocks of rows (not one whole-result
    product), each taking the tiles where its own launch fits and cuBLAS over the padded operands
    where not; the values are SciPy's either way."""
    from cuarray.scipy.spatial import _sqdist_plan

    _distance_pair = host("cuarray.scipy.spatial._distance_pair")
    cd = host("cuarray.scipy.spatial.distance")
    monkeypatch.setattr(_sqdist_plan, "MAX_TILES", 2)  # the whole (3 x 2 tiles) does not fit; a block may
    monkeypatch.setattr(_distance_pair, "BLOCK_ELEMENTS", 70 * 20)
    blocks = []
    run = _distance_pair._block
    monkeypatch.setattr(_distance_pair, "_block", lambda plan, i0, i1, j0, out: (blocks.append(i1 - i0),
                                                                                  run(plan, i0, i1, j0, out)))
    XA, XB = _data(metric, (150, 37), np.float64, "ta"), _data(metric, (70, 37), np.float64, "tb")
    _close(cd.cdist(H(XA), H(XB), metric), sd.cdist(XA, XB, metric), metric)
    assert blocks == [20] * 7 + [10]


PERIODIC = [(2, 1.0), (3, [1.0, 2.0, 0.0]), (3, 0.5)]


@pytest.mark.parametrize("m,box", PERIODIC, ids=[str(b) for b in PERIODIC])
def test_kdtree_periodic(host, m, box):
    """KDTree(boxsize=...) on the host shim against SciPy's periodic trees: the images, the
    wrapped queries, the knn lists and ball lists deduplicated (radii below and past half the
    box), pairs, counts (weighted), sparse matrices, and the box checks (NotImplementedError before)."""
    import scipy.spatial as ss

    cs = host("cuarray.scipy.spatial")
    r = _rng("periodic", m, str(box))
    L = np.broadcast_to(np.asarray(box, float), (m,))
    x = r.random((70, m)) * np.where(L > 0, L, 1.0)
    y = r.random((40, m)) * np.where(L > 0, L, 1.0)
    x[1] = x[0]
    t, h = cs.KDTree(H(x), boxsize=box), ss.KDTree(x, boxsize=box)
    t2, h2 = cs.KDTree(H(y), boxsize=box), ss.KDTree(y, boxsize=box)
    np.testing.assert_array_equal(np.asarray(t.boxsize), L)
    q = np.concatenate([x[:8] + 1.0, x[8:12] - 1.3, r.random((5, m)) * 3 - 1])
    for p in (1.0, 2.0, np.inf):
        for k in (1, 3, [1, 4], 50, 90):
            dg, ig = t.query(H(q), k=k, p=p)
            dh, ih = h.query(q, k=k, p=p)
            np.testing.assert_allclose(np.asarray(dg), dh, rtol=1e-12, atol=1e-13)
            np.testing.assert_array_equal(np.asarray(ig) < len(x), np.asarray(ih) < len(x))
    half = L[L > 0].min() / 2
    q = x[:10] + 0.7
    for rad in (0.11, 0.9 * half, 1.3 * half, 3.0):
        for p in (2.0, 1.0, np.inf):
            got, want = t.query_ball_point(H(q), rad, p=p), h.query_ball_point(q, rad, p=p)
            assert [sorted(v) for v in got] == [sorted(v) for v in want], (rad, p)
            np.testing.assert_array_equal(np.asarray(t.query_ball_point(H(q), rad, p=p, return_length=True)),
                                          h.query_ball_point(q, rad, p=p, return_length=True))
        assert [sorted(v) for v in t.query_ball_tree(t2, rad)] == [sorted(v) for v in h.query_ball_tree(h2, rad)]
        assert t.query_pairs(rad) == h.query_pairs(rad)
        assert t.count_neighbors(t2, rad) == h.count_neighbors(h2, rad)
        got = t.sparse_distance_matrix(t2, rad, output_type="dict")
        want = h.sparse_distance_matrix(h2, rad, output_type="dict")
        assert got.keys() == want.keys()
        np.testing.assert_allclose([got[kk] for kk in want], list(want.values()), rtol=1e-12, atol=1e-13)
    rs = np.array([0.1, 0.4, 0.4, 1.5]) * half
    w1, w2 = r.random(70), r.random(40)
    np.testing.assert_allclose(np.asarray(t.count_neighbors(t2, rs, weights=(H(w1), H(w2)))),
                               h.count_neighbors(h2, rs, weights=(w1, w2)), rtol=1e-12)
    # a tree of the plain space against the periodic one: SciPy measures in the first tree's space
    tp, hp = cs.KDTree(H(y)), ss.KDTree(y)
    assert [sorted(v) for v in tp.query_ball_tree(t, 0.2)] == [sorted(v) for v in hp.query_ball_tree(h, 0.2)]
    assert [sorted(v) for v in t.query_ball_tree(tp, 0.2)] == [sorted(v) for v in h.query_ball_tree(hp, 0.2)]
    for bad, match in ((x + 0.5 * L.max(), "greater than the size"), (x - 0.5, "Negative input")):
        with pytest.raises(ValueError, match=match):
            cs.KDTree(H(bad), boxsize=L.max())


@pytest.mark.parametrize("metric", ["hellinger", "kl_divergence", "kl_div", "kld"])
def test_cupyx_metrics(host, metric):
    """cupyx's own metrics: cdist/pdist by name or by the function, against their definitions."""
    import scipy.special as sp

    cd = host("cuarray.scipy.spatial.distance")
    r = _rng("cupyx", metric)
    XA, XB = r.random((7, 5)), r.random((6, 5))
    XA[0, :2] = 0.0  # zero terms
    XB[1, 3] = 0.0  # kl: inf where u > 0 = v
    if metric == "hellinger":
        ref = lambda u, v: np.sqrt(((np.sqrt(u) - np.sqrt(v)) ** 2).sum() / 2)  # noqa: E731
    else:
        ref = lambda u, v: sp.rel_entr(u, v).sum()  # noqa: E731
    want = sd.cdist(XA, XB, ref)
    _close(cd.cdist(H(XA), H(XB), metric), want)
    _close(cd.pdist(H(XA), metric), sd.pdist(XA, ref))
    fn = getattr(cd, "hellinger" if metric == "hellinger" else "kl_divergence")
    _close(cd.cdist(H(XA), H(XB), fn), want)
    _close(fn(H(XA[0]), H(XB[0])), np.float64(ref(XA[0], XB[0])))
    with pytest.raises(TypeError):
        cd.cdist(H(XA), H(XB), metric, w=H(np.ones(5)))
    with pytest.raises(ValueError, match="Unknown Distance Metric"):
        sd.cdist(XA, XB, metric)  # SciPy has no such metric: a cupyx extension


def test_cupyx_distance_matrix(host):
    """cupyx's distance.distance_matrix: scipy.spatial.distance_matrix's values, without its
    deprecation warning (a cupyx name)."""
    import warnings

    import scipy.spatial as ss

    cd = host("cuarray.scipy.spatial.distance")
    r = _rng("dm")
    x, y = r.random((6, 4)), r.random((5, 4))
    for p in (1.0, 2.0, 3.0, np.inf):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            want = ss.distance_matrix(x, y, p=p)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _close(cd.distance_matrix(H(x), H(y), p=p), want)
    with pytest.raises(ValueError, match="dimensional vectors"):
        cd.distance_matrix(H(x), H(y[:, :3]))


@pytest.mark.parametrize("case", sorted(_exact_cases.CASES) + ["random3", "random16"])
def test_cancelling_pairs_are_scipys(host, case):
    """Duplicates and near pairs (integer grids, 1e-9 apart, at 1e6): the expanded form leaves
    ~1e-8 where SciPy has exact 0; the epilogues form those pairs again by SciPy's formula. Up to
    DIRECT_K features every pair is SciPy's (rtol 1e-15 only for the few-ulp orders of seuclidean's and
    mahalanobis's sums); past it, kept entries are within exact_threshold's bound 2^-46 + ulps (rtol 1e-13)."""
    cd = host("cuarray.scipy.spatial.distance")
    rng = _rng("exact", case)
    X = {"random3": lambda r: r.standard_normal((40, 3)), "random16": lambda r: r.standard_normal((40, 16)),
         **_exact_cases.CASES}[case](rng)
    rtol = 1e-15 if X.shape[1] <= 4 else 1e-13
    _exact_cases.check(cd.cdist, cd.pdist, H, X, rtol, case)
