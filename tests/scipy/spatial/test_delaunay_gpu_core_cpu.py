"""The GPU 2-D Delaunay triangulation (cuarray/scipy/spatial/_delaunay_gpu.py, templates/delaunay.cu)
without a GPU: the template built for the host with g++ (each kernel a loop over its indices, in
the order a test picks) and driven by the module's own `triangulate` over NumPy arrays. The
triangles must be SciPy's (Qhull's) exactly as a set for points in general position, every
triangle counterclockwise, the neighbours symmetric, -1 exactly on hull edges and SciPy's after
mapping the simplices; degenerate inputs must report the fallback rather than answer. Also: NVRTC
compiles every kernel of the family for sm_90, and the planner's boundaries."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.spatial as ss

from cuarray.cuda import kernel_family as kf
from cuarray.scipy.spatial import _delaunay_gpu as dg
from cuarray.scipy.spatial import _delaunay_plan as dp

from cubin_info import FRAME_SIZE, compile_sm90, kernel_attributes  # tests/ is on sys.path
from ._delaunay_host import HostRunner, host_library, run
from ._qhull_checks import canonical_simplices, rng


@pytest.fixture(scope="module")
def lib():
    built = host_library()
    if built is None:
        pytest.skip("no g++")
    return built


def _points(kind, n, seed):
    r = rng("delaunay-gpu", kind, n, seed)
    if kind == "uniform":
        return r.random((n, 2))
    if kind == "gaussian":
        return r.normal(size=(n, 2)) * 3.0 + 7.0
    if kind == "clustered":
        k = max(1, n // 50)
        centers = r.random((k, 2)) * 100.0
        return centers[r.integers(0, k, n)] + r.normal(size=(n, 2)) * 1e-3
    if kind == "float32":
        return r.normal(size=(n, 2)).astype(np.float32).astype(np.float64)
    if kind == "annulus":  # many points near a circle: a long hull, thin triangles
        a, rad = r.random(n) * 2 * np.pi, 1.0 + 1e-3 * r.random(n)
        return np.stack([rad * np.cos(a), rad * np.sin(a)], 1)
    raise ValueError(kind)


def _orient(pts, s):
    a, b, c = pts[s[:, 0]], pts[s[:, 1]], pts[s[:, 2]]
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


def _exact(pts):
    """The points as integers of one common scale (doubles are dyadic: exact)."""
    ratios = [v.as_integer_ratio() for v in pts.ravel().tolist()]
    den = max(d for _, d in ratios)
    vals = [num * (den // d) for num, d in ratios]
    return list(zip(vals[0::2], vals[1::2]))


def _orient_exact(P, a, b, c):
    return (P[a][0] - P[c][0]) * (P[b][1] - P[c][1]) - (P[a][1] - P[c][1]) * (P[b][0] - P[c][0])


def _incircle_exact(P, a, b, c, d):
    rows = []
    for v in (a, b, c):
        x, y = P[v][0] - P[d][0], P[v][1] - P[d][1]
        rows.append((x, y, x * x + y * y))
    (a1, a2, a3), (b1, b2, b3), (c1, c2, c3) = rows
    return a1 * (b2 * c3 - b3 * c2) - a2 * (b1 * c3 - b3 * c1) + a3 * (b1 * c2 - b2 * c1)


def illegal_edges(pts, simplices, neighbors):
    """How many interior edges are not strictly locally Delaunay, in exact arithmetic."""
    P, bad = _exact(pts), 0
    for i, tri in enumerate(simplices.tolist()):
        if _orient_exact(P, *tri) < 0:
            tri = [tri[0], tri[2], tri[1]]
        for j in neighbors[i]:
            if j >= 0:
                q = (set(simplices[j].tolist()) - set(tri)).pop()
                bad += _incircle_exact(P, *tri, q) >= 0
    return bad


def check_exactly_delaunay(pts, simplices, neighbors, want):
    """Where Qhull's triangles differ from ours: ours are exactly Delaunay (a mesh of counterclockwise
    triangles over every point, its boundary Qhull's hull and strictly convex, every interior edge
    strictly locally Delaunay: the Delaunay lemma) and Qhull's are not (its double arithmetic)."""
    P = _exact(pts)
    assert all(_orient_exact(P, *t) > 0 for t in simplices.tolist())
    assert set(simplices.ravel().tolist()) == set(range(len(pts)))
    hull = {tuple(sorted(e)) for e in want.convex_hull.tolist()}
    ours = {tuple(sorted(set(simplices[i].tolist()) - {int(simplices[i, k])}))
            for i, k in zip(*np.nonzero(neighbors < 0))}
    assert ours == hull
    nxt = {}
    for i, k in zip(*np.nonzero(neighbors < 0)):
        t = simplices[i].tolist()
        nxt[t[(k + 1) % 3]] = t[(k + 2) % 3]  # the hull edge, counterclockwise
    for a, b in nxt.items():
        assert _orient_exact(P, a, b, nxt[b]) > 0, "the hull is not strictly convex"
    assert illegal_edges(pts, simplices, neighbors) == 0
    assert illegal_edges(pts, want.simplices, want.neighbors) > 0, "Qhull's is Delaunay too: ours is wrong"


