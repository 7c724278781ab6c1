"""`copy`: a large device-to-device copy; its rate (bytes read + written per second) is the bar
every bandwidth-bound case is measured against. The harness always runs it first."""

from __future__ import annotations

from . import register
from ..report import fmt_bytes

copy = register(
    "copy",
    group="copy",
    description="device-to-device copy of one buffer (the copy rate: bytes read + written)",
    size=2**30,
    quick=2**28,
    nbytes=lambda n, p: 2 * n,
    size_label=fmt_bytes,
)

# The buffers are left uninitialised: a copy's speed does not depend on the bytes it moves, and
# filling 1 GiB from the host would cost more than the measurement.


@copy.setup("cuarray")
def _(xp, n, param):
    mem = xp.cuda.memory
    src, dst = mem.alloc(n), mem.alloc(n)
    stream = xp.cuda.get_current_stream()
    return lambda: dst.copy_from_device_async(src, n, stream)


@copy.setup("cupy")
def _(cp, n, param):
    src, dst = cp.empty(n, dtype=cp.uint8), cp.empty(n, dtype=cp.uint8)
    return lambda: dst.data.copy_from_device_async(src.data, n)


@copy.setup("torch")
def _(torch, n, param):
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty(n, dtype=torch.uint8, device="cuda")
    return lambda: dst.copy_(src)


@copy.setup("numpy")
def _(np, n, param):
    src, dst = np.ones(n, dtype=np.uint8), np.empty(n, dtype=np.uint8)
    return lambda: np.copyto(dst, src)
