"""interp1d's one-kernel linear route (`_linear`, templates/linear.cu) without a GPU: the
planner's decisions, the NVRTC compile of every instantiation it can pick, and the template's
per-point code itself compiled for the host (g++, no __CUDACC__) inside interp1d's host logic,
compared bit for bit with scipy.interpolate.interp1d (and so numpy.interp, which SciPy hands 1-D
float64 data to) on random and edge data."""

import ctypes
import importlib.util
import itertools
import pathlib
import shutil
import zlib

import numpy as np
import pytest

from cuarray.scipy.interpolate import _linear
from cubin_info import compile_sm90, kernel_attributes  # tests/ is on sys.path
import host_build  # tests/ is on sys.path

si = pytest.importorskip("scipy.interpolate")

F4, F8, I8, I4, I2 = (np.dtype(c) for c in ("f4", "f8", "i8", "i4", "i2"))
C8, C16, F2 = np.dtype("c8"), np.dtype("c16"), np.dtype("f2")
TEMPLATES = pathlib.Path(_linear.__file__).parent / "templates"


# ---- the launch (fake device: recorded, not run) -------------------------------------------

@pytest.fixture
def h100(monkeypatch):
    from cuarray.cuda import device

    monkeypatch.setattr(device, "_first_use", [device._first_use[0]])
    monkeypatch.setattr(device, "_SM_COUNT", {})
    monkeypatch.setattr(device, "_SHARED_PER_BLOCK", {})
    device.simulate({"multiprocessor_count": 132, "max_shared_memory_per_block": 48 * 1024,
                     "max_shared_memory_per_block_optin": 227 * 1024})
    yield
    device.simulate(None)


