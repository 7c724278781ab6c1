"""interp1d(kind='linear')'s one-kernel route (`_linear`, templates/linear.cu) on the GPU against
scipy.interpolate.interp1d on the host, bit for bit (the kernel rounds each operation as NumPy
does: the installed SciPy's formula (1.17's slope, 1.18's weights), numpy.interp's where SciPy
hands it 1-D float64 data, complex operations as NumPy's): random and edge data (2 knots,
repeated end knots, NaN and infinite points and values, knots hit exactly), every fill_value
form, float32/float64/int64 knots, float32/float64/complex values, axis != -1, batched values,
non-contiguous points, uneven knot spacing."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.interpolate")

import cuarray  # noqa: E402
from cuarray.scipy import interpolate as ci  # noqa: E402

G = cuarray.asarray


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def same(got, ref):
    assert isinstance(got, cuarray.ndarray), type(got)
    got, ref = got.get(), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    np.testing.assert_array_equal(got, ref)  # bit for bit, NaN where NaN


def _data(rng, n, dtype, extra=()):
    x = np.arange(n, dtype=float) + rng.uniform(0.05, 0.95, n)
    y = rng.standard_normal((n,) + extra)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * rng.standard_normal((n,) + extra)
    return x, y.astype(dtype)


def _queries(rng, x, m, dtype):
    q = rng.uniform(x[0] - 3, x[-1] + 3, m)
    q[:6] = x[0], x[-1], np.nan, x[len(x) // 2], -np.inf, np.inf
    return q.astype(dtype)


@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.5, 2.5), 7.0], ids=str)
@pytest.mark.parametrize("x_dt,y_dt,q_dt", [("f8", "f8", "f8"), ("f8", "f8", "f4"), ("f4", "f4", "f4"),
                                            ("f4", "f8", "f4"), ("f8", "f4", "f8"), ("i8", "f8", "f8"),
                                            ("f8", "c16", "f8"), ("f4", "c8", "f4")])
@pytest.mark.parametrize("n", [2, 3, 300])
def test_matches_scipy_bitwise(fill, x_dt, y_dt, q_dt, n):
    rng = _rng("lin-gpu", str(fill), x_dt, y_dt, q_dt, n)
    x, y = _data(rng, n, y_dt)
    x = (x * 3).astype(x_dt) if x_dt[0] == "i" else x.astype(x_dt)
    q = _queries(rng, x.astype(float), 2000, q_dt)
    kw = dict(bounds_error=False, fill_value=fill, assume_sorted=True)
    same(ci.interp1d(G(x), G(y), **kw)(G(q)), si.interp1d(x, y, **kw)(q))


def test_bench_configuration_many_points():
    # the bench row's data (1e4 jittered knots, uniform points over them), 3e5 points: the default
    # search (SEARCH_NEAR: its hit and one-neighbour paths; test_cell_table_on_any_knots its gallop)
    rng = _rng("lin-bench")
    x, y = _data(rng, 10**4, "f8")
    q = rng.uniform(0, 10**4, 3 * 10**5)
    f = ci.interp1d(G(x), G(y), assume_sorted=True, bounds_error=False)
    same(f(G(q)), si.interp1d(x, y, assume_sorted=True, bounds_error=False)(q))
    g = ci.interp1d(G(x), G(y), assume_sorted=True, fill_value="extrapolate")
    same(g(G(q)), si.interp1d(x, y, assume_sorted=True, fill_value="extrapolate")(q))


@pytest.mark.parametrize("y_dt,q_dt", [("f8", "f8"), ("f4", "f4"), ("c16", "f8"), ("c8", "f4"), ("c16", "f4")])
def test_special_values_and_columns(y_dt, q_dt):
    # infinite, NaN and signed-zero values, several columns: the installed SciPy's formula
    # (1.18: (w + 0j) * y, whose zero terms turn an infinite component into NaN) bit for bit
    rng = _rng("lin-special", y_dt, q_dt)
    x, y = _data(rng, 40, y_dt, (3,))
    special = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0], y.real.dtype)
    y.real[5:10, 0] = special
    if y.dtype.kind == "c":
        y.imag[12:17, 2] = special
    q = _queries(rng, x, 1500, q_dt)
    for fill in ("extrapolate", np.nan):
        kw = dict(axis=0, bounds_error=False, fill_value=fill, assume_sorted=True)
        with np.errstate(all="ignore"):
            same(ci.interp1d(G(x), G(y), **kw)(G(q)), si.interp1d(x, y, **kw)(q))


@pytest.mark.parametrize("fill", [np.nan, "extrapolate"], ids=str)
def test_repeated_ends_and_knots_hit(fill):
    x = np.array([0.0, 0.0, 1.0, 2.5, 2.5, 4.0, 4.0])
    y = np.array([1.0, 2.0, -1.0, 3.0, 5.0, 0.5, 0.25])
    q = np.concatenate((x, [-1.0, 0.5, 2.5, 3.0, 5.0, np.nan]))
    kw = dict(bounds_error=False, fill_value=fill, assume_sorted=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        same(ci.interp1d(G(x), G(y), **kw)(G(q)), si.interp1d(x, y, **kw)(q))
        same(ci.interp1d(G(x), G(y[:, None]), axis=0, **kw)(G(q)), si.interp1d(x, y[:, None], axis=0, **kw)(q))


@pytest.mark.parametrize("spacing", ["uniform", "geometric", "clustered"])
def test_uneven_knots(spacing):
    rng = _rng("lin-spacing", spacing)
    n = 3001
    x = {"uniform": np.linspace(-3.0, 9.0, n), "geometric": np.geomspace(1e-6, 1e6, n),
         "clustered": np.sort(np.concatenate((rng.normal(0, 1e-3, n // 2), rng.uniform(-1e3, 1e3, n - n // 2))))}[spacing]
    y = rng.standard_normal(n)
    q = np.concatenate((rng.uniform(x[0], x[-1], 5000), x[rng.integers(0, n, 500)]))
    for kw in (dict(bounds_error=False), dict(fill_value="extrapolate")):
        same(ci.interp1d(G(x), G(y), assume_sorted=True, **kw)(G(q)), si.interp1d(x, y, assume_sorted=True, **kw)(q))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", ["f8", "c16"])
def test_axis_batched_values_and_strided_points(axis, dtype):
    rng = _rng("lin-axis", axis, dtype)
    shape = {0: (11, 3, 4), 1: (3, 11, 4), -1: (3, 4, 11)}[axis]
    x = np.sort(rng.uniform(-2, 2, 11))
    y = rng.standard_normal(shape)
    y = (y + 1j * rng.standard_normal(shape)).astype(dtype) if dtype == "c16" else y
    qf = rng.uniform(-3, 3, (10, 12))
    for fill in (np.nan, "extrapolate", (0.5, -0.5)):
        kw = dict(axis=axis, bounds_error=False, fill_value=fill)
        f, ref = ci.interp1d(G(x), G(y), **kw), si.interp1d(x, y, **kw)
        same(f(G(qf)[:, ::3]), ref(qf[:, ::3]))  # non-contiguous points
        same(f(G(qf).T), ref(qf.T))
        same(f(G(qf[0])[::-2]), ref(qf[0][::-2]))  # a negative stride, read in place
        same(f(G(qf[:0])), ref(qf[:0]))


def test_copy_false_reads_the_callers_arrays():
    # copy=False: no interleaved table, so later writes to y reach the evaluation, as in SciPy
    x, y = np.arange(6.0), np.arange(6.0) ** 2
    gx, gy = G(x), G(y)
    f = ci.interp1d(gx, gy, copy=False, assume_sorted=True)
    q = np.linspace(0, 5, 17)
    same(f(G(q)), si.interp1d(x, y)(q))
    gy[2] = 100.0
    y[2] = 100.0
    same(f(G(q)), si.interp1d(x, y)(q))


def test_fill_value_set_after_construction():
    rng = _rng("lin-fill-set")
    x, y = _data(rng, 20, "f8", (2,))
    q = _queries(rng, x, 200, "f8")
    f = ci.interp1d(G(x), G(y), axis=0, bounds_error=False)
    ref = si.interp1d(x, y, axis=0, bounds_error=False)
    f.fill_value = ref.fill_value = ([1.0, 2.0], [-3.0, 4.0])
    same(f(G(q)), ref(q))


def test_state_changes_after_a_call():
    # the evaluation interp1d prepares at its first call (a points dtype) follows fill_value set
    # after it, other points dtypes and (copy=False) the caller's writes to x and y
    rng = _rng("lin-after-call")
    x, y = _data(rng, 30, "f8", (2,))
    q = _queries(rng, x, 500, "f8")
    f = ci.interp1d(G(x), G(y), axis=0, bounds_error=False)
    ref = si.interp1d(x, y, axis=0, bounds_error=False)
    same(f(G(q)), ref(q))
    for fill in ((1.0, [2.0, -2.0]), "extrapolate", 5.0):
        f.fill_value = ref.fill_value = fill
        same(f(G(q)), ref(q))
        same(f(G(q.astype("f4"))), ref(q.astype("f4")))
    xi, yi = (x * 4).astype(np.int64), y[:, 0].copy()
    gx, gy = G(xi), G(yi)
    g = ci.interp1d(gx, gy, copy=False, assume_sorted=True, fill_value="extrapolate")
    gref = si.interp1d(xi, yi, copy=False, assume_sorted=True, fill_value="extrapolate")
    same(g(G(q)), gref(q))
    xi[3] = (xi[2] + xi[4]) // 2  # still increasing (neighbours >= 5 apart)
    yi[4] = 9.0
    gx[3] = int(xi[3])
    gy[4] = 9.0
    same(g(G(q)), gref(q))


@pytest.mark.parametrize("dt", ["f8", "f4"])
def test_bounds_error_raised_in_the_call(dt):
    """SciPy raises in the call: so does the kernel's check (one read after the launch)."""
    x, y = np.arange(4.0).astype(dt), (np.arange(4.0) ** 2).astype(dt)
    f, ref = ci.interp1d(G(x), G(y)), si.interp1d(x, y)  # bounds_error: True (the default fill)
    same(f(G(np.array([0.0, 1.5, 3.0], dt))), ref(np.array([0.0, 1.5, 3.0], dt)))
    cuarray.check_index_errors()  # nothing recorded for points inside
    for q, side, bound in (([1.0, 9.0, 2.0], "above", "3.0"), ([0.5, -2.0], "below", "0.0")):
        with pytest.raises(ValueError, match=side + r" the interpolation range's \w+ value \(" + bound):
            f(G(np.array(q, dt)))  # the call itself raises, as SciPy's
        cuarray.check_index_errors()  # and leaves nothing pending
    with pytest.raises(ValueError, match="below the interpolation range"):
        f(G(np.array([np.nan, -1.0], dt)))
    same(f(G(np.array([np.nan, 2.0], dt))), ref(np.array([np.nan, 2.0], dt)))  # usable after; NaN is inside
    cuarray.check_index_errors()


