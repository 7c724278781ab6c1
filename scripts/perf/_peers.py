"""PyTorch and CuPy as the perf scripts' peers: each library with the `cuda` object
scripts/perf/_timing.py times through (events, elapsed time, a spin kernel)."""

from __future__ import annotations

import sys


class TorchCuda:
    """PyTorch's events and sleep under the names _timing.py calls (cuda.Event(), record(),
    synchronize(), get_elapsed_time(start, end) in ms, spin(cycles))."""

    def __init__(self, torch):
        self.torch = torch

    def Event(self):  # noqa: N802 - the name _timing.py calls
        return _TorchEvent(self.torch)

    @staticmethod
    def get_elapsed_time(start, end):
        return start.e.elapsed_time(end.e)

    def spin(self, cycles):
        self.torch.cuda._sleep(int(cycles))


class _TorchEvent:
    def __init__(self, torch):
        self.e = torch.cuda.Event(enable_timing=True)

    def record(self):
        self.e.record()

    def synchronize(self):
        self.e.synchronize()


def gpu_peers() -> dict:
    """{"torch": (torch, TorchCuda), "cupy": (cupy, cupy.cuda)} for those that import and see a GPU;
    why one is missing goes to stderr."""
    out = {}
    try:
        import torch

        if torch.cuda.is_available():
            out["torch"] = (torch, TorchCuda(torch))
    except Exception as exc:  # noqa: BLE001
        print("torch: not timed ({})".format(exc), file=sys.stderr)
    try:
        import cupy

        out["cupy"] = (cupy, cupy.cuda)
    except Exception as exc:  # noqa: BLE001
        print("cupy: not timed ({})".format(exc), file=sys.stderr)
    return out
