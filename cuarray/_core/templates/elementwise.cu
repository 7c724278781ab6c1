// cuarray elementwise kernel skeleton.
// Python (cuarray/_core/elementwise.py) fills the holes; everything else is plain CUDA C++.
//   <name>        kernel name, e.g. cuarray_add_float32_float32__nd2
//   <params>      one declaration per argument (pointers, scalars, strides), from the Param descriptors
//   <index_t>     int when every offset fits in 30 bits, else long long
//   <items>       elements per thread (the grid covers _n in one pass: launch.grid_one_pass)
//   <indexer>     computes the byte offset of element `i` of each strided operand (empty when flat)
//   <load>        reads inputs into local variables of their compute type
//   <operation>   the per-element C++ (a ufunc's expression or an ElementwiseKernel's operation)
//   <store>       writes outputs, casting to the stored type
//   <unroll>      `#pragma unroll` (the loads of a thread's elements in flight together); a kernel
//                 with runtime-typed inputs (cuarray/load_as.cuh) does not unroll: each unrolled
//                 copy of its type switch cost NVRTC time, and it serves only small calls
// Thread t of block b handles elements b * blockDim * items + t + k * blockDim, k < items: no
// loop over the grid (a grid-stride loop cost 20% of the copy rate and twice the registers,
// measured on an H200, docs/perf-notes.md). The do-while lets an operation
// `continue` past its element.
${includes}
${preamble}

extern "C" __global__ void ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _ind{_n};
  ${loop_prep}
  const ${index_t} _first = (${index_t})blockIdx.x * (blockDim.x * ${items}) + threadIdx.x;
${unroll}
  for (int _k = 0; _k < ${items}; ++_k) {
    const ${index_t} i = _first + _k * (${index_t})blockDim.x;
    if (i < _n) do {
      ${indexer}
      ${load}
      ${operation};
      ${store}
    } while (0);
  }
  ${after_loop}
}
