// cuarray fused expression: one device function computing a graph of elementwise nodes
// (cuarray/_core/fusion/codegen.py). It becomes the preamble of an elementwise kernel (the
// operation stores its result) or of a reduction kernel (its map expression calls it).
//   <node_preambles>  the helper code of the ufuncs used (each once)
//   <name>            function name
//   <ret_t>           C type of the result (the compute type of the graph's output)
//   <params>          one `const T aK` per array input (its compute type) and per scalar
//   <body>            a block per node: the ufunc's own C expression over `in0..`, `out0`,
//                     its result stored in the node's dtype (the kernel compiles with
//                     -fmad=false, as the eager ufuncs do, so nodes are never merged into an fma)
//   <ret>             the output node's variable
${node_preambles}
__device__ __forceinline__ ${ret_t} ${name}(${params}) {
  ${body}
  return cuarray::cast<${ret_t}>(${ret});
}
