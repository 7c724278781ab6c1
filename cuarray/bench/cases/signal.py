"""Signal cases: `convolve` of a long float32 signal with a short kernel (direct kernel) and with
a long one (through the FFT), against CuPy's convolve. float32 at these sizes takes overlap-save
blocks from `convolution.FFT_MIN_SHORT_BLOCKS_F4` taps (k=1023 and up),
of at most 8192 where cheaper (see fft_convolve.py).
flops: 2 per multiply-add of the direct definition (the FFT rows' TFLOP/s is equivalent work)."""

from __future__ import annotations

from . import NotAvailable, random_array, register

conv = register(
    "convolve", group="signal",
    description="convolve(x, k, 'same') of float32 x (n elements) with a kernel of length k",
    size=2**24, quick=2**22, params=(15, 127, 255, 1023, 1024, 2048),
    flops=lambda n, k: 2.0 * n * k,
    param_label=lambda k: "k={}".format(k),
)


@conv.setup("cuarray", "cupy")
def _(xp, n, k):
    x = random_array(xp, n, "float32", seed=21)
    w = random_array(xp, k, "float32", seed=22)
    return lambda: xp.convolve(x, w, "same")


@conv.setup("numpy")
def _(np, n, k):
    if n * k > 2**28:
        raise NotAvailable("too slow on the host at this size")
    x = random_array(np, n, "float32", seed=21)
    w = random_array(np, k, "float32", seed=22)
    return lambda: np.convolve(x, w, "same")
