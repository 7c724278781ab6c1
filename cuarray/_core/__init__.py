"""The engine: the array object and the machinery under every routine (see docs/architecture.md).

Its device headers (`templates/cuarray/*.cuh`) go on NVRTC's include path here, once: generated
kernels and user kernels alike write ``#include "cuarray/common.cuh"``.
"""

import os as _os

from ..cuda import compiler as _compiler

_compiler.add_include_dir(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "templates"))
