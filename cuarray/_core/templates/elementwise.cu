// cuarray elementwise kernel skeleton.
// Python (cuarray/_core/elementwise.py) fills the holes; everything else is plain CUDA C++.
//   <name>        kernel name, e.g. cuarray_add_float32_float32__vec4
//   <params>      one declaration per argument (pointers, scalars, strides), from the Param descriptors
//   <index_t>     int when every offset fits in 31 bits, else long long
//   <indexer>     computes the byte offset of element `i` of each strided operand (empty when flat)
//   <load>        reads inputs into local variables of their compute type
//   <operation>   the per-element C++ (a ufunc's expression or an ElementwiseKernel's operation)
//   <store>       writes outputs, casting to the stored type
${includes}
${preamble}

extern "C" __global__ void ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _ind{_n};
  ${loop_prep}
  const ${index_t} _stride = (${index_t})blockDim.x * gridDim.x;
  for (${index_t} i = (${index_t})blockIdx.x * blockDim.x + threadIdx.x; i < _n; i += _stride) {
    ${indexer}
    ${load}
    ${operation};
    ${store}
  }
  ${after_loop}
}
