"""cuarray.scipy.fftpack (id `fftpack`, group `scipy`) against cupyx.scipy.fftpack in the same run:
complex fft of 2^24 complex64, fftpack's packed rfft/irfft of 2^24 float32 (cuFFT's half spectrum
plus the packing copies: two for cuarray where the spectrum's axis is contiguous, three strided
ones for cupyx), irfft of a 4096 x 4096 float64 batch along axis 0, fftn of 256^3 complex64, and
the operators cupyx lacks (diff, hilbert: n/a for CuPy). Bytes: one read and one write of the
array, so the fraction of the copy rate says how close each is to the memory bound."""

from __future__ import annotations

from . import NotAvailable, random_array, scipy_module, register

M = 2**20
# param: (function, shape, dtype, keyword arguments)
_ROWS = {
    "fft c64 2^24": ("fft", (16 * M,), "complex64", {}),
    "rfft f32 2^24": ("rfft", (16 * M,), "float32", {}),
    "irfft f32 2^24": ("irfft", (16 * M,), "float32", {}),
    "irfft f64 4096^2 axis 0": ("irfft", (4096, 4096), "float64", {"axis": 0}),
    "fftn c64 256^3": ("fftn", (256, 256, 256), "complex64", {}),
    "diff f64 2^22": ("diff", (4 * M,), "float64", {}),
    "hilbert f64 2^22": ("hilbert", (4 * M,), "float64", {}),
}
_QUICK = {"fft c64 2^24": (M,), "rfft f32 2^24": (M,), "irfft f32 2^24": (M,), "irfft f64 4096^2 axis 0": (1024, 1024),
          "fftn c64 256^3": (64, 64, 64), "diff f64 2^22": (M // 4,), "hilbert f64 2^22": (M // 4,)}


def _shape(param, size):
    return _ROWS[param][1] if size == "full" else _QUICK[param]


def _bytes(param, size):
    n = 1
    for d in _shape(param, size):
        n *= d
    itemsize = {"complex64": 8, "float32": 4, "float64": 8}[_ROWS[param][2]]
    return 2 * itemsize * n


case = register(
    "fftpack", group="scipy",
    description="scipy.fftpack: fft, packed rfft/irfft, fftn, diff/hilbert (cupyx.scipy.fftpack in the same run)",
    size="full", quick="quick", params=tuple(_ROWS), size_label=lambda s: s,
    nbytes=lambda size, p: _bytes(p, size),
)


@case.setup("cuarray", "cupy")
def _(xp, size, param):
    name, _, dtype, kw = _ROWS[param]
    mod = scipy_module(xp, "fftpack")
    f = getattr(mod, name, None)
    if f is None:
        raise NotAvailable("{} has no fftpack.{}".format(mod.__name__, name))
    x = random_array(xp, _shape(param, size), dtype, seed=41)
    return lambda: f(x, **kw)
