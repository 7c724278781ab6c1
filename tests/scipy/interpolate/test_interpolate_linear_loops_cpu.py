"""The linear kernel's thread loops (templates/linear.cu's LOOP: thread_points, issue 53) without a
GPU: the loop compiled for the host (g++, no __CUDACC__) and run for every block and thread of a
small grid must write each point's values exactly once, bit for bit those of the per-point code
(eval_point, which test_interpolate_linear_cpu.py checks against SciPy), with every LOOP, PIPE on
and off, SEARCH 0 and 5: odd counts, partial chunks, grid-stride rounds, strided and misaligned
points and several columns (where LOOP 2 falls back to 0)."""

import ctypes
import pathlib
import shutil
import subprocess
import zlib

import numpy as np
import pytest

from cuarray.scipy.interpolate import _linear

F4, F8 = np.dtype("f4"), np.dtype("f8")
TEMPLATES = pathlib.Path(_linear.__file__).parent / "templates"
CT = {F4: "float", F8: "double"}
SEARCHES = (_linear.SEARCH_GUESS, _linear.SEARCH_NEAR)  # no cell table: the loops are the same with one
# (mode, points, knots, values, results, paired, columns): the bench row, float pairs, columns the
# pairs loop refuses (two real, one complex), float points with float64 results
ROUTES = [(2, F8, F8, F8, F8, True, 1), (0, F4, F4, F4, F4, True, 1), (3, F8, F8, F8, F8, False, 2),
          (4, F8, F8, F8, F8, False, 2), (3, F4, F8, F8, F8, False, 1)]


def _name(r):
    return "r{}_{}{}{}{}_{}".format(r[0], *(d.char for d in r[1:5]), int(r[5]))


