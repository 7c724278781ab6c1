"""numpy.interp's slope table (templates/linear.cu's MODE_NUMPY_SLOPES, `_linear.SLOPES`, issue 53)
without a GPU: the table's builder (cell_slope, interp1d_slopes's body) and the kernel's thread
loops (thread_points, every block and thread of a small grid) compiled for the host (g++, no
__CUDACC__) must give numpy.interp's values bit for bit, with every SEARCH, PIPE and LOOP, paired
records and two arrays, float32 and float64 points, on knot sets with 2 knots, repeated knots
(zero-width cells), infinite ends, overflowing differences and subnormal spacing, values with
infinities, NaN and signed zeros (the NaN fallbacks), points at, next to and outside every knot,
NaN and infinite; the preparation's launches (the table built once, where the knots and values are
fixed); the NVRTC sm_90 compile without spills."""

import ctypes
import pathlib
import shutil
import subprocess
import zlib

import numpy as np
import pytest

from cuarray.scipy.interpolate import _linear
from cubin_info import compile_sm90, kernel_attributes  # tests/ is on sys.path

F4, F8 = np.dtype("f4"), np.dtype("f8")
TEMPLATES = pathlib.Path(_linear.__file__).parent / "templates"
NUMPY, SLOPES = _linear.MODE_NUMPY, _linear.MODE_NUMPY_SLOPES
# (SEARCH, PIPE, LOOP): every search under the default loop, every loop and PIPE under 0 and 5
VARIANTS = sorted({(s, 1, 0) for s in _linear.SEARCHES} | {(s, p, lp) for s in (0, 5) for p in (0, 1)
                                                           for lp in _linear.LOOPS})


def _driver():
    lines = ['#include <vector>', '#include "linear.cu"', "using namespace cuarray_interp1d;", "typedef long long ll;",
             "template <bool P> Table<double, double, P> table(const double* x, const double* y, const double* s) {",
             "  Table<double, double, P> tab; tab.x = x; tab.y = y; tab.ncols = 1; tab.slope = s; return tab;",
             "}",
             # interp1d_slopes's loop body, each cell
             'extern "C" void slopes(const double* x, const double* y, ll n, int paired, double* s) {',
             "  for (ll k = 0; k + 1 < n; ++k) s[k] = paired ? cell_slope(table<true>(x, y, s), k)",
             "                                               : cell_slope(table<false>(x, y, s), k);",
             "}",
             "template <int MODE, int SEARCH, bool PIPE, int LOOP, bool P, typename Q>",
             "void grid(const Q* xq, ll m, const double* x, const double* y, ll n, const double* b, const double* a,",
             "          const double* s, double* out, ll nblocks) {",
             "  Table<double, double, P> tab = table<P>(x, y, s);",
             "  std::vector<int> cells; ll ncells = 2 * (n - 1);",
             "  Search h = make_search(tab, n, nullptr, ncells);",
             "  for (ll c = 0; c <= ncells; ++c) cells.push_back(cell_start(tab, n, h.x0, h.inv, ncells, c));",
             "  h.cells = cells.data();",
             "  Points<Q, double> pts = {xq, 1, m, b, a, false, nullptr, out, 1};",
             "  for (ll blk = 0; blk < nblocks; ++blk)",
             "    for (int t = 0; t < kThreads; ++t) thread_points<MODE, SEARCH, PIPE, LOOP>(tab, n, h, pts, blk, nblocks, t);",
             "}"]
    for q in ("float", "double"):
        calls = " ".join(
            "if (mode == {m} && paired == {pr} && search == {s} && pipe == {p} && loop == {lp}) "
            "grid<{m}, {s}, {pb}, {lp}, {pb2}>(xq, m, x, y, n, b, a, s, out, nblocks);".format(
                m=mode, pr=pr, s=s, p=p, pb="true" if p else "false", lp=lp, pb2="true" if pr else "false")
            for mode in (NUMPY, SLOPES) for pr in (0, 1) for s, p, lp in VARIANTS)
        lines.append('extern "C" void run_{c}(int mode, int paired, int search, int pipe, int loop, const {q}* xq, '
                     "ll m, const double* x, const double* y, ll n, const double* b, const double* a, const double* s, "
                     "double* out, ll nblocks) {{ {calls} }}".format(c=q[0], q=q, calls=calls))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    d = tmp_path_factory.mktemp("linear_slopes")
    (d / "driver.cpp").write_text(_driver())
    subprocess.run(["g++", "-O1", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(TEMPLATES),
                    "-I", str(TEMPLATES.parents[2] / "_core" / "templates"),
                    str(d / "driver.cpp"), "-o", str(d / "lib.so")], check=True)
    return ctypes.CDLL(str(d / "lib.so"))


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _knots(name):
    rng = _rng("knots", name)
    return {
        "two": np.array([-1.0, 2.5]),
        "two-equal-ends": np.array([3.0, 3.0]),  # one zero-width cell: every point at a knot or outside
        "jittered": np.arange(700) + rng.uniform(0.05, 0.95, 700),
        "repeated": np.array([0.0, 0.0, 1.0, 2.5, 2.5, 2.5, 4.0, 4.0]),
        "duplicates": np.repeat(np.arange(60.0), rng.integers(1, 4, 60)),
        "infinite-ends": np.array([-np.inf, -1.0, 0.0, 2.0, np.inf]),
        "huge": np.array([-1.7e308, -1.0, 0.0, 1.0, 1.7e308]),  # dx overflows to inf on the outer cells
        "subnormal": np.arange(40) * 5e-324,
        "exp": np.exp(np.sort(rng.uniform(0, 30, 900))),  # crowded: the searches' gallops and bisections
    }[name]