@pytest.mark.parametrize("paired", [True, False])
def test_one_launch_strided_points_no_copy(h100, recorded_launches, paired):
    import cuarray
    from cuarray.scipy.interpolate import _kernels

    x, y, b, a = cuarray.empty(10), cuarray.empty((10, 1)), cuarray.empty(1), cuarray.empty(1)
    pairs = cuarray.empty((10, 2)) if paired else None
    q = cuarray.empty(3 * 10**6)[::3]  # a strided view: read in place (stride 3), not copied
    recorded_launches.clear()
    out = _kernels.linear_eval(x, y, q, b, a, False, F8, True, pairs)
    assert len(recorded_launches) == 1  # no copy, no index array, no reduction, no sync
    _, cfg, name, *args = recorded_launches[0]
    # a one-shot evaluation builds no cell table: the guess (SEARCH 0, or the window); ten
    # interleaved records go to shared memory (the staged kernel: one 1024-thread block an SM)
    if paired:
        # (strided points: the strided loop's kernel)
        assert name == "cuarray_interp1d::interp1d_linear_staged<double, double, double, 2, {}, false>".format(
            str(_linear.PIPE).lower())
        assert cfg == ("cfg", 132, 1024, 10 * 2 * 8)
        assert args == [q.data.ptr, 3, 10**6, pairs.data.ptr, 10, b.data.ptr, a.data.ptr, 0, 0, out.data.ptr]
        return
    assert name == "cuarray_interp1d::interp1d_linear<double, double, double, double, 2, false, {}, {}>".format(
        _linear.search_for(False, 10), str(_linear.PIPE).lower())
    assert cfg == ("cfg", min(-(-10**6 // 1024), 8 * 132), 256, 0)
    assert args == [q.data.ptr, 3, 10**6, x.data.ptr, y.data.ptr, 10, 1, b.data.ptr, a.data.ptr, 0, 0, out.data.ptr,
                    0, 0]
    assert type(args[1]) is np.int64 and type(args[9]) is np.int32


def test_bounds_error_is_a_device_record_read_in_the_call(h100, recorded_launches, monkeypatch):
    """The kernel checks the points (no host reduction, no read of the points) and the call reads
    the error record once, so that SciPy's ValueError comes from the call, as SciPy's does."""
    import cuarray
    from cuarray._core import device_errors
    from cuarray.scipy.interpolate import _kernels

    x, y, q, b = cuarray.empty(10), cuarray.empty((10, 1)), cuarray.empty(1000), cuarray.empty(1)
    device_errors._buffers[0] = buf = cuarray.empty(4, np.uint64)  # (the recorder's empty table: no memset here)
    reads = []
    monkeypatch.setattr(device_errors, "_take_error", lambda: reads.append(1))  # the driver's read, faked
    host_checks = []
    recorded_launches.clear()
    _kernels.linear_eval(x, y, q, b, b, False, F8, True, None, host_checks.append)
    assert host_checks == []
    (_, _, _, *args), = recorded_launches
    assert args[10] == buf.data.ptr
    assert reads == [1]
    _kernels.linear_eval(x, y, q, b, b, False, F8, True, None, None)  # no bounds_error: no read
    assert reads == [1]
    # the elementwise route (float16 points) keeps the host check
    _kernels.linear_eval(x, y, cuarray.empty(5, "f2"), b, b, False, F8, False, None, host_checks.append)
    assert len(host_checks) == 1


def test_complex_values_launch_on_the_float_view(h100, recorded_launches):
    import cuarray
    from cuarray.scipy.interpolate import _kernels

    x, y, q = cuarray.empty(10, "f4"), cuarray.empty((10, 3), "c8"), cuarray.empty(100, "f4")
    b = a = cuarray.empty(6)
    recorded_launches.clear()
    out = _kernels.linear_eval(x, y, q, b, a, True, np.complex64, False, None)
    assert out.shape == (100, 3) and out.dtype == np.complex64
    (_, _, name, *args), = recorded_launches
    assert name == "cuarray_interp1d::interp1d_linear<float, float, float, float, 1, false, {}, {}>".format(
        _linear.search_for(False, 10), str(_linear.PIPE).lower())
    assert args[5:7] == [10, 6] and args[9] == 1  # six float columns, extrapolating


def test_interp1d_call_is_prepared_once(h100, recorded_launches):
    """interp1d prepares its evaluation once a points dtype (route, converted knots, fill values,
    kernel arguments): a call allocates its result in the final shape and launches once, nothing
    else; extrapolation hands the kernel no fill values."""
    import cuarray
    from cuarray.scipy import interpolate as ci

    x, y = cuarray.empty(10), cuarray.empty((10, 3))
    f = ci.interp1d(x, y, axis=0, copy=False, assume_sorted=True, fill_value="extrapolate")
    q = cuarray.empty(1000)
    recorded_launches.clear()
    a, b = f(q), f(q[::2])
    assert a.shape == (1000, 3) and b.shape == (500, 3) and a.data.ptr != b.data.ptr
    assert len(recorded_launches) == 2 and list(f._linear_runs) == [np.dtype("f8")]
    (_, _, name, *args), (_, _, _, *args2) = recorded_launches
    # copy=False: the caller may write x later, so no cell table (the guess)
    assert name == "cuarray_interp1d::interp1d_linear<double, double, double, double, {}, false, {}, {}>".format(
        3 if _linear.installed_weights_formula() else 0, _linear.search_for(False, 10), str(_linear.PIPE).lower())
    assert args == [q.data.ptr, 1, 1000, x.data.ptr, y.data.ptr, 10, 3, 0, 0, 1, 0, a.data.ptr, 0, 0]
    assert args2[:3] == [q.data.ptr, 2, 500] and args2[11] == b.data.ptr
    assert f(cuarray.empty((4, 5), np.float32)).shape == (4, 5, 3)  # n-d points: the final shape at once
    assert len(recorded_launches) == 3 and len(f._linear_runs) == 2
    z = f(cuarray.empty(()))  # a 0-d point: the values' shape
    assert z.shape == (3,) and z.flags.c_contiguous and len(recorded_launches) == 4
    f.fill_value = "extrapolate"  # setting the fill value prepares again
    assert f._linear_runs == {}


def test_interp1d_copy_false_converted_knots_prepared_each_call(h100, recorded_launches):
    # copy=False with int64 knots: the kernel reads a float64 copy, which would miss the caller's
    # later writes to x if kept: prepared (converted) again each call, as before
    import cuarray
    from cuarray.scipy import interpolate as ci

    x, y = cuarray.empty(10, np.int64), cuarray.empty(10)
    f = ci.interp1d(x, y, copy=False, assume_sorted=True, fill_value="extrapolate")
    recorded_launches.clear()
    f(cuarray.empty(100))
    assert f._linear_runs == {}
    assert any(c[2] == "cuarray_interp1d::interp1d_linear<double, double, double, double, {}, false, {}, {}>".format(
        3 if _linear.installed_weights_formula() else 0, _linear.search_for(False, 10), str(_linear.PIPE).lower())
        for c in recorded_launches)


# ---- NVRTC ---------------------------------------------------------------------------------

ROUTES = [_linear.Route(2, q, F8, F8, F8, p) for q in (F4, F8) for p in (False, True)] + [
    _linear.Route(m, q, t, y, np.result_type(q, t, y), p)
    for m in (0, 1, 3, 4) for q, t, y in itertools.product((F4, F8), repeat=3) for p in (False, True)
    if not p or (t == y and m in (0, 3))]


@pytest.mark.nvrtc_fast
def test_every_route_compiles():
    # every route with the guess (one-shot, copy=False) and the interpolator's cell table search,
    # and the cell table's builders (their code quality: the bench row's kernels, below)
    specs = [r._replace(search=k).spec() for r in ROUTES
             for k in {_linear.SEARCH_GUESS, _linear.SEARCH, _linear.SEARCH_HYBRID}]
    specs += ["interp1d_cells<{}, {}>".format(t, p) for t in ("float", "double") for p in ("false", "true")]
    names = [_linear.LINEAR.name_expression(s) for s in specs]
    cubin, mapping = compile_sm90(_linear.LINEAR.source(), names)
    assert cubin and set(mapping) == set(names)


def test_bench_route_compiles_without_spills():
    # the bench row's kernel with each of those searches, at the options cuarray compiles with: no
    # local memory, and registers for >= 4 blocks of 256 threads an SM (compiled apart from the
    # other routes, which took 83 s at these options on two cores)
    names = [_linear.LINEAR.name_expression(ROUTES[3]._replace(search=k).spec())
             for k in {_linear.SEARCH_GUESS, _linear.SEARCH, _linear.SEARCH_HYBRID}]
    cubin, mapping = compile_sm90(_linear.LINEAR.source(), names)
    attrs = kernel_attributes(cubin)
    for nm in names:
        assert attrs[mapping[nm].decode()].get(0x11, 0) == 0 and attrs[mapping[nm].decode()][0x2F] <= 64, nm


def test_staged_routes_compile_without_spills():
    # every paired route's staged kernel: no local memory, registers for one 1024-thread block
    specs = sorted({r._replace(search=_linear.SEARCH_NEAR).staged_spec(c) for r in ROUTES if r.paired
                    for c in (True, False)})
    names = [_linear.LINEAR.name_expression(s) for s in specs]
    cubin, mapping = compile_sm90(_linear.LINEAR.source(), names)
    attrs = kernel_attributes(cubin)
    assert len(names) >= 8
    for nm in names:
        a = attrs[mapping[nm].decode()]
        assert a.get(0x11, 0) == 0 and a[0x2F] <= 64, (nm, a)


def test_search_variants_compile():
    # the variants the device probe times (every SEARCH, PIPE on/off) on the bench row's route
    r = ROUTES[3]
    names = [_linear.LINEAR.name_expression(r._replace(search=k, pipe=p).spec()) for k in _linear.SEARCHES
             for p in (0, 1)]
    cubin, mapping = compile_sm90(_linear.LINEAR.source(), names)
    attrs = kernel_attributes(cubin)
    for nm in names:
        assert attrs[mapping[nm].decode()].get(0x11, 0) == 0, nm


def test_search_for():
    assert _linear.search_for(False, 10, 2) == _linear.search_for(False, 10, 1) == 0  # knots may change: no table
    assert _linear.search_for(True, 10, 2) == 2 and _linear.search_for(True, 10, 1) == 1
    assert _linear.search_for(True, 2**31 - 1, 2) == 0  # no int32 table
    assert _linear.search_for(False, 10, 3) == _linear.search_for(True, 10, 3) == 3  # the window needs none
    assert _linear.search_for(True, 10, 0) == 0 and _linear.search_for(True, 10) == _linear.SEARCH
    # the hybrid reads the table where the guess misses: the table's conditions, else the guess
    assert _linear.search_for(True, 10, 4) == 4
    assert _linear.search_for(False, 10, 4) == _linear.search_for(True, 2**31 - 1, 4) == 0
    # SEARCH_NEAR needs no table; its knot indices are int: the guess past 2**31 - 1 knots
    assert _linear.search_for(False, 10, 5) == _linear.search_for(True, 2**31 - 1, 5) == 5
    assert _linear.search_for(True, 2**31, 5) == _linear.search_for(False, 2**31, 5) == 0


def test_bench_row_launches_the_near_search_once_a_call(h100, recorded_launches):
    """The bench row (interp1d(x, y, assume_sorted=True, bounds_error=False), float64): one launch
    a call of SEARCH_NEAR (issue 53; it was SEARCH 0, the guess whose record j + 1 waits on x[j]),
    no cell table built, nothing else launched (fill values, bounds, NaN: in the kernel); as
    interp1d prepares it with copy=True (its own interleaved table, fixed knots: the recorder
    cannot run interp1d's copy) and with copy=False (two arrays, knots not fixed)."""
    import cuarray
    from cuarray.scipy.interpolate import _kernels

    x, y, q, b = cuarray.empty(10**4), cuarray.empty((10**4, 1)), cuarray.empty(10**5), cuarray.empty(1)
    pairs = cuarray.empty((10**4, 2))
    recorded_launches.clear()
    run = _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, pairs, False, True)
    u, v = run(q, (10**5,)), run(q, (10**5,))
    kernel = "cuarray_interp1d::interp1d_linear<double, double, double, double, 2, {}, 5, true>"
    assert [c[2] for c in recorded_launches] == [kernel.format("true")] * 2 and u.data.ptr != v.data.ptr
    assert recorded_launches[0][3 + 3] == pairs.data.ptr and list(recorded_launches[0][3 + 12:]) == [0, 0]
    recorded_launches.clear()
    _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, None, False, False)(q, (10**5,))
    assert [c[2] for c in recorded_launches] == [kernel.format("false")]


def test_staged_table_planner():
    # shared memory for interleaved records searched by SEARCH_NEAR, within the opt-in limit
    near = _linear.Route(2, F8, F8, F8, F8, True, _linear.SEARCH_NEAR)
    assert _linear.stage_bytes(near, 10**4, 227 * 1024) == 16 * 10**4
    assert _linear.stage_bytes(near, 14529, 227 * 1024) == 0  # 232 464 bytes: past 232 448
    assert _linear.stage_bytes(near._replace(t=F4, y=F4, q=F4, r=F4, mode=3), 10**4, 227 * 1024) == 8 * 10**4
    assert _linear.stage_bytes(near._replace(paired=False), 10, 227 * 1024) == 0  # two arrays: L1
    for search in set(_linear.SEARCHES) - {_linear.SEARCH_NEAR}:
        assert _linear.stage_bytes(near._replace(search=search), 10, 227 * 1024) == 0
    # taken where an SM's points are at least a quarter of the knots
    assert _linear.stages(160000, 10**4, 330000, 132) and not _linear.stages(160000, 10**4, 329999, 132)
    assert not _linear.stages(0, 10, 10**9, 132)
    assert _linear.specs(near) == (near.spec(), near.staged_spec())
    assert _linear.specs(near._replace(paired=False)) == (near._replace(paired=False).spec(),)


def test_launch_constants_are_the_templates():
    """The grids the host computes use the template's block sizes and points a thread (a grid sized
    for 4 points a thread where the kernel takes 2 launches half the blocks a small call could use)."""
    import re

    text = (pathlib.Path(_linear.__file__).parent / "templates" / "linear.cu").read_text()
    for name, value in (("kThreads", _linear.THREADS), ("kUnroll", _linear.UNROLL),
                        ("kStagedThreads", _linear.STAGED_THREADS), ("kStagedUnroll", _linear.STAGED_UNROLL)):
        assert re.findall(r"constexpr int %s = (\d+);" % name, text) == [str(value)], name


def test_bench_row_launches_the_staged_kernel(h100, recorded_launches):
    """The bench row's shape (1e7 float64 points on 1e4 knots, interp1d(copy=True)'s interleaved
    table): one launch of the staged kernel, one block of 1024 threads an SM, the 160 000-byte table
    as its dynamic shared memory, the kernel's opt-in to that size recorded once."""
    import cuarray
    from cuarray.cuda import limits
    from cuarray.scipy.interpolate import _kernels

    x, y, q, b = cuarray.empty(10**4), cuarray.empty((10**4, 1)), cuarray.empty(10**7), cuarray.empty(1)
    pairs = cuarray.empty((10**4, 2))
    recorded_launches.clear()
    run = _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, pairs, False, True)
    u = run(q, (10**7,))
    run(q, (10**7,))
    (_, cfg, name, *args), _again = recorded_launches
    assert name == "cuarray_interp1d::interp1d_linear_staged<double, double, double, 2, true, true>"
    assert cfg == ("cfg", 132, 1024, 160000)
    assert args == [q.data.ptr, 1, 10**7, pairs.data.ptr, 10**4, b.data.ptr, b.data.ptr, 0, 0, u.data.ptr]
    assert 160000 in limits._allowed.values()
    # a table past the opt-in limit stays on the L1 path
    big = cuarray.empty((20000, 2))
    recorded_launches.clear()
    _kernels.linear_evaluator(cuarray.empty(20000), cuarray.empty((20000, 1)), F8, b, b, False, F8, True, big, False,
                              True)(q, (10**7,))
    assert [c[2] for c in recorded_launches] == [
        "cuarray_interp1d::interp1d_linear<double, double, double, double, 2, true, 5, true>"]


