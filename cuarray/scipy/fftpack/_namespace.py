"""The array routines `_layout` and `_pseudo_diffs` are written over, under NumPy's names, on the
GPU (the CPU tests pass NumPy's own in their place)."""

from __future__ import annotations

import types

from ..._creation.basic import empty, zeros
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.complex import imag, real
from ..._math.hyperbolic import cosh, sinh, tanh
from ..._math.rounding import floor
from ..._math.trigonometric import cos, sin
from ..._sorting.searching import where
from ...fft import _fft

XP = types.SimpleNamespace(
    empty=empty, zeros=zeros, asarray=asarray, arange=arange, concatenate=concatenate, moveaxis=moveaxis,
    real=real, imag=imag, cosh=cosh, sinh=sinh, tanh=tanh, cos=cos, sin=sin, floor=floor, where=where,
    rfft=_fft.rfft, irfft=_fft.irfft)
