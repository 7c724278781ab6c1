"""The trace cache of lazy mode (`fusion/trace.py`, `planner.plan_traced`) without a GPU: a
repeated loop body hits the cache, a changed shape/dtype/scalar type/aliasing misses, the traced
Program computes what the plain planner's does from the same values, and, with the device
stubbed, a repeated `with lazy()` body plans once and launches on the new arrays."""

import os
import subprocess
import sys
import textwrap

import numpy
import pytest

from cuarray._core.fusion import graph as g
from cuarray._core.fusion import lazy_mode as L
from cuarray._core.fusion import planner
from cuarray._core.fusion.trace import Trace

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Host:
    """Stands for a device array (shape and dtype for the graph)."""

    def __init__(self, a):
        self.a = a

    def __getitem__(self, key):
        return _Host(self.a[key])

    def transpose(self, axes=None):
        return _Host(self.a.transpose(axes))

    def reshape(self, shape):
        return _Host(self.a.reshape(shape))

    _shape = property(lambda self: self.a.shape)
    _dtype = property(lambda self: self.a.dtype)


@pytest.fixture(autouse=True)
def _host_views(monkeypatch):
    monkeypatch.setattr(g, "array_node", lambda h: g.Node("array", (), h._shape, h._dtype, value=h))


def _arr(shape, dtype=numpy.float32, seed=0):
    a = numpy.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return L.LazyArray(g.Node("array", (), a.shape, a.dtype, value=_Host(a)))


def _build(fn, *args):
    """`fn(*args)` built as a graph (nothing computed), recorded in a fresh Trace."""
    with L.lazy(_track=False):
        out = fn(*args)
    outs = out if isinstance(out, tuple) else (out,)
    tr = Trace()
    nodes = [o._node for o in outs]
    return tr, nodes


def _body(x, h, w, s):
    d = (x - 1.5) * s
    return (d * h * (1.0 - h)).sum(axis=0) + w, d


def _traced(fn, *args):
    tr, nodes = _build(fn, *args)
    prog, values = planner.plan_traced(tr, nodes)
    return tr.key(nodes), prog, values


def test_a_repeated_body_hits_the_cache_and_takes_the_new_values():
    k1, p1, v1 = _traced(_body, _arr((64, 8), seed=1), _arr((64, 8), seed=2), _arr((8,), seed=3), 0.5)
    args = _arr((64, 8), seed=4), _arr((64, 8), seed=5), _arr((8,), seed=6), 0.25
    k2, p2, v2 = _traced(_body, *args)
    assert k1 == k2 and p1 is p2
    # The values are this graph's: its arrays and its scalar, in the Program's input order.
    assert {id(v) for v in v2 if isinstance(v, _Host)} == {id(a._node.value) for a in args[:3]}
    assert 0.25 in v2 and 0.5 not in v2


@pytest.mark.parametrize("change", ["shape", "dtype", "scalar-type", "aliasing", "axis", "outputs"])
def test_a_changed_structure_misses(change):
    x, h, w = _arr((64, 8), seed=1), _arr((64, 8), seed=2), _arr((8,), seed=3)
    k1, p1, _ = _traced(_body, x, h, w, 0.5)
    if change == "shape":
        k2, p2, _ = _traced(_body, _arr((32, 8)), _arr((32, 8)), w, 0.5)
    elif change == "dtype":
        k2, p2, _ = _traced(_body, _arr((64, 8), numpy.float64), h, w, 0.5)
    elif change == "scalar-type":  # an int scalar resolves another loop
        k2, p2, _ = _traced(_body, x, h, w, 2)
    elif change == "aliasing":  # h is x: one input instead of two
        k2, p2, _ = _traced(_body, x, x, w, 0.5)
    elif change == "axis":
        k2, p2, _ = _traced(lambda *a: (_body(*a)[1].sum(axis=1),), x, h, w, 0.5)
    else:  # the same graph, one output fewer asked for
        k2, p2, _ = _traced(lambda *a: _body(*a)[0], x, h, w, 0.5)
    assert k1 != k2 and p1 is not p2


