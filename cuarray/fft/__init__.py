"""Discrete Fourier transforms on cuFFT: NumPy's `numpy.fft`, a plan cache (`config`) and a
`scipy.fft` backend (`cuarray.fft_backend`). See docs/fft.md.

Importing this package loads no CUDA library: cuFFT (through nvmath-python) loads on the first
transform.
"""

from . import config as config

# -- Standard FFTs ------------------------------------------------------------------------------
from ._fft import fft as fft
from ._fft import ifft as ifft
from ._fft import fft2 as fft2
from ._fft import ifft2 as ifft2
from ._fft import fftn as fftn
from ._fft import ifftn as ifftn

# -- Real FFTs ----------------------------------------------------------------------------------
from ._fft import rfft as rfft
from ._fft import irfft as irfft
from ._fft import rfft2 as rfft2
from ._fft import irfft2 as irfft2
from ._fft import rfftn as rfftn
from ._fft import irfftn as irfftn

# -- Hermitian FFTs -----------------------------------------------------------------------------
from ._fft import hfft as hfft
from ._fft import ihfft as ihfft

# -- Helper routines ----------------------------------------------------------------------------
from ._helper import fftfreq as fftfreq
from ._helper import rfftfreq as rfftfreq
from ._helper import fftshift as fftshift
from ._helper import ifftshift as ifftshift

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "config"]
