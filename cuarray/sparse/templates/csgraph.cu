// cuarray.sparse.csgraph.connected_components; launched by cuarray/sparse/csgraph/_traversal.py
// (plans in _plan.py). Every kernel loops grid-stride over edges or vertices; I is the vertex
// index type (int or long long), edges are (row[e], col[e]) pairs or a CSR matrix's rows.
//
// Weak components: a concurrent union-find whose parents are never larger than their children,
// so the root of every tree is the smallest vertex of its component (SciPy numbers components
// in that order). cc_link adds the edges: each thread finds both roots (path halving) and links
// the larger root under the smaller with one compare-and-swap, retrying from the new roots when
// another thread linked one first; a tree only ever grows upward toward smaller ids, so a stale
// parent read on the way is still an ancestor. cc_flatten then points every vertex at its root.
//
// Strong components: label propagation over the edges among the vertices still unassigned
// (`live`), repeated by the host until a pass changes nothing:
//   - trimming: a vertex without a live in-edge or out-edge (self-loops aside) is its own
//     component (scc_degrees, scc_trim);
//   - forward-backward reachability from a pivot in one pass over the edges (scc_reach): the
//     vertices both reached are the pivot's component;
//   - colouring: every live vertex takes the largest id that reaches it (scc_color), and each
//     vertex whose colour is its own id (a root) gathers the vertices of its colour that reach it
//     (scc_color_back): those are its component. Each round assigns at least the component of
//     the largest live vertex.
// scc_take assigns a component and counts its vertices; cc_min_member gives each component its
// smallest vertex (the numbering of the weak case).

namespace cuarray_csgraph {

template <typename I> __device__ __forceinline__ I cas(I* p, I expected, I desired);
template <> __device__ __forceinline__ int cas<int>(int* p, int expected, int desired) {
  return atomicCAS(p, expected, desired);
}
template <> __device__ __forceinline__ long long cas<long long>(long long* p, long long expected, long long desired) {
  return (long long)atomicCAS((unsigned long long*)p, (unsigned long long)expected, (unsigned long long)desired);
}

// The root of v, halving the path on the way (each vertex visited points at its grandparent).
// Reads are volatile: other threads move parents upward meanwhile.
template <typename I> __device__ __forceinline__ I find_root(I* parent, I v) {
  volatile I* p = parent;
  I up = p[v];
  while (up != v) {
    const I upup = p[up];
    if (upup == up) return up;
    p[v] = upup;  // an ancestor of v either way: a race only shortens less
    v = upup;
    up = p[v];
  }
  return v;
}

// Joins the trees of a and b: the larger root goes under the smaller.
template <typename I> __device__ __forceinline__ void unite(I* parent, I a, I b) {
  a = find_root(parent, a);
  b = find_root(parent, b);
  while (a != b) {
    if (a > b) { const I t = a; a = b; b = t; }
    const I seen = cas(parent + b, b, a);
    if (seen == b) return;
    b = find_root(parent, seen);  // b was linked meanwhile: go on from its new root
    a = find_root(parent, a);
  }
}

template <typename I>
__global__ void cc_link_coo(const I* __restrict__ row, const I* __restrict__ col, long long nnz, I* parent) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += step) {
    unite(parent, row[e], col[e]);
  }
}

// The row r of CSR offsets `indptr` with indptr[r] <= e < indptr[r + 1], searched in [lo, n).
template <typename I> __device__ __forceinline__ long long row_of(const I* indptr, long long lo, long long n,
                                                                    long long e) {
  long long hi = n;  // indptr[lo] <= e < indptr[hi]
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if ((long long)indptr[mid] <= e) lo = mid; else hi = mid;
  }
  return lo;
}

