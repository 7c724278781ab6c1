// The 2-D Delaunay triangulation on the GPU (cuarray/scipy/spatial/_delaunay_gpu.py drives it):
// parallel incremental insertion with Lawson flips and one symbolic vertex at infinity.
//
// Start: one finite triangle of three input points and the three infinite triangles around it;
// every other point is located in a triangle (inside a finite one, or in the cone of an infinite
// one: delaunay_common.cuh's in_cone). A round: each triangle that holds uninserted points picks
// one (pick), marks itself (mark), splits 1 -> 3 (split: its two new ids from a device scan of the
// marks between the launches; the host reads only the total), and its points move into the
// children (relocate_split); then flip passes until none flips (flip_vote, flip_apply,
// flip_relink, relocate_flip; the host reads the status words after each pass). Each kernel
// writes only what its own index owns, or what exactly one index can reach, and reads nothing
// another index of the same launch writes (atomics aside, whose results no index reads in that
// launch): so a launch's result does not depend on the order its threads run in (the host build
// runs them in several orders and checks). End: the finite triangles, compacted (finish_mark, a
// scan, finish_write).
//
// Every decision is a predicate whose sign is certain (delaunay_common.cuh), so the result is the
// exact Delaunay triangulation or a fallback flag; Qhull's double arithmetic is not exact, and on
// near-cocircular quads (about one in 10^6 uniform points) its triangles can differ from these.
#include "delaunay_common.cuh"

namespace cuarray_delaunay {

// The child of splitting triangle t that keeps t's edge k: child 0 reuses t's id, children 1 and 2
// take the two ids the scan gave t (rank: the inclusive count of splitting triangles up to t).
CUARRAY_DT_FN int child_id(int t, int k, int ntri, const int* rank) {
  return k == 0 ? t : ntri + 2 * (rank[t] - 1) + (k - 1);
}

// Where the point p, in the split triangle t (vertices v, `x` inserted), goes: the child index
// 0..2 (child k is v with v[k] replaced by x), or -1 when a predicate was not certain.
// A finite t: the rays from x to v0, v1, v2 cut it into the children; two orientation tests.
// An infinite t (INF at k, hull edge a = v[k+1] -> b = v[k+2]): the ray from the centre through x
// cuts the cone into the cones of the hull edges a -> x and x -> b, and the new finite triangle
// (a, b, x) lies across both; one test for the side of the ray, one against the new hull edge.
CUARRAY_DT_FN int split_child(const double* xy, int n, const double* center, const int* v, int x, int p) {
  int k = -1;
  for (int j = 0; j < 3; ++j) {
    if (v[j] == n) k = j;
  }
  if (k < 0) {
    const int o0 = orient(xy, x, v[0], p);
    if (o0 > 0) {
      const int o1 = orient(xy, x, v[1], p);
      return o1 < 0 ? 2 : (o1 > 0 ? 0 : -1);
    }
    if (o0 < 0) {
      const int o2 = orient(xy, x, v[2], p);
      return o2 > 0 ? 1 : (o2 < 0 ? 0 : -1);
    }
    return -1;
  }
  const int a = v[next3(k)], b = v[prev3(k)];
  const int side = orient_xy(center[0], center[1], xy, x, p);
  if (side > 0) {  // towards a: the finite child or (a, x, INF), the child that replaced b
    const int o = orient(xy, a, x, p);
    return o > 0 ? prev3(k) : (o < 0 ? k : -1);
  }
  if (side < 0) {  // towards b: the finite child or (x, b, INF), the child that replaced a
    const int o = orient(xy, x, b, p);
    return o > 0 ? next3(k) : (o < 0 ? k : -1);
  }
  return -1;
}

// Whether the edge opposite tv[3t + i] (shared with u, whose edge j it is) must flip: 1 yes, 0 no,
// -1 not certain. The quad is p, s1, q, s2 (t = (p, s1, s2), u = (q, s2, s1)); the flip makes
// (p, s1, q) and (q, s2, p). A finite edge with INF across it is a hull edge: never (every finite
// point is inside the hull). An edge s - INF (two infinite triangles, neighbouring hull edges)
// flips when the finite triangle the flip makes is counterclockwise: the hull vertex s is not
// convex. Two finite triangles: q strictly inside the circle of (p, s1, s2).
CUARRAY_DT_FN int must_flip(const double* xy, int n, int p, int s1, int s2, int q) {
  if (p == n || q == n) return 0;
  if (s1 == n) {
    const int o = orient(xy, q, s2, p);
    return o > 0 ? 1 : (o < 0 ? 0 : -1);
  }
  if (s2 == n) {
    const int o = orient(xy, p, s1, q);
    return o > 0 ? 1 : (o < 0 ? 0 : -1);
  }
  const int c = incircle(xy, p, s1, s2, q);
  return c > 0 ? 1 : (c < 0 ? 0 : -1);
}

// A point's bid for triangle t (pick). Early rounds send most points to a few triangles: on the
// device the lanes of a warp bidding for one triangle agree on their smallest key first (its high
// word, then the low word among the lanes holding that high word: one real bid), so a warp makes
// one atomic per triangle rather than one per point. The winner is the same either way.
CUARRAY_DT_FN void bid(unsigned long long* best, int t, unsigned long long key) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned group = __match_any_sync(__activemask(), t);
  const unsigned hi = __reduce_min_sync(group, (unsigned)(key >> 32));
  const unsigned lo = __reduce_min_sync(group, (unsigned)(key >> 32) == hi ? (unsigned)key : 0xffffffffu);
  if ((int)(threadIdx.x & 31) == __ffs(group) - 1) atomicMin(best + t, ((unsigned long long)hi << 32) | lo);
#else
  atomicMin(best + t, key);
#endif
}

}  // namespace cuarray_delaunay