def _driver():
    lines = ['#include "linear.cu"', "using namespace cuarray_interp1d;", "typedef long long ll;",
             "template <int MODE, int SEARCH, bool PIPE, int LOOP, bool P, typename Q, typename T, typename Y,",
             "          typename R>",
             "void grid(const Q* xq, ll qs, ll m, const T* x, const Y* y, ll n, ll nc, const double* b,",
             "          const double* a, int ext, R* out, ll nblocks, int per_point) {",
             "  Table<T, Y, P> tab; tab.x = x; tab.y = y; tab.ncols = nc;",
             "  Search s = make_search(tab, n, nullptr, 0);",
             "  if (per_point) {",
             "    for (ll p = 0; p < m; ++p) eval_point<MODE, SEARCH, R>(tab, n, s, xq[p * qs], b, a, ext != 0,",
             "                                                            nullptr, out + p * nc);",
             "    return;",
             "  }",
             "  Points<Q, R> pts = {xq, qs, m, b, a, ext != 0, nullptr, out, nc};",
             "  for (ll blk = 0; blk < nblocks; ++blk)",
             "    for (int t = 0; t < kThreads; ++t)",
             "      thread_points<MODE, SEARCH, PIPE, LOOP>(tab, n, s, pts, blk, nblocks, t);",
             "}"]
    for r in ROUTES:
        q, t, y, res = (CT[d] for d in r[1:5])
        args = "xq, qs, m, x, y, n, nc, b, a, ext, out, nblocks, per_point"
        calls = " ".join("if (search == {s} && pipe == {p} && loop == {lp}) grid<{m}, {s}, {pb}, {lp}, {pr}>({a});"
                         .format(s=s, p=p, pb="true" if p else "false", lp=lp, m=r[0], pr=str(r[5]).lower(), a=args)
                         for s in SEARCHES for p in (0, 1) for lp in _linear.LOOPS)
        lines.append('extern "C" void {}(const {q}* xq, ll qs, ll m, const {t}* x, const {y}* y, ll n, ll nc, '
                     "const double* b, const double* a, int ext, {r}* out, ll nblocks, int per_point, int search, "
                     "int pipe, int loop) {{ {c} }}".format(_name(r), q=q, t=t, y=y, r=res, c=calls))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    d = tmp_path_factory.mktemp("linear_loops")
    (d / "driver.cpp").write_text(_driver())
    subprocess.run(["g++", "-O1", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(TEMPLATES),
                    "-I", str(TEMPLATES.parents[2] / "_core" / "templates"),
                    str(d / "driver.cpp"), "-o", str(d / "lib.so")], check=True)
    return ctypes.CDLL(str(d / "lib.so"))


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _aligned(n, dtype, offset):
    """n elements of `dtype` starting `offset` elements past a 64-byte boundary."""
    dtype = np.dtype(dtype)
    raw = np.empty((n + offset) * dtype.itemsize + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    return raw[start:start + (n + offset) * dtype.itemsize].view(dtype)[offset:]


SENTINEL = 0x7FF4DEADBEEF0123  # a NaN no evaluation writes (float: its low word)


def _run(lib, route, search, pipe, loop, xq, qs, m, x, y, ncols, below, above, ext, nblocks, per_point, offset=0):
    res = route[4]
    slack = 64  # written past m * ncols: a loop's bug
    out = _aligned(m * ncols + slack, res, offset)
    out.view(np.uint64 if res == F8 else np.uint32)[...] = SENTINEL if res == F8 else SENTINEL & 0xFFFFFFFF
    n = x.shape[0] // (2 if route[5] else 1)
    getattr(lib, _name(route))(_p(xq), ctypes.c_longlong(qs), ctypes.c_longlong(m), _p(x), _p(y),
                               ctypes.c_longlong(n), ctypes.c_longlong(ncols), _p(below), _p(above),
                               ctypes.c_int(ext), _p(out), ctypes.c_longlong(nblocks), ctypes.c_int(per_point),
                               ctypes.c_int(search), ctypes.c_int(pipe), ctypes.c_int(loop))
    return out


def _data(route, knots, seed):
    rng = np.random.default_rng(zlib.crc32(repr((route, knots, seed)).encode()))
    n = 300
    if knots == "jittered":
        x = np.arange(n, dtype=float) + rng.uniform(0.05, 0.95, n)
    else:  # crowded: the guess misses far (SEARCH 5's gallop)
        x = np.exp(np.sort(rng.uniform(0, 8, n)))
    ncols = route[6]
    y = rng.standard_normal((n, ncols))
    t, yt = route[2], route[3]
    x = x.astype(t)
    if route[5]:
        xs = np.ascontiguousarray(np.stack((x, y[:, 0].astype(t)), axis=1)).reshape(-1)
        ys = xs
    else:
        xs, ys = np.ascontiguousarray(x), np.ascontiguousarray(y.astype(yt))
    return rng, x, xs, ys, ncols


@pytest.mark.parametrize("route", ROUTES, ids=_name)
@pytest.mark.parametrize("knots", ["jittered", "crowded"])
def test_every_loop_writes_the_per_point_values_once(lib, route, knots):
    rng, x, xs, ys, ncols = _data(route, knots, 0)
    q_dt = route[1]
    below, above = np.full(ncols, -2.5), np.full(ncols, 3.5)
    # (points, stride, offset of the points, offset of the output, blocks): partial chunks, odd
    # counts, several grid-stride rounds, a stride of 2 and misaligned arrays (LOOP 2 falls back)
    cases = [(1, 1, 0, 0, 1), (7, 1, 0, 0, 1), (1023, 1, 0, 0, 1), (1024, 1, 0, 0, 2), (5001, 1, 0, 0, 2),
             (2 * 1024 * 3 + 5, 1, 0, 0, 3), (3001, 2, 0, 0, 2), (3001, 1, 1, 0, 2), (3001, 1, 0, 1, 2)]
    for m, qs, qoff, ooff, nblocks in cases:
        u = rng.uniform(-0.05, 1.05, m * qs)
        q = _aligned(m * qs, q_dt, qoff)
        q[...] = (u * float(x[-1]) + (1 - u) * float(x[0])).astype(q_dt)
        if m > 8:
            q[:8 * qs:qs] = [np.nan, -np.inf, np.inf, x[0], x[-1], x[3], x[-2], x[1]]
        for ext in (0,) if route[0] == _linear.MODE_NUMPY else (0, 1):  # numpy.interp's: never extrapolating
            for search in SEARCHES:
                ref = _run(lib, route, search, 0, 0, q, qs, m, xs, ys, ncols, below, above, ext, nblocks, 1, ooff)
                for pipe in (0, 1):
                    for loop in _linear.LOOPS:
                        got = _run(lib, route, search, pipe, loop, q, qs, m, xs, ys, ncols, below, above, ext,
                                   nblocks, 0, ooff)
                        np.testing.assert_array_equal(got.view(np.uint8), ref.view(np.uint8),
                                                      err_msg=str((m, qs, qoff, ooff, ext, search, pipe, loop)))


def test_loops_declared():
    # the kernel's LOOP values (templates/linear.cu's enum) are _linear's LOOPS
    src = (TEMPLATES / "linear.cu").read_text()
    assert "enum { LOOP_PLAIN = 0, LOOP_BATCH = 1, LOOP_PAIRS = 2 };" in src
    assert _linear.LOOPS == (_linear.LOOP_PLAIN, _linear.LOOP_BATCH, _linear.LOOP_PAIRS) == (0, 1, 2)
    assert _linear.LOOP in _linear.LOOPS