def test_cell_count():
    assert _linear.cell_count(2) == _linear.CELLS_PER_KNOT
    assert _linear.cell_count(10**4) == _linear.CELLS_PER_KNOT * (10**4 - 1)
    assert _linear.cell_count(2**31 - 2) == 2**30  # capped
    assert _linear.cell_count(2**31 - 1) == 0  # int32 cannot index the knots: the guess


def test_fixed_knots_build_the_cell_table_once(h100, recorded_launches):
    """interp1d with copy=True (the default) prepares with fixed knots (its own copy): the
    preparation builds the cell table (one launch of interp1d_cells) and each call launches the
    cell-table search with it; not fixed (copy=False): no table, the guess."""
    import cuarray
    from cuarray.scipy.interpolate import _kernels

    x, y, b = cuarray.empty(10), cuarray.empty((10, 1)), cuarray.empty(1)
    pairs = cuarray.empty((10, 2))
    q = cuarray.empty(1000)
    recorded_launches.clear()
    run = _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, pairs, False, True)
    u, v = run(q, (1000,)), run(q, (1000,))
    names = [c[2] for c in recorded_launches]
    assert _linear.search_for(True, 10) == _linear.SEARCH
    if _linear.SEARCH not in _linear.TABLE_SEARCHES:  # a default without a table (ten records: staged)
        assert names == ["cuarray_interp1d::interp1d_linear_staged<double, double, double, 2, true, true>"] * 2
        return
    assert names == ["cuarray_interp1d::interp1d_cells<double, true>"] + [
        "cuarray_interp1d::interp1d_linear<double, double, double, double, 2, true, {}, {}>".format(
            _linear.SEARCH, str(_linear.PIPE).lower())] * 2
    (_, cfg, _, *cargs), (_, _, _, *args), (_, _, _, *args2) = recorded_launches
    ncells = _linear.cell_count(10)
    assert cfg == ("cfg", 1, 256, 0)
    assert cargs[:3] == [pairs.data.ptr, 10, ncells]
    assert args[3] == pairs.data.ptr and args[12:] == [cargs[3], ncells] and args[11] == u.data.ptr
    assert args2[12:] == args[12:] and args2[11] == v.data.ptr
    recorded_launches.clear()
    _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, pairs, False, False)(q, (1000,))
    (_, _, name, *args), = recorded_launches
    assert ", 2, true, {}, ".format(_linear.search_for(False, 10)) in name and args[12:] == [0, 0]