def _values(name, n):
    rng = _rng("values", name, n)
    y = rng.standard_normal(n)
    if name == "huge":
        y = np.array([1.7e308, -1.7e308, 1.0, -1.7e308, 1.7e308])  # dy overflows: infinite slopes
    elif n >= 12:  # infinite, NaN and signed-zero values: both NaN fallbacks (yl == yh included)
        y[3:12] = [np.inf, np.inf, -np.inf, np.nan, 1.0, -0.0, 0.0, -np.inf, -np.inf]
    return y


def _points(x, q_dt):
    rng = _rng("points", x.shape[0], q_dt.char)
    fin = x[np.isfinite(x)]
    u = rng.uniform(-0.1, 1.1, 3000)
    with np.errstate(all="ignore"):  # (the huge knots' points overflow to infinities: outside)
        q = np.concatenate((u * fin[-1] + (1 - u) * fin[0], x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf),
                            (x[:-1] + x[1:]) / 2, [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -1e308,
                                                   1e308]))
        return rng.permutation(q).astype(q_dt)


def _reference(x, y, q, below, above):
    """interp1d's values on the numpy.interp route: numpy.interp, the fill values outside [x0, xn]
    (SciPy applies them after np.interp; np.interp's left/right are the same thing)."""
    with np.errstate(all="ignore"):
        return np.interp(q.astype(F8), x, y, left=below, right=above)


def _same_bits(got, want, msg):
    # NaN where NaN (a NaN's sign and payload are x86's, not the GPU's); every other value bit for bit
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=msg)
    np.testing.assert_array_equal(got[~nan].view(np.uint64), want[~nan].view(np.uint64), err_msg=msg)


def _slopes(lib, x, y, paired):
    n = x.shape[0]
    xs = np.ascontiguousarray(np.stack((x, y), axis=1)).reshape(-1) if paired else np.ascontiguousarray(x)
    ys = xs if paired else np.ascontiguousarray(y)
    s = np.full(max(n - 1, 1), -1.0)
    lib.slopes(_p(xs), _p(ys), ctypes.c_longlong(n), ctypes.c_int(paired), _p(s))
    return xs, ys, s[:n - 1]


@pytest.mark.parametrize("paired", [1, 0])
@pytest.mark.parametrize("name", ["two", "two-equal-ends", "jittered", "repeated", "duplicates", "infinite-ends",
                                  "huge", "subnormal", "exp"])
def test_slope_table_is_numpy_interps_division(lib, name, paired):
    # each entry is (y[k + 1] - y[k]) / (x[k + 1] - x[k]) as NumPy rounds it (zero-width cells: inf or NaN)
    x = _knots(name)
    y = _values(name, x.shape[0])
    _, _, s = _slopes(lib, x, y, paired)
    with np.errstate(all="ignore"):
        want = (y[1:] - y[:-1]) / (x[1:] - x[:-1])
    _same_bits(s, want, name)
    if name in ("repeated", "duplicates", "two-equal-ends"):
        assert not np.all(np.isfinite(s))  # the zero-width cells' slopes, never read (numpy.interp's search)


