"""`scipy.signal` on the GPU: convolution and the filtering functions built on ndimage's kernels
and cuarray.fft (see docs/scipy-ndimage-signal.md). Import it as ``from cuarray.scipy import signal``."""

from ._convolve import choose_conv_method as choose_conv_method
from ._convolve import convolve as convolve
from ._convolve import convolve2d as convolve2d
from ._convolve import correlate as correlate
from ._convolve import correlate2d as correlate2d
from ._convolve import correlation_lags as correlation_lags
from ._convolve import fftconvolve as fftconvolve
from ._filtering import detrend as detrend
from ._filtering import hilbert as hilbert
from ._filtering import hilbert2 as hilbert2
from ._filtering import medfilt as medfilt
from ._filtering import medfilt2d as medfilt2d
from ._filtering import wiener as wiener
from ._lfilter import filtfilt as filtfilt
from ._lfilter import lfilter as lfilter
from ._lfilter import lfilter_zi as lfilter_zi
from ._lfilter import sosfilt as sosfilt
from ._lfilter import sosfilt_zi as sosfilt_zi
from ._lfilter import sosfiltfilt as sosfiltfilt
from ._spectral import coherence as coherence
from ._spectral import csd as csd
from ._spectral import periodogram as periodogram
from ._spectral import spectrogram as spectrogram
from ._spectral import stft as stft
from ._spectral import welch as welch
from ._misc import argrelextrema as argrelextrema
from ._misc import argrelmax as argrelmax
from ._misc import argrelmin as argrelmin
from ._misc import oaconvolve as oaconvolve
from ._misc import savgol_coeffs as savgol_coeffs
from ._misc import savgol_filter as savgol_filter
from ._resample import deconvolve as deconvolve
from ._resample import resample as resample
from ._upfirdn import resample_poly as resample_poly
from ._upfirdn import upfirdn as upfirdn
