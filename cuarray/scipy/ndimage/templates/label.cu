// Connected-component labelling for cuarray/scipy/ndimage/_measurements.py: union-find over the
// foreground with atomicMin links (each tree's root is the smallest linear index of its component,
// hence the component's first element in C order, which is how scipy.ndimage.label numbers them),
// then path compression, a scan over the roots (in Python) and a relabel.
//
// I: the index type (int, or long long past 2^31 - 2 elements).

namespace cuarray_ndimage {

template <typename T, typename I>
__global__ void label_init(const T* __restrict__ in, I* __restrict__ parent, I total) {
  I i = (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  parent[i] = in[i] != T(0) ? i : (I)-1;
}

template <typename I>
__device__ __forceinline__ I find_root(const I* parent, I p) {
  I q = parent[p];
  while (q != p) {
    p = q;
    q = parent[p];
  }
  return p;
}

// Link the trees of a and b: the larger root points to the smaller. atomicMin returns what the
// larger root pointed to; if another thread linked it meanwhile, retry from there.
template <typename I>
__device__ __forceinline__ void unite(I* parent, I a, I b) {
  for (;;) {
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a == b) return;
    if (a < b) { I t = a; a = b; b = t; }
    I old = atomicMin(parent + a, b);  // int and long long overloads
    if (old == a) return;
    a = old;
  }
}

// meta: shape[nd]; offs: nnb x nd neighbour offsets (the structure's elements before its centre in
// C order: each pair of neighbours is linked once); loff: the same as linear offsets.
template <typename I>
__global__ void label_merge(I* __restrict__ parent, const I* __restrict__ meta, const int* __restrict__ offs,
                            const I* __restrict__ loff, int nnb, int nd, I total) {
  I i = (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total || parent[i] < 0) return;
  I coord[32];
  I rem = i;
  for (int d = nd - 1; d >= 0; --d) {
    coord[d] = rem % meta[d];
    rem /= meta[d];
  }
  for (int t = 0; t < nnb; ++t) {
    bool inside = true;
    for (int d = 0; d < nd; ++d) {
      I c = coord[d] + offs[t * nd + d];
      if (c < 0 || c >= meta[d]) { inside = false; break; }
    }
    if (!inside) continue;
    I j = i + loff[t];
    if (parent[j] >= 0) unite(parent, i, j);
  }
}

// parent[i] = the root of i; is_root[i] = 1 for roots (the scan turns them into 1, 2, ...).
template <typename I>
__global__ void label_compress(I* __restrict__ parent, int* __restrict__ is_root, I total) {
  I i = (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  I p = parent[i];
  if (p < 0) { is_root[i] = 0; return; }
  I r = find_root(parent, i);
  parent[i] = r;
  is_root[i] = r == i;
}

template <typename I, typename O>
__global__ void label_relabel(const I* __restrict__ parent, const long long* __restrict__ rank, O* __restrict__ out,
                              I total) {
  I i = (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  I p = parent[i];
  out[i] = p < 0 ? O(0) : (O)rank[p];
}

// find_objects: per label 1..max_label and axis, the smallest and largest coordinate (lo starts at
// LLONG_MAX, hi at -1; a label absent from the image keeps them).
template <typename T>
__global__ void bounding_boxes(const T* __restrict__ labels, const long long* __restrict__ shape, int nd,
                               long long total, long long max_label, long long* __restrict__ lo,
                               long long* __restrict__ hi) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  long long v = (long long)labels[i];
  if (v < 1 || v > max_label) return;
  long long rem = i;
  for (int d = nd - 1; d >= 0; --d) {
    long long c = rem % shape[d];
    rem /= shape[d];
    atomicMin(lo + (v - 1) * nd + d, c);
    atomicMax(hi + (v - 1) * nd + d, c);
  }
}

}  // namespace cuarray_ndimage
