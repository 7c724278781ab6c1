"""The full linear convolution of two 1-D vectors by one FFT length, in few launches: both operands
zero-padded into one (2, n) buffer (one kernel; a memset and two copies before, the copy of 4 MB
measured at ~92 GB/s), one batched forward transform (a cached cuFFT recipe), one kernel for the
spectra's product with the 1/n scale (and, for real data, the imaginary parts at 0 and n/2
cleared, as NumPy's irfft ignores them), one inverse transform run straight on that private
product (C2R overwrites its input: no protecting copy, no separate scale pass). `n` is `fast_len`
of the full length (cuFFT's fast radices; a small odd part past 2^14 points).

When one real operand is much the shorter (`use_blocks`), `convolve_blocks` runs overlap-save
instead: blocks of a `fast_len` length >= 8 k (k the short length; float32 at most 8192 where
`block_cost` says so) every B - k + 1 samples, written by
one kernel, one batched R2C, the product with the short operand's one-block spectrum, one batched
C2R, the valid part of each block gathered by one kernel: every transform fits in fast memory and
the short operand is never transformed at the whole length.

Used by `numpy.convolve`/`correlate` for long operands (`convolution._fft_full`) and by
`scipy.signal.fftconvolve`/`convolve` of 1-D operands. The general path (rfft with `n`, product,
irfft, slice, cast) took ~11 launches, two of the transforms through the uncached planner, and two
whole extra passes (irfft's input copy, the final copy)."""

from __future__ import annotations

import functools

import numpy

from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core.copying import copy as _copy
from .._core.elementwise import Definition, KernelParam
from .._creation.basic import empty, zeros
from ..cuda.libs import cufft as _cufft
from ..fft import _fft
from ..cuda import caches as _caches

__all__ = ["fast_len", "convolve_full", "c2r_key", "block_len", "block_cost", "use_blocks", "convolve_blocks",
           "BLOCKS_MIN", "BLOCK_ONE_PASS"]

# p = a * b / n; for a real transform the DC term (dc = 0) and (n even) the n/2 term (k = i mod m,
# m the spectrum's length) are real by definition; a complex one keeps every term (dc = nyq = -1).
_PRODUCT_OP = ("const long long k_ = (long long)i % m; C p_ = a * b; if (k_ == dc || k_ == nyq) p_ = C(p_.real(), 0); "
               "y = C(p_.real() * s, p_.imag() * s)")
# Row 0 of the (2, n) transform input: a zero-padded to n; row 1: b (one pass, no memset and copies).
_PACK_OP = ("const long long r_ = (long long)i / n, j_ = (long long)i - r_ * n; "
            "y = r_ == 0 ? (j_ < na ? a[j_] : T(0)) : (j_ < nb ? b[j_] : T(0))")
# Block b of the overlap-save frames: samples off + b S .. off + b S + B - 1 of a (zero outside it).
_FRAMES_OP = ("const long long t_ = (long long)i % B, s_ = off + ((long long)i / B) * S + t_; "
              "y = s_ >= 0 && s_ < na ? a[s_] : T(0)")
# Output i: sample k1 + (i mod S) of block i / S's circular convolution (its valid part).
_GATHER_OP = "const long long b_ = (long long)i / S; out = y[b_ * B + k1 + ((long long)i - b_ * S)]"


# name: (in params, out param, operation, kernel name); the placeholder (C or T) is the dtype of
# the arrays, which all have one.
_ROWS = {
    "product": ("C a, C b, float64 s, int64 dc, int64 nyq, int64 m", "C y", _PRODUCT_OP,
                "cuarray_fft_convolve_product"),
    "pack": ("raw T a, raw T b, int64 na, int64 nb, int64 n", "T y", _PACK_OP, "cuarray_fft_convolve_pack"),
    "frames": ("raw T a, int64 na, int64 B, int64 S, int64 off", "T y", _FRAMES_OP, "cuarray_fft_convolve_frames"),
    "gather": ("raw T y, int64 B, int64 S, int64 k1", "T out", _GATHER_OP, "cuarray_fft_convolve_gather"),
}
_defs: dict = {}
_caches.register("fftconvolve definitions", _defs)


def _params(name):
    """[(raw, type name, name)] of row `name`'s inputs, then its output."""
    ins, out, _, _ = _ROWS[name]
    words = [w.split() for w in ins.split(",")] + [out.split()]
    return [(True, w[1], w[2]) if w[0] == "raw" else (False, w[0], w[1]) for w in words]