@pytest.mark.parametrize("fixed", [True, False])
def test_hybrid_search_builds_the_table_or_falls_back_to_the_guess(h100, recorded_launches, fixed):
    """search=SEARCH_HYBRID: with fixed knots the preparation builds the cell table (the hybrid
    reads it where the guess misses) and the call launches the hybrid with it; knots the caller may
    write: no table, the guess's kernel."""
    import cuarray

    x, y, b = cuarray.empty(10), cuarray.empty((10, 1)), cuarray.empty(1)
    pairs = cuarray.empty((10, 2))
    route = _linear.plan(F8, F8, F8, F8, 10, 1, True, True)
    recorded_launches.clear()
    prep = _linear.Prepared(route, x, y, b, b, False, pairs, fixed=fixed, search=_linear.SEARCH_HYBRID, pipe=True)
    out = cuarray.empty((1000, 1))
    prep(cuarray.empty(1000), out.data.ptr)
    names = [c[2] for c in recorded_launches]
    want = _linear.SEARCH_HYBRID if fixed else _linear.SEARCH_GUESS
    assert prep.route.search == want
    kernel = "cuarray_interp1d::interp1d_linear<double, double, double, double, 2, true, {}, true>".format(want)
    if not fixed:
        assert names == [kernel] and list(recorded_launches[0][3 + 12:]) == [0, 0]
        return
    ncells = _linear.cell_count(10)
    assert names == ["cuarray_interp1d::interp1d_cells<double, true>", kernel]
    (_, _, _, *cargs), (_, _, _, *args) = recorded_launches
    assert cargs[:3] == [pairs.data.ptr, 10, ncells] and args[12:] == [cargs[3], ncells]


# ---- the cell table's search against searchsorted (the template's host build) --------------

def _knot_sets():
    rng = _rng("knot-sets")
    tiny = np.arange(40) * 5e-324  # subnormal spacing
    return {
        "two": np.array([-1.0, 2.5]),
        "three-close": np.array([1.0, np.nextafter(1.0, 2), 3.0]),
        "uniform": np.linspace(-3.0, 9.0, 1001),
        "arange": np.arange(500.0),
        "jittered": np.arange(2000) + rng.uniform(0.05, 0.95, 2000),
        "exp": np.exp(np.sort(rng.uniform(0, 30, 3000))),
        "one-end": np.concatenate((np.sort(rng.uniform(0, 1e-9, 2000)), [1.0, 2.0])),
        "clustered": np.sort(np.concatenate((rng.normal(0, 1e-3, 500), rng.uniform(-1e3, 1e3, 500)))),
        "range": np.concatenate((-np.geomspace(1e300, 1e-300, 300), np.geomspace(1e-300, 1e300, 300))),
        "huge": np.array([-1.7e308, -1.0, 0.0, 1.0, 1.7e308]),
        "subnormal": tiny,
        "duplicates": np.repeat(np.arange(50.0), rng.integers(1, 4, 50)),
        "infinite-ends": np.array([-np.inf, -1.0, 0.0, 2.0, np.inf]),
    }


@pytest.mark.parametrize("name", ["two", "three-close", "uniform", "arange", "jittered", "exp", "one-end",
                                  "clustered", "range", "huge", "subnormal", "duplicates", "infinite-ends"])
def test_cell_search_is_searchsorted(lib, name):
    """Every search's segment index on any sorted knots (cells of subnormal width, ranges that
    overflow, a crowded cell, repeated knots, infinite ends) is searchsorted's (side 'left' for
    SciPy's rule, 'right' for numpy.interp's) minus one, and the records it hands back are that
    segment's knots."""
    sets = _knot_sets()
    assert len(sets) == 13
    x = np.ascontiguousarray(sets[name], np.float64)
    n = x.shape[0]
    rng = _rng("cell-search", name)
    fin = x[np.isfinite(x)]
    u = rng.uniform(0, 1, 300)  # uniform over the finite knots (as a mix: no overflow of the width)
    q = np.concatenate((x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf), u * fin[-1] + (1 - u) * fin[0],
                        rng.choice(fin, 100) * (1 + rng.uniform(-1e-12, 1e-12, 100)),
                        [-np.inf, np.inf, 0.0, -0.0, 5e-324, -1e308, 1e308]))
    q = q[~np.isnan(q)]
    ncells = _linear.cell_count(n)
    cells = np.empty(ncells + 1, np.int32)
    lib.cells_f8(_p(x), ctypes.c_longlong(n), ctypes.c_longlong(ncells), _p(cells))
    assert cells[0] == 0 and cells[-1] == n and np.all(np.diff(cells) >= 0)
    lib.search_f8.restype = ctypes.c_longlong
    rec = np.empty(2)
    for side, right in (("left", 0), ("right", 1)):
        want = np.searchsorted(x, q, side=side) - 1
        for search in _linear.SEARCHES:
            for v, w in zip(q, want):
                lo = lib.search_f8(search, right, _p(x), ctypes.c_longlong(n), _p(cells), ctypes.c_longlong(ncells),
                                   ctypes.c_double(v), _p(rec))
                assert lo == w, (search, side, v, lo, w)
                if lo >= 0:
                    assert rec[0] == x[lo] or (np.isnan(rec[0]) and np.isnan(x[lo])), (search, v, lo)
                if lo + 1 < n and (search in _linear.TABLE_SEARCHES or lo >= 0):
                    assert rec[1] == x[lo + 1], (search, side, v, lo)


