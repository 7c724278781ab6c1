"""`scipy.signal.windows` on the GPU: every window SciPy has and `get_window`. The closed forms are
computed on the device in float64; `chebwin`, `taylor` and `dpss` by SciPy on the host (small
FFT/eigen work), copied to the device. Import it as ``from cuarray.scipy.signal import windows``."""

from ._get_window import get_window as get_window
from ._host_windows import chebwin as chebwin
from ._host_windows import dpss as dpss
from ._host_windows import taylor as taylor
from ._windows import barthann as barthann
from ._windows import bartlett as bartlett
from ._windows import blackman as blackman
from ._windows import blackmanharris as blackmanharris
from ._windows import bohman as bohman
from ._windows import boxcar as boxcar
from ._windows import cosine as cosine
from ._windows import exponential as exponential
from ._windows import flattop as flattop
from ._windows import gaussian as gaussian
from ._windows import general_cosine as general_cosine
from ._windows import general_gaussian as general_gaussian
from ._windows import general_hamming as general_hamming
from ._windows import hamming as hamming
from ._windows import hann as hann
from ._windows import kaiser as kaiser
from ._windows import kaiser_bessel_derived as kaiser_bessel_derived
from ._windows import lanczos as lanczos
from ._windows import nuttall as nuttall
from ._windows import parzen as parzen
from ._windows import triang as triang
from ._windows import tukey as tukey

__all__ = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop", "bartlett",
           "barthann", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian", "general_gaussian", "general_cosine",
           "general_hamming", "chebwin", "cosine", "hann", "exponential", "tukey", "taylor", "get_window", "dpss",
           "lanczos"]