EXPRS = [
    lambda xp, a, b: 1 / (1 + xp.exp(-(2 * a - 1))) * a + 0.5,
    lambda xp, a, b: a[:, None] * b - 3,
    lambda xp, a, b: xp.where(a > 0, a, b[0]),
    lambda xp, a, b: (xp.mean(a * 3, axis=0), xp.max(xp.abs(a - b), axis=-1, keepdims=True)),
    lambda xp, a, b: xp.dot(a.T, a * 2) * b[0],
    lambda xp, a, b: ((a * 2)[1:, ::2] + 1, a * a),
    lambda xp, a, b: (a - 1).reshape(-1).sum() + a.astype(numpy.float64),
]


def _feeds(prog, values):
    """For each step, what it reads: input values (by identity) or earlier steps (by index)."""
    base = len(prog.inputs)
    out = []
    for st in prog.steps:
        ins = getattr(st, "ins", ())
        scal = tuple(k for k, _ in getattr(st, "scalars", ()))
        out.append((st.describe(), tuple(("v", id(values[k])) if k < base else ("s", k - base) for k in ins + scal)))
    return out, [("v", id(values[k])) if k < base else ("s", k - base) for k in prog.outputs]


@pytest.mark.parametrize("k", range(len(EXPRS)))
def test_the_traced_program_computes_what_the_plain_one_does(k):
    a, b = _arr((6, 5), seed=k), _arr((6, 5), seed=k + 10)
    tr, nodes = _build(lambda: EXPRS[k](L._registry.namespace(), a, b))
    traced, values = planner.plan_traced(tr, nodes)
    plain = planner.plan(nodes)
    assert _feeds(traced, values) == _feeds(plain, [n.value for n in plain.inputs])
    assert [s.source() for s in traced.steps] == [s.source() for s in plain.steps]


def test_cached_programs_keep_no_graph_alive():
    import gc
    import weakref

    x = _arr((17, 3), seed=1)
    tr, nodes = _build(lambda: (x * 3.5 - 1).sum(axis=1))
    n_before = len(planner._programs)
    prog = planner.plan_traced(tr, nodes)[0]
    assert len(planner._programs) == n_before + 1  # planned now, and cached
    ref = weakref.ref(x._node.value)
    del x, tr, nodes
    gc.collect()
    assert ref() is None  # the cached Program holds labels, not the first graph's arrays
    assert "array float32 (17, 3)" in prog.explain()


def test_an_uncomputed_node_of_an_earlier_trace_is_recorded_again_without_recursion():
    x = _arr((4,), seed=1)
    with L.lazy(_track=False):
        y = x
        for _ in range(3000):  # deeper than Python's recursion limit
            y = L._dot(y.reshape(2, 2), x.reshape(2, 2)).reshape(4)
    tr = Trace()
    key = tr.key([y._node])
    assert key is not None and len(key[0]) > 3 * 3000
    with L.lazy(_track=False):
        z = y + 1
    tr2 = Trace()
    assert len(tr2.key([z._node])[0]) == len(key[0]) + 2  # the old graph, the scalar, the new node


def test_a_call_without_a_signature_is_planned_but_not_cached():
    x = _arr((4,), seed=1)
    with L.lazy(_track=False):
        n = g.call_node("opaque", (x._node,), (4,), numpy.float32, lambda a: a, lambda a: a, None)
        y = L.LazyArray(n) * 2
    tr = Trace()
    assert tr.key([y._node]) is None
    prog, values = planner.plan_traced(tr, [y._node])
    assert len(prog.steps) == 2 and values[0] is x._node.value