def test_knot_sets_take_both_paths_of_the_hybrid():
    # the hybrid's hit (the guess's records bracket the point) and its miss (the table's bracket)
    # are both taken on the knot sets above (guess: linear.cu's, in NumPy), so the bit-for-bit
    # comparisons of every search check both
    sets = _knot_sets()
    for name in ("jittered", "exp", "one-end", "clustered"):
        x = sets[name]
        n = x.shape[0]
        u = _rng("hybrid-paths", name).uniform(0, 1, 2000)
        q = u * x[-1] + (1 - u) * x[0]
        g = (q - x[0]) * ((n - 1) / (x[-1] - x[0]))
        j = np.floor(np.where(g > 0, np.minimum(g, n - 2), 0)).astype(np.int64)
        hit = (x[j] < q) & (q <= x[j + 1])
        assert 0 < hit.sum() < q.shape[0], (name, hit.sum())


def test_knot_sets_take_every_path_of_the_near_search():
    # SEARCH_NEAR's hit (records j, j + 1 bracket the point), its one-neighbour step (j - 1 or
    # j + 2) and its gallop past that are all taken on the knot sets above (guess: linear.cu's, in
    # NumPy, SciPy's side), so test_cell_search_is_searchsorted and the bit-for-bit comparisons of
    # every search check each path
    sets = _knot_sets()
    taken = set()
    for name in ("jittered", "exp", "one-end", "clustered", "uniform"):
        x = sets[name]
        n = x.shape[0]
        u = _rng("near-paths", name).uniform(0, 1, 2000)
        q = u * x[-1] + (1 - u) * x[0]
        g = (q - x[0]) * ((n - 1) / (x[-1] - x[0]))
        j = np.floor(np.where(g > 0, np.minimum(g, n - 2), 0)).astype(np.int64)
        want = np.searchsorted(x, q, side="left") - 1
        taken |= set(np.select([want == j, (want == j - 1) | (want == j + 1)], ["hit", "neighbour"], "gallop"))
    assert taken == {"hit", "neighbour", "gallop"}


# ---- the template's per-point code on the host, inside interp1d's host logic ---------------

def _driver(routes):
    lines = ["#include <cmath>", "#include <vector>", '#include "linear.cu"', "using namespace cuarray_interp1d;",
             "typedef long long ll;",
             "template <typename Tab> std::vector<int> cells_of(const Tab& tab, ll n, ll ncells) {",
             "  std::vector<int> c(ncells + 1); Search s = make_search(tab, n, nullptr, ncells);",
             "  for (ll i = 0; i <= ncells; ++i) c[i] = cell_start(tab, n, s.x0, s.inv, ncells, i);",
             "  return c;",
             "}",
             "template <int MODE, int SEARCH, typename Q, typename T, typename Y, typename R, bool P>",
             "void run(const Q* xq, ll qs, ll m, const T* x, const Y* y, ll n, ll nc, const double* b, const double* a,",
             "         int ext, unsigned long long* err, R* out, ll ncells) {",
             "  Table<T, Y, P> tab; tab.x = x; tab.y = y; tab.ncols = nc;",
             "  std::vector<int> cells; if (SEARCH) cells = cells_of(tab, n, ncells);",
             "  Search s = make_search(tab, n, SEARCH ? cells.data() : nullptr, ncells);",
             "  for (ll p = 0; p < m; ++p) eval_point<MODE, SEARCH, R>(tab, n, s, xq[p * qs], b, a, ext != 0, err, out + p * nc);",
             "}",
             # the search alone on float64 knots: the segment index and the records it read
             'extern "C" void cells_f8(const double* x, ll n, ll ncells, int* start) {',
             "  Table<double, double, false> tab; tab.x = x; tab.y = x; tab.ncols = 1;",
             "  std::vector<int> c = cells_of(tab, n, ncells); for (ll i = 0; i <= ncells; ++i) start[i] = c[i];",
             "}",
             "template <bool RIGHT, int SEARCH> ll lastb(const Table<double, double, false>& tab, ll n, const Search& s,",
             "                                           double v, double* rec) {",
             "  Table<double, double, false>::Rec rl, rh; rl.x = rh.x = NAN; ll lo = SEARCH == 0",
             "      ? last_before<RIGHT>(tab, n, v, guess(v, s.x0, s.scale, n), rl, rh) : SEARCH == 3",
             "      ? window_before<RIGHT>(tab, n, v, guess(v, s.x0, s.scale, n), rl, rh) : SEARCH == 4",
             "      ? hybrid_before<RIGHT>(tab, s, n, v, guess(v, s.x0, s.scale, n), rl, rh) : SEARCH == 5",
             "      ? near_before<RIGHT>(tab, n, v, guess(v, s.x0, s.scale, n), rl, rh)",
             "      : cell_before<RIGHT, SEARCH>(tab, s.cells, n, cell_of(v, s.x0, s.inv, s.ncells), v, rl, rh);",
             "  rec[0] = rl.x; rec[1] = rh.x; return lo;",
             "}",
             'extern "C" ll search_f8(int search, int right, const double* x, ll n, const int* cells, ll ncells, double v,',
             "                        double* rec) {",
             "  Table<double, double, false> tab; tab.x = x; tab.y = x; tab.ncols = 1;",
             "  Search s = make_search(tab, n, cells, ncells);",
             "  if (search == 0) return right ? lastb<true, 0>(tab, n, s, v, rec) : lastb<false, 0>(tab, n, s, v, rec);",
             "  if (search == 1) return right ? lastb<true, 1>(tab, n, s, v, rec) : lastb<false, 1>(tab, n, s, v, rec);",
             "  if (search == 3) return right ? lastb<true, 3>(tab, n, s, v, rec) : lastb<false, 3>(tab, n, s, v, rec);",
             "  if (search == 4) return right ? lastb<true, 4>(tab, n, s, v, rec) : lastb<false, 4>(tab, n, s, v, rec);",
             "  if (search == 5) return right ? lastb<true, 5>(tab, n, s, v, rec) : lastb<false, 5>(tab, n, s, v, rec);",
             "  return right ? lastb<true, 2>(tab, n, s, v, rec) : lastb<false, 2>(tab, n, s, v, rec);",
             "}"]
    ct = {F4: "float", F8: "double"}
    for r in routes:
        args = "xq, qs, m, x, y, n, nc, b, a, ext, err, out, ncells"
        calls = " ".join("if (search == {s}) run<{m}, {s}, {q}, {t}, {y}, {r}, {p}>({args});".format(
            s=k, m=r.mode, q=ct[r.q], t=ct[r.t], y=ct[r.y], r=ct[r.r], p=str(r.paired).lower(), args=args)
            for k in _linear.SEARCHES)
        lines.append('extern "C" void {}(const {q}* xq, ll qs, ll m, const {t}* x, const {y}* y, ll n, ll nc, '
                     "const double* b, const double* a, int ext, unsigned long long* err, {r}* out, ll ncells, "
                     "int search) {{ {calls} }}".format(_cname(r), q=ct[r.q], t=ct[r.t], y=ct[r.y], r=ct[r.r],
                                                       calls=calls))
    return "\n".join(lines) + "\n"


