"""cuarray.scipy.fft: the `scipy.fft` API on cuarray arrays (the functions of cuarray's scipy.fft
backend, `cuarray.fft._scipy_backend`, and the helpers of `cuarray.fft`). No second
implementation. See `scipy.fft`; the DCT/DST family and fht are not here."""

from ..fft._scipy_backend import fft as fft
from ..fft._scipy_backend import ifft as ifft
from ..fft._scipy_backend import rfft as rfft
from ..fft._scipy_backend import irfft as irfft
from ..fft._scipy_backend import hfft as hfft
from ..fft._scipy_backend import ihfft as ihfft
from ..fft._scipy_backend import fft2 as fft2
from ..fft._scipy_backend import ifft2 as ifft2
from ..fft._scipy_backend import fftn as fftn
from ..fft._scipy_backend import ifftn as ifftn
from ..fft._scipy_backend import rfft2 as rfft2
from ..fft._scipy_backend import irfft2 as irfft2
from ..fft._scipy_backend import rfftn as rfftn
from ..fft._scipy_backend import irfftn as irfftn
from ..fft._scipy_backend import hfft2 as hfft2
from ..fft._scipy_backend import ihfft2 as ihfft2
from ..fft._scipy_backend import hfftn as hfftn
from ..fft._scipy_backend import ihfftn as ihfftn
from ..fft import fftfreq as fftfreq
from ..fft import rfftfreq as rfftfreq
from ..fft import fftshift as fftshift
from ..fft import ifftshift as ifftshift
