"""Work beyond one GPU: NCCL collectives on cuarray arrays and Dask arrays of cuarray chunks.

- `Communicator`, `get_unique_id`, `group`, `NcclError`: NCCL through nccl4py (optional:
  `pip install nccl4py nvidia-nccl-cu13`), imported at the first communicator.
- `register_dask()`: make Dask treat cuarray arrays as chunks and add the "cuarray" array
  backend (also found through Dask's entry point once cuarray is installed; `cuarray[dask]`), and
  distributed's serializers (`serialization.py`; a worker registers them by itself).
- `DeviceScheduler`: Dask's threaded scheduler over several GPUs of one process.

Neither nccl4py nor Dask is imported by `import cuarray` or by importing this package.
"""

from __future__ import annotations

from .communicator import Communicator as Communicator
from .communicator import NcclError as NcclError
from .communicator import get_unique_id as get_unique_id
from .communicator import group as group
from .device_scheduler import DeviceScheduler as DeviceScheduler

__all__ = ["Communicator", "DeviceScheduler", "NcclError", "get_unique_id", "group", "register_dask"]


def register_dask() -> None:
    """Register cuarray.ndarray as a Dask chunk type and the "cuarray" array backend."""
    from ._dask import register_backend  # optional dependency: _dask needs dask, this package does not

    register_backend()
