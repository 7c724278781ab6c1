"""The comparison of a 1-D convolution computed in floating point (the device's fftconvolve, or
convolve/correlate through it) with the exact one, within the forward-error bound of an FFT
convolution: shared by tests/scipy/signal/test_signal_fftconv_gpu.py and checked without a device
by test_conv_error_bound_cpu.py (SciPy's own float32 results pass, shifted or less precise ones fail).
`check_direct_modes` (the CPU and GPU tests of direct sums' dtypes): SciPy's result or SciPy's error.

The bound (u: the unit roundoff of the result's precision, 2^-24 for float32/complex64, 2^-53 for
float64/complex128). c = a * b (length n + m - 1) is computed as IFFT(FFT(a) FFT(b)) at an FFT
length N:
- Higham, Accuracy and Stability of Numerical Algorithms (2nd ed.), Thm 24.2: a Cooley-Tukey FFT of
  length 2^t computes y = F x with ||y^ - y||_2 <= eps_F ||y||_2, eps_F = t eta / (1 - t eta), eta =
  mu + gamma_4 (sqrt(2) + mu), gamma_k = k u / (1 - k u), mu the twiddle factors' error (u: accurate
  tables). Here t = ceil(log2(n + m - 1)) + 2: N < 2 (n + m - 1) (a fast length, or overlap-save
  blocks shorter still), one level more for the real transforms' pre/post-processing pass.
- The forward transforms: A^ = A + dA, ||dA||_2 <= eps_F ||A||_2 = eps_F sqrt(N) ||a||_2 (and B).
  The product: (A^ B^)(1 + theta), |theta| <= sqrt(2) gamma_2 (Higham Lemma 3.5: a complex product).
  Output k of the exact inverse of that product differs from c_k by (1/N) |sum_j dP_j w^(jk)| <=
  (1/N) sum_j |dP_j| <= (1/N)(||dA||_2 ||B||_2 + ||A||_2 ||dB||_2 + sqrt(2) gamma_2 ||A||_2 ||B||_2)
  (Cauchy-Schwarz) = (2 eps_F + sqrt(2) gamma_2) ||a||_2 ||b||_2, for every k. The inverse
  transform adds at most eps_F ||y||_2, y its output (normwise, so a bound of each element), y the
  circular convolution at length N of a (or of one overlap-save block of the longer one) and b:
  ||y||_2 <= ||long||_2 sup_w |S(w)| (Parseval; S the shorter operand's transform, its sup bounded
  on a fine grid, `_sup_dtft`) and <= min(||a||_2 ||b||_1, ||a||_1 ||b||_2) (Young's inequality).
  The 1/N scale and the final rounding add u |c_k| each.
  So |c^_k - c_k| <= (2 eps_F + sqrt(2) gamma_2) ||a||_2 ||b||_2 + eps_F Y + 2 u |c_k|, Y that
  bound of ||y||_2 (first order in u; the second order is far below the slack).
- Why not an elementwise bound, u t sum_i |a_i| |b_(k-i)|: the FFT spreads its rounding errors over
  every output, so an output with few terms (the ends of 'full') carries errors of the size of the
  others' (SciPy's float32 fftconvolve of two 2500-sample signals: 17 times that bound at the last
  output). The bound above holds at every output.
- A direct sum (method 'direct', or 'auto' where it picks one) of K = min(n, m) products, in any
  order: |c^_k - c_k| <= gamma_K sum_i |a_i| |b_(k-i)| (Higham (3.5)), computed on the host as
  the convolution of |a| and |b|.
The float64 reference computed on the host (SciPy in float64) carries the bound at u = 2^-53,
added to the allowed error.

The bound is the worst case: SciPy's float32 results use at most 0.4% of it at the GPU tests'
lengths (random rounding errors add up ~sqrt(N) below the Cauchy-Schwarz step). It comes to 3e-5
to 2.4e-3 of the largest output in float32, 1e-13 to 1e-11 in float64, so a result shifted by one
sample, an output 1% off, or a float64 result of float32 precision fails it
(test_conv_error_bound_cpu.py checks these on SciPy's results).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.signal as ss


def unit_roundoff(dtype) -> float:
    """u of a float or complex dtype (complex64: float32's); 0 for an integer one (SciPy returns
    integers only where it multiplies, exactly: an operand of one element)."""
    dtype = np.dtype(dtype)
    return 0.0 if dtype.kind in "biu" else float(np.finfo(dtype).eps) / 2


def _gamma(k: int, u: float) -> float:
    return k * u / (1 - k * u)


def _sup_dtft(x) -> float:
    """An upper bound of max over w of |sum_j x_j exp(-i j w)| (so of the DFT's at any length):
    the maximum over M = 16 len(x) equispaced w, over 1 - pi d / M (d = len(x) - 1; Bernstein's
    inequality |T'| <= d max |T| bounds the change between neighbouring points)."""
    big = 16 * x.size
    return float(np.abs(np.fft.fft(x, big)).max()) / (1 - math.pi * (x.size - 1) / big)


def fft_bound(u: float, full_len: int, norm_a: float, norm_b: float, norm_y: float, c_abs):
    """The elementwise error bound of an FFT convolution (the module's derivation) at unit
    roundoff u: norm_a, norm_b the operands' 2-norms, norm_y the bound of the inverse transform's
    output's 2-norm, c_abs |c_k|."""
    t = math.ceil(math.log2(max(full_len, 1))) + 2
    eta = u + _gamma(4, u) * (math.sqrt(2) + u)
    eps_f = t * eta / (1 - t * eta)
    return (2 * eps_f + math.sqrt(2) * _gamma(2, u)) * norm_a * norm_b + eps_f * norm_y + 2 * u * c_abs


def allowed_error(a, b, op, dtype, direct=False):
    """(exact result in float64/complex128, allowed |error| per element) of `op(a, b)` computed
    in `dtype`'s precision: op(x, y) is the convolution (mode, correlation) on the host, applied
    to float64/complex128 copies of the operands (and, for `direct`, to their absolute values)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.ndim == 1 and b.ndim == 1
    hi = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float64
    ah, bh = a.astype(hi), b.astype(hi)
    exact = np.asarray(op(ah, bh))
    n, m = a.size, b.size
    if n == 0 or m == 0:
        return exact, np.zeros(exact.shape)
    na, nb = float(np.linalg.norm(ah)), float(np.linalg.norm(bh))
    # the inverse transform's output y: the circular convolution at length N of a (or of one
    # overlap-save block of the longer operand) and b; ||y||_2 <= ||long||_2 max_j |S_j|, S the
    # shorter operand's DFT at length N (Parseval), and <= min(||a||_2 ||b||_1, ||a||_1 ||b||_2)
    # (Young's inequality on Z_N)
    short, long_norm = (bh, na) if m <= n else (ah, nb)
    nc = min(long_norm * _sup_dtft(short), na * float(np.abs(bh).sum()), float(np.abs(ah).sum()) * nb)
    c_abs = np.abs(exact)
    bound = fft_bound(unit_roundoff(dtype), n + m - 1, na, nb, nc, c_abs)
    if direct:
        mag = np.asarray(op(np.abs(ah).real.astype(np.float64), np.abs(bh).real.astype(np.float64))).real
        bound = np.maximum(bound, _gamma(min(n, m), unit_roundoff(dtype)) * mag * (1 + 1e-9))
    ref_err = fft_bound(unit_roundoff(np.float64), n + m - 1, na, nb, nc, c_abs)
    return exact, bound + ref_err


def assert_conv_close(got, a, b, op, dtype, direct=False):
    """`got` (host array, `dtype`) is `op(a, b)` within `allowed_error`; the failure names the
    worst output and its ratio to the bound."""
    exact, allowed = allowed_error(a, b, op, dtype, direct)
    got = np.asarray(got)
    assert got.shape == exact.shape, (got.shape, exact.shape)
    err = np.abs(got.astype(exact.dtype) - exact)
    bad = ~(err <= allowed)  # (NaN fails)
    if bad.any():
        k = int(np.argmax(np.where(bad, err / np.maximum(allowed, 1e-300), -1)))
        raise AssertionError("{} of {} outputs past the error bound; worst at {}: got {!r}, exact {!r}, "
                             "|error| {:.3g} > bound {:.3g}".format(int(bad.sum()), bad.size, k, got[k], exact[k],
                                                                    err[k], allowed[k]))


def check_direct_modes(a, b, ours, close):
    """convolve and correlate of a and b by direct sums in every mode: `ours(fn, mode)` is `close`
    to SciPy's result, or raises SciPy's ValueError with SciPy's message."""
    for fn in ("convolve", "correlate"):
        for mode in ("full", "same", "valid"):
            try:
                ref = getattr(ss, fn)(a, b, mode, "direct")
            except ValueError as e:
                with pytest.raises(ValueError, match=str(e)):
                    ours(fn, mode)
                continue
            close(ours(fn, mode), ref)
