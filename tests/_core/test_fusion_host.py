"""`fuse` and lazy mode end to end on the host, with the device stubbed (no GPU needed): launches
counted, programs cached, values kept, nothing patched. Runs in a subprocess: the fake
device (cuarray.testing.fake_device) replaces cuda.core's launch and the kernels for the whole process."""

import os
import subprocess
import sys
import textwrap

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core import ufunc as U
    from cuarray._core.fusion import lazy_mode as L
    from cuarray._core.fusion import planner
    from cuarray.cuda import launch

    launches = []
    launch.set_launch_hook(lambda fn, s, c, k, a: launches.append(k))

    x = cp.ndarray((1000,), np.float32)
    y = cp.ndarray((1000,), np.float32)

    @cp.fuse(kernel_name="chain")
    def f(a, s):
        return 1 / (1 + cp.exp(-(2 * a - 1))) * a + s

    r = f(x, 0.5)
    assert r.shape == (1000,) and r.dtype == np.float32
    del launches[:]
    f(y, 0.25)                       # another array, another scalar: no retrace, one launch
    assert len(launches) == 1 and len(f._cache) == 1, (launches, f._cache)
    f(cp.ndarray((7,), np.float32), 1.0)   # another shape: a second trace
    assert len(f._cache) == 2

    @cp.fuse()
    def g(a, b):
        return cp.sum(a * b, axis=0)

    del launches[:]
    assert g(x, x).shape == () and g(x, y).shape == ()
    assert len(launches) == 2        # the product is computed in the reduction's load
    assert len(g._cache) == 1        # aliased arguments share the signature, not an input
    with cp.lazy():
        t = cp.tensordot(cp.ndarray((4, 5, 6), np.float32), cp.ndarray((6, 5), np.float32), axes=([1, 2], [1, 0]))
        assert type(t) is L.LazyArray and t.shape == (4,)
        del t  # (a GEMM cannot run stubbed: not computed)

    call = U.ufunc.__call__
    del launches[:]
    with cp.lazy():
        a = x * 2 + 1
        b = cp.exp(a) - a
        assert type(b) is L.LazyArray and b.shape == (1000,) and not b.is_computed
        assert len(launches) == 0
        assert U.ufunc.__call__ is call  # nothing is patched: the ufunc asks the thread's tracer
    assert a.is_computed and b.is_computed
    assert len(launches) == 1, launches          # a and b: one kernel writing both, a computed once
    e = cp.exp(x)
    assert type(e) is cp.ndarray and U.ufunc.__call__ is call
    assert len(launches) == 2

    n_programs = len(planner._programs)
    for _ in range(3):
        with cp.lazy():
            c = x * 3.0 - y
    assert len(planner._programs) == n_programs + 1   # planned once for the three loops

    # A routine that does not trace runs eagerly inside, on concrete arrays (its own ufunc calls
    # are not recorded): a concrete result; the next operation on a lazy array records again.
    with cp.lazy():
        l = x * 2.0
        for k, v in enumerate((cp.var(x), cp.round(x, 2), cp.kron(x[:3], x[:3]), cp.diff(x), cp.nan_to_num(x))):
            assert type(v) is cp.ndarray, k
        assert type(l + 1.0) is L.LazyArray and type(cp.exp(x)) is L.LazyArray

    @cp.lazy
    def step(w):
        return (w * 2).sum(), w.mean(axis=0)

    s, m = step(x)
    assert type(s) is cp.ndarray and s.shape == () and m.shape == ()

    # A ufunc keyword given an array (where=, out=) is not its default: it runs eagerly. (Its
    # comparison with the default was `True == mask`, elementwise, whose truth raised ValueError.)
    mask, o = cp.ndarray((1000,), np.bool_), cp.ndarray((1000,), np.float32)
    with cp.lazy():
        assert type(cp.add(x, y, where=mask)) is cp.ndarray
        assert cp.add(x, y, out=o) is o
        mo = cp.ndarray((0, 3), np.float32)  # (no work: a GEMM cannot run stubbed)
        assert cp.matmul(cp.ndarray((0, 4), np.float32), cp.ndarray((4, 3), np.float32), out=mo) is mo
    print("ok")
''')


def test_fuse_and_lazy_with_the_device_stubbed():
    script = _SCRIPT.format(tests=os.path.join(_ROOT, "tests"))
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr
