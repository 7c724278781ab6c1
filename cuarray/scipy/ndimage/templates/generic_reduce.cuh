// A ReductionKernel (one input, one output) as generic_filter's per-element function, filled by
// cuarray/scipy/ndimage/_generic.py: the kernel's map, reduce and post-map expressions over the
// footprint's n values, in order. The expressions see what CuPy's generic_filter gives them:
// `_j` the value's index, `_in_ind` / `_out_ind` indexers (size() is n / 1, get() the current
// index), `_raw_<input>` / `_raw_<output>` the n values / the one result indexed directly (CuPy's
// test kernel `_raw_x[_in_ind.size() / 2] > x` compares with the footprint's middle value), and
// `_type_reduce`.
${typedefs}
${preamble}
struct generic_indexer {
  ptrdiff_t n, i;
  __device__ ptrdiff_t size() const { return n; }
  __device__ void set(ptrdiff_t j) { i = j; }
  __device__ ptrdiff_t get() const { return i; }
};
template <typename T> struct generic_values {
  T* p;
  ptrdiff_t n;
  __device__ T& operator[](ptrdiff_t i) const { return p[i]; }
  __device__ ptrdiff_t size() const { return n; }
  __device__ T* data() const { return p; }
};
__device__ void ${name}(const ${in_ctype}* _values, int _n, ${out_ctype}* _result) {
  typedef ${reduce_ctype} _type_reduce;
  generic_indexer _in_ind{_n, 0}, _out_ind{1, 0};
  const generic_values<const ${in_ctype}> _raw_${in_name}{_values, _n};
  const generic_values<${out_ctype}> _raw_${out_name}{_result, 1};
  _type_reduce _s = _type_reduce(${identity});
  for (int _j = 0; _j < _n; ++_j) {
    _in_ind.set(_j);
    const ${in_ctype}& ${in_name} = _values[_j];
    _type_reduce _a = static_cast<_type_reduce>(${map_expr});
    { const _type_reduce a = _s, b = _a; _s = (${reduce_expr}); }
  }
  ${out_ctype}& ${out_name} = *_result;
  { _type_reduce a = _s; ${post_map_expr}; }
  (void)_out_ind; (void)_raw_${in_name}; (void)_raw_${out_name};
}
