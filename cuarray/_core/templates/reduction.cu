// cuarray reduction kernel skeleton (one skeleton for every strategy; cuarray/_core/reduction.py).
// `_G` threads cooperate on one output: 1 (a thread walks its output's elements: reductions over
// the slow axis, coalesced across neighbouring outputs), 32 (a warp per output) or the whole
// block. blockIdx.y picks the chunk [_r0, _r1) of the reduced index; with several chunks the
// kernel writes partials that a second pass of this skeleton (source "partial") combines, in a
// fixed order: results are the same run to run. The second pass is either a second launch or,
// when the partials are few, fused: the last block to finish runs it (section @@finish@@). Each thread keeps `_U` independent accumulators
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
//   <r0>/<r1>      the chunk of the reduced index; <o0>/<ostep>: the block's first output group
//                  and the stride of the output loop (in groups of _GPB outputs)
//   <o_cond>       the output loop's condition: `_o < _n_out`, or for groups of 2-16 lanes (several
//                  outputs per warp, whose shuffles need the whole warp) the warp's first output
//                  `< _n_out`: a group past the end recomputes the last output (<out_indexer>
//                  clamps) and does not store
// The file holds three pieces (reduction.py splits it at the `// @@` lines): the kernel, whose
// <pass1> is one pass (the second piece, filled in) and <finish> empty or the third piece with
// <pass2> the fused second pass.
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
${pass1}
${finish}
}
}  // namespace ${name}_ns
// @@pass@@
// One pass: outputs from group <o0> in steps of <ostep> groups, reduced index [_r0, _r1).
  {
    constexpr int _G = ${group};
    // _S sub-chunks per block (thread-per-output plans with few outputs, see reduction.py): thread
    // t takes output t % _GPB and every _S-th element of the chunk from t / _GPB, its own partial.
    constexpr int _S = ${sub};
    constexpr int _GPB = ${block} / _G / _S;
    constexpr int _LS = _G * _S;  // stride of a lane over the reduced index
    constexpr int _U = ${unroll};
    const int _lane = _S > 1 ? (int)(threadIdx.x / _GPB) : (int)(threadIdx.x % _G);
    const ${index_t} _r0 = ${r0};
    const ${index_t} _r1 = ${r1};
#if ${group} > 32
    __shared__ alignas(16) unsigned char _smem_raw[(${block} / 32) * sizeof(_acc_t)];
    _acc_t* _sm = reinterpret_cast<_acc_t*>(_smem_raw);
#endif
    for (${index_t} _o = ${o0} * _GPB + (_S > 1 ? threadIdx.x % _GPB : threadIdx.x / _G); ${o_cond};
         _o += ${ostep} * _GPB) {
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
      for (; _j0 + (_U - 1) * _LS < _r1; _j0 += _U * _LS) {
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
          const ${index_t} _j = _j0 + _u * _LS;
          ${red_indexer}
          ${load}
          ${step_u}
        }
      }
      for (; _j0 < _r1; _j0 += _LS) {
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
      if (_S > 1 || _lane == 0) {
        ${store}
      }
    }
  }
// @@finish@@
// Fused second pass: the last block of the grid to finish combines every output's
// partials (written [out][chunk] or [chunk][out] into _part_out) in the fixed order of the
// two-launch form, so results are the same bit for bit. `_counter` is zero before the launch and
// the last block sets it back to zero (one counter per stream: kernels of a stream run in order).
  {
    __shared__ bool _last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) _last = atomicAdd(_counter, 1u) == gridDim.x * gridDim.y - 1;
    __syncthreads();
    if (!_last) return;
    __threadfence();
  }
${pass2}
  if (threadIdx.x == 0) *_counter = 0u;
// @@tile@@
// Row tiles (reduction.py, `_ROW_TILE`): every row is exactly _G lanes x _M 16-byte vectors
// (compile-time, so no loop over the row), a group of _G lanes takes _R rows _GPB groups apart,
// and each lane issues all its _R x _M loads before its first step: _R x _M x 16 bytes in flight a
// lane, where the one-pass skeleton above has one row's loads behind its runtime loop bounds. A
// warp's load instruction still reads 512 contiguous bytes when _M is 1. The loop runs while the
// warp's first group has a row (its shuffles need the whole warp). A warp whose every row exists
// takes <body_full>; the last warps take <body_tail>, where rows past the end are clamped onto the
// last one (<out_indexer>) and not stored (the same body: two copies, because with the store
// conditional the compiler sinks each row's loads under that condition, after earlier rows' stores).
  {
    constexpr int _G = ${group};
    constexpr int _M = ${mvec};
    constexpr int _R = ${rows};
    constexpr int _GPB = ${block} / _G;
    const int _lane = (int)(threadIdx.x % _G);
    for (${index_t} _ot = (${index_t})blockIdx.x * (_GPB * _R) + threadIdx.x / _G;
         _ot - (${index_t})((threadIdx.x & 31) / _G) < _n_out; _ot += (${index_t})gridDim.x * (_GPB * _R)) {
      if (_ot - (${index_t})((threadIdx.x & 31) / _G) + (32 / _G - 1) + (_R - 1) * _GPB < _n_out) {
${body_full}
      } else {
${body_tail}
      }
    }
  }
