"""cuarray.scipy.spatial.transform: rotations and rigid transforms on the GPU. See
`scipy.spatial.transform` and docs/scipy-spatial.md."""

from ._rigid_transform import RigidTransform as RigidTransform
from ._rotation import Rotation as Rotation
from ._slerp import Slerp as Slerp
from ._spline import RotationSpline as RotationSpline

__all__ = ["Rotation", "Slerp", "RotationSpline", "RigidTransform"]