# ---- the cell table search (interpolators with their own knots: copy=True) ------------------

def _knot_set(name, rng):
    return {
        "jittered": np.arange(4000) + rng.uniform(0.05, 0.95, 4000),
        "uniform": np.arange(3000.0),
        "linspace": np.linspace(-3.0, 9.0, 2501),
        "two": np.array([-1.0, 2.5]),
        "exp": np.exp(np.sort(rng.uniform(0, 30, 3000))),  # crowded cells at the low end
        "one-end": np.concatenate((np.sort(rng.uniform(0, 1e-9, 3000)), [1.0, 2.0])),
        "range": np.concatenate((-np.geomspace(1e300, 1e-300, 200), np.geomspace(1e-300, 1e300, 200))),
        "subnormal": np.arange(60) * 5e-324,
        "large": np.cumsum(rng.uniform(0.1, 1.9, 10**5)),
    }[name]


def _edge_queries(rng, x, m):
    fin = x[np.isfinite(x)]
    u = rng.uniform(0, 1, m)
    q = np.concatenate((u * fin[-1] + (1 - u) * fin[0], x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf),
                        [np.nan, np.inf, -np.inf, -1e308, 1e308, 0.0, -0.0]))
    return rng.permutation(q)


@pytest.mark.parametrize("name", ["jittered", "uniform", "linspace", "two", "exp", "one-end", "range", "subnormal",
                                  "large"])
