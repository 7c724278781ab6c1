// cuarray reduction kernel skeleton (one skeleton for every strategy; cuarray/_core/reduction.py).
// `_G` threads cooperate on one output: 1 (a thread walks its output's elements: reductions over
// the slow axis, coalesced across neighbouring outputs), 32 (a warp per output) or the whole
// block. blockIdx.y picks the chunk [_r0, _r1) of the reduced index; with several chunks the
// kernel writes partials that a second launch of this skeleton (source "partial") combines, in a
// fixed order: results are the same run to run. Each thread keeps `_U` independent accumulators
// (loads in flight, shorter rounding chains), then the group combines them by shuffles (and
// shared memory for a block). Holes:
//   <acc_t>        C type of the accumulator `a`/`b` (reduce_type)
//   <out_indexer>  byte offsets `_ob_<name>` of output `_o`'s first element in each operand
//   <red_indexer>  byte offsets `_off_<name>` of reduced element `_j` (empty for partial input)
//   <load>         input locals of reduced element `_j`
//   <map>          value of element `_j` as an _acc_t (map_expr, or a partial)
//   <step_u>/<step_0>  folds element `_j` into accumulator _acc[_u] / _acc[0]: `_reduce(acc, map)`,
//                  or an op's cheaper in-order step (argmax)
//   <vec>          elements per 16-byte load (1: no vector loop) and <vload>/<lane_load> for it
//   <store>        writes `_t` (post_map into `y`, or the partial)
// The preamble and typedefs sit in a namespace named after the kernel (the kernel keeps its C name).
${includes}
#include "cuarray/reduction.cuh"
// Each kernel's types live in its own namespace, so several kernels can share a translation unit.
namespace ${name}_ns {
${preamble}
typedef ${acc_t} _type_reduce;
typedef _type_reduce _acc_t;

extern "C" __global__ void __launch_bounds__(${block}) ${name}(${params}) {
  const cuarray::loop_size<${index_t}> _in_ind{_n_out * _n_red};
  const cuarray::loop_size<${index_t}> _out_ind{_n_out};
  auto _reduce = [&](const _acc_t& a, const _acc_t& b) -> _acc_t { return (${reduce_expr}); };
  constexpr int _G = ${group};
  constexpr int _GPB = ${block} / _G;
  constexpr int _U = ${unroll};
  const int _lane = threadIdx.x % _G;
  const ${index_t} _r0 = (${index_t})blockIdx.y * _chunk;
  const ${index_t} _r1 = min(_r0 + _chunk, _n_red);
#if ${group} > 32
  __shared__ alignas(16) unsigned char _smem_raw[(${block} / 32) * sizeof(_acc_t)];
  _acc_t* _sm = reinterpret_cast<_acc_t*>(_smem_raw);
#endif
  for (${index_t} _o = (${index_t})blockIdx.x * _GPB + threadIdx.x / _G; _o < _n_out;
       _o += (${index_t})gridDim.x * _GPB) {
    ${out_indexer}
    _acc_t _acc[_U];
#pragma unroll
    for (int _u = 0; _u < _U; ++_u) _acc[_u] = ${identity};
    ${index_t} _j0 = _r0 + _lane;
#if ${vec} > 1
    {
      // 16-byte loads: _r0 is a multiple of ${vec}; the rows are aligned (checked on the host).
      const ${index_t} _v1 = _r1 / ${vec};
      ${index_t} _jv = _r0 / ${vec} + _lane;
      for (; _jv + (_U - 1) * _G < _v1; _jv += _U * _G) {
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
          const ${index_t} _jvu = _jv + _u * _G;
          ${vload}
#pragma unroll
          for (int _k = 0; _k < ${vec}; ++_k) {
            const ${index_t} _j = _jvu * ${vec} + _k;
            ${lane_load}
            ${step_u}
          }
        }
      }
      for (; _jv < _v1; _jv += _G) {
        const ${index_t} _jvu = _jv;
        ${vload}
#pragma unroll
        for (int _k = 0; _k < ${vec}; ++_k) {
          const ${index_t} _j = _jvu * ${vec} + _k;
          ${lane_load}
          ${step_0}
        }
      }
      _j0 = _v1 * ${vec} + _lane;
    }
#endif
    for (; _j0 + (_U - 1) * _G < _r1; _j0 += _U * _G) {
#pragma unroll
      for (int _u = 0; _u < _U; ++_u) {
        const ${index_t} _j = _j0 + _u * _G;
        ${red_indexer}
        ${load}
        ${step_u}
      }
    }
    for (; _j0 < _r1; _j0 += _G) {
      const ${index_t} _j = _j0;
      ${red_indexer}
      ${load}
      ${step_0}
    }
    _acc_t _t = _acc[0];
#pragma unroll
    for (int _u = 1; _u < _U; ++_u) _t = _reduce(_t, _acc[_u]);
#if ${group} > 1
#pragma unroll
    for (int _d = (_G < 32 ? _G : 32) / 2; _d > 0; _d >>= 1) _t = _reduce(_t, cuarray::shfl_down(_t, _d));
#endif
#if ${group} > 32
    if ((threadIdx.x & 31) == 0) _sm[threadIdx.x / 32] = _t;
    __syncthreads();
    if (threadIdx.x < 32) {
      _t = _sm[threadIdx.x < _G / 32 ? threadIdx.x : 0];
#pragma unroll
      for (int _d = _G / 64; _d > 0; _d >>= 1) _t = _reduce(_t, cuarray::shfl_down(_t, _d));
    }
    __syncthreads();
#endif
    if (_lane == 0) {
      ${store}
    }
  }
}
}  // namespace ${name}_ns