@pytest.mark.parametrize("q_dt", [F8, F4], ids=["f8", "f4"])
@pytest.mark.parametrize("paired", [1, 0])
@pytest.mark.parametrize("name", ["two", "two-equal-ends", "jittered", "repeated", "duplicates", "infinite-ends",
                                  "huge", "subnormal", "exp"])
def test_every_variant_is_numpy_interp(lib, name, paired, q_dt):
    x = _knots(name)
    n = x.shape[0]
    y = _values(name, n)
    q = _points(x, q_dt)
    xs, ys, s = _slopes(lib, x, y, paired)
    below, above = np.array([-2.5]), np.array([3.5])
    want = _reference(x, y, q, below[0], above[0])
    run = lib.run_f if q_dt == F4 else lib.run_d
    for mode in (SLOPES, NUMPY):  # the table's and the division's: both numpy.interp's bits
        for search, pipe, loop in VARIANTS:
            for nblocks in (1, 3):
                out = np.full(q.shape[0], 1.25e-300)  # any value a loop fails to write shows
                run(ctypes.c_int(mode), ctypes.c_int(paired), ctypes.c_int(search), ctypes.c_int(pipe),
                    ctypes.c_int(loop), _p(q), ctypes.c_longlong(q.shape[0]), _p(xs), _p(ys), ctypes.c_longlong(n),
                    _p(below), _p(above), _p(s), _p(out), ctypes.c_longlong(nblocks))
                _same_bits(out, want, str((name, mode, paired, search, pipe, loop, nblocks)))


def test_edge_cases_are_taken():
    # the grids above reach numpy_value's paths: knots hit exactly, both NaN fallbacks (the second
    # with yl == yh), points outside and at the last knot; and SciPy's interp1d agrees with np.interp
    si = pytest.importorskip("scipy.interpolate")
    x = _knots("repeated")
    y = _values("jittered", 700)[:8]
    q = _points(x, F8)
    with np.errstate(all="ignore"):
        ref = si.interp1d(x, y, assume_sorted=True, bounds_error=False, fill_value=(-2.5, 3.5))(q)
    _same_bits(_reference(x, y, q, -2.5, 3.5), ref, "scipy")
    x, y = _knots("jittered"), _values("jittered", 700)
    with np.errstate(all="ignore"):
        dy = y[1:] - y[:-1]
    assert np.isnan(dy).any() and (np.isinf(y[:-1]) & (y[:-1] == y[1:])).any()  # NaN slopes, inf == inf


# ---- the preparation (fake device: launches recorded, not run) -----------------------------

@pytest.fixture
def h100(monkeypatch):
    from cuarray.cuda import device

    monkeypatch.setattr(device, "_first_use", [device._first_use[0]])
    monkeypatch.setattr(device, "_SM_COUNT", {})
    monkeypatch.setattr(device, "_SHARED_PER_BLOCK", {})
    device.simulate({"multiprocessor_count": 132, "max_shared_memory_per_block": 48 * 1024})
    yield
    device.simulate(None)


def test_mode_for():
    r = _linear.plan(F8, F8, F8, F8, 10, 1, True, True)
    assert r.mode == NUMPY
    assert _linear.mode_for(r, True, True) == SLOPES
    assert _linear.mode_for(r, False, True) == NUMPY  # values the caller may write: no table
    assert _linear.mode_for(r, True, False) == NUMPY
    assert _linear.mode_for(r, True) == (SLOPES if _linear.SLOPES else NUMPY)
    assert _linear.mode_for(r._replace(q=F4), True, True) == SLOPES  # float32 points: the same route
    for mode in (0, 1, 3, 4):  # SciPy's formulas: no such table
        assert _linear.mode_for(r._replace(mode=mode), True, True) == mode
    assert _linear.SLOPES is False  # unmeasured: the default stays the division