def check_neighbors_symmetric(simplices, neighbors):
    """j = neighbors[i, k] >= 0 names i exactly once, across the same edge (opposite simplices[i, k])."""
    m = len(simplices)
    for i in range(m):
        for k in range(3):
            j = neighbors[i, k]
            if j < 0:
                continue
            assert 0 <= j < m and list(neighbors[j]).count(i) == 1, (i, k, j)
            kk = list(neighbors[j]).index(i)
            assert set(simplices[j]) - {simplices[j, kk]} == set(simplices[i]) - {simplices[i, k]}


def check_against_scipy(pts, simplices, neighbors):
    want = ss.Delaunay(pts)
    assert simplices.dtype == np.int32 and neighbors.dtype == np.int32
    assert simplices.shape == neighbors.shape == (want.nsimplex, 3)
    assert (_orient(pts, simplices) > 0).all(), "a triangle is not counterclockwise"
    check_neighbors_symmetric(simplices, neighbors)
    if canonical_simplices(simplices) != canonical_simplices(want.simplices):
        check_exactly_delaunay(pts, simplices, neighbors, want)
        return
    # -1 exactly on hull edges, and SciPy's neighbour across each edge
    hull = {tuple(sorted(e)) for e in want.convex_hull}
    at = {tuple(sorted(s)): j for j, s in enumerate(want.simplices)}
    for i in range(len(simplices)):
        j = at[tuple(sorted(simplices[i]))]
        for k in range(3):
            edge = tuple(sorted(set(simplices[i]) - {simplices[i, k]}))
            assert (neighbors[i, k] < 0) == (edge in hull)
            kk = list(want.simplices[j]).index(simplices[i, k])
            w = want.neighbors[j, kk]
            got = set(simplices[neighbors[i, k]]) if neighbors[i, k] >= 0 else None
            assert got == (set(want.simplices[w]) if w >= 0 else None)


def test_the_exact_check_sees_an_illegal_edge():
    """The two triangles of an interior edge of SciPy's triangulation of random points, flipped
    to the other diagonal of their (convex) quad: the new edge is illegal from both sides."""
    pts = _points("uniform", 50, 3)
    tri = ss.Delaunay(pts)
    assert illegal_edges(pts, tri.simplices, tri.neighbors) == 0
    for i, k in zip(*np.nonzero(tri.neighbors >= 0)):
        s = tri.simplices
        p, q = s[i, k], (set(s[tri.neighbors[i, k]]) - set(s[i])).pop()
        a, b = sorted(set(s[i]) - {p})
        flipped = np.array([[p, a, q], [p, q, b]])
        if (np.sign(_orient(pts, flipped)) == np.sign(_orient(pts, flipped[:1]))).all():  # a convex quad
            assert illegal_edges(pts, flipped, np.array([[1, -1, -1], [0, -1, -1]])) == 2
            return
    raise AssertionError("no convex quad")


def test_larger_set_with_many_rounds(lib):
    """30000 uniform points: about 15 rounds and 100 flip passes, still Qhull's triangles (or, where
    Qhull's double arithmetic misses a near-cocircular quad, provably the exact ones)."""
    pts = _points("uniform", 30000, 5)
    out = run(lib, pts)
    assert out is not None
    check_against_scipy(pts, *out)