def test_cell_table_on_any_knots(name):
    # the interpolator's cell table (copy=True) and the guess (copy=False) on the same knots: each
    # route (numpy.interp's, SciPy's formula with fill values and extrapolating, several columns,
    # float32 knots and points) against SciPy bit for bit; points inside, outside, at and next to
    # every knot, NaN and infinite
    rng = _rng("lin-cells", name)
    x = _knot_set(name, rng)
    n = x.shape[0]
    y = rng.standard_normal(n)
    y2 = rng.standard_normal((n, 2))
    q = _edge_queries(rng, x, 20000)
    with np.errstate(all="ignore"):
        for copy in (True, False):
            for kw in (dict(bounds_error=False), dict(fill_value="extrapolate"), dict(bounds_error=False,
                                                                                       fill_value=(-7.0, 7.0))):
                kw.update(assume_sorted=True, copy=copy)
                same(ci.interp1d(G(x), G(y), **kw)(G(q)), si.interp1d(x, y, **kw)(q))
                same(ci.interp1d(G(x), G(y2), axis=0, **kw)(G(q)), si.interp1d(x, y2, axis=0, **kw)(q))
        if name not in ("range", "subnormal"):  # (float32 cannot hold these knots)
            x4, y4, q4 = x.astype("f4"), y.astype("f4"), q.astype("f4")
            if np.all(np.diff(x4) > 0):
                kw = dict(assume_sorted=True, bounds_error=False)
                same(ci.interp1d(G(x4), G(y4), **kw)(G(q4)), si.interp1d(x4, y4, **kw)(q4))