def definition(name, dt) -> Definition:
    """The engine's elementwise kernel of row `name` over arrays of dtype `dt`."""
    key = (name, dt)
    d = _defs.get(key)
    if d is None:
        words = _params(name)
        tv = _ROWS[name][1].split()[0]
        params = []
        for k, (raw, tname, pname) in enumerate(words):
            pdt = dt if tname == tv else numpy.dtype(tname)
            if k == len(words) - 1:
                params.append(KernelParam(pname, "out", pdt, pdt, by_ref=True))
            else:
                params.append(KernelParam(pname, "raw" if raw else ("in" if tname == tv else "scalar"), pdt, pdt))
        types = "_".join(p.dtype.name for p in params)
        d = _defs[key] = Definition("{}_{}".format(_ROWS[name][3], types), params, _ROWS[name][2],
                                    preamble="typedef {} {};\n".format(_dtypes.ctype(dt), tv))
    return d


def _run(name, *args) -> None:
    """Row `name` over `args` (its inputs, then the output): raw inputs as C-contiguous buffers,
    numbers as their parameters' types, the loop over the broadcast of the other arrays."""
    d = definition(name, args[-1].dtype)
    arrays, raws, scalars = [], [], []
    for p, a in zip(d.params, args):
        if p.kind == "raw":
            raws.append(a if a.flags.c_contiguous else _copy(a))
        elif p.kind == "scalar":
            scalars.append(p.dtype.type(a))
        else:
            arrays.append(a)
    shapes = [a.shape for a in arrays]
    shape = shapes[0] if len(set(shapes)) == 1 else _shapes.broadcast_shapes(*shapes)
    d.run(arrays, tuple(scalars), shape, raw=raws)


# Above this length a transform no longer fits one cuFFT kernel: each pass over memory handles
# a few radices, so a length whose odd part is large (1012500 = 2^2 3^4 5^5, the 7-smooth length
# for fftconvolve of 1e6 by 1e4) costs several more passes than a power of two 3.6% longer
# (2^20). From here `fast_len` takes 2^a m with a small odd part m <= 9 (at most 20% longer than
# the smallest 7-smooth length, 1-5% for most n).
_SMOOTH_MAX = 1 << 14
_ODD_PARTS = (1, 3, 5, 7, 9)


