"""var/std's one-pass methods (`averages._var(..., method=)`; issue 32, docs/perf-notes.md "var/std
in one pass") without a GPU: the kernels of every method and plan shape compile for
sm_90 with NVRTC, the planner gives wide accumulators (`ReductionDef.wide`) a sum's loads in flight
over fewer accumulator sets, every other plan's kernels are unchanged byte for byte, and repeated
var/std calls take the reduction fast path. GPU values: tests/_statistics/test_var_methods_gpu.py."""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pytest

from cuarray._core import reduction as _red
from cuarray._core import reduction_ops as _r
from cuarray._core.reduction import Stage
from cuarray._statistics import averages
from cuarray.cuda import compiler

from test_var_one_pass_cpu import ARCH, _nvrtc_or_skip  # noqa: E402  (the same NVRTC probe)


def _acc(dt):
    return np.dtype(np.float64) if dt.kind in "biu" else (np.dtype(np.float32) if dt.char == "e" else dt)


def _def(method, dt, root=False):
    """The definition `_var` builds for `method` on input `dt` (result dtype as NumPy's var)."""
    dt = np.dtype(dt)
    op, wide, suffix, post, post_root = averages._ONE_PASS[method]
    o = _r.OPS[op]
    acc = _acc(dt)
    res = _r.result_dtype(np.std if root else np.var, dt)
    return _r._definition(o, ((dt, _r._compute_for(o, dt, acc)),), ("x",), acc, res, False,
                          post_root if root else post, (("_div", np.dtype(np.float64)),),
                          ("std" if root else "var") + suffix, wide)


def _plan(d, shape, raxes, item):
    strides = tuple(int(np.prod(shape[i + 1:])) * item for i in range(len(shape)))
    kshape = [s for i, s in enumerate(shape) if i not in raxes]
    ystr = tuple(int(np.prod(kshape[i + 1:])) * d.out.dtype.itemsize for i in range(len(kshape)))
    return _red.plan(shape, (strides,), (item,), ystr, raxes, aligned=(True,), acc_size=d.acc_size, wide=d.wide)


_SHAPES = [((1_000_000, 4), (0,)), ((16_000_000, 4), (0,)), ((1_000_000, 2), (0,)), ((1_000_000, 8), (0,)),
           ((1_000_000, 16), (1,)), ((100_000_000,), (0,)), ((1000, 4), (1,)), ((64, 5000), (1,)),
           ((4, 2_000_000), (1,)), ((3, 5, 7), (0, 2)), ((123457,), (0,)), ((5000, 3), (0,))]


_OVEC_SHAPES = _SHAPES[:2] + _SHAPES[3:4]  # the plans `wide` changes (output vectors)


def _compile(method, dt, shapes, roots=(False, True)):
    _nvrtc_or_skip()
    dt = np.dtype(dt)
    sources = []
    for root in roots:
        d = _def(method, dt, root)
        for shape, raxes in shapes:
            p = _plan(d, shape, raxes, dt.itemsize)
            sources += [d.source(st)[1] for st, _, _ in d.stages(p)]
    for src in dict.fromkeys(sources):
        compiler.compile_cubin(src, arch=ARCH)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int64"])
@pytest.mark.nvrtc_fast
def test_shifted_kernels_compile_for_every_plan_shape(dt):
    """Shifted sums over every plan shape (the Welford kernels: tests/_statistics/test_var_one_pass_cpu.py)."""
    _compile("shift", dt, _SHAPES, (False,))
    _compile("shift", dt, _SHAPES[:1] + _SHAPES[4:6], (True,))


@pytest.mark.parametrize("method", ["welford-wide", "shift-wide", "welford-wide4", "welford-wide8"])
@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int64", "int32"])
@pytest.mark.nvrtc_fast
def test_wide_kernels_compile(method, dt):
    """int32: 4 outputs a vector with 24/32-byte float64 accumulators (1 set of 8 loads)."""
    _compile(method, dt, _OVEC_SHAPES)


def test_shifted_accumulator_sizes():
    for dt, size in (("float16", 24), ("float32", 24), ("float64", 32), ("int32", 32)):
        d = _def("shift", dt)
        assert d.acc_ctype.startswith("cuarray::shifted<") and d.acc_size == size, (dt, d.acc_size)
        assert "shifted_step" in d.step and "shifted_m2(a)" in d.post_map
    assert _def("welford", "float32").acc_size == 16 and not _def("welford", "float32").wide


@pytest.mark.parametrize("method, dt, want", [
    # (unroll, accs, sub, ovec, split, chunk): wide -> a sum's 8 loads a round, the sets that fit 128 bytes
    ("welford", "float32", (2, 0, 256, 4, 977, 1024)),
    ("welford-wide", "float32", (8, 2, 256, 4, 245, 4096)),
    ("welford-wide4", "float32", (8, 4, 256, 4, 245, 4096)),
    ("welford-wide8", "float32", (8, 8, 256, 4, 245, 4096)),
    ("shift", "float32", (1, 0, 256, 4, 1954, 512)),
    ("shift-wide", "float32", (8, 1, 256, 4, 245, 4096)),
    ("welford", "float64", (2, 0, 128, 2, 1954, 512)),
    ("welford-wide", "float64", (8, 2, 128, 2, 489, 2048)),
    ("shift-wide", "float64", (8, 2, 128, 2, 489, 2048)),
])
def test_planner_gives_wide_accumulators_a_sums_loads(method, dt, want):
    """var(axis=0) of (1e6, 4): before, the float32 var's 16-byte accumulators cut the round to 2
    loads, so chunks of 1024 rows and 977 blocks (the sum: 8 loads, 245 blocks)."""
    d = _def(method, dt)
    p = _plan(d, (1_000_000, 4), (0,), np.dtype(dt).itemsize)
    assert (p.unroll, p.accs, p.sub, p.ovec, p.split, p.chunk) == want
    (st, grid, role), = d.stages(p)
    assert st.accs == p.accs and role == "fused" and grid == (1, p.split)
    assert ("__acc{}__".format(p.accs) in d.kernel_name(st)) == bool(p.accs)
    s = _def("welford", "float32").acc_size  # a sum plans the same with or without `wide`
    args = ((1_000_000, 4), ((16, 4),), (4,), (4,), (0,))
    assert repr(_red.plan(*args, aligned=(True,), acc_size=4, wide=True)) == repr(
        _red.plan(*args, aligned=(True,), acc_size=4))
    assert _red.plan(*args, aligned=(True,), acc_size=s, wide=True).accs == 2


def test_wide_only_changes_output_vector_plans():
    """Row, flat and scalar sub-chunk plans are the same for a wide definition (accs 0)."""
    for shape, raxes in _SHAPES:
        if shape in ((1_000_000, 4), (16_000_000, 4), (1_000_000, 8)):
            continue
        narrow, wide = _def("welford", "float32"), _def("welford-wide", "float32")
        assert repr(_plan(narrow, shape, raxes, 4)) == repr(_plan(wide, shape, raxes, 4)), shape


def test_wide_round_folds_loads_into_fewer_sets():
    d = _def("welford-wide", "float32")
    p = _plan(d, (1_000_000, 4), (0,), 4)
    (st, _, _), = d.stages(p)
    src = d.source(st)[1]
    assert "_acc_t _acc[2][_V];" in src and "cuarray::moments_step(_acc[_u % 2][_k], x);" in src
    assert "cuarray::vec<float, 4> _vx[_U];" in src and "constexpr int _U = 8;" in src
    narrow = _def("welford", "float32")
    src0 = narrow.source(Stage(*st[:-1], accs=0))[1]
    assert "_acc_t _acc[_U][_V];" in src0 and "moments_step(_acc[_u][_k], x);" in src0


def _digest_defs():
    def d(op, c):
        dt = np.dtype(c)
        if op == "moments":
            return _r._definition(_r.OPS[op], ((dt, dt),), ("x",), dt, dt, False,
                                  "y = cuarray::cast<float>(a.m2 / _val_t(_div))", (("_div", np.dtype("d")),), "var")
        o = _r.OPS[op]
        res = _r.result_dtype(o.np_fn, dt)
        acc = _r.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else _r._POST_CAST
        return _r._definition(o, ((dt, _r._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())

    return [d(op, c) for op, c in [("sum", "f"), ("argmax", "f"), ("nanmax", "d"), ("sum", "e"), ("moments", "f"),
                                   ("moments", "d"), ("max", "f"), ("nansum", "d"), ("argmin", "e"), ("sum", "d")]]


def test_output_vector_and_tile_kernels_unchanged():
    """840 sources of the output-vector and row-tile passes (the one-pass skeleton's are pinned by
    tests/_core/test_row_tiles_cpu.py): digest taken on the code before `accs` (commit b1d3b31),
    retaken when the output-vector passes' block combination moved into reduction.cuh (out_vec_*:
    every output-vector and folded kernel's sm_90 SASS compared identical before and after)."""
    h, n = hashlib.sha256(), 0
    for d in _digest_defs():
        for dst in ("out", "part", "fused"):
            for ov in (2, 4, 8):
                for un in (1, 2, 8):
                    for sub in (64, 128, 256):
                        st = Stage("map", dst, 1, un, 1, 1, 1, np.int32, 32 if dst == "fused" else 0,
                                   8 if dst == "fused" else 0, sub, ovec=ov)
                        h.update(d.source(st)[1].encode())
                        n += 1
            for g, mv, rows in ((1, 1, 8), (2, 2, 4), (4, 1, 2)):
                if dst == "out":
                    h.update(d.source(Stage("map", "out", g, 1, 4, 1, 1, np.int32, rows=rows, mvec=mv))[1].encode())
                    n += 1
    assert (n, h.hexdigest()) == (840, "a06a8fc8c4b92558481a6d68f3122ef9422cc279f7bade98de469f87e6de7569")


def test_unknown_method_raises(recorded_launches):
    import cuarray as cp

    a = cp.ndarray((10, 4), np.float32)
    with pytest.raises(ValueError, match="method must be one of"):
        averages._var(a, 0, None, None, 0, False, True, None, False, np.var, method="pairwise")


def _launched_names(calls):
    return [c[2][0] for c in calls if isinstance(c[2], tuple) and isinstance(c[2][0], str)]


def test_repeated_var_and_std_take_the_fast_path(recorded_launches, monkeypatch):
    """The second call of each form is one look-up and the launches: `reduce` is not called."""
    import cuarray as cp
    from cuarray.cuda import device

    monkeypatch.setattr(_red.ReductionDef, "_kernel", lambda self, st: (self.kernel_name(st), st))
    monkeypatch.setattr(_red, "_new_counter", lambda dev: 1 << 39)
    monkeypatch.setattr(_red, "_workspaces", {})  # fake workspace memory stays in this test
    monkeypatch.setattr(_r, "_fast", {})
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    try:
        a = cp.ndarray((1_000_000, 4), np.float32)
        forms = [lambda: cp.var(a, axis=0), lambda: cp.std(a, axis=0, ddof=1), lambda: a.var(axis=0, keepdims=True),
                 lambda: averages._var(a, 0, None, None, 0, False, True, None, False, np.var, method="shift-wide")]
        firsts = []
        for f in forms:
            f()
            firsts.append(_launched_names(recorded_launches)[-1])
        assert firsts[0].startswith("cuarray_var_float32") and "__acc2__" in firsts[0]
        assert firsts[1].startswith("cuarray_std_float32") and firsts[3].startswith("cuarray_var_shift_float32")
        assert len(_r._fast) == 4  # ddof, keepdims and the method are in the keys

        def refuse(*args, **kw):
            raise AssertionError("the general path was taken")

        monkeypatch.setattr(averages._r, "reduce", refuse)
        for f, name in zip(forms, firsts):
            n = len(recorded_launches)
            y = f()
            assert _launched_names(recorded_launches[n:]) == [name]
        assert y.shape == (4,) and forms[2]().shape == (1, 4)
    finally:
        _r.clear_fast_path()  # no placeholder kernel stays in a definition's launchers


def test_ddof_past_the_count_warns_every_call(recorded_launches, monkeypatch):
    import cuarray as cp
    from cuarray.cuda import device

    monkeypatch.setattr(_red.ReductionDef, "_kernel", lambda self, st: (self.kernel_name(st), st))
    monkeypatch.setattr(_r, "_fast", {})
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    try:
        b = cp.ndarray((3, 4), np.float32)
        for _ in range(2):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                cp.var(b, axis=0, ddof=3)
            assert any("Degrees of freedom" in str(x.message) for x in w)
        assert not _r._fast
    finally:
        _r.clear_fast_path()