// @@tilebody@@
      ${vdecl}
#pragma unroll
      for (int _r = 0; _r < _R; ++_r) {
        const ${index_t} _o = _ot + _r * _GPB;
        ${out_indexer}
#pragma unroll
        for (int _m = 0; _m < _M; ++_m) {
          const ${index_t} _jvu = _lane + _m * _G;
          ${vload}
        }
      }
#pragma unroll
      for (int _r = 0; _r < _R; ++_r) {
        const ${index_t} _o = _ot + _r * _GPB;
        ${out_indexer}
        _acc_t _acc[1] = {${identity}};
#pragma unroll
        for (int _m = 0; _m < _M; ++_m) {
#pragma unroll
          for (int _k = 0; _k < ${vec}; ++_k) {
            const ${index_t} _j = (_lane + _m * _G) * ${vec} + _k;
            ${lane_load}
            ${step_0}
          }
        }
        _acc_t _t = _acc[0];
#if ${group} > 1
#pragma unroll
        for (int _d = _G / 2; _d > 0; _d >>= 1) _t = _reduce(_t, cuarray::shfl_down(_t, _d));
#endif
        if (${store_cond}) {
          ${store}
        }
      }
// @@cols@@
// Output vectors (reduction.py, `_OUT_VEC`): a few outputs along a contiguous kept axis
// (`sum(axis=0)` of (n, 4) float32). A thread takes _V adjacent outputs with one 16-byte load per
// reduced element (a warp's load reads 512 contiguous bytes when the outputs fill 16 bytes), _S
// threads (sub-chunks) share each vector of outputs, and the block combines its sub-chunks into
// one partial per output, in a fixed order (the _U accumulators, shuffles between the lanes of a
// warp that share a vector, then the warps through shared memory: reduction.cuh, out_vec_*): one
// partial per block and output, so the grid can be as wide as the GPU while the second pass stays
// short.
  {
    constexpr int _S = ${sub};
    constexpr int _V = ${ovec};
    constexpr int _GPB = ${block} / _S;  // vectors of outputs a block holds (1 to 32)
    constexpr int _U = ${unroll};
    const int _lane = (int)(threadIdx.x / _GPB);
    const ${index_t} _r0 = ${r0};
    const ${index_t} _r1 = ${r1};
    const ${index_t} _ov = (${index_t})(threadIdx.x % _GPB);
    __shared__ alignas(16) unsigned char _smem_raw[(${block} / 32) * _GPB * _V * sizeof(_acc_t)];
    _acc_t* _sm = reinterpret_cast<_acc_t*>(_smem_raw);
    _acc_t _acc[${accs}][_V];
#pragma unroll
    for (int _u = 0; _u < ${accs}; ++_u) {
#pragma unroll
      for (int _k = 0; _k < _V; ++_k) _acc[_u][_k] = ${identity};
    }
    if (_ov < _n_out / _V) {
      const ${index_t} _o = _ov * _V;
      ${out_indexer}
      ${index_t} _j0 = _r0 + _lane;
      // Every load of a round into registers first, then the steps: written as one loop, ptxas
      // interleaved them (4 of 8 loads in flight, sm_90 SASS).
      for (; _j0 + (_U - 1) * _S < _r1; _j0 += _U * _S) {
        ${vdecl}
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
          const ${index_t} _j = _j0 + _u * _S;
          ${vload}
        }
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
          const ${index_t} _j = _j0 + _u * _S;  // argmax's index
#pragma unroll
          for (int _k = 0; _k < _V; ++_k) {
            ${lane_load}
            ${step_u}
          }
        }
      }
      for (; _j0 < _r1; _j0 += _S) {
        const ${index_t} _j = _j0;
        const int _u = 0;
        ${vdecl}
        ${vload}
#pragma unroll
        for (int _k = 0; _k < _V; ++_k) {
          ${lane_load}
          ${step_0}
        }
      }
    }
    _acc_t _t[_V];
#pragma unroll
    for (int _k = 0; _k < _V; ++_k) {
      _t[_k] = _acc[0][_k];
#pragma unroll
      for (int _u = 1; _u < ${accs}; ++_u) _t[_k] = _reduce(_t[_k], _acc[_u][_k]);
      cuarray::out_vec_warp_combine<_GPB>(_t[_k], _reduce);
    }
    cuarray::out_vec_warp_to_shared<_GPB>(_t, _sm, _ov);
    if (threadIdx.x < _n_out) {
      const ${index_t} _o = threadIdx.x;
      ${out_indexer}
      const _acc_t _t = cuarray::out_vec_block_partial<${block} / 32, _GPB * _V>(_sm, _o, _reduce);
      ${store}
    }
  }
