"""Comparisons of cuarray's Delaunay, ConvexHull (3-D and up) and HalfspaceIntersection with
SciPy's, shared by the host-shim CPU tests and the GPU tests: `dev` makes the library's input
array of NumPy data, `host` reads a result back."""

from __future__ import annotations

import zlib

import numpy as np
import scipy.spatial as ss


def rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def canonical_simplices(s):
    """The set of simplices as sorted vertex tuples (order and orientation free)."""
    return sorted(tuple(sorted(map(int, row))) for row in np.asarray(s))


def point_sets(ndim):
    """Named point sets in `ndim` dimensions: random, with duplicates, on a lattice (cospherical
    quadruples: Qhull's 'Qt' triangulates them), float32 data, and clustered."""
    r = rng("points", ndim)
    base = r.random((40, ndim))
    dup = np.concatenate([base[:25], base[:5]])                 # exact duplicates (Qhull lists them as coplanar)
    grid = np.stack(np.meshgrid(*[np.arange(4.0)] * ndim, indexing="ij"), -1).reshape(-1, ndim)
    grid = grid[: 27 if ndim == 3 else 16]
    f32 = r.normal(size=(50, ndim)).astype(np.float32)
    clustered = np.concatenate([r.normal(size=(30, ndim)) * 1e-3, r.normal(size=(10, ndim)) * 10])
    return {"random": base, "duplicates": dup, "lattice": grid, "float32": f32, "clustered": clustered}


def row_map(got_simplices, want_simplices):
    """perm with got row i == want row perm[i] as vertex sets (None where some row has no match)."""
    index = {tuple(sorted(map(int, r))): k for k, r in enumerate(np.asarray(want_simplices))}
    rows = [index.get(tuple(sorted(map(int, r)))) for r in np.asarray(got_simplices)]
    return None if None in rows else np.asarray(rows)


def in_their_numbers(got_simplices, want, found):
    """Simplex indices `found` of a triangulation with simplices `got_simplices` as SciPy's
    triangulation `want` numbers the same triangles (-1 kept)."""
    perm = row_map(got_simplices, want.simplices)
    found = np.asarray(found)
    return np.where(found < 0, found, perm[np.maximum(found, 0)])


def exact_planes(pts, simplices, scale, shift):
    """Each simplex's lifted plane (as `Delaunay.equations`), from exact rational arithmetic on
    the float inputs (the points, Qhull's paraboloid scale and shift): unit normal pointing down,
    offset; rounded once at the end."""
    from fractions import Fraction as F

    out = []
    for s in np.asarray(simplices):
        P = [(F(pts[i, 0]), F(pts[i, 1])) for i in s]
        P = [(x, y, (x * x + y * y) * F(scale) + F(shift)) for x, y in P]
        a = [P[1][k] - P[0][k] for k in range(3)]
        b = [P[2][k] - P[0][k] for k in range(3)]
        n = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        if n[2] > 0:
            n = [-c for c in n]
        off = -sum(n[k] * P[0][k] for k in range(3))
        norm = float(sum(c * c for c in n)) ** 0.5
        out.append([float(c) / norm for c in n] + [float(off) / norm])
    return np.asarray(out).reshape(-1, 4)


def check_same_triangulation(got, want, host):
    """A triangulation that is not Qhull's (the GPU's) against SciPy's: the same simplices in
    another order, and each array SciPy derives from them equal as SciPy defines it (hull and
    adjacency as sets; vertex_to_simplex any simplex holding the vertex). Returns the row map."""
    s = host(got.simplices)
    perm = row_map(s, want.simplices)
    assert perm is not None and sorted(perm) == list(range(want.nsimplex))
    nb = host(got.neighbors)
    assert nb.dtype == want.neighbors.dtype and nb.shape == want.neighbors.shape
    for i in range(len(s)):  # neighbour k is across the edge opposite vertex k, as SciPy's
        for k in range(3):
            j = nb[i, k]
            edge = {s[i, (k + 1) % 3], s[i, (k + 2) % 3]}
            if j < 0:
                assert want.neighbors[perm[i]][list(want.simplices[perm[i]]).index(s[i, k])] == -1
            else:
                assert edge <= set(s[j]) and s[i, k] not in s[j]
    eq = host(got.equations)  # against the exact planes (rational arithmetic), not Qhull's rounding of them
    np.testing.assert_allclose(eq, exact_planes(host(got.points), s, got.paraboloid_scale, got.paraboloid_shift),
                               rtol=1e-12, atol=1e-12)
    for name in ("coplanar", "good"):
        g, w = host(getattr(got, name)), getattr(want, name)
        assert g.dtype == w.dtype and g.shape == w.shape, name
        np.testing.assert_array_equal(g, w, err_msg=name)
    hull = host(got.convex_hull)
    assert sorted(map(tuple, np.sort(hull, 1))) == sorted(map(tuple, np.sort(want.convex_hull, 1)))
    v2s = host(got.vertex_to_simplex)
    assert v2s.dtype == want.vertex_to_simplex.dtype
    for p in range(want.npoints):
        assert (v2s[p] < 0) == (want.vertex_to_simplex[p] < 0) and (v2s[p] < 0 or p in s[v2s[p]])
    (gp, gi), (wp, wi) = (host(a) for a in got.vertex_neighbor_vertices), want.vertex_neighbor_vertices
    np.testing.assert_array_equal(gp, wp)
    assert all(sorted(gi[gp[p]:gp[p + 1]]) == sorted(wi[wp[p]:wp[p + 1]]) for p in range(want.npoints))
    return perm