def _cname(r):
    return "lin_{}_{}{}{}{}_{}".format(r.mode, r.q.char, r.t.char, r.y.char, r.r.char, int(r.paired))


@pytest.fixture(scope="module")
def lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    return host_build.library_of(_driver(ROUTES), ["-O2", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC",
                                                   "-I", TEMPLATES,
                                                   "-I", TEMPLATES.parents[2] / "_core" / "templates"])  # rounded.cuh


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def native_linear(lib, routes_seen):
    """`_kernels.linear_eval`'s contract run by the template's host build through `_linear.plan`
    (what `_linear.evaluate` launches), the elementwise fallback refused (these tests pick dtypes
    the kernel takes)."""

    def linear_eval(x, y, xq, below, above, extrapolate, out_dt, use_numpy=False, pairs=None, check=None,
                    weights=False):
        out_dt = np.dtype(out_dt)
        err = np.zeros(4, np.uint64)  # the device error record (bounds_error), read back at once
        y = np.ascontiguousarray(y)
        yr = y.view("f{}".format(y.dtype.itemsize // 2)) if y.dtype.kind == "c" else y
        route = _linear.plan(x.dtype, y.dtype, xq.dtype, out_dt, x.shape[0], yr.shape[1], use_numpy, pairs is not None,
                             weights)
        assert route is not None, (x.dtype, y.dtype, xq.dtype, out_dt)
        routes_seen.add(route)
        real = np.empty((xq.shape[0], yr.shape[1]), route.r)
        if real.size:
            q = np.ascontiguousarray(xq, route.q)
            xs = np.ascontiguousarray(pairs if route.paired else x.astype(route.t))
            ys = xs if route.paired else np.ascontiguousarray(yr, route.y)
            b = np.ascontiguousarray(below, np.float64).reshape(-1)
            a = np.ascontiguousarray(above, np.float64).reshape(-1)
            results = []
            for search in _linear.SEARCHES:  # all alike
                got, e = np.empty_like(real), np.zeros(4, np.uint64)
                getattr(lib, _cname(route))(_p(q), ctypes.c_longlong(1), ctypes.c_longlong(q.shape[0]), _p(xs),
                                            _p(ys), ctypes.c_longlong(x.shape[0]), ctypes.c_longlong(yr.shape[1]),
                                            _p(b), _p(a), ctypes.c_int(bool(extrapolate)),
                                            _p(e) if check is not None else ctypes.c_void_p(0), _p(got),
                                            ctypes.c_longlong(_linear.cell_count(x.shape[0])), ctypes.c_int(search))
                results.append((got, e))
            for got, e in results[1:]:
                np.testing.assert_array_equal(got.view(np.uint8), results[0][0].view(np.uint8))  # bit for bit
                np.testing.assert_array_equal(e, results[0][1])
            real[...], err[...] = results[-1]
        if err[0]:  # the next synchronisation's raise (device_errors.check_index_errors)
            raise {_linear._BELOW: _linear._below_error, _linear._ABOVE: _linear._above_error}[int(err[0])](
                *(int(v) for v in err[1:].view(np.int64)))
        return real.view(out_dt) if out_dt.kind == "c" else real

    return linear_eval


def _conftest():
    spec = importlib.util.spec_from_file_location("interp_linear_conftest", pathlib.Path(__file__).parent / "conftest.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def host(lib):
    c = _conftest()
    seen = set()
    pkg = c.host_interpolate_of(c.ppoly_model, native_linear(lib, seen), c.ndbspline_model, c.entries_model)
    pkg.routes_seen = seen
    return pkg


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_array_equal(got, ref)  # bit for bit (NaN where NaN)


def _data(rng, n, dtype, extra=(), jitter=True):
    x = np.arange(n, dtype=float) + (rng.uniform(0.05, 0.95, n) if jitter else 0.0)
    y = rng.standard_normal((n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * rng.standard_normal((n,) + extra)
    return x, y.astype(dtype)


def _queries(rng, x, m, q_dtype):
    q = rng.uniform(x[0] - 3, x[-1] + 3, m)
    q[:6] = x[0], x[-1], np.nan, x[len(x) // 2], -np.inf, np.inf
    return q.astype(q_dtype)


@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.5, 2.5), 7.0], ids=str)
@pytest.mark.parametrize("x_dt,y_dt,q_dt", [("f8", "f8", "f8"), ("f8", "f8", "f4"), ("f4", "f4", "f4"),
                                            ("f4", "f4", "f8"), ("f8", "f4", "f4"), ("f4", "f8", "f4"),
                                            ("i8", "f8", "f8"), ("f8", "c16", "f8"), ("f4", "c8", "f4"),
                                            ("f8", "c8", "f4")])
@pytest.mark.parametrize("n", [2, 3, 57])
def test_interp1d_matches_scipy_bitwise(host, fill, x_dt, y_dt, q_dt, n):
    rng = _rng("lin", str(fill), x_dt, y_dt, q_dt, n)
    x, y = _data(rng, n, y_dt)
    x = (x * 3).astype(x_dt) if x_dt[0] == "i" else x.astype(x_dt)
    q = _queries(rng, x.astype(float), 301, q_dt)
    kw = dict(bounds_error=False, fill_value=fill, assume_sorted=True)
    _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))


@pytest.mark.parametrize("fill", [np.nan, "extrapolate"], ids=str)
def test_knots_hit_exactly_and_repeated_ends(host, fill):
    # numpy.interp returns y at a knot; SciPy's formula its slope's value; repeated end knots give
    # a zero-width end segment (SciPy: NaN from 0/0 where it extrapolates)
    x = np.array([0.0, 0.0, 1.0, 2.5, 2.5, 4.0, 4.0])
    y = np.array([1.0, 2.0, -1.0, 3.0, 5.0, 0.5, 0.25])
    q = np.concatenate((x, [-1.0, 0.5, 2.5, 3.0, 5.0, np.nan]))
    kw = dict(bounds_error=False, fill_value=fill, assume_sorted=True)
    _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))
    _same(host.interp1d(x, y[:, None], axis=0, **kw)(q), si.interp1d(x, y[:, None], axis=0, **kw)(q))


