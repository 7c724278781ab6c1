"""Shared timing for the perf scripts: the median of CUDA-event times of `fn` on the current
stream, after a warm-up (METHOD: never trust a timing without a sync and a warm-up)."""

import statistics

import cuarray


def event_times(fn, reps=30, warmup=3, cuda=None):
    """Microseconds of each of `reps` calls of `fn()`, each between two events on the current stream.
    `cuda`: the module whose Event and get_elapsed_time time it (default cuarray.cuda; `cupy.cuda`,
    whose API cuarray.cuda follows, times a CuPy call on CuPy's current stream)."""
    cuda = cuarray.cuda if cuda is None else cuda
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, end = cuda.Event(), cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cuda.get_elapsed_time(start, end) * 1e3)
    return times


def event_us(fn, reps=30, warmup=3, cuda=None):
    """Median microseconds of `fn()` between two events on the current stream (`cuda`: event_times')."""
    return statistics.median(event_times(fn, reps, warmup, cuda))
