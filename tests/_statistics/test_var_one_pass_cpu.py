"""var/std without where= or mean= run in one pass (reduction_ops' `moments` row: Welford's update
in each thread, Chan's combination of partials). CPU: the kernels of every plan shape compile for
sm_90 with NVRTC, and var/std of real input choose that row (the two-pass path stays for complex
input, where=, mean=). GPU values: tests/_statistics/test_reductions_gpu.py."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._core import reduction as _red
from cuarray._core import reduction_ops as _r
from cuarray.cuda import compiler

ARCH = "sm_90"


def _nvrtc_or_skip():
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch=ARCH)
    except Exception as e:  # noqa: BLE001 - no NVRTC here: nothing to check
        pytest.skip("NVRTC not available: {}".format(e))


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int64"])
@pytest.mark.nvrtc_fast
def test_moments_kernels_compile_for_every_plan_shape(dt):
    _nvrtc_or_skip()
    dt = np.dtype(dt)
    acc = np.dtype(np.float64) if dt.kind in "biu" else (np.dtype(np.float32) if dt.char == "e" else dt)
    res = acc if dt.char != "e" else dt
    op = _r.OPS["moments"]
    d = _r._definition(op, ((dt, _r._compute_for(op, dt, acc)),), ("x",), acc, res, False,
                       "y = cuarray::cast<$Y>(::sqrt(a.m2 / _val_t(_div)))",
                       (("_div", np.dtype(np.float64)),), "std")
    sources = []
    item = dt.itemsize
    # rows (short and long), columns (axis 0 of tall-skinny), full, a split with partials
    for shape, raxes in [((1000, 4), (1,)), ((64, 5000), (1,)), ((1000000, 4), (0,)), ((4, 2000000), (1,)),
                         ((3, 5, 7), (0, 2)), ((123457,), (0,))]:
        strides = tuple(int(np.prod(shape[i + 1:])) * item for i in range(len(shape)))
        kshape = [s for i, s in enumerate(shape) if i not in raxes]
        ystr = tuple(int(np.prod(kshape[i + 1:])) * res.itemsize for i in range(len(kshape)))
        p = _red.plan(shape, (strides,), (item,), ystr, raxes, aligned=(True,))
        sources += [d.source(st)[1] for st, _, _ in d.stages(p)]
    for src in dict.fromkeys(sources):
        compiler.compile_cubin(src, arch=ARCH)
    assert d.acc_size == (24 if acc.itemsize == 8 else 16)


def test_var_and_std_choose_one_pass_for_real_input(recorded_launches, monkeypatch):
    """The row each call reduces with (no kernel runs: reduce is replaced by a recorder)."""
    import cuarray as cp
    from cuarray._statistics import averages

    seen = []

    def record(op_name, a, *args, **kw):
        seen.append(op_name)
        raise _Stop

    monkeypatch.setattr(averages._r, "reduce", record)
    a = cp.ndarray((10, 4), np.float32)
    for call in (lambda: cp.var(a, axis=0), lambda: cp.std(a), lambda: cp.var(cp.ndarray((3,), np.int16), ddof=1)):
        with pytest.raises(_Stop):
            call()
    assert seen == ["moments"] * 3
    seen.clear()
    with pytest.raises(_Stop):
        cp.var(cp.ndarray((10, 4), np.complex64), axis=0)
    assert seen == ["sum"]  # complex: the mean first (two passes)


class _Stop(Exception):
    pass
