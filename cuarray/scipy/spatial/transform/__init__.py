"""cuarray.scipy.spatial.transform: rotations on the GPU. See `scipy.spatial.transform` and
docs/scipy-spatial.md."""

from ._rotation import Rotation as Rotation
from ._slerp import Slerp as Slerp

__all__ = ["Rotation", "Slerp"]
