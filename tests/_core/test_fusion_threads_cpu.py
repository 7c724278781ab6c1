"""Lazy mode is per thread: while one thread builds a graph inside `with cuarray.lazy():`, another
thread's calls run eagerly (concrete arrays, launches at once), and its tracer is never asked.
On the fake device (cuarray.testing.fake_device), in a subprocess: `install()` swaps it in for the
whole process."""

import os
import subprocess
import sys
import textwrap

from cuarray.testing.fake_device import SCRIPT_PRELUDE

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = SCRIPT_PRELUDE + textwrap.dedent('''
    import threading
    import numpy as np
    import cuarray as cp
    from cuarray._core import tracing
    from cuarray._core.fusion import lazy_mode as L
    from cuarray.cuda import launch

    launches = {}
    launch.set_launch_hook(lambda fn, s, c, k, a: launches.setdefault(threading.get_ident(), []).append(k))
    x = cp.ndarray((1000,), np.float32)
    y = cp.ndarray((1000,), np.float32)
    inside, eager_done, errors, results = threading.Event(), threading.Event(), [], {}

    def lazy_thread():
        try:
            with cp.lazy():
                a = x * 2 + y
                b = cp.where(a > 0, a, 0.5).sum() + cp.exp(y).astype(np.float64).mean()
                inside.set()
                assert eager_done.wait(60)
                # The other thread's eager work neither joined this graph nor computed it.
                assert type(a) is L.LazyArray and not a.is_computed and not b.is_computed
                assert tracing.state.tracer is L._threads.st
                c = a - 1.0
                assert type(c) is L.LazyArray
            results["lazy"] = (a.is_computed, b.is_computed, c.is_computed)
        except BaseException as e:  # reported by the main thread
            errors.append(repr(e))
            inside.set()

    def eager_thread():
        try:
            assert inside.wait(60)
            assert len(tracing.active) == 1 and tracing.state.tracer is None  # only the other thread traces
            r = [x * 2 + y, cp.exp(x), cp.where(x > 0, x, 0.5), x.sum(), cp.mean(x), x.astype(np.float64),
                 cp.clip(x, -1, 1), cp.add(x, 1.0)]
            results["eager"] = [type(v).__name__ for v in r]
            results["eager_launches"] = len(launches.get(threading.get_ident(), []))
        except BaseException as e:
            errors.append(repr(e))
        finally:
            eager_done.set()

    ts = [threading.Thread(target=lazy_thread), threading.Thread(target=eager_thread)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errors, errors
    assert results["eager"] == ["ndarray"] * 8, results
    assert results["eager_launches"] >= 9, results  # every eager operation launched at once
    assert results["lazy"] == (True, True, True), results
    assert len(tracing.active) == 0
    print("ok")
''')


def test_lazy_mode_of_one_thread_never_captures_another_threads_calls():
    script = _SCRIPT
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr
