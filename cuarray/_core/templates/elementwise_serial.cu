// cuarray elementwise kernel skeleton, serial: launched as one thread, which walks every element in
// order (updates that must happen one after another, e.g. ufunc.at on 16-byte elements). Holes as
// in elementwise.cu.
${includes}
${preamble}

extern "C" __global__ void ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _ind{_n};
  ${loop_prep}
  for (${index_t} i = 0; i < _n; ++i) {
    ${indexer}
    ${load}
    ${operation};
    ${store}
  }
  ${after_loop}
}