// |cross(b - a, p - a)| of every point: the start's third vertex is the point farthest from the
// line of the extreme-x pair a, b (a heuristic: the start checks its orientation exactly).
extern "C" __global__ void cuarray_delaunay_start_area(const double* __restrict__ xy, int n, int a, int b,
                                                      double* __restrict__ area) {
  const double ax = xy[2 * a], ay = xy[2 * a + 1], bx = xy[2 * b] - ax, by = xy[2 * b + 1] - ay;
  CUARRAY_DT_FOR(p, n) {
    area[p] = fabs(bx * (xy[2 * p + 1] - ay) - by * (xy[2 * p] - ax));
  }
}

// One index: the first four triangles. Finite triangle 0 = (a, b, c) counterclockwise; triangles
// 1, 2, 3 = (c, b, INF), (a, c, INF), (b, a, INF), the hull edges across its edges 0, 1, 2. The
// centre (the cones' apex) is the centroid of a, b, c, checked strictly inside.
extern "C" __global__ void cuarray_delaunay_start(const double* __restrict__ xy, int n, int a, int b, int c,
                                                 int* __restrict__ tv, int* __restrict__ tn,
                                                 double* __restrict__ center,
                                                 unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(i, 1) {
    (void)i;
    const int o = orient(xy, a, b, c);
    if (o == 0) fail(status, FAIL_START);  // (the triangles are still written: later launches read them)
    if (o < 0) {
      const int s = b;
      b = c;
      c = s;
    }
    namespace rn = cuarray::rn;
    center[0] = rn::div(rn::add(rn::add(xy[2 * a], xy[2 * b]), xy[2 * c]), 3.0);
    center[1] = rn::div(rn::add(rn::add(xy[2 * a + 1], xy[2 * b + 1]), xy[2 * c + 1]), 3.0);
    const int inside = orient_xy(center[0], center[1], xy, a, b) + orient_xy(center[0], center[1], xy, b, c) +
                       orient_xy(center[0], center[1], xy, c, a);
    if (inside != 3) fail(status, FAIL_START);  // (orient(O, a, b) > 0 <=> O left of a -> b)
    const int verts[12] = {a, b, c, c, b, n, a, c, n, b, a, n};
    const int nbrs[12] = {4 * 1 + 2, 4 * 2 + 2, 4 * 3 + 2,   // 0: across (b,c), (c,a), (a,b)
                          4 * 3 + 1, 4 * 2 + 0, 4 * 0 + 0,   // 1 = (c, b, INF)
                          4 * 1 + 1, 4 * 3 + 0, 4 * 0 + 1,   // 2 = (a, c, INF)
                          4 * 2 + 1, 4 * 1 + 0, 4 * 0 + 2};  // 3 = (b, a, INF)
    for (int j = 0; j < 12; ++j) {
      tv[j] = verts[j];
      tn[j] = nbrs[j];
    }
  }
}