KINDS = ("uniform", "gaussian", "clustered", "float32", "annulus")
SIZES = (3, 4, 5, 7, 10, 31, 100, 333, 1000, 2000)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_triangles_are_scipys(lib, kind, n, seed):
    pts = _points(kind, n, seed)
    out = run(lib, pts)
    assert out is not None, "points in general position fell back to Qhull"
    check_against_scipy(pts, *out)


@pytest.mark.parametrize("kind", KINDS)
def test_launch_order_does_not_matter(lib, kind):
    """Each kernel's loop run forward, backward and in a stride permutation gives the same arrays:
    no launch reads what another index of it writes (what a GPU's thread order could change)."""
    pts = _points(kind, 1500, 7)
    ref = run(lib, pts, order=0)
    for order in (1, 2):
        got = run(lib, pts, order=order)
        np.testing.assert_array_equal(got[0], ref[0])
        np.testing.assert_array_equal(got[1], ref[1])


def _degenerate_sets():
    r = rng("delaunay-gpu", "degenerate")
    base = r.random((60, 2))
    lattice = np.stack(np.meshgrid(np.arange(5.0), np.arange(4.0)), -1).reshape(-1, 2)
    line = np.stack([np.arange(20.0), 2.0 * np.arange(20.0) + 1.0], 1)
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 3.0], [0.5, -2.0]])
    return {
        "lattice": lattice,
        "duplicates": np.concatenate([base, base[:7]]),
        "duplicate_of_start": np.concatenate([base, base[[int(np.argmin(base[:, 0]))]]]),
        "collinear": line,
        "one_point": np.ones((5, 2)),
        "three_collinear_on_hull": np.concatenate([base * 0.5 + 0.25, [[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]]]),
        "cocircular": square,
        "nan": np.concatenate([base, [[np.nan, 0.5]]]),
        "huge": base * 1e200,
    }


@pytest.mark.parametrize("name", list(_degenerate_sets()))
def test_degenerate_inputs_fall_back(lib, name):
    """Points on an edge, duplicates, collinear and cocircular points, NaN and coordinates past
    the predicates' range: the kernels flag them and triangulate answers None (Qhull's turn)."""
    pts = _degenerate_sets()[name]
    assert run(lib, pts) is None


def test_random_points_never_fall_back_and_use_every_kernel(lib, monkeypatch):
    calls = []
    orig = HostRunner.launch
    monkeypatch.setattr(HostRunner, "launch", lambda self, name, *a: (calls.append(name), orig(self, name, *a)))
    pts = _points("uniform", 2000, 11)
    assert run(lib, pts) is not None
    assert set(calls) == set(dg.KERNELS)


def test_nvrtc_compiles_every_kernel_for_sm90():
    """Every kernel compiles, and none uses local memory (the small per-thread arrays stay in registers)."""
    cubin, lowered = compile_sm90(dg.DELAUNAY.source(), dg.KERNELS)
    assert set(lowered) == set(dg.KERNELS)
    attrs = kernel_attributes(cubin)
    for name in dg.KERNELS:
        assert attrs[name].get(FRAME_SIZE, 0) == 0, name


def test_declarations_match_the_template():
    found = kf.template_signatures(dg.DELAUNAY.source())
    assert set(found) == set(dg.KERNELS)


def test_plan_boundaries():
    p = dp.plan_delaunay(3, sm_count=132)
    assert p.max_triangles == 4 and p.max_grid == 132 * dp.BLOCKS_PER_SM
    sizes = {b.name: b.count for b in p.buffers}
    assert sizes["tv"] == sizes["tn"] == sizes["remap"] == 12 and sizes["loc"] == 3
    big = dp.plan_delaunay(dp.MAX_POINTS, sm_count=132)
    assert 4 * (big.max_triangles - 1) + 3 < 2 ** 31 and 3 * big.max_triangles < 2 ** 31
    for bad in (0, 2, dp.MAX_POINTS + 1):
        with pytest.raises(ValueError):
            dp.plan_delaunay(bad, sm_count=132)
    assert dp.launch_grid(p, 1) == 1 and dp.launch_grid(p, 257) == 2
    assert dp.launch_grid(p, 10 ** 9) == p.max_grid