@pytest.mark.parametrize("fill", [np.nan, "extrapolate"], ids=str)
def test_infinite_values_take_the_fallbacks(host, fill):
    # numpy.interp's NaN fallbacks: slope * (v - x_lo) + y_lo is NaN (an infinite value at an end of
    # the segment, inf - inf), then from x_hi; where both are NaN and y_lo == y_hi, y_lo itself
    x = np.arange(9.0)
    y = np.array([0.0, np.inf, np.inf, 1.0, -np.inf, -np.inf, 2.0, np.inf, -np.inf])
    q = np.concatenate((x, x[:-1] + 0.25, x[:-1] + 0.5, [np.nan, -1.0, 9.5]))
    kw = dict(bounds_error=False, fill_value=fill, assume_sorted=True)
    _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))


@pytest.mark.parametrize("spacing", ["uniform", "jittered", "geometric", "clustered"])
def test_search_on_any_sorted_knots(host, spacing):
    rng = _rng("spacing", spacing)
    n = 4097
    x = {"uniform": np.linspace(-3.0, 9.0, n), "jittered": np.arange(n) + rng.uniform(0.05, 0.95, n),
         "geometric": np.geomspace(1e-6, 1e6, n),
         "clustered": np.sort(np.concatenate((rng.normal(0, 1e-3, n // 2), rng.uniform(-1e3, 1e3, n - n // 2))))}[spacing]
    y = rng.standard_normal(n)
    q = np.concatenate((rng.uniform(x[0], x[-1], 4000), x[rng.integers(0, n, 500)]))
    for kw in (dict(bounds_error=False), dict(fill_value="extrapolate")):
        _same(host.interp1d(x, y, assume_sorted=True, **kw)(q), si.interp1d(x, y, assume_sorted=True, **kw)(q))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_axis_and_batched_values(host, axis):
    rng = _rng("axis", axis)
    x = np.sort(rng.uniform(-2, 2, 11))
    y = rng.standard_normal((3, 11, 4)) if axis in (1, -2) else rng.standard_normal((11, 3, 4))
    if axis == -1:
        y = rng.standard_normal((3, 4, 11))
    q = rng.uniform(-3, 3, (5, 6))
    for fill in (np.nan, "extrapolate"):
        kw = dict(axis=axis, bounds_error=False, fill_value=fill)
        _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))


def test_unsorted_knots(host):
    rng = _rng("unsorted")
    x = rng.permutation(np.arange(20.0) + rng.uniform(0, 0.5, 20))
    y = rng.standard_normal(20)
    q = rng.uniform(-1, 21, 100)
    _same(host.interp1d(x, y, bounds_error=False)(q), si.interp1d(x, y, bounds_error=False)(q))


@pytest.mark.parametrize("dt", ["f8", "f4"])
def test_bounds_error_found_by_the_kernel(host, dt):
    x, y = np.arange(4.0).astype(dt), (np.arange(4.0) ** 2).astype(dt)
    f, ref = host.interp1d(x, y), si.interp1d(x, y)  # bounds_error: True (fill_value NaN)
    for q, side in (([1.0, 9.0], "above"), ([-0.5, 2.0, -2.0], "below")):
        with pytest.raises(ValueError, match=side + " the interpolation range"):
            ref(np.array(q, dt))
        with pytest.raises(ValueError, match=side + " the interpolation range's (minimum|maximum) value") as got:
            f(np.array(q, dt))
        # the kernel records one offender of the side (the largest bit pattern), and the bound
        vals = [v for v in q if (v > 3.0 if side == "above" else v < 0.0)]
        assert any("A value ({})".format(float(v)) in str(got.value) for v in vals), str(got.value)
        assert "value ({})".format(3.0 if side == "above" else 0.0) in str(got.value)
    _same(f(np.array([0.0, 1.5, 3.0], dt)), ref(np.array([0.0, 1.5, 3.0], dt)))  # usable after the error


def test_every_mode_and_layout_taken(host):
    x, q = np.arange(5.0), np.linspace(-1, 5, 13)
    host.routes_seen.clear()
    host.interp1d(x, x ** 2, bounds_error=False)(q)  # numpy.interp's formula, interleaved
    host.interp1d(x, x ** 2, fill_value="extrapolate")(q)  # SciPy's, interleaved
    host.interp1d(x, np.stack((x, x)), bounds_error=False)(q)  # SciPy's, two columns
    host.interp1d(x, x + 1j, bounds_error=False)(q)  # complex: 1.17 dy * (1 / dx), 1.18 (w + 0j) * y
    got = {(r.mode, r.paired) for r in host.routes_seen}
    if _linear.installed_weights_formula():
        assert got == {(2, True), (3, True), (3, False), (4, False)}
    else:
        assert got == {(2, True), (0, True), (0, False), (1, False)}


def _slope_formula(x, y, q):
    """SciPy 1.17's interp1d linear values (re-derived in NumPy: each operation NumPy's, in its
    promoted dtype): the segment's slope, times the offset from its left knot, plus its left value."""
    k = np.clip(np.searchsorted(x, q), 1, x.shape[0] - 1)
    left, right = k - 1, k
    dy = y[right] - y[left]
    return dy / (x[right] - x[left])[:, None] * (q - x[left])[:, None] + y[left]


def _weights_formula(x, y, q):
    """SciPy 1.18's: the right value weighted by the offset from the left knot over the width,
    plus the left value weighted by the offset to the right knot over the width."""
    k = np.clip(np.searchsorted(x, q), 1, x.shape[0] - 1)
    left, right = k - 1, k
    width = x[right] - x[left]
    return ((q - x[left]) / width)[:, None] * y[right] + ((x[right] - q) / width)[:, None] * y[left]


@pytest.mark.parametrize("weights", [False, True], ids=["slope-1.17", "weights-1.18"])
@pytest.mark.parametrize("x_dt,y_dt,q_dt", [("f8", "f8", "f8"), ("f8", "f8", "f4"), ("f4", "f4", "f4"),
                                            ("f4", "f4", "f8"), ("f8", "f4", "f4"), ("f4", "f8", "f4"),
                                            ("f4", "f8", "f8"), ("i8", "f8", "f8"), ("i4", "f4", "f4"),
                                            ("f8", "c16", "f8"), ("f4", "c8", "f4"), ("f8", "c8", "f4"),
                                            ("f4", "c16", "f4")])
@pytest.mark.parametrize("ncols", [1, 3])
@pytest.mark.parametrize("n", [2, 3, 57])
def test_host_build_matches_both_formulas(lib, weights, x_dt, y_dt, q_dt, ncols, n):
    """The template's host build, route by route, against the NumPy re-derivations of both SciPy
    formulas (extrapolating: every point through the formula), so SciPy 1.17's and 1.18's
    environments both check both modes; special values in the data (infinite and NaN values,
    signed zeros: NaN from (w + 0j) * inf in complex products) and the points."""
    rng = _rng("formula", weights, x_dt, y_dt, q_dt, ncols, n)
    x, y = _data(rng, n, y_dt, (ncols,))
    x = (x * 3).astype(x_dt) if x_dt[0] == "i" else x.astype(x_dt)
    if n > 3:
        special = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0], y.real.dtype)
        y.real[5:10, 0] = special
        if y.dtype.kind == "c":
            y.imag[10:15, -1] = special
    q = _queries(rng, x.astype(float), 503, q_dt)
    ref = (_weights_formula if weights else _slope_formula)(x, y, q)
    pairs = None
    if _linear.pair_dtype(x.dtype, y.dtype, ncols) is not None:
        pairs = np.ascontiguousarray(np.stack((x.astype(_linear.knot_dtype(x.dtype)), y[:, 0]), axis=1))
    seen = set()
    ev = native_linear(lib, seen)
    for tab in (None, pairs) if pairs is not None else (None,):
        b = np.zeros(y.view(y.real.dtype).shape[1] if y.dtype.kind == "c" else ncols)
        got = ev(x, y, q, b, b, True, ref.dtype, False, tab, None, weights)
        _same(got, ref)
        # signed zeros too (assert_array_equal takes -0.0 == 0.0; a NaN's sign is no result's)
        g, r = got.view(got.real.dtype), ref.view(ref.real.dtype)
        np.testing.assert_array_equal(np.signbit(g) & ~np.isnan(g), np.signbit(r) & ~np.isnan(r))
    assert {r.mode for r in seen} == {(3 if weights else 0) if y.dtype.kind != "c" else (4 if weights else 1)}


@pytest.mark.parametrize("y_dt,q_dt", [("f8", "f8"), ("f4", "f4"), ("c16", "f8"), ("c8", "f4"), ("c16", "f4")])
def test_special_values_match_installed_scipy(host, y_dt, q_dt):
    # the GPU test's case (test_special_values_and_columns) through interp1d's host logic
    rng = _rng("special", y_dt, q_dt)
    x, y = _data(rng, 40, y_dt, (3,))
    special = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0], y.real.dtype)
    y.real[5:10, 0] = special
    if y.dtype.kind == "c":
        y.imag[12:17, 2] = special
    q = _queries(rng, x, 1500, q_dt)
    for fill in ("extrapolate", np.nan):
        kw = dict(axis=0, bounds_error=False, fill_value=fill, assume_sorted=True)
        with np.errstate(all="ignore"):
            _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))


