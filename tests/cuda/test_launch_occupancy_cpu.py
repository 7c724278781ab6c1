"""launch.blocks_per_sm: the driver's occupancy of a kernel (cuda.core's Kernel.occupancy), asked
once per (kernel, threads, shared memory)."""

from cuarray.cuda import launch


class FakeOccupancy:
    def __init__(self):
        self.calls = []

    def max_active_blocks_per_multiprocessor(self, block_size, dynamic_shared_memory_size):
        self.calls.append((block_size, dynamic_shared_memory_size))
        return 2048 // block_size - (dynamic_shared_memory_size > 40000)


class FakeKernel:
    def __init__(self):
        self.occupancy = FakeOccupancy()


def test_blocks_per_sm_asks_the_driver_once_a_shape(monkeypatch):
    monkeypatch.setattr(launch, "_resident", {})
    k = FakeKernel()
    assert launch.blocks_per_sm(k, 256, 25000) == 8
    assert launch.blocks_per_sm(k, 256, 25000) == 8
    assert launch.blocks_per_sm(k, 256, 45000) == 7
    assert launch.blocks_per_sm(k, 128) == 16
    assert k.occupancy.calls == [(256, 25000), (256, 45000), (128, 0)]
