// cuarray elementwise kernel skeleton, contiguous operands with 16-byte vector loads and stores.
// Every array operand is contiguous in the same order and aligned to its vector width, so thread
// t < n / VEC handles elements [t*VEC, t*VEC+VEC) with one wide load per input and one wide store
// per output; the next n % VEC threads take one tail element each. The grid covers exactly that,
// with no loop (see elementwise.cu). Holes as in elementwise.cu, plus
//   <vec>         elements per thread
//   <vload>       wide loads of each input's lane block
//   <lane_load>   picks lane _k of each loaded block into the input's local variable
//   <lane_store>  puts each output's value into lane _k of its block
//   <vstore>      wide stores of each output's block
${includes}
${preamble}

extern "C" __global__ void ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _ind{_n};
  ${loop_prep}
  const ${index_t} _v = (${index_t})blockIdx.x * blockDim.x + threadIdx.x;
  const ${index_t} _nvec = _n / ${vec};
  if (_v < _nvec) {
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
  } else if (_v - _nvec < _n - _nvec * ${vec}) do {
    const ${index_t} i = _nvec * ${vec} + (_v - _nvec);
    ${load}
    ${operation};
    ${store}
  } while (0);
  ${after_loop}
}
