"""cuarray.scipy.fft's real-to-real transforms (group `scipy`): dct / idct type 2 and dst type 2
of 2^26 float32 and of 4096 x 4096 float64 along the last axis, against cupyx.scipy.fft (CuPy's
dct/dst) in the same run. Bytes: one read and one write of the array, so the fraction of the copy
rate says how close the FFT-based transform (about an FFT of twice the length plus twiddles) is
to the memory bound."""

from __future__ import annotations

from . import random_array, register
import cuarray.scipy.fft

M = 2**20
_OPS = (("dct", 2), ("idct", 2), ("dst", 2), ("dct", 4))


def _fftmod(xp):
    if getattr(xp, "__name__", "") == "cuarray":
        return cuarray.scipy.fft
    import cupyx.scipy.fft

    return cupyx.scipy.fft


r2r = register(
    "scipy-dct", group="scipy",
    description="dct/idct/dst type 2, dct type 4 along the last axis: 2^26 float32 and 4096x4096 float64",
    size=1, size_label=lambda n: "(per row)", params=tuple((op, shape) for shape in ("1d", "2d") for op in _OPS),
    param_label=lambda p: "{}{} {}".format(p[0][0], p[0][1], "2^26 f32" if p[1] == "1d" else "4096^2 f64"),
    nbytes=lambda n, p: 2 * (64 * M * 4 if p[1] == "1d" else 4096 * 4096 * 8),
)


@r2r.setup("cuarray", "cupy")
def _(xp, n, param):
    (name, t), shape = param
    x = random_array(xp, 64 * M if shape == "1d" else (4096, 4096), "float32" if shape == "1d" else "float64",
                     seed=31)
    f = getattr(_fftmod(xp), name)
    return lambda: f(x, type=t)
