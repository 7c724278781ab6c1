// A ReductionKernel (one input, one output) as generic_filter's per-element function, filled by
// cuarray/scipy/ndimage/_generic.py: the kernel's map, reduce and post-map expressions over the
// footprint's n values, in order. Inside the expressions `_j` is the value's index,
// `_in_ind.size()` is n and `_out_ind.size()` is 1, as in a ReductionKernel over n elements.
${typedefs}
${preamble}
struct generic_size {
  int n;
  __device__ int size() const { return n; }
};
__device__ void ${name}(const ${in_ctype}* _values, int _n, ${out_ctype}* _result) {
  typedef ${reduce_ctype} _type_reduce;
  const generic_size _in_ind{_n}, _out_ind{1};
  _type_reduce _s = _type_reduce(${identity});
  for (int _j = 0; _j < _n; ++_j) {
    const ${in_ctype}& ${in_name} = _values[_j];
    _type_reduce _a = static_cast<_type_reduce>(${map_expr});
    { const _type_reduce a = _s, b = _a; _s = (${reduce_expr}); }
  }
  ${out_ctype}& ${out_name} = *_result;
  { const _type_reduce a = _s; ${post_map_expr}; }
}
