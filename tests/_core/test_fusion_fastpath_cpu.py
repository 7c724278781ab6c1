"""Lazy mode's memoised fast paths (operators, hooked ufunc calls, reduction methods) build what
the general path builds: the same trace entries (so the same Program key: a loop body does not
plan twice when its second iteration takes the fast path), the same shapes and dtypes, the same
input values. Device stubbed, in a subprocess (cuarray/testing/fake_device.py replaces the launches
for the whole process); with the node core's C records and with the Python ones."""

import functools
import json
import os
import subprocess
import sys
import textwrap

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, {tests!r})
    import json
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core.fusion import graph as G
    from cuarray._core.fusion import lazy_mode as L
    from cuarray._core.fusion import planner

    def bodies(x, y, v, h, i8, wm, c):
        # (name, function of a lazy operand l) covering every fast path and its operand kinds
        return [
            ("lazy-scalar", lambda l: (l - 1.0) * 2 + 0.5 / l - 3 // 1),
            ("reflected", lambda l: 1 - l, ),
            ("lazy-lazy", lambda l: l * l - (l + l) / l),
            ("unary", lambda l: -l + abs(-l) * +l + (~(l > 0) | (l > 1))),
            ("lazy-array", lambda l: l - y + x * l),
            ("broadcast", lambda l: (l + v) * (v - l) + l * h),
            ("zero-d", lambda l: l.sum() - l + (l - l.mean())),
            ("ints", lambda l: (i8 + 1) * 3 - i8 + l),
            ("compare", lambda l: (l < 0.5) | (l > y)),
            ("ndarray-ops", lambda l: (1 - y) * -x + (x - y) * l + (2.0 * x < l)),
            ("ufuncs", lambda l: cp.exp(-l) + cp.log(1 - l) + cp.maximum(l, 0.0) + cp.add(x, 1)),
            ("reductions", lambda l: l.sum() + l.mean() + (l * 2).max() + l.min() + l.prod()
                                     + (l > 0).any() + (l > 0).all() + x.mean()),
            ("mean-f16", lambda l: l.astype(np.float16).mean() + l.astype(np.float16).sum()),
            ("mean-int", lambda l: (i8 * 2).mean() + (i8 + 1).sum()),
            ("logreg", lambda l: -(y * cp.log(l)) - (1 - y) * cp.log(1 - l) + 0.01 * (l ** 2).sum()),
            ("products", lambda l: cp.dot(l, wm) * 2.0 + cp.matmul(x, wm) - cp.dot(-l, wm)
                                   + cp.dot(x.T, l).sum() + cp.matmul(l, v) .sum() + cp.dot(v, l.T).sum()),
            # c: a lazy array computed in an earlier context (a loop's carried value): an input
            ("carried", lambda l: cp.dot(c, wm).sum() - cp.dot(x, c.T) @ l + cp.dot(c.T, x).sum()
                                  + cp.matmul(x.T, c).sum() + cp.dot(c, c.T).sum() + cp.dot(v, c.T).sum()),
            # ... and as an operand of the elementwise records (its input entry, then the node's)
            ("carried-lazy", lambda l: l - c),
            ("carried-lazy-reflected", lambda l: c * l),
            ("carried-twice", lambda l: c * c + l),
            ("carried-scalar", lambda l: c * 2.0 + l),
            ("carried-scalar-reflected", lambda l: 2.0 - c + l),
            ("carried-unary", lambda l: -c + l),
            ("carried-ufunc", lambda l: cp.exp(c) + cp.maximum(l, c)),
            ("carried-both", lambda l: c - c0 + l),
            ("carried-shared", lambda l: (c + l) * 0.5 - cp.dot(c0, wm).sum()),
        ]

    x, y = cp.ndarray((6, 5), np.float32), cp.ndarray((6, 5), np.float32)
    v, h = cp.ndarray((5,), np.float32), cp.ndarray((6, 1), np.float32)
    i8 = cp.ndarray((6, 5), np.int8)
    wm = cp.ndarray((5, 4), np.float32)
    with cp.lazy():
        c = x * 2.0 - y
        c0 = x - 1.0
    assert c._node.value is not None and c0._node.value is not None

    def record(fn):
        """(trace entries, [(shape, dtype)] of the lazy results, types of the inputs' values)."""
        with cp.lazy():
            L._threads.st.live = []  # nothing computed at exit: the graph and its trace are compared
            l = x * 0.5 + y     # a lazy operand
            out = fn(l)
            tr = L._threads.st.trace
            res = (list(tr.ops), [(out.shape, out.dtype)], [type(a) for a in tr.values],
                   [a for a in tr.values if not isinstance(a, cp.ndarray)],
                   [tr.leaves.index(n) for n in tr.held or ()])  # (computed leaves whose graphs `compute` drops)
            L._threads.st.live = []
        return res

    from cuarray._core.fusion import products as P
    from cuarray.cuda.libs import cublas

    cublas.gemm = cublas.gemv = lambda *a, **k: True  # (the library calls: no device here; the nodes are compared)

    made = []
    ufunc_node, product_node = G.ufunc_node, P.product_node
    G.ufunc_node = lambda *a: made.append(1) or ufunc_node(*a)
    prods = []
    P.product_node = lambda *a: prods.append(1) or made.append(1) or product_node(*a)
    import re

    def describe(o):  # (an entry as text: the same in every process)
        if type(o) is tuple:
            return [describe(e) for e in o]
        if isinstance(o, (np.dtype, int, float, str)):
            return str(o)
        if hasattr(o, "out_dtypes"):  # a ufunc's resolved loop
            return [describe(tuple(o.in_dtypes)), describe(tuple(o.out_dtypes))]
        return getattr(o, "__name__", None) or re.sub(" at 0x[0-9a-f]+", "", repr(o))

    warm_traces = dict()
    for name, fn in bodies(x, y, v, h, i8, wm, c):
        L.clear_memos()
        del made[:]
        cold = record(fn)
        n_cold = len(made)
        del made[:], prods[:]
        warm = record(fn)
        assert cold == warm, (name, cold, warm)
        warm_traces[name] = describe((tuple(warm[0]), tuple(warm[1]), tuple(warm[2]), tuple(warm[4])))
        assert n_cold > 0 and len(made) < n_cold, (name, n_cold, len(made))   # the fast path ran
        if name in ("products", "carried"):  # every product of the warm body from the memo (`fast_paths.traced_call`)
            assert len(prods) == 0, len(prods)
    # ... and the values are what eager mode computes (shape/dtype of eager results).
    for name, fn in bodies(x, y, v, h, i8, wm, c):
        e = fn(x * 0.5 + y)
        _, [(shape, dtype)], _, _, _ = record(fn)
        assert (e.shape, e.dtype) == (shape, dtype), (name, e.shape, e.dtype, shape, dtype)

    # A loop body plans once when its second iteration takes the fast path.
    L.clear_memos()
    n = len(planner._programs)
    for i in range(3):
        w = cp.ndarray((5,), np.float32)
        with cp.lazy():
            g = (1 / (1 + cp.exp(-(w - 0.5)))) * w + 0.1 * i - w.mean()
    assert len(planner._programs) == n + 1, len(planner._programs) - n

    # A chain built by the fast paths is computed when it grows past MAX_CHAIN, as `_wrap` does.
    with cp.lazy():
        l = x * 1.0
        for i in range(3 * L.MAX_CHAIN):
            l = (-l + 1.0) if i % 2 else cp.exp(l) - y
            assert l._node.cost <= L.MAX_CHAIN + 1, (i, l._node.cost)

    # Errors: the first call raises through the general path; a failing signature is never
    # memoised, so the fast path raises the same way the next time.
    with cp.lazy():
        for _ in range(2):
            try:
                cp.ndarray((3,), np.float32) + cp.ndarray((4,), np.float32) * 1.0
            except ValueError:
                pass
            else:
                raise AssertionError("broadcast error not raised")
            try:
                (x * 1.0) + v.reshape(5, 1)
            except ValueError:
                pass
            else:
                raise AssertionError("broadcast error not raised")
    print(json.dumps(warm_traces))
    print("ok")
''')


@functools.lru_cache(maxsize=None)
def _run(nodes):
    script = _SCRIPT.format(tests=os.path.join(_ROOT, "tests"))
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               CUARRAY_PURE_PYTHON_NODES="1" if nodes == "python" else "0")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr
    return json.loads(res.stdout.strip().splitlines()[-2])


@pytest.mark.parametrize("nodes", ["native", "python"])
def test_fast_paths_build_what_the_general_path_builds(nodes):
    """With the node core (`_nodecore`, where built: its C operators and records) and with its
    pure-Python fallback."""
    _run(nodes)


def test_the_node_core_and_the_python_fallback_build_the_same_traces():
    """The warm bodies (fast paths: C operators where the node core is built) give the same trace
    entries, result shapes and dtypes, and input value types in both implementations."""
    native, python = _run("native"), _run("python")
    assert native.keys() == python.keys()
    for name in native:
        assert native[name] == python[name], name


def test_lazy_methods_keep_their_names_and_docs():
    # With the node core, a LazyArray's operators and reduction methods are C `Operator`s: their
    # `__name__` and `__doc__` are the Python methods' (`help(l.sum)` points at NumPy's page).
    from cuarray._core.fusion.lazy_array import LazyArray

    for name in ("sum", "prod", "mean", "max", "min", "any", "all", "dot", "clip"):
        m = getattr(LazyArray, name)
        assert m.__name__ == name and m.__doc__ == "See `numpy.ndarray.{}`.".format(name), (name, m.__doc__)