// Each thread takes `chunk` consecutive entries of a CSR (or CSC) matrix: one binary search for
// the first entry's row, then a walk (a search again past an empty row).
template <typename I>
__global__ void cc_link_csr(const I* __restrict__ indptr, const I* __restrict__ indices, long long n, long long nnz,
                            int chunk, I* parent) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c * chunk < nnz; c += step) {
    long long e = c * chunk;
    const long long end = e + chunk < nnz ? e + chunk : nnz;
    long long r = row_of(indptr, 0, n, e);
    for (; e < end; ++e) {
      if ((long long)indptr[r + 1] <= e) r = row_of(indptr, r + 1, n, e);
      unite(parent, (I)r, indices[e]);
    }
  }
}

template <typename I>
__global__ void cc_flatten(I* parent, long long n) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
    parent[v] = find_root(parent, (I)v);
  }
}

template <typename I>
__global__ void cc_min_member(const I* __restrict__ comp, long long n, I* smallest) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
    atomicMin(smallest + comp[v], (I)v);
  }
}

template <typename I>
__global__ void scc_degrees(const I* __restrict__ row, const I* __restrict__ col, long long nnz,
                            const unsigned char* __restrict__ live, unsigned char* has_in, unsigned char* has_out) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += step) {
    const I u = row[e], w = col[e];
    if (u != w && live[u] && live[w]) {
      has_out[u] = 1;
      has_in[w] = 1;
    }
  }
}

template <typename I>
__global__ void scc_trim(long long n, unsigned char* live, const unsigned char* __restrict__ has_in,
                         const unsigned char* __restrict__ has_out, I* comp, unsigned long long* count) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
    if (live[v] && !(has_in[v] && has_out[v])) {
      live[v] = 0;
      comp[v] = (I)v;
      atomicAdd(count, 1ull);
    }
  }
}

template <typename I>
__global__ void scc_reach(const I* __restrict__ row, const I* __restrict__ col, long long nnz,
                          const unsigned char* __restrict__ live, unsigned char* fw, unsigned char* bw, int* changed) {
  const long long step = (long long)gridDim.x * blockDim.x;
  volatile unsigned char* f = fw;
  volatile unsigned char* b = bw;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += step) {
    const I u = row[e], w = col[e];
    if (!live[u] || !live[w]) continue;
    if (f[u] && !f[w]) { f[w] = 1; *changed = 1; }
    if (b[w] && !b[u]) { b[u] = 1; *changed = 1; }
  }
}

template <typename I>
__global__ void scc_color(const I* __restrict__ row, const I* __restrict__ col, long long nnz,
                          const unsigned char* __restrict__ live, I* color, int* changed) {
  const long long step = (long long)gridDim.x * blockDim.x;
  volatile I* c = color;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += step) {
    const I u = row[e], w = col[e];
    if (!live[u] || !live[w]) continue;
    const I cu = c[u];
    if (cu > c[w] && atomicMax(color + w, cu) < cu) *changed = 1;
  }
}

template <typename I>
__global__ void scc_color_back(const I* __restrict__ row, const I* __restrict__ col, long long nnz,
                               const unsigned char* __restrict__ live, const I* __restrict__ color, unsigned char* bw,
                               int* changed) {
  const long long step = (long long)gridDim.x * blockDim.x;
  volatile unsigned char* b = bw;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += step) {
    const I u = row[e], w = col[e];
    if (!live[u] || !live[w] || b[u] || !b[w] || color[u] != color[w]) continue;
    b[u] = 1;
    *changed = 1;
  }
}

// The live vertices with a[v] and b[v] form components: id[v] names each (pivot where id is
// null); they leave the live set and are counted.
template <typename I>
__global__ void scc_take(long long n, unsigned char* live, const unsigned char* __restrict__ a,
                         const unsigned char* __restrict__ b, const I* __restrict__ id, I pivot, I* comp,
                         unsigned long long* count) {
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
    if (live[v] && a[v] && b[v]) {
      live[v] = 0;
      comp[v] = id ? id[v] : pivot;
      atomicAdd(count, 1ull);
    }
  }
}

}  // namespace cuarray_csgraph
