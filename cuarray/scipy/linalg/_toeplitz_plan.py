"""solve_toeplitz's route: a pure function of the problem's shape, its dtype and the device's SM
count (no arrays, no launches, no device reads), tested on the CPU at the boundary shapes
(tests/scipy/test_linalg_toeplitz_plan_cpu.py).

"levinson": Levinson's recursion (_levinson.py, templates/levinson.cu), O(n^2) work and O(n)
memory a system, but n dependent steps in one launch, a block a system: latency-bound for few
systems. "dense-lu": the n x n matrix built on the device and solved by LU (cuarray.linalg.solve:
cuSOLVER getrf/getrs), O(n^3) work at the matrix rate and n^2 memory a matrix.

The model (times in microseconds). The constants are estimates read from the code, not
measurements, except that Levinson's are scaled to the one timing the issue reports (n = 4096,
one system: ~10 ms, against ~2 ms by the dense route); re-measure them before trusting the
crossover to better than a factor of two.

Levinson, a step m of templates/levinson.cu (256 threads): two block-wide dot products of m terms
(ef, eb: a strided loop, a warp-shuffle sum, a barrier, thread 0 summing 8 warp partials, a
barrier), the f/g update (two divisions an element, a barrier), then for each group of 8
right-hand sides (the block's warps) one warp's dot product of m terms (m / 32 dependent load-add
iterations a lane), its shuffle sum, two barriers and the x update. About four rounds of
dependent L1/L2 loads and five barriers a step whatever m:

    step(m)  = LEVINSON_STEP_US + groups * (LEVINSON_GROUP_US + LEVINSON_GROUP_NS_PER_M * m / 1000)
    levinson = waves * n * step(n / 2),  waves = ceil(systems / (LEVINSON_BLOCKS_PER_SM * sms))

n = 4096, k = 1: 4096 * (1.2 + 0.6 + 0.3 * 2048 / 1000) us = 9.9 ms, the reported ~10 ms.

Dense LU: getrf's 2/3 n^3 multiply-adds a matrix (a complex one is 4 real ones) at
DENSE_FLOPS, getrs' 2 n^2 k, plus a fixed DENSE_SYSTEM_US a matrix (the matrix built, getrf's chain
of panel launches, the singular check's device read; systems of one matrix share one LU):

    dense = matrices * DENSE_SYSTEM_US + (4 if complex) * (matrices * 2/3 n^3 + systems * 2 n^2 k) / DENSE_FLOPS

The dense route is taken where it is predicted DENSE_ADVANTAGE times faster and its matrices
(matrices * n^2 * itemsize) fit DENSE_BYTES_MAX. The dense range this gives (132 SMs, k = 1): one
system or one matrix shared by many, float64 n = 326..11,379, complex128 n = 327..4,723 (k = 11:
from n = 243); two distinct matrices n = 641..7,110, four n = 1,326..4,159 (float64); eight or
more: never (Levinson's systems run side by side, the LUs one after another)."""

from __future__ import annotations

__all__ = ["route", "levinson_us", "dense_us", "LEVINSON", "DENSE_LU"]

LEVINSON = "levinson"
DENSE_LU = "dense-lu"

# Levinson (see the module docstring): a step's fixed part (ef and eb, their block reduction, the
# f/g update: about two dependent L2 round trips and three barriers), each group of right-hand
# sides' fixed part (ex's shuffle sum, two barriers, the x update) and its part growing with m
# (a lane's m / 32 dependent iterations of ~10 cycles at ~1.8 GHz: 0.17 ns an m, plus the block's
# strided loops: 0.3 ns).
LEVINSON_STEP_US = 1.2
LEVINSON_GROUP_US = 0.6
LEVINSON_GROUP_NS_PER_M = 0.3
LEVINSON_GROUP = 8  # right-hand sides a group: the block's warps (256 / 32)
# Resident blocks an SM: the kernel takes 84 (float64) or 102 (complex128) registers a thread
# (NVRTC, sm_90), 22-27k a block of 256 of the SM's 64k: 2.
LEVINSON_BLOCKS_PER_SM = 2

# Dense LU: cuSOLVER getrf's float64 rate on large matrices (the H100's FP64 tensor-core peak is
# ~67 TFLOP/s), and a matrix's fixed cost (building it, getrf's panel launches, the device read
# of the singular check).
DENSE_FLOPS = 50e12
DENSE_SYSTEM_US = 300.0
# The dense route's memory: the matrices (their LU copy is made in place of the built matrix's
# copy; cuarray.linalg.solve holds both for a moment, so the peak is about twice this).
DENSE_BYTES_MAX = 1 << 30
# Dense only where predicted this many times faster: near the crossover the gain is small, the
# model is an estimate, and Levinson is SciPy's own algorithm (its 'Singular principal minor'
# errors, its rounding), so ties go to it.
DENSE_ADVANTAGE = 2.0


def levinson_us(n: int, k: int, systems: int, sms: int) -> float:
    """Predicted time of the Levinson kernel for `systems` systems of order n, k right-hand sides each."""
    groups = -(-max(k, 1) // LEVINSON_GROUP)
    waves = -(-max(systems, 1) // (LEVINSON_BLOCKS_PER_SM * max(sms, 1)))
    step = LEVINSON_STEP_US + groups * (LEVINSON_GROUP_US + LEVINSON_GROUP_NS_PER_M * (n / 2) / 1000.0)
    return waves * n * step


def dense_us(n: int, k: int, systems: int, matrices: int, complex_: bool) -> float:
    """Predicted time of the dense route: `matrices` LU factorisations of order n (1: one shared by
    every system), `systems` x k right-hand sides solved."""
    flops = (4.0 if complex_ else 1.0) * (matrices * 2.0 / 3.0 * n ** 3 + systems * 2.0 * n * n * k)
    return matrices * DENSE_SYSTEM_US + flops / DENSE_FLOPS * 1e6


def route(n: int, k: int, systems: int, matrices: int, complex_: bool, sms: int) -> str:
    """LEVINSON or DENSE_LU for `systems` Toeplitz systems of order n with k right-hand sides each,
    `matrices` distinct matrices among them (1 or systems), float64 or complex128 (`complex_`), on
    a device with `sms` multiprocessors."""
    itemsize = 16 if complex_ else 8
    if n < 2 or matrices * n * n * itemsize > DENSE_BYTES_MAX:
        return LEVINSON
    if DENSE_ADVANTAGE * dense_us(n, k, systems, matrices, complex_) <= levinson_us(n, k, systems, sms):
        return DENSE_LU
    return LEVINSON
