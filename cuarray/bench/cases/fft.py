"""FFT cases (docs/bench-targets.md "fft"): 1-D complex64 2^26, 2-D complex64 8192^2, rfft of 2^26 float32,
a 100000 x 256 complex64 batch along the last axis, and the host time of a 4096-point transform
with a warm plan (1000 calls, one sync). Every library calls cuFFT, so the large cases compare
layout and plan reuse; bytes counted are one read of the input and one write of the output."""

from __future__ import annotations

from . import random_array, register


def _fft_fn(xp, kind):
    if getattr(xp, "__name__", "") == "torch":
        return {"fft": lambda x: xp.fft.fft(x), "fft2": lambda x: xp.fft.fft2(x),
                "rfft": lambda x: xp.fft.rfft(x)}[kind]
    return getattr(xp.fft, kind)


_LARGE = {
    # param: (transform, shape, dtype)
    "1-D c64 2^26": ("fft", (2**26,), "complex64"),
    "2-D c64 8192^2": ("fft2", (8192, 8192), "complex64"),
    "rfft f32 2^26": ("rfft", (2**26,), "float32"),
    "batch 100000x256 c64": ("fft", (100000, 256), "complex64"),
}
_QUICK = {"1-D c64 2^26": (2**24,), "2-D c64 8192^2": (4096, 4096), "rfft f32 2^26": (2**24,),
          "batch 100000x256 c64": (25000, 256)}

def _shape(param, size):
    return _LARGE[param][1] if size == "full" else _QUICK[param]


def _bytes(param, size) -> int:
    shape = _shape(param, size)
    n = 1
    for d in shape:
        n *= d
    if _LARGE[param][0] == "rfft":
        return 4 * n + 8 * (n // 2 + 1)
    return 2 * 8 * n


fft_large = register(
    "fft", group="fft",
    description="fft 1-D/2-D complex64, rfft float32, batched fft (read + write)",
    size="full", quick="quick", params=tuple(_LARGE),
    nbytes=lambda size, p: _bytes(p, size),
    size_label=lambda s: s,
)


@fft_large.setup("cuarray", "cupy", "torch")
def _(xp, size, param):
    kind, _, dtype = _LARGE[param]
    shape = _shape(param, size)
    x = random_array(xp, shape, dtype, seed=31)
    f = _fft_fn(xp, kind)
    return lambda: f(x)


fft_small = register(
    "fft-small", group="fft",
    description="fft of 4096 complex64 with a warm plan, 1000 calls then one sync: host time per call",
    size=1000, quick=1000, timing="host", ops=1000, rounds=5,
    size_label=lambda n: "4096 c64 x {}".format(n),
)


@fft_small.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = random_array(xp, 4096, "complex64", seed=32)
    f = _fft_fn(xp, "fft")

    def run():
        for _ in range(n):
            f(x)

    return run
