"""One stft call laid out as the cached plan lays it out (`_spectral._stft_window`, `_stft_layout`),
for the CPU tests that run stft's one-pass kernels (stft_rfft, stft_regs) with g++, and the check
of such a kernel's output against SciPy's stft."""

import ctypes

import numpy as np
import scipy.signal as ss


class StftCase:
    """The arguments of one stft kernel launch for signal `x` and stft keywords `args` (SciPy's
    defaults but 'spectrum' scaling, updated by `kw`): host buffers `y` and `aux` for its output."""

    def __init__(self, x, kw):
        from cuarray.scipy.signal import _spectral

        args = dict(fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, boundary="zeros", padded=True,
                    scaling="spectrum")
        args.update(kw)
        self.x, self.args = x, args
        self.n, self.nperseg, fs = x.shape[-1], args["nperseg"], args["fs"]
        self.nfft, noverlap = _spectral._segment_params(self.nperseg, args["nfft"], args["noverlap"], self.nperseg)
        self.w = np.ascontiguousarray(_spectral._stft_window(_spectral._named_window(args["window"], self.nperseg),
                                                             x.dtype, fs, args["scaling"]), x.dtype)
        self.pre, length, self.nt, consts = _spectral._stft_layout(self.n, fs, self.nperseg, noverlap, self.nfft,
                                                                   args["boundary"], args["padded"])
        self.nstep = self.nperseg - noverlap
        self.nseg, self.nf = (length - self.nperseg) // self.nstep + 1, self.nfft // 2 + 1
        self.rows = int(np.prod(x.shape[:-1])) * self.nseg
        self.y = np.full(x.shape[:-1] + (self.nseg, 2 * self.nf), np.nan, x.dtype)
        self.aux, self.tp = np.full(self.nf + self.nt, np.nan), np.asarray(consts, np.float64)

    def run(self, fn, tw, grid):
        """`fn(m, x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid)`: a g++
        driver's entry point for stft's kernel signature."""
        ll, p = ctypes.c_longlong, (lambda a: a.ctypes.data_as(ctypes.c_void_p))  # noqa: E731
        fn(ctypes.c_int(self.nfft // 2), p(self.x), p(self.w), p(tw), ll(self.n), ll(self.nstep), ll(self.nperseg),
           ll(self.nseg), ll(self.rows), ll(self.pre), p(self.y), p(self.aux), ll(self.nf), ll(self.nt), p(self.tp),
           ctypes.c_uint(grid))

    def check(self):
        """SciPy's f and t bit for bit, its Zxx to rounding."""
        dtype = self.x.dtype
        z = np.swapaxes(self.y.view(np.result_type(dtype, np.complex64)), -1, -2)
        f0, t0, z0 = ss.stft(self.x, **self.args)
        np.testing.assert_array_equal(self.aux[:self.nf], f0)
        np.testing.assert_array_equal(self.aux[self.nf:], t0)
        assert z.shape == z0.shape and z.dtype == z0.dtype
        tol = 2e-6 if dtype == np.float32 else 1e-13
        np.testing.assert_allclose(z, z0, rtol=0, atol=tol * max(1.0, float(np.abs(z0).max())))
