// cuarray fused expression with several results: one device function computing a graph of
// elementwise nodes read by several outputs of one kernel (cuarray/_core/fusion/codegen.py),
// each shared node computed once. It becomes the preamble of a multi-output elementwise
// kernel whose operation passes its output variables by reference.
//   <node_preambles>  the helper code of the ufuncs used (each once)
//   <name>            function name
//   <params>          one `const T aK` per array input, per scalar, then one `T& rK` per result
//   <body>            a block per node, as in fused.cuh
//   <stores>          `rK = cuarray::cast<T>(vJ);` per result
${node_preambles}
__device__ __forceinline__ void ${name}(${params}) {
  ${body}
  ${stores}
}
