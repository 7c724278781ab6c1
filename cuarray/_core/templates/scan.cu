// cuarray scan kernel skeleton (cumsum, cumprod, ufunc.accumulate, ...); the algorithms are in
// cuarray/scan.cuh. Python (cuarray/_core/scan.py) fills the holes:
//   <name>        kernel name, e.g. cuarray_cumsum_float32__flat_k4j4
//   <ns>          a namespace private to this kernel (sources are concatenated in tests)
//   <in_t> <out_t> <acc_t>  stored input, stored output, accumulator C types
//   <operation>   the ufunc's C expression computing `out0` from `in0` (earlier) and `in1` (later)
//   <load_expr>   the value an element contributes, from `x` (its value as acc_t); NaN -> 0 for nancumsum
//   <identity>    the operator's identity (exclusive scans only)
//   <layout>      0 flat (decoupled look-back), 1 columns, 2 serial, 3 segments and 4 segment blocks
//                 (ufunc.reduceat: a thread, a block of <block> threads, per output)
//   <block>       flat: threads per block (32 x CUARRAY_SCAN_WARPS, defined in <includes> when not 4)
//   <vec> <rows>  flat: elements per vector access (K) and rows per warp (J); columns: rows per thread (R)
//   <segmented> <exclusive>  flat: rows of `seg` elements scanned separately; exclusive scan
//   <min_blocks>  flat: ", B" (__launch_bounds__'s minimum blocks per SM) or nothing
${includes}
#include "cuarray/scan.cuh"
${preamble}

namespace ${ns} {
typedef ${in_t} in_t;
typedef ${out_t} out_t;
typedef ${acc_t} acc_t;

struct op_t {
  __device__ __forceinline__ acc_t operator()(const acc_t in0, const acc_t in1) const {
    acc_t out0;
    ${operation};
    return out0;
  }
};
struct load_t {
  __device__ __forceinline__ acc_t operator()(const in_t v) const {
    const acc_t x = cuarray::cast<acc_t>(v);
    return ${load_expr};
  }
};
__device__ __forceinline__ acc_t identity() { return ${identity}; }
}  // namespace ${ns}

#if ${layout} == 0
extern "C" __global__ void __launch_bounds__(${block}${min_blocks}) ${name}(
    const ${ns}::in_t* __restrict__ in, ${ns}::out_t* __restrict__ out, const long long n, const long long seg,
    unsigned* ticket, unsigned long long* status) {
  cuarray::scan::flat_scan<${vec}, ${rows}, ${segmented}, ${exclusive}, ${ns}::in_t, ${ns}::out_t, ${ns}::acc_t>(
      ${ns}::op_t(), ${ns}::load_t(), ${ns}::identity(), in, out, n, seg, ticket, status);
}
#elif ${layout} == 1
extern "C" __global__ void __launch_bounds__(256) ${name}(
    const ${ns}::in_t* __restrict__ in, ${ns}::out_t* __restrict__ out, const long long n, const long long inner,
    const long long ncols, const long long ncolblocks, unsigned* ticket, unsigned* flags, ${ns}::acc_t* aggs,
    ${ns}::acc_t* incls) {
  cuarray::scan::column_scan<${rows}, ${ns}::in_t, ${ns}::out_t, ${ns}::acc_t>(
      ${ns}::op_t(), ${ns}::load_t(), in, out, n, inner, ncols, ncolblocks, ticket, flags, aggs, incls);
}
#elif ${layout} == 2
extern "C" __global__ void ${name}(const ${ns}::in_t* __restrict__ in, ${ns}::out_t* __restrict__ out,
                                   const long long n, const long long inner, const long long ncols) {
  cuarray::scan::serial_scan<${ns}::in_t, ${ns}::out_t, ${ns}::acc_t>(${ns}::op_t(), ${ns}::load_t(), in, out, n,
                                                                   inner, ncols);
}
#elif ${layout} == 3
extern "C" __global__ void ${name}(const ${ns}::in_t* __restrict__ in, ${ns}::out_t* __restrict__ out,
                                   const long long* __restrict__ idx, const long long nidx, const long long n,
                                   const long long inner, const long long total) {
  cuarray::scan::segment_reduce<${ns}::in_t, ${ns}::out_t, ${ns}::acc_t>(${ns}::op_t(), ${ns}::load_t(), in, out,
                                                                       idx, nidx, n, inner, total);
}
#else
extern "C" __global__ void __launch_bounds__(${block}) ${name}(
    const ${ns}::in_t* __restrict__ in, ${ns}::out_t* __restrict__ out, const long long* __restrict__ idx,
    const long long nidx, const long long n, const long long inner, const long long total) {
  cuarray::scan::segment_reduce_blocks<${block}, ${ns}::in_t, ${ns}::out_t, ${ns}::acc_t>(
      ${ns}::op_t(), ${ns}::load_t(), in, out, idx, nidx, n, inner, total);
}
#endif