def check_delaunay(cs, dev, host, pts, query_seed):
    got, want = cs.Delaunay(dev(pts)), ss.Delaunay(pts)
    d = pts.shape[1]
    assert (got.ndim, got.npoints, got.nsimplex) == (want.ndim, want.npoints, want.nsimplex)
    assert canonical_simplices(host(got.simplices)) == canonical_simplices(want.simplices)
    if getattr(got, "_h", None) is None:  # the GPU triangulation: its own order of the same triangles
        perm = check_same_triangulation(got, want, host)
    else:  # the arrays are Qhull's own (the same run): identical, in the same order
        perm = np.arange(want.nsimplex)
        for name in ("simplices", "neighbors", "coplanar", "good", "vertex_to_simplex", "convex_hull"):
            g, w = host(getattr(got, name)), getattr(want, name)
            assert g.dtype == w.dtype and g.shape == w.shape, name
            np.testing.assert_array_equal(g, w, err_msg=name)
        np.testing.assert_allclose(host(got.equations), want.equations, rtol=1e-12, atol=1e-12)
        for g, w in zip(got.vertex_neighbor_vertices, want.vertex_neighbor_vertices):
            np.testing.assert_array_equal(host(g), w)
    inv = np.empty_like(perm)
    inv[perm] = np.arange(len(perm))

    def theirs(found):  # SciPy's simplex numbers in this object's order (-1 kept)
        found = np.asarray(found)
        return np.where(found < 0, found, inv[np.maximum(found, 0)])
    np.testing.assert_allclose(host(got.points), want.points, rtol=0, atol=0)
    assert (got.paraboloid_scale, got.paraboloid_shift) == (want.paraboloid_scale, want.paraboloid_shift)
    np.testing.assert_array_equal(host(got.min_bound), want.min_bound)
    tg, tw = host(got.transform), want.transform[perm]
    assert tg.shape == tw.shape and tg.dtype == np.float64
    np.testing.assert_array_equal(np.isnan(tg), np.isnan(tw))
    if getattr(got, "_h", None) is None:  # each simplex's vertices in its own order: T maps them to the unit vectors
        sv = pts[host(got.simplices)]  # (s, d + 1, d)
        c = np.einsum("sij,skj->ski", tg[:, :d, :], sv - tg[:, d:, :])
        np.testing.assert_allclose(c, np.broadcast_to(np.eye(d + 1, d), c.shape), atol=1e-8)
        tw = tg
    np.testing.assert_allclose(tg, tw, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(np.nan_to_num(tw)).max()),
                               equal_nan=True)
    lo, hi = pts.min(0), pts.max(0)
    r = rng("query", query_seed, d)
    q = lo - 0.2 * (hi - lo) + 1.4 * (hi - lo) * r.random((300, d))   # inside and outside the hull
    q = np.concatenate([q, pts[:5]])                                  # the vertices themselves
    fs, bf = host(got.find_simplex(dev(q))), host(got.find_simplex(dev(q), bruteforce=True))
    assert fs.dtype == bf.dtype == np.intc and fs.shape == bf.shape == (len(q),)
    # random queries: no point on a shared face, so every rule (and Qhull's walk) gives one answer
    rand = slice(0, 300)
    for mine in (fs, bf):
        np.testing.assert_array_equal(mine[rand], theirs(want.find_simplex(q[rand], bruteforce=True)))
        np.testing.assert_array_equal(mine[rand], theirs(want.find_simplex(q[rand])))
    # a vertex lies in several simplices, and which of them passes the eps test depends on the
    # walk and on the last bits of its barycentric coordinates: any simplex with a vertex there
    simp = host(got.simplices)
    for mine in (fs, bf):
        for k in range(5):
            assert mine[300 + k] >= 0 and (pts[simp[mine[300 + k]]] == pts[k]).all(axis=1).any(), (k, mine[300 + k])
    np.testing.assert_array_equal(host(got.find_simplex(dev(q[:12].reshape(3, 4, d)))),
                                  theirs(want.find_simplex(q[:12].reshape(3, 4, d))))
    assert host(got.find_simplex(dev(q[0]))).shape == ()
    odd = np.array([[np.nan] * d, [np.inf] + [0.5] * (d - 1), [0.5] * (d - 1) + [-np.inf]])
    for brute in (False, True):
        np.testing.assert_array_equal(host(got.find_simplex(dev(odd), bruteforce=brute)), theirs(want.find_simplex(odd)))
    if getattr(got, "_h", None) is not None:  # (a tol this wide admits several simplices: the first in index order)
        np.testing.assert_array_equal(host(got.find_simplex(dev(q), bruteforce=True, tol=0.1)),
                                      want.find_simplex(q, bruteforce=True, tol=0.1))
    # the walk stops in any simplex within tol (sqrt(tol) on a face shared with a degenerate
    # simplex: SciPy's neighbour rule, which the walk's brute-force fallback applies)
    wide = host(got.find_simplex(dev(q), tol=0.1))
    flat = np.isnan(want.transform[:, 0, 0]).any()
    for i in np.flatnonzero(wide >= 0):
        t = tw[wide[i]]
        c = t[:d] @ (q[i] - t[d])
        assert np.all(np.r_[c, 1 - c.sum()] >= -(np.sqrt(0.1) if flat else 0.1) - 1e-12), (i, wide[i])
    np.testing.assert_allclose(host(got.plane_distance(dev(q[:20]))), want.plane_distance(q[:20])[:, perm],
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(host(got.lift_points(dev(q[:7]))), want.lift_points(q[:7]), rtol=1e-12)
    return got


def check_hull(cs, dev, host, pts, **kw):
    got, want = cs.ConvexHull(dev(pts), **kw), ss.ConvexHull(pts, **kw)
    for name in ("vertices", "simplices", "neighbors", "coplanar"):
        g, w = host(getattr(got, name)), getattr(want, name)
        assert g.dtype == w.dtype, name
        np.testing.assert_array_equal(g, w, err_msg=name)
    np.testing.assert_allclose(host(got.equations), want.equations, rtol=1e-12, atol=1e-12)
    assert np.isclose(got.volume, want.volume, rtol=1e-12) and np.isclose(got.area, want.area, rtol=1e-12)
    assert (got.ndim, got.npoints, got.nsimplex) == (want.ndim, want.npoints, want.nsimplex)
    return got, want


def check_halfspaces(cs, dev, host, hs, interior):
    got, want = cs.HalfspaceIntersection(dev(hs), dev(interior)), ss.HalfspaceIntersection(hs, interior)
    for name in ("intersections", "dual_points", "dual_equations", "halfspaces", "interior_point"):
        np.testing.assert_allclose(host(getattr(got, name)), getattr(want, name), rtol=1e-12, atol=1e-12,
                                   err_msg=name)
    np.testing.assert_array_equal(host(got.dual_vertices), want.dual_vertices)
    assert got.dual_facets == [list(f) for f in want.dual_facets]
    assert np.isclose(got.dual_volume, want.dual_volume) and (got.ndim, got.nineq) == (want.ndim, want.nineq)
    return got


def check_voronoi(cs, dev, host, pts, **kw):
    got, want = cs.Voronoi(dev(pts), **kw), ss.Voronoi(pts, **kw)
    np.testing.assert_allclose(host(got.vertices), want.vertices, rtol=1e-12, atol=1e-12)
    for name in ("ridge_points", "point_region"):
        g, w = host(getattr(got, name)), getattr(want, name)
        assert g.dtype == w.dtype, name
        np.testing.assert_array_equal(g, w, err_msg=name)
    assert got.regions == want.regions and got.ridge_vertices == want.ridge_vertices
    assert got.ridge_dict == want.ridge_dict and got.furthest_site == want.furthest_site
    np.testing.assert_array_equal(host(got.points), want.points)
    return got
