"""A fused elementwise step's run in C (`_native/elementwise_run.c`, `planner._Elementwise.run`)
against the Python it stands for (`launch_into(slots, _new_c(shape, dtype))`), on the fake
device in a fresh process: steps planned from lazy blocks (1-d and 2-d; float32, float64, int32,
complex64), each run with its own slots and with variants of them (a strided input, an input of
another shape, a misaligned one, a tuple of slots, a scalar that changes, an empty output, a
launch configuration not made yet). Both runs must launch the same kernels with the same
configurations and arguments (the output's address named OUT) and return arrays of the same
layout; the C run must have launched without its Python fallback where the fast case applies,
and raise as the Python run raises (a scalar that does not convert, an allocator that fails)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cuarray._core.nodecore import native

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent('''
    import json, sys
    sys.path.insert(0, {root!r})
    from cuarray.testing.fake_device import install
    install()
    import numpy as np
    import cuarray as cp
    from cuarray.cuda import launch, memory
    from cuarray._core.fusion import planner, evaluation as E
    from cuarray._core.ndarray import _new_c
    from cuarray._core.nodecore import native

    assert planner._native_run is native.elementwise_run
    E._steady_finish = None  # (every Program through Program.run, whose steps are caught below)
    seen = []

    def hook(raw, stream, config, kernel, args):
        seen.append([str(kernel), str(config), [a if isinstance(a, int) else repr(a) for a in args]])
        raw(stream, config, kernel, *args)

    launch.set_launch_hook(hook)
    caught = []
    run = planner._Elementwise.run

    def catch(self, slots):
        caught.append((self, list(slots)))
        return run(self, slots)

    fallbacks = [0]
    into = planner._Elementwise.launch_into

    def counted_into(self, slots, out):
        fallbacks[0] += 1
        return into(self, slots, out)

    def step_of(fn):
        planner._Elementwise.run = catch
        del caught[:]
        with cp.lazy():
            y = fn()
        y._materialize()
        planner._Elementwise.run = run
        assert len(caught) == 1, len(caught)
        return caught[0]

    def layout(a):
        return [type(a).__name__, list(a._shape), list(a._strides), str(a._dtype), a._size, a._c, a._f,
                a._writeable, a.base is None]

    def transcript(fn, step, slots):
        del seen[:]
        fallbacks[0] = 0
        planner._Elementwise.launch_into = counted_into
        try:
            out = fn(step, slots)
        except Exception as e:
            return {{"raised": type(e).__name__}}
        finally:
            planner._Elementwise.launch_into = into
        op = out.data.ptr
        calls = [[k, c, ["OUT" if a == op and op else a for a in args]] for k, c, args in seen]
        return {{"layout": layout(out), "launches": calls, "python": fallbacks[0]}}

    c_run = native.elementwise_run
    py_run = lambda step, slots: step.launch_into(slots, _new_c(step.shape, step.dtype))
    report = []

    def both(name, step, slots, fast):
        c = transcript(c_run, step, slots)
        p = transcript(py_run, step, slots)
        p.pop("python", None)
        used = c.pop("python", None)
        report.append([name, c, p, used, fast])

    def arr(shape, dtype=np.float32):  # (the fake device has no values: launches are compared)
        return cp.ndarray(shape, dtype)

    for dtype in (np.float32, np.float64, np.int32, np.complex64):
        for shape in ((1000,), (64, 33)):
            a, b = arr(shape, dtype), arr(shape, dtype)
            two = 2 if dtype == np.int32 else 2.0
            step, slots = step_of(lambda: (a * two + b) * b - 3)
            tag = "{{}} {{}}".format(np.dtype(dtype).name, shape)
            both(tag, step, slots, True)
            both(tag + " tuple slots", step, tuple(slots), True)
            ins = list(step.ins)
            k = ins[0]
            s2 = list(slots)
            big = arr((shape[0] * 2,) + shape[1:], dtype)
            s2[k] = big[::2]  # (same shape, strided)
            both(tag + " strided input", step, s2, False)
            s3 = list(slots)
            s3[k] = arr(shape[:-1] + (1,), dtype)  # (broadcast against the output)
            both(tag + " broadcast input", step, s3, False)
            s4 = list(slots)
            flat = arr((int(np.prod(shape)) + 1,), dtype)
            s4[k] = flat[1:].reshape(shape)  # (C-contiguous, one element off the allocation's start)
            both(tag + " misaligned input, first", step, s4, False)
            both(tag + " misaligned input, again", step, s4, True)
            for j, (sk, _) in enumerate(step.scalars):
                s5 = list(slots)
                s5[sk] = s5[sk] + 1 if isinstance(s5[sk], int) else float(s5[sk]) * 1.5
                both(tag + " scalar {{}} changed".format(j), step, s5, True)
                s5[sk] = "not a number"
                both(tag + " scalar {{}} not a number".format(j), step, s5, False)
            step.cfgs.clear()
            both(tag + " no launch configuration yet", step, slots, False)
            both(tag + " its configuration made", step, slots, True)

    e = arr((0,))
    step, slots = step_of(lambda: e * 2.0 + e)
    both("empty", step, slots, False)

    x, z = arr((300,)), arr((300,))
    step, slots = step_of(lambda: cp.exp(x) - z * 0.5)
    made = []
    prev = memory._allocator
    cp.cuda.set_allocator(lambda n: made.append(n) or prev(n))
    both("the user's allocator", step, slots, True)
    report.append(["allocations", made])

    def fails(n):
        raise MemoryError("out of device memory (test)")

    cp.cuda.set_allocator(fails)
    both("an allocator that fails", step, slots, False)
    cp.cuda.set_allocator(prev)
    both("after the failure", step, slots, True)
    print(json.dumps(report))
''')


@pytest.mark.skipif(native is None, reason="the node core is not built")
def test_the_c_run_launches_as_the_python_run():
    proc = subprocess.run([sys.executable, "-c", _SCRIPT.format(root=_ROOT)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    allocations = [r for r in report if r[0] == "allocations"]
    assert allocations == [["allocations", [1200, 1200]]], allocations  # (the C run's and the Python run's outputs)
    cases = [r for r in report if r[0] != "allocations"]
    assert len(cases) > 90
    for name, c, p, fallbacks, fast in cases:
        assert c == p, (name, c, p)
        if "raised" in c:
            continue
        if fast:
            assert fallbacks == 0 and len(c["launches"]) == 1, (name, c, fallbacks)
        elif name != "empty":
            assert fallbacks == 1, (name, fallbacks)
    raised = {name: c["raised"] for name, c, _, _, _ in cases if "raised" in c}
    assert raised["an allocator that fails"] == "MemoryError"
    assert sum(1 for n in raised if "not a number" in n) == 8 * 2  # (two scalars a step, 2 and 3)
    assert sum(1 for r in cases if r[4]) == 8 * 6 + 2