// @@fold@@
// Folded output vectors (reduction.py, `_OUT_FOLD`): the row of outputs is 2, 4 or 8 bytes (axis 0
// of (n, 2) float32) and rows follow one another from an aligned pointer, so _F = 16 / row rows
// are one aligned 16-byte vector of _V lanes, lane k holding output k % _NO of row _F * J + k / _NO.
// Thread t of chunk [_r0, _r1) (in vectors) takes vectors _r0 + t + m * 256, one accumulator a lane
// (a set of _V per <accs>), and folds the _F lanes of each output together at its end in a fixed
// order (set by set, lane group by lane group); then the block combines its threads as the
// output-vector pass does, one vector of outputs a block (reduction.cuh, out_vec_*: shuffles, then
// the 8 warps through shared memory): one partial per block and output. A thread meets each lane's
// rows in increasing order (argmax's in-order step holds).
// The rows past the last whole vector (fewer than _F) go to thread 0 of the last chunk, after its
// vectors: one element a load.
  {
    constexpr int _S = ${block};
    constexpr int _V = ${ovec};
    constexpr int _F = ${fold};
    constexpr int _NO = _V / _F;  // outputs
    constexpr int _U = ${unroll};
    const ${index_t} _nv = _n_red / _F;  // whole vectors
    const ${index_t} _r0 = ${r0};
    const ${index_t} _r1 = min(_r0 + _chunk, _nv);
    __shared__ alignas(16) unsigned char _smem_raw[(${block} / 32) * _NO * sizeof(_acc_t)];
    _acc_t* _sm = reinterpret_cast<_acc_t*>(_smem_raw);
    _acc_t _acc[${accs}][_V];
#pragma unroll
    for (int _u = 0; _u < ${accs}; ++_u) {
#pragma unroll
      for (int _k = 0; _k < _V; ++_k) _acc[_u][_k] = ${identity};
    }
    {
      const ${index_t} _o = 0;
      ${out_indexer}
      ${index_t} _j0 = _r0 + (${index_t})threadIdx.x;
      // Every load of a round first, then the steps (as the output-vector pass).
      for (; _j0 + (_U - 1) * _S < _r1; _j0 += _U * _S) {
        ${vdecl}
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
          const ${index_t} _jv = _j0 + _u * _S;
          ${vload}
        }
#pragma unroll
        for (int _u = 0; _u < _U; ++_u) {
#pragma unroll
          for (int _k = 0; _k < _V; ++_k) {
            const ${index_t} _j = (_j0 + _u * _S) * _F + _k / _NO;  // the row (argmax's index)
            ${lane_load}
            ${step_u}
          }
        }
      }
      for (; _j0 < _r1; _j0 += _S) {
        const ${index_t} _jv = _j0;
        const int _u = 0;
        ${vdecl}
        ${vload}
#pragma unroll
        for (int _k = 0; _k < _V; ++_k) {
          const ${index_t} _j = _jv * _F + _k / _NO;
          ${lane_load}
          ${step_0}
        }
      }
      if (threadIdx.x == 0 && blockIdx.y == gridDim.y - 1 && _nv * _F < _n_red) {
        const int _u = 0;
        ${vdecl}
#pragma unroll
        for (int _k = 0; _k < _V; ++_k) {
          const ${index_t} _j = _nv * _F + _k / _NO;
          if (_j < _n_red) {
            ${tail_load}
          }
        }
#pragma unroll
        for (int _k = 0; _k < _V; ++_k) {
          const ${index_t} _j = _nv * _F + _k / _NO;
          if (_j < _n_red) {
            ${lane_load}
            ${step_0}
          }
        }
      }
    }
    _acc_t _t[_NO];
#pragma unroll
    for (int _c = 0; _c < _NO; ++_c) {
      _t[_c] = _acc[0][_c];
#pragma unroll
      for (int _u = 0; _u < ${accs}; ++_u) {
#pragma unroll
        for (int _f = _u == 0 ? 1 : 0; _f < _F; ++_f) _t[_c] = _reduce(_t[_c], _acc[_u][_f * _NO + _c]);
      }
      cuarray::out_vec_warp_combine<1>(_t[_c], _reduce);
    }
    cuarray::out_vec_warp_to_shared<1>(_t, _sm, 0);
    if (threadIdx.x < _NO) {
      const ${index_t} _o = threadIdx.x;
      ${out_indexer}
      const _acc_t _t = cuarray::out_vec_block_partial<${block} / 32, _NO>(_sm, _o, _reduce);
      ${store}
    }
  }
