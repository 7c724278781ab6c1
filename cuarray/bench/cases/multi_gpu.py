"""`multi-gpu`: a 1 GiB float32 array copied from device 0 to device 1 (docs/bench-targets.md: >= 0.95 x
PyTorch's `tensor.to("cuda:1")`). Needs two GPUs; each call ends with device 1 synchronised, so
host timing covers the copy."""

from __future__ import annotations

from . import NotAvailable, random_array, register

GIB = 2**30

peer = register(
    "peer-copy", group="multi-gpu",
    description="1 GiB float32 from device 0 to device 1 (cuarray.asarray under Device(1))",
    size=GIB, quick=GIB // 4, timing="host", nbytes=lambda n, p: n,
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


def _two_gpus(count):
    if count < 2:
        raise NotAvailable("needs two GPUs")


@peer.setup("cuarray", "cupy")
def _(xp, nbytes, param):
    _two_gpus(xp.cuda.runtime.getDeviceCount())
    with xp.cuda.Device(0):
        a = random_array(xp, nbytes // 4)
        xp.cuda.Device(0).synchronize()
    dev1 = xp.cuda.Device(1)

    def run():
        with dev1:
            b = xp.asarray(a)
            dev1.synchronize()
        return b

    return run


@peer.setup("torch")
def _(torch, nbytes, param):
    _two_gpus(torch.cuda.device_count())
    a = torch.rand(nbytes // 4, device="cuda:0")
    torch.cuda.synchronize(0)

    def run():
        b = a.to("cuda:1")
        torch.cuda.synchronize(1)
        return b

    return run
