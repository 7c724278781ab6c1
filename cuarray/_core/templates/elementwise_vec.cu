// cuarray elementwise kernel skeleton, contiguous operands with 16-byte vector loads and stores.
// Every array operand is contiguous in the same order and aligned to its vector width, so thread
// t handles elements [t*VEC, t*VEC+VEC) with one wide load per input and one wide store per
// output; the tail (n % VEC elements) runs one element per thread. Holes as in elementwise.cu, plus
//   <vec>         elements per thread per iteration
//   <vload>       wide loads of each input's lane block
//   <lane_load>   picks lane _k of each loaded block into the input's local variable
//   <lane_store>  puts each output's value into lane _k of its block
//   <vstore>      wide stores of each output's block
${includes}
${preamble}

extern "C" __global__ void ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _ind{_n};
  ${loop_prep}
  const ${index_t} _stride = (${index_t})blockDim.x * gridDim.x;
  const ${index_t} _nvec = _n / ${vec};
  for (${index_t} _v = (${index_t})blockIdx.x * blockDim.x + threadIdx.x; _v < _nvec; _v += _stride) {
    ${vload}
    ${vdecl}
#pragma unroll
    for (int _k = 0; _k < ${vec}; ++_k) {
      const ${index_t} i = _v * ${vec} + _k;
      ${lane_load}
      ${operation};
      ${lane_store}
    }
    ${vstore}
  }
  for (${index_t} i = _nvec * ${vec} + (${index_t})blockIdx.x * blockDim.x + threadIdx.x; i < _n; i += _stride) {
    ${load}
    ${operation};
    ${store}
  }
  ${after_loop}
}