// Each point's first triangle: -1 for the start's three vertices (inserted), 0 strictly inside the
// finite triangle, else the infinite triangle whose cone holds it.
extern "C" __global__ void cuarray_delaunay_locate_start(const double* __restrict__ xy, int n,
                                                        const int* __restrict__ tv,
                                                        const double* __restrict__ center, int* __restrict__ loc,
                                                        unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  const int a = tv[0], b = tv[1], c = tv[2];
  CUARRAY_DT_FOR(p, n) {
    int where = -1;
    if (p != a && p != b && p != c) {
      if (orient(xy, a, b, p) > 0 && orient(xy, b, c, p) > 0 && orient(xy, c, a, p) > 0) where = 0;
      for (int t = 1; t < 4 && where < 0; ++t) {
        if (in_cone(xy, center, tv[3 * t], tv[3 * t + 1], p) > 0) where = t;
      }
      if (where < 0) fail(status, FAIL_UNLOCATED);
    }
    loc[p] = where;
  }
}

// Each uninserted point bids for its triangle: the smallest key (a float32 distance's bits, the
// point's index) wins, so the pick is deterministic. A finite triangle takes the point nearest its
// centroid; an infinite one the point farthest beyond its hull edge (1 / the cross product), which
// grows the hull fastest.
extern "C" __global__ void cuarray_delaunay_pick(const double* __restrict__ xy, int n, const int* __restrict__ tv,
                                                const int* __restrict__ loc,
                                                unsigned long long* __restrict__ best) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(p, n) {
    const int t = loc[p];
    if (t < 0) continue;
    const int v0 = tv[3 * t], v1 = tv[3 * t + 1], v2 = tv[3 * t + 2];
    const double px = xy[2 * p], py = xy[2 * p + 1];
    float score;  // (a heuristic: no rounding rule matters here)
    if (v0 != n && v1 != n && v2 != n) {
      const double dx = px - (xy[2 * v0] + xy[2 * v1] + xy[2 * v2]) * (1.0 / 3.0);
      const double dy = py - (xy[2 * v0 + 1] + xy[2 * v1 + 1] + xy[2 * v2 + 1]) * (1.0 / 3.0);
      score = (float)(dx * dx + dy * dy);
    } else {
      const int a = v0 == n ? v1 : (v1 == n ? v2 : v0), b = v0 == n ? v2 : (v1 == n ? v0 : v1);
      const double cross = (xy[2 * b] - xy[2 * a]) * (py - xy[2 * a + 1]) -
                           (xy[2 * b + 1] - xy[2 * a + 1]) * (px - xy[2 * a]);
      score = cross > 0.0 ? 1.0f / (float)cross : 3.0e38f;  // 1 / 0 (a float underflow): inf, still ordered
    }
    union {
      float f;
      unsigned int u;
    } bits;
    bits.f = score;  // >= 0 (or NaN for NaN input, which the predicates reject): its bits order as the values
    bid(best, t, ((unsigned long long)bits.u << 32) | (unsigned int)p);
  }
}

// Each triangle reads its winning bid (and clears it for the next round): chosen[t] is the point
// it inserts or -1, splits[t] 1 or 0 (what the host's scan counts).
extern "C" __global__ void cuarray_delaunay_mark(int ntri, unsigned long long* __restrict__ best,
                                                int* __restrict__ chosen, int* __restrict__ splits) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(t, ntri) {
    const unsigned long long b = best[t];
    const int x = b == kNoPick ? -1 : (int)(unsigned int)(b & 0xffffffffull);
    chosen[t] = x;
    splits[t] = x >= 0;
    best[t] = kNoPick;
  }
}