_SCRIPT = textwrap.dedent('''
    import gc, sys, weakref
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core.fusion import planner
    from cuarray.cuda import launch

    launches = []
    launch.set_launch_hook(lambda fn, s, c, k, a: launches.append(a))
    planned = []
    plan = planner.plan
    planner.plan = lambda *a, **k: planned.append(1) or plan(*a, **k)

    def body(x, h, s):
        return (x - s) * h * (1.0 - h)

    a, b = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)
    body(a, b, 0.5), a - b, a < b  # eager: the operators' prepared fast paths exist now
    with cp.lazy():
        for r in (a - b, a * 2.0, a < b, 1.0 - a, -a):  # concrete operands, lazy results
            assert type(r).__name__ == "LazyArray", type(r)
    del planned[:]
    ptrs = []
    for i in range(4):
        x, h = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)
        del launches[:]
        with cp.lazy():
            y = body(x, h, 0.5 + i)
        assert y.is_computed and len(launches) == 1
        ptrs.append((x.data.ptr, h.data.ptr, y._materialize().data.ptr))
        assert x.data.ptr in launches[0] and h.data.ptr in launches[0], (ptrs[-1], launches[0])
    assert len(planned) == 1, planned                     # planned once for four bodies
    with cp.lazy():
        y = body(cp.ndarray((10,), np.float32), cp.ndarray((10,), np.float32), 0.5)
    with cp.lazy():
        y = body(cp.ndarray((1000,), np.float64), cp.ndarray((1000,), np.float32), 0.5)
    assert len(planned) == 3, planned                     # another shape, another dtype

    # An in-place write into a concrete array computes the pending graphs first (they read
    # the array as it was), as eager mode's order of effects would.
    w, v = cp.ndarray((1000,), np.float32), cp.ndarray((1000,), np.float32)
    with cp.lazy():
        y = w * 2.0
        w[:500] = 0.5
        assert y.is_computed
        z = w + 1.0
        cp.multiply(v, v, out=w)
        assert z.is_computed

    # A value carried from step to step keeps no earlier step alive.
    w = cp.ndarray((1000,), np.float32)
    first = weakref.ref(w)
    for i in range(5):
        with cp.lazy():
            w = w - 0.1 * (w * 2.0)
    gc.collect()
    assert first() is None
    print("ok")
''')


def test_lazy_bodies_with_the_device_stubbed():
    script = _SCRIPT.format(tests=os.path.join(_ROOT, "tests"))
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr


@pytest.mark.gpu
def test_cache_hits_give_the_eager_results_on_the_gpu():
    import cuarray as cp

    rng = numpy.random.default_rng(7)
    planned = []
    plan = planner.plan

    def counting(*a, **k):
        import traceback

        planned.append("".join(traceback.format_stack(limit=6)))
        return plan(*a, **k)

    planner.plan = counting
    try:
        for i in range(4):  # fresh values every step: the cached Program must read them
            x = rng.standard_normal((300, 40)).astype(numpy.float32)
            h = rng.random((300, 40), dtype=numpy.float32)
            dx, dh = cp.asarray(x), cp.asarray(h)
            s = float(i) + 0.5
            with cp.lazy():
                y = (dx - s) * dh * (1.0 - dh)
                r = y.sum(axis=0)
            eager_y = (dx - s) * dh * (1.0 - dh)
            numpy.testing.assert_array_equal(y.get(), eager_y.get())  # bit for bit
            numpy.testing.assert_allclose(r.get(), ((x - s) * h * (1 - h)).sum(axis=0), rtol=1e-4, atol=1e-4)
        assert len(planned) == 1, "\n".join(planned)

        # A loop-carried value (logistic-regression style): lazy steps equal eager steps.
        X = cp.asarray(rng.standard_normal((200, 30)).astype(numpy.float32))
        t = cp.asarray((rng.random(200) > 0.5).astype(numpy.float32))
        w_l = w_e = cp.asarray(rng.standard_normal(30).astype(numpy.float32) * 0.1)
        b_l = b_e = 0.0

        def step(w, b):
            p = 1 / (1 + cp.exp(-cp.dot(X, w) - b))
            return w - 0.1 * (cp.dot(X.T, p - t) / 200 + 0.02 * w), b - 0.1 * (p - t).mean()

        for _ in range(20):
            with cp.lazy():
                w_l, b_l = step(w_l, b_l)
            w_e, b_e = step(w_e, b_e)
        numpy.testing.assert_allclose(w_l.get(), w_e.get(), rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(float(b_l), float(b_e), rtol=1e-5, atol=1e-6)
    finally:
        planner.plan = plan


@pytest.mark.gpu
def test_a_lazy_step_captured_in_a_cuda_graph_replays_like_eager_steps():
    import cuarray as cp

    rng = numpy.random.default_rng(11)
    X = cp.asarray(rng.standard_normal((100, 20)).astype(numpy.float32))
    t = cp.asarray((rng.random(100) > 0.5).astype(numpy.float32))
    w0 = rng.standard_normal(20).astype(numpy.float32) * 0.1

    def step(w, b):
        p = 1 / (1 + cp.exp(-cp.dot(X, w) - b))
        return w - 0.1 * (cp.dot(X.T, p - t) / 100 + 0.02 * w), b - 0.1 * (p - t).mean()

    w, b = cp.asarray(w0), cp.zeros((), cp.float32)

    def captured():
        with cp.lazy():
            w_new, b_new = step(w, b)
            w[...] = w_new  # in place: the graph's addresses stay valid
            b[...] = b_new

    captured()  # warm-up (kernels, plans, cuBLAS workspace)
    w[...], b[...] = cp.asarray(w0), 0.0
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        captured()
    for _ in range(10):
        g.replay()
    w_e, b_e = cp.asarray(w0), cp.zeros((), cp.float32)
    for _ in range(10):
        w_e, b_e = step(w_e, b_e)
    numpy.testing.assert_allclose(w.get(), w_e.get(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(float(b), float(b_e), rtol=1e-5, atol=1e-6)


_SAME_LAUNCHES = textwrap.dedent('''
    import sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import install
    install()
    from cuarray._core import elementwise
    from cuarray._core.fusion import planner
    from cuarray._core import tracing
    from cuarray.cuda import launch

    elementwise.Definition._kernel = lambda self, layout, ndim, it: (self.name, layout, ndim, np.dtype(it).name)
    rec = []
    launch.set_launch_hook(lambda fn, s, c, k, a: rec.append((k, repr(c), a)))

    def bodies(general):
        if general:  # the engine's general path for every cached elementwise step
            planner._Elementwise.run = lambda self, slots: self._general(slots, planner._new_c(self.shape, self.dtype))
        x = cp.ndarray((37, 41), np.float32)
        y = cp.ndarray((41,), np.float32)
        z = cp.ndarray((37, 41), np.float64)
        u = cp.ndarray((1001,), np.float32)
        out = []
        for f in (lambda: (x - 1.5) * x * (1.0 - x),          # one input read once
                  lambda: x * y + 2,                           # broadcast: general path
                  lambda: (x * z).astype(np.float32) - 1,      # two itemsizes
                  lambda: u[1:] * 3.0 + u[:-1],                # unaligned views
                  lambda: x.T * 2.0 + 1,                       # transposed
                  lambda: cp.where(x > 0, x, 0.5) * z):
            del rec[:]
            with cp.lazy():
                r = f()
            ptrs = {{}}
            norm = [(k, c, tuple(ptrs.setdefault(v, "p%d" % len(ptrs)) if type(v) is int and v > 2**39 else repr(v)
                                 for v in a)) for k, c, a in rec]
            out.append(norm)
        return out

    fast = bodies(False)
    general = bodies(True)
    assert fast == general, (fast, general)
    assert sum(len(f) for f in fast) >= 6
    try:
        with cp.lazy():
            raise KeyError
    except KeyError:
        pass
    assert len(tracing.active) == 0 and tracing.state.tracer is None
    print("ok")
''')


def test_cached_steps_launch_what_the_general_path_launches():
    script = _SAME_LAUNCHES.format(tests=os.path.join(_ROOT, "tests"))
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stdout + res.stderr