@functools.lru_cache(maxsize=1024)  # (pure; the search costs ~16 µs of host time, and a call asks up to 3 times)
def fast_len(n: int) -> int:
    """The transform length for n points: the smallest 2^a 3^b 5^c 7^d >= n up to _SMOOTH_MAX,
    past it the smallest 2^a m >= n with an odd part m in (1, 3, 5, 7, 9) (n >= 1)."""
    if n <= 8:
        return max(n, 1)
    if n > _SMOOTH_MAX:
        return min(m << max(0, (-(-n // m) - 1).bit_length()) for m in _ODD_PARTS)
    best = 1 << (n - 1).bit_length()
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                q = p3
                while q < n:
                    q *= 2
                best = min(best, q)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def c2r_key(n: int, batch: int, dtype) -> tuple:
    """cuFFT's plan key (`cuarray.fft._layout`'s basic layout) of `batch` contiguous C2R
    transforms of length n into `dtype` (float32 or float64)."""
    typ = _cufft.C2R if numpy.dtype(dtype) == numpy.float32 else _cufft.Z2D
    return (1, (n,), None, 1, n // 2 + 1, None, 1, n, typ, batch)


def _c2r(spec, out) -> None:
    """The unnormalised C2R transforms of the rows of the private, C-contiguous `spec` (it is
    overwritten) into the rows of `out` (C-contiguous, its dtype the real one)."""
    n = out.shape[-1]
    batch = out.size // n
    _cufft.execute(_cufft.get_plan(c2r_key(n, batch, out.dtype)), spec.data.ptr, out.data.ptr, 0)


def convolve_full(a, b):
    """The full convolution of 1-D `a` and `b` (one dtype: float32, float64, complex64 or
    complex128; any strides), `len(a) + len(b) - 1` values: a contiguous view of a fresh buffer."""
    dt = a.dtype
    na, nb = a.shape[0], b.shape[0]
    full = na + nb - 1
    n = fast_len(full)
    buf = empty((2, n), dt)
    _run("pack", a, b, numpy.int64(na), numpy.int64(nb), numpy.int64(n), buf)
    real = dt.kind == "f"
    spec = _fft.rfft(buf, axis=-1) if real else _fft.fft(buf, axis=-1)
    nyq = n // 2 if real and n % 2 == 0 else -1
    prod = empty((spec.shape[-1],), spec.dtype)
    _run("product", spec[0], spec[1], 1.0 / n, numpy.int64(0 if real else -1), numpy.int64(nyq),
                      numpy.int64(spec.shape[-1]), prod)
    if real:
        out = empty((n,), dt)
        _c2r(prod, out)
    else:
        out = _fft.ifft(prod, norm="forward")  # (unscaled: the product carries 1/n)
    return out[:full]


# The longest float32 block whose batched R2C and C2R cuFFT runs in one pass over memory, and what a
# longer one costs per sample (H100 quick bench, 2^22 samples, convolve 'same', B / S = 8 / 7 in
# both: k = 1024's 8192-point blocks 0.72x CuPy's time, k = 2048's 16384-point ones 1.13x, so 1.57x
# a sample). float64 is unmeasured: its blocks keep the 8 k rule.
BLOCK_ONE_PASS = 8192
_MULTI_PASS = 1.57
_F4 = numpy.dtype(numpy.float32)


def block_cost(B: int, k: int, dtype=None) -> float:
    """The overlap-save planner's cost of an output sample with blocks of B for a k-tap operand, in
    one-pass block samples: B / S (S = B - k + 1 outputs a block), times `_MULTI_PASS` past
    `BLOCK_ONE_PASS` (float32; other dtypes: B / S alone)."""
    over = _MULTI_PASS if (dtype is not None and numpy.dtype(dtype) == _F4 and B > BLOCK_ONE_PASS) else 1.0
    return B / (B - k + 1) * over


@functools.lru_cache(maxsize=1024)  # (pure: asked by `use_blocks` and `convolve_blocks` each call)
def block_len(k: int, dtype=None) -> int:
    """The overlap-save FFT length for a short operand of k samples: `fast_len(max(8 k, 4096))`, or
    for float32 `BLOCK_ONE_PASS` where `block_cost` says its shorter blocks' extra overlap costs less
    than a longer transform's extra passes (k = 2048: 8192, B / S 1.33, against 16384's 1.14 x 1.57)."""
    B = fast_len(max(8 * k, 4096))
    if (dtype is not None and numpy.dtype(dtype) == _F4 and B > BLOCK_ONE_PASS and 2 * k <= BLOCK_ONE_PASS
            and block_cost(BLOCK_ONE_PASS, k, dtype) < block_cost(B, k, dtype)):
        return BLOCK_ONE_PASS
    return B


# Long operands from which overlap-save is taken (an estimate, not yet measured: below ~2^21 samples
# both paths move a few MB and the launches decide: the one-transform path makes fewer, 6 to 9;
# above, the whole-length transforms go through memory several times and blocks do not).
BLOCKS_MIN = 1 << 21


def use_blocks(n_long: int, k: int, real: bool, dtype=None) -> bool:
    """Whether overlap-save blocks beat one transform of the whole length: real data, a long
    operand of BLOCKS_MIN samples or more and at least four blocks of it (each block's transform
    then stays in fast memory, and the short operand's transform is one block long, not the whole
    length). `dtype` (the operands'): `block_len`'s float32 rule."""
    return real and k > 1 and n_long >= max(4 * block_len(k, dtype), BLOCKS_MIN)


def convolve_blocks(a, w, start: int, length: int):
    """Samples start .. start + length - 1 of the full convolution of real 1-D `a` (the long
    operand) and `w` (one dtype, float32 or float64) by overlap-save: frames of B samples every
    S = B - k + 1 (one kernel, zeros outside a), one batched R2C, the product with w's one-block
    spectrum and 1/B (one kernel), one batched C2R, the valid S samples of each block gathered
    (one kernel). A fresh contiguous array."""
    dt = a.dtype
    na, k = a.shape[0], w.shape[0]
    B = block_len(k, dt)
    S = B - k + 1
    nb = -(-length // S)
    frames = empty((nb, B), dt)
    _run("frames", a, numpy.int64(na), numpy.int64(B), numpy.int64(S), numpy.int64(start - (k - 1)), frames)
    spec = _fft.rfft(frames, axis=-1)
    wb = zeros((B,), dt)
    wb[:k] = w
    m = B // 2 + 1
    prod = empty((nb, m), spec.dtype)
    _run("product", spec, _fft.rfft(wb), 1.0 / B, numpy.int64(0), numpy.int64(B // 2 if B % 2 == 0 else -1),
                      numpy.int64(m), prod)
    blocks = empty((nb, B), dt)
    _c2r(prod, blocks)
    out = empty((length,), dt)
    _run("gather", blocks, numpy.int64(B), numpy.int64(S), numpy.int64(k - 1), out)
    return out
