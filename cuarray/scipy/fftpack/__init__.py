"""cuarray.scipy.fftpack: SciPy's legacy `scipy.fftpack` on the GPU, over cuarray's cuFFT
transforms (`cuarray.fft`, and `cuarray.scipy.fft`'s DCT/DST): no second FFT. SciPy 1.18's names
and signatures, its dtype rules and its packed real layout for `rfft`/`irfft`; cupyx's
`get_fft_plan` and `plan=` keyword. See docs/scipy.md ("cuarray.scipy.fftpack")."""

from . import convolve as convolve
from ._basic import fft as fft
from ._basic import fft2 as fft2
from ._basic import fftn as fftn
from ._basic import ifft as ifft
from ._basic import ifft2 as ifft2
from ._basic import ifftn as ifftn
from ._basic import irfft as irfft
from ._basic import rfft as rfft
from ._helper import fftfreq as fftfreq
from ._helper import fftshift as fftshift
from ._helper import ifftshift as ifftshift
from ._helper import next_fast_len as next_fast_len
from ._helper import rfftfreq as rfftfreq
from ._operators import cc_diff as cc_diff
from ._operators import cs_diff as cs_diff
from ._operators import diff as diff
from ._operators import hilbert as hilbert
from ._operators import ihilbert as ihilbert
from ._operators import itilbert as itilbert
from ._operators import sc_diff as sc_diff
from ._operators import shift as shift
from ._operators import ss_diff as ss_diff
from ._operators import tilbert as tilbert
from ._plan import get_fft_plan as get_fft_plan
from ._realtransforms import dct as dct
from ._realtransforms import dctn as dctn
from ._realtransforms import dst as dst
from ._realtransforms import dstn as dstn
from ._realtransforms import idct as idct
from ._realtransforms import idctn as idctn
from ._realtransforms import idst as idst
from ._realtransforms import idstn as idstn

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "fft2", "ifft2", "diff", "tilbert", "itilbert",
           "hilbert", "ihilbert", "sc_diff", "cs_diff", "cc_diff", "ss_diff", "shift", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift", "next_fast_len", "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn",
           "idstn", "get_fft_plan"]
