"""Signal cases: `convolve` of a long float32 signal with a short kernel (direct kernel) and with
a long one (through the FFT), against CuPy's and NumPy's convolve and torch.nn.functional.conv1d
(full float32: cuDNN's TF32 off for the row). float32 at these sizes takes overlap-save blocks from
`convolution.FFT_MIN_SHORT_BLOCKS_F4` taps (k=1023 and up), of at most 8192 where cheaper (see
fft_convolve.py).
flops: 2 per multiply-add of the direct definition (the FFT rows' TFLOP/s is equivalent work).

`resample_poly` of a float64 signal (SciPy's default Kaiser FIR of 20 max(up, down) + 1 taps,
about 20 of them per output sample whatever the ratio) against cupyx.scipy.signal and SciPy on the
host ("numpy" column). float64 because CuPy's filter stays float64 (SciPy's and ours take the
signal's dtype), so a float32 row would time CuPy converting the signal and computing and writing
twice the bytes. Bytes counted: the input read and the output written once. PyTorch has no
resample_poly (torchaudio's resample is another filter, outside torch)."""

from __future__ import annotations

from . import NotAvailable, random_array, register, scipy_module

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


def conv1d_same_padding(k: int) -> int:
    """The zero padding each side that makes conv1d(x, flip(w))[:n] equal convolve(x, w, 'same').

    'same' is the full convolution from index (k - 1) // 2 (NumPy's and SciPy's centring). conv1d
    is cross-correlation of the zero-padded input, out[i] = sum_j xpad[i + j] wf[j] with
    xpad[m] = x[m - p]; with wf[j] = w[k - 1 - j] that is full[i + k - 1 - p]. So p = k - 1 -
    (k - 1) // 2 = k // 2 on both sides, n + 1 outputs for even k (the last dropped). torch's
    padding='same' pads (k - 1) // 2 on the left: one sample late for even k (1024, 2048)."""
    return k // 2


@conv.setup("torch")
def _(torch, n, k):
    x = random_array(torch, n, "float32", seed=21).reshape(1, 1, n)
    w = torch.flip(random_array(torch, k, "float32", seed=22), (0,)).reshape(1, 1, k)  # flipped once, here
    conv1d, pad = torch.nn.functional.conv1d, conv1d_same_padding(k)
    cudnn = torch.backends.cudnn
    tf32, cudnn.allow_tf32 = cudnn.allow_tf32, False  # full float32, as every other column (benchmark mode: default)
    try:
        yield lambda: conv1d(x, w, padding=pad)[0, 0, :n]
    finally:
        cudnn.allow_tf32 = tf32


def _signal(xp):
    return scipy_module(xp, "signal")


def resampled_len(n: int, up: int, down: int) -> int:
    """resample_poly's output length, ceil(n up / down)."""
    return -(-n * up // down)


resample = register(
    "resample_poly", group="signal",
    description="signal.resample_poly(x, up, down) of float64 x (n samples), the default Kaiser FIR; rows up/down",
    size=10**7, quick=10**6,
    # 3/2: a short filter (61 taps); 160/147: 44.1 -> 48 kHz audio, a 3201-tap filter in 160 phases
    params=((3, 2), (160, 147)),
    nbytes=lambda n, p: 8.0 * (n + resampled_len(n, *p)),
    param_label=lambda p: "{}/{}".format(*p),
)


@resample.setup("cuarray", "cupy", "numpy")
def _(xp, n, p):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=23)
    up, down = p
    return lambda: sig.resample_poly(x, up, down)
