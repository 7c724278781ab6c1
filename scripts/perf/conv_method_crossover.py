"""Where scipy.signal.convolve's direct kernel and its FFT path cross (cuarray.scipy.signal), to set
the constant of `choose_conv_method`'s cost model (_convolve.py: direct ~ outputs x kernel, FFT ~
40 n log2 n). Prints, per (signal, kernel) size, both times and the model's pick; the model is
right where its pick is the faster column.

    PYTHONPATH=. python scripts/perf/conv_method_crossover.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy  # noqa: E402
from _timing import event_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import signal  # noqa: E402

CASES = [((2**20,), (k,)) for k in (3, 15, 63, 255, 1023)] + \
        [((2048, 2048), (k, k)) for k in (3, 7, 15, 31)] + [((128, 128, 128), (k, k, k)) for k in (3, 5, 9)]


def main():
    rng = numpy.random.default_rng(0)
    print("{:>20} {:>14} {:>12} {:>12} {:>8}".format("signal", "kernel", "direct us", "fft us", "model"))
    for s1, s2 in CASES:
        a = cuarray.asarray(rng.random(s1, dtype=numpy.float32))
        b = cuarray.asarray(rng.random(s2, dtype=numpy.float32))
        td = event_us(lambda: signal.convolve(a, b, "same", method="direct"), reps=10)
        tf = event_us(lambda: signal.convolve(a, b, "same", method="fft"), reps=10)
        pick = signal.choose_conv_method(a, b, "same")
        print("{:>20} {:>14} {:>12.1f} {:>12.1f} {:>8}".format(str(s1), str(s2), td, tf, pick))


if __name__ == "__main__":
    main()