def test_cell_table_bounds_error_and_unsorted_knots():
    rng = _rng("lin-cells-bounds")
    x = np.exp(np.sort(rng.uniform(0, 10, 500)))
    y = rng.standard_normal(500)
    f, ref = ci.interp1d(G(x), G(y)), si.interp1d(x, y)
    q = rng.uniform(x[0], x[-1], 3000)
    same(f(G(q)), ref(q))
    with pytest.raises(ValueError, match="above the interpolation range"):
        f(G(np.array([x[3], x[-1] * 2])))
    cuarray.check_index_errors()
    perm = rng.permutation(500)  # assume_sorted=False: sorted at construction, the table from the sorted copy
    same(ci.interp1d(G(x[perm]), G(y[perm]), bounds_error=False)(G(q)),
         si.interp1d(x[perm], y[perm], bounds_error=False)(q))


@pytest.mark.parametrize("search", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("pipe", [False, True])
@pytest.mark.parametrize("y_dt", ["f8", "f4", "c16"])
def test_every_search_variant(search, pipe, y_dt):
    # the kernel variants the device probes time (SEARCH 0-5, PIPE off/on): any may become the
    # default, so each is checked against SciPy here, through _linear.Prepared directly
    from cuarray.scipy.interpolate import _kernels, _linear

    rng = _rng("lin-variant", search, pipe, y_dt)
    # knots near the guess (jittered) for pipe off, crowded (exp) for pipe on: both kinds of miss
    x = np.exp(np.sort(rng.uniform(0, 12, 3000))) if pipe else np.arange(3000) + rng.uniform(0.05, 0.95, 3000)
    y = rng.standard_normal((3000, 2))
    y = (y + 1j * rng.standard_normal((3000, 2))) if y_dt == "c16" else y
    y = y.astype(y_dt)
    q = _edge_queries(rng, x, 5000)
    with np.errstate(all="ignore"):
        ref = si.interp1d(x, y, axis=0, assume_sorted=True, fill_value="extrapolate")(q)
    gx, gy = G(x), G(y)
    yr = _kernels._real_view(gy)
    weights = _linear.installed_weights_formula()
    route = _linear.plan(gx.dtype, gy.dtype, np.float64, ref.dtype, 3000, yr.shape[1], False, False, weights)
    b = cuarray.empty(yr.shape[1])
    prep = _linear.Prepared(route, gx, yr, b, b, True, None, fixed=True, search=search, pipe=pipe)
    assert prep.route.search == search and prep.route.pipe == pipe
    out = cuarray.empty((q.shape[0], 2), ref.dtype)
    prep(G(q), out.data.ptr)
    same(out, ref)


# ---- the staged table (interleaved records in shared memory) ---------------------------------

def _kernel_names(prof):
    return " ".join(r["name"] for r in prof.rows() if r["kind"] == "kernel")


@pytest.mark.parametrize("name", ["jittered", "uniform", "linspace", "two", "exp", "one-end", "range", "subnormal"])
@pytest.mark.parametrize("stage", [True, False])
def test_staged_table_on_any_knots(name, stage, monkeypatch):
    # the staged kernel (each block copies the (n, 2) records into shared memory) and the L1
    # kernel forced on the same interpolators (the planner's points-per-knot threshold moved):
    # numpy.interp's formula, SciPy's with fill values and extrapolating, float32 records of odd
    # n (the copy's 8-byte tail) with float32 and float64 points, unit, strided and negative
    # strides, bounds_error's device record;
    # points inside, outside, at and next to every knot, NaN and infinite; SciPy bit for bit
    from cuarray.scipy.interpolate import _linear

    monkeypatch.setattr(_linear, "STAGE_KNOTS_PER_POINT", 0.0 if stage else float("inf"))
    rng = _rng("lin-staged", name)
    x = _knot_set(name, rng)
    n = x.shape[0]
    y = rng.standard_normal(n)
    q = _edge_queries(rng, x, 20000)
    with np.errstate(all="ignore"), cuarray.profile(gpu_time=False) as prof:
        for kw in (dict(bounds_error=False), dict(fill_value="extrapolate"), dict(bounds_error=False,
                                                                                   fill_value=(-7.0, 7.0))):
            kw.update(assume_sorted=True)
            f = ci.interp1d(G(x), G(y), **kw)
            same(f(G(q)), si.interp1d(x, y, **kw)(q))
            same(f(G(q)[::3]), si.interp1d(x, y, **kw)(q[::3]))  # strided points: the strided loop
            same(f(G(q)[::-2]), si.interp1d(x, y, **kw)(q[::-2]))
            k = n if n % 2 else n - 1
            x4, y4 = x[:k].astype("f4"), y[:k].astype("f4")
            if name not in ("range", "subnormal") and k >= 3 and np.all(np.diff(x4) > 0):
                for q_dt in ("f4", "f8"):
                    qk = q.astype(q_dt)
                    same(ci.interp1d(G(x4), G(y4), **kw)(G(qk)), si.interp1d(x4, y4, **kw)(qk))
        f, ref = ci.interp1d(G(x), G(y), assume_sorted=True), si.interp1d(x, y, assume_sorted=True)
        inside = q[np.isfinite(q) & (q >= x[0]) & (q <= x[-1])]
        same(f(G(inside)), ref(inside))
        with pytest.raises(ValueError, match="above the interpolation range"):
            f(G(np.array([x[n // 2], np.inf])))
        cuarray.check_index_errors()
        same(f(G(inside[:5])), ref(inside[:5]))  # usable after
    assert ("interp1d_linear_staged" in _kernel_names(prof)) == stage, _kernel_names(prof)


def test_staged_table_at_the_opt_in_limit():
    # the largest float64 table the device's opt-in shared memory holds (its last record at the
    # end of the block's shared memory) and one record more (the L1 kernel), 1e6 points each
    from cuarray.cuda import device, limits
    from cuarray.scipy.interpolate import _linear

    f8 = np.dtype("f8")
    optin = limits.shared_per_block_optin()
    most = optin // 16
    rng = _rng("lin-staged-limit")
    for n, staged in ((most, True), (most + 1, False)):
        x = np.arange(n) + rng.uniform(0.05, 0.95, n)
        y = rng.standard_normal(n)
        q = rng.uniform(-1, n + 1, 10**6)
        q[:4] = x[-1], x[-2], x[0], np.nextafter(x[-1], -np.inf)
        nbytes = _linear.stage_bytes(_linear.Route(2, f8, f8, f8, f8, True, _linear.SEARCH_NEAR), n, optin)
        assert _linear.stages(nbytes, n, q.shape[0], device._sm_count(device.get_device_id())) == staged
        with cuarray.profile(gpu_time=False) as prof:
            same(ci.interp1d(G(x), G(y), assume_sorted=True, bounds_error=False)(G(q)),
                 si.interp1d(x, y, assume_sorted=True, bounds_error=False)(q))
        assert ("interp1d_linear_staged" in _kernel_names(prof)) == staged, (n, _kernel_names(prof))