@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("search", [_linear.SEARCH_NEAR, _linear.SEARCH_CELLS3])
def test_slope_table_built_once_and_passed(h100, recorded_launches, paired, search):
    """slopes=True with fixed knots: the preparation launches interp1d_slopes once (after the cell
    table where the search reads one), each call the MODE_NUMPY_SLOPES kernel with the table as
    its last argument; not fixed: no table, MODE_NUMPY."""
    import cuarray

    n = 10**4
    x, y, b = cuarray.empty(n), cuarray.empty((n, 1)), cuarray.empty(1)
    pairs = cuarray.empty((n, 2)) if paired else None
    route = _linear.plan(F8, F8, F8, F8, n, 1, True, paired)
    recorded_launches.clear()
    prep = _linear.Prepared(route, x, y, b, b, False, pairs, fixed=True, search=search, slopes=True)
    assert prep.route.mode == SLOPES and prep.route.search == search
    outs = [cuarray.empty((1000, 1)) for _ in range(2)]
    for o in outs:
        prep(cuarray.empty(1000), o.data.ptr)
    p = "true" if paired else "false"
    kernel = "cuarray_interp1d::interp1d_linear<double, double, double, double, 5, {}, {}, {}, {}>".format(
        p, search, str(_linear.PIPE).lower(), _linear.LOOP)
    builders = ["cuarray_interp1d::interp1d_cells<double, {}>".format(p)] if search in _linear.TABLE_SEARCHES else []
    assert [c[2] for c in recorded_launches] == builders + ["cuarray_interp1d::interp1d_slopes<{}>".format(p)] + [
        kernel] * 2
    (_, cfg, _, *sargs) = recorded_launches[len(builders)]
    xs, ys = (pairs.data.ptr,) * 2 if paired else (x.data.ptr, y.data.ptr)
    assert cfg == ("cfg", -(-(n - 1) // 256), 256, 0) and sargs[:3] == [xs, ys, n]
    table = prep.keep[-1]
    assert table.shape == (n - 1,) and table.dtype == F8 and sargs[3] == table.data.ptr
    for (_, _, _, *args), o in zip(recorded_launches[-2:], outs):
        assert args[3] == xs and args[11] == o.data.ptr and args[14] == table.data.ptr
    recorded_launches.clear()
    unfixed = _linear.Prepared(route, x, y, b, b, False, pairs, fixed=False, search=search, slopes=True)
    unfixed(cuarray.empty(1000), outs[0].data.ptr)
    (_, _, name, *args), = recorded_launches
    assert unfixed.route.mode == NUMPY and ", 2, {}, ".format(p) in name and args[14] == 0


def test_interp1d_takes_the_table_where_slopes_is_set(h100, recorded_launches, monkeypatch):
    # the public path: interp1d(copy=True)'s prepared evaluation follows SLOPES (the variant script's
    # and the GPU test's switch); copy=False keeps the division
    import cuarray
    from cuarray.scipy.interpolate import _kernels

    monkeypatch.setattr(_linear, "SLOPES", True)
    x, y, q, b = cuarray.empty(100), cuarray.empty((100, 1)), cuarray.empty(500), cuarray.empty(1)
    pairs = cuarray.empty((100, 2))
    recorded_launches.clear()
    run = _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, pairs, False, True)
    run(q, (500,))
    assert [c[2].split("<")[0] for c in recorded_launches] == ["cuarray_interp1d::interp1d_slopes",
                                                              "cuarray_interp1d::interp1d_linear"]
    assert ", 5, true, " in recorded_launches[-1][2]
    recorded_launches.clear()
    _kernels.linear_evaluator(x, y, F8, b, b, False, F8, True, None, False, False)(q, (500,))
    assert len(recorded_launches) == 1 and ", 2, false, " in recorded_launches[0][2]


# ---- NVRTC ---------------------------------------------------------------------------------

def test_slopes_variant_compiles_without_spills():
    # the variant's kernels the device script and the GPU test run (every SEARCH, PIPE, LOOP of the
    # bench route; float32 points; two arrays) and the table's builders: no local memory, and the
    # bench route's within 64 registers (4 blocks of 256 threads an SM)
    bench = _linear.Route(SLOPES, F8, F8, F8, F8, True)
    routes = [bench._replace(search=k, pipe=p, loop=lp) for k in _linear.SEARCHES for p in (0, 1)
              for lp in _linear.LOOPS]
    routes += [bench._replace(q=q, paired=pr, search=k) for q in (F4, F8) for pr in (False, True)
               for k in (_linear.SEARCH_GUESS, _linear.SEARCH)]
    names = [_linear.LINEAR.name_expression(r.spec()) for r in routes]
    names += [_linear.LINEAR.name_expression("interp1d_slopes<{}>".format(p)) for p in ("true", "false")]
    cubin, mapping = compile_sm90(_linear.LINEAR.source(), names)
    assert set(mapping) == set(names)
    attrs = kernel_attributes(cubin)
    for nm in names:
        assert attrs[mapping[nm].decode()].get(0x11, 0) == 0, nm
    for r in routes[:len(_linear.SEARCHES) * 2 * len(_linear.LOOPS)]:
        assert attrs[mapping[_linear.LINEAR.name_expression(r.spec())].decode()][0x2F] <= 64, r