def test_state_changes_after_a_call(host):
    # the prepared evaluation follows fill_value set after a call, bounds_error changed and other
    # points dtypes, as SciPy's does
    rng = _rng("after-call")
    x, y = _data(rng, 12, "f8", (2,))
    q = _queries(rng, x, 200, "f8")
    f = host.interp1d(x, y, axis=0, bounds_error=False)
    ref = si.interp1d(x, y, axis=0, bounds_error=False)
    _same(f(q), ref(q))
    for fill in ((1.0, [2.0, -2.0]), "extrapolate", 5.0):
        f.fill_value = ref.fill_value = fill
        _same(f(q), ref(q))
        _same(f(q.astype("f4")), ref(q.astype("f4")))
    f.fill_value = ref.fill_value = np.nan
    f.bounds_error = ref.bounds_error = True
    with pytest.raises(ValueError, match="interpolation range"):
        f(q)
    # (copy=False's aliasing: the GPU test; this host copy's parameters are NumPy copies)


@pytest.mark.parametrize("name", ["two", "three-close", "uniform", "arange", "jittered", "exp", "one-end",
                                  "clustered", "range", "subnormal"])
def test_every_search_matches_scipy_on_any_knots(host, name):
    # the GPU test's knot sets (test_cell_table_on_any_knots) through interp1d's host logic: the
    # host build runs every search (alike bit for bit) and matches SciPy, each route
    x = np.ascontiguousarray(_knot_sets()[name], np.float64)
    n = x.shape[0]
    rng = _rng("any-knots", name)
    y, y2 = rng.standard_normal(n), rng.standard_normal((n, 2))
    u = rng.uniform(0, 1, 1000)
    q = rng.permutation(np.concatenate((u * x[-1] + (1 - u) * x[0], x, np.nextafter(x, np.inf),
                                        np.nextafter(x, -np.inf), [np.nan, np.inf, -np.inf, -1e308, 1e308, 0.0])))
    with np.errstate(all="ignore"):
        for kw in (dict(bounds_error=False), dict(fill_value="extrapolate"), dict(bounds_error=False,
                                                                                   fill_value=(-7.0, 7.0))):
            kw.update(assume_sorted=True)
            _same(host.interp1d(x, y, **kw)(q), si.interp1d(x, y, **kw)(q))
            _same(host.interp1d(x, y2, axis=0, **kw)(q), si.interp1d(x, y2, axis=0, **kw)(q))
        x4, y4, q4 = x.astype("f4"), y.astype("f4"), q.astype("f4")
        if np.all(np.diff(x4) > 0):
            kw = dict(assume_sorted=True, bounds_error=False)
            _same(host.interp1d(x4, y4, **kw)(q4), si.interp1d(x4, y4, **kw)(q4))
