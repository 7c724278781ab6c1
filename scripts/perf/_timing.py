"""Shared timing for the perf scripts: the median of CUDA-event times of `fn` on the current
stream, after a warm-up (METHOD: never trust a timing without a sync and a warm-up)."""

import statistics

import numpy

import cuarray


def event_times(fn, reps=30, warmup=3, cuda=None, spin_cycles=0):
    """Microseconds of each of `reps` calls of `fn()`, each between two events on the current stream.
    `cuda`: the module whose Event and get_elapsed_time time it (default cuarray.cuda; `cupy.cuda`,
    whose API cuarray.cuda follows, times a CuPy call on CuPy's current stream; any object with the
    same two names, and `spin(cycles)` for gpu_times, times another library: kept_fold.py's PyTorch). `spin_cycles`: a
    kernel spinning that long runs before each start event (`gpu_times`)."""
    cuda = cuarray.cuda if cuda is None else cuda
    spin = _spin(cuda) if spin_cycles else None
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, end = cuda.Event(), cuda.Event()
        if spin is not None:
            spin((1,), (1,), (numpy.int64(spin_cycles),))
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cuda.get_elapsed_time(start, end) * 1e3)
    return times


def event_us(fn, reps=30, warmup=3, cuda=None):
    """Median microseconds of `fn()` between two events on the current stream (`cuda`: event_times')."""
    return statistics.median(event_times(fn, reps, warmup, cuda))


_SPIN_SRC = ('extern "C" __global__ void perf_timing_spin(long long cycles)'
             ' { long long t0 = clock64(); while (clock64() - t0 < cycles) {} }')
_spin_kernels: dict = {}


def _spin(cuda):
    """A one-thread kernel that spins for a number of clock cycles, for `cuda`'s library; a `cuda`
    with a `spin(cycles)` of its own (a PyTorch adapter: torch.cuda._sleep) uses that."""
    own = getattr(cuda, "spin", None)
    if own is not None:
        return lambda grid, block, args: own(int(args[0]))
    k = _spin_kernels.get(id(cuda))
    if k is None:
        if cuda is cuarray.cuda:
            k = cuarray.RawKernel(_SPIN_SRC, "perf_timing_spin")
        else:
            import cupy

            k = cupy.RawKernel(_SPIN_SRC, "perf_timing_spin")
        _spin_kernels[id(cuda)] = k
    return k


def gpu_times(fn, reps=30, warmup=3, cuda=None, spin_cycles=4_000_000):
    """Microseconds of the GPU's work in each of `reps` calls of `fn()`, without the host's: a kernel
    spinning ~2 ms runs before the start event, so the host has queued all of `fn`'s work by the time
    the GPU reaches it (event_times alone counts the host's gaps between launches while the GPU
    waits, which is what a caller sees when the host is the slower side)."""
    return event_times(fn, reps, warmup, cuda, spin_cycles)


def gpu_us(fn, reps=30, warmup=3, cuda=None):
    """Median microseconds of the GPU's work in `fn()` (gpu_times)."""
    return statistics.median(gpu_times(fn, reps, warmup, cuda))