// Every splitting triangle t becomes its three children (child k: t with vertex k replaced by the
// point x). Child k keeps t's edge k; across it is the old neighbour u's edge k', or, when u split
// too, u's child k' (the children of one split keep their parent's edge indices). A neighbour that
// did not split is told its new neighbour here (only t reaches that entry). The children's edges
// inside t join child k's edge j to child j's edge k.
extern "C" __global__ void cuarray_delaunay_split(int ntri, const int* __restrict__ chosen,
                                                 const int* __restrict__ rank, int* __restrict__ tv,
                                                 int* __restrict__ tn, int* __restrict__ loc,
                                                 int* __restrict__ dirty) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(t, ntri) {
    const int x = chosen[t];
    if (x < 0) continue;
    int v[3], nb[3], kid[3];
    for (int k = 0; k < 3; ++k) {
      v[k] = tv[3 * t + k];
      nb[k] = tn[3 * t + k];
      kid[k] = child_id(t, k, ntri, rank);
    }
    for (int k = 0; k < 3; ++k) {
      const int c = kid[k];
      const int u = nb[k] >> 2, ku = nb[k] & 3;
      int across = nb[k];
      if (chosen[u] >= 0) {
        across = 4 * child_id(u, ku, ntri, rank) + ku;
      } else {
        tn[3 * u + ku] = 4 * c + k;
      }
      for (int j = 0; j < 3; ++j) {
        tv[3 * c + j] = j == k ? x : v[j];
        tn[3 * c + j] = j == k ? across : 4 * kid[j] + k;
      }
      dirty[c] = 1;
    }
    loc[x] = -1;
  }
}

// The uninserted points of the triangles that split move into a child (split_child). Child 0 kept
// t's id and vertices 1, 2; vertex 0 is child 1's.
extern "C" __global__ void cuarray_delaunay_relocate_split(const double* __restrict__ xy, int n, int ntri,
                                                          const int* __restrict__ chosen,
                                                          const int* __restrict__ rank,
                                                          const int* __restrict__ tv,
                                                          const double* __restrict__ center,
                                                          int* __restrict__ loc,
                                                          unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(p, n) {
    const int t = loc[p];
    if (t < 0 || chosen[t] < 0) continue;
    const int x = chosen[t];
    const int one = child_id(t, 1, ntri, rank);
    const int v[3] = {tv[3 * one], tv[3 * t + 1], tv[3 * t + 2]};
    const int k = split_child(xy, n, center, v, x, p);
    if (k < 0) {
      fail(status, FAIL_ORIENT);
      continue;
    }
    loc[p] = child_id(t, k, ntri, rank);
  }
}

// A flip pass, step 1: each edge with a dirty triangle on a side is checked once (by its dirty
// side, the lower id where both are), and an edge that must flip claims both its triangles: the
// smallest edge id (4 t + i, t the checker) wins each triangle, so the smallest candidate of all
// always owns both of its own and every pass flips something while any edge must.
extern "C" __global__ void cuarray_delaunay_flip_vote(const double* __restrict__ xy, int n, int ntri,
                                                     const int* __restrict__ tv, const int* __restrict__ tn,
                                                     const int* __restrict__ dirty, int* __restrict__ claim,
                                                     unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(t, ntri) {
    if (!dirty[t]) continue;
    for (int i = 0; i < 3; ++i) {
      const int e = tn[3 * t + i], u = e >> 2, j = e & 3;
      if (dirty[u] && u < t) continue;
      const int verdict = must_flip(xy, n, tv[3 * t + i], tv[3 * t + next3(i)], tv[3 * t + prev3(i)],
                                    tv[3 * u + j]);
      if (verdict < 0) {
        const bool finite = tv[3 * t + next3(i)] != n && tv[3 * t + prev3(i)] != n;
        fail(status, finite ? FAIL_INCIRCLE : FAIL_ORIENT);
      } else if (verdict > 0) {
        atomicMin(claim + t, 4 * t + i);
        atomicMin(claim + u, 4 * t + i);
      }
    }
  }
}

// Step 2: each flip that owns both triangles rewrites them in place, t = (p, s1, q) and
// u = (q, s2, p) (the new diagonal is edge 1 of both), with their outer neighbours copied as they
// were (old edge ids), and records where each old edge of t and u went (remap) and the pass that
// flipped them (stamp); step 3 then points every entry at a moved edge to its new place.
extern "C" __global__ void cuarray_delaunay_flip_apply(int ntri, int pass, int* __restrict__ tv,
                                                      int* __restrict__ tn, const int* __restrict__ claim,
                                                      int* __restrict__ remap, int* __restrict__ stamp,
                                                      unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(t, ntri) {
    const int key = claim[t];
    if (key == kNoClaim || (key >> 2) != t) continue;
    const int i = key & 3, e = tn[3 * t + i], u = e >> 2, j = e & 3;
    if (claim[u] != key) continue;
    const int i1 = next3(i), i2 = prev3(i), j1 = next3(j), j2 = prev3(j);
    const int p = tv[3 * t + i], s1 = tv[3 * t + i1], s2 = tv[3 * t + i2], q = tv[3 * u + j];
    const int t1 = tn[3 * t + i1], t2 = tn[3 * t + i2], u1 = tn[3 * u + j1], u2 = tn[3 * u + j2];
    const int nv_t[3] = {p, s1, q}, nv_u[3] = {q, s2, p};
    const int nn_t[3] = {u1, 4 * u + j, t2}, nn_u[3] = {t1, 4 * t + i, u2};
    for (int k = 0; k < 3; ++k) {
      tv[3 * t + k] = nv_t[k];
      tn[3 * t + k] = nn_t[k];
      tv[3 * u + k] = nv_u[k];
      tn[3 * u + k] = nn_u[k];
    }
    remap[3 * t + i] = 4 * t + 1;
    remap[3 * t + i1] = 4 * u + 0;
    remap[3 * t + i2] = 4 * t + 2;
    remap[3 * u + j] = 4 * u + 1;
    remap[3 * u + j1] = 4 * t + 0;
    remap[3 * u + j2] = 4 * u + 2;
    stamp[t] = pass;
    stamp[u] = pass;
    status[1] = (unsigned long long)pass;  // every flipping thread stores the same value
  }
}

// Step 3: every neighbour entry that names an edge of a triangle flipped in this pass moves to the
// edge's new place; the claims are cleared for the next pass, and a triangle stays dirty when it
// flipped or was claimed by an edge that lost (that edge is checked again next pass).
extern "C" __global__ void cuarray_delaunay_flip_relink(int ntri, int pass, int* __restrict__ tn,
                                                       const int* __restrict__ remap,
                                                       const int* __restrict__ stamp, int* __restrict__ claim,
                                                       int* __restrict__ dirty) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(t, ntri) {
    for (int k = 0; k < 3; ++k) {
      const int e = tn[3 * t + k], w = e >> 2;
      if (stamp[w] == pass) tn[3 * t + k] = remap[3 * w + (e & 3)];
    }
    dirty[t] = stamp[t] == pass || claim[t] != kNoClaim;
    claim[t] = kNoClaim;
  }
}

// Step 4: the uninserted points of flipped triangles take the side of the new diagonal (edge 1 of
// both new triangles, v2 -> v0, the triangle on its left): one orientation test.
extern "C" __global__ void cuarray_delaunay_relocate_flip(const double* __restrict__ xy, int n, int pass,
                                                         const int* __restrict__ tv, const int* __restrict__ tn,
                                                         const int* __restrict__ stamp, int* __restrict__ loc,
                                                         unsigned long long* __restrict__ status) {
  using namespace cuarray_delaunay;
  CUARRAY_DT_FOR(p, n) {
    const int t = loc[p];
    if (t < 0 || stamp[t] != pass) continue;
    const int o = orient(xy, tv[3 * t + 2], tv[3 * t], p);
    if (o == 0) {
      fail(status, FAIL_ORIENT);
    } else if (o < 0) {
      loc[p] = tn[3 * t + 1] >> 2;
    }
  }
}

// The end: keep[t] 1 for the finite triangles (the host scans it into their new indices).
extern "C" __global__ void cuarray_delaunay_finish_mark(int n, int ntri, const int* __restrict__ tv,
                                                       int* __restrict__ keep) {
  CUARRAY_DT_FOR(t, ntri) {
    keep[t] = tv[3 * t] != n && tv[3 * t + 1] != n && tv[3 * t + 2] != n;
  }
}

// SciPy's arrays: simplices (counterclockwise) and neighbors[i, k] across the edge opposite
// simplices[i, k], -1 across a hull edge (an infinite triangle there).
extern "C" __global__ void cuarray_delaunay_finish_write(int ntri, const int* __restrict__ tv,
                                                        const int* __restrict__ tn, const int* __restrict__ keep,
                                                        const int* __restrict__ rank,
                                                        int* __restrict__ simplices, int* __restrict__ neighbors) {
  CUARRAY_DT_FOR(t, ntri) {
    if (!keep[t]) continue;
    const int r = rank[t] - 1;
    for (int k = 0; k < 3; ++k) {
      const int u = tn[3 * t + k] >> 2;
      simplices[3 * r + k] = tv[3 * t + k];
      neighbors[3 * r + k] = keep[u] ? rank[u] - 1 : -1;
    }
  }
}
