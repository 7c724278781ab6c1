"""`host_interpolate`: cuarray.scipy.interpolate with NumPy in place of the cuarray routines its
modules import (`routine_standins`) and NumPy models of its two device evaluations (`_kernels.ppoly_eval`, `linear_eval`),
so the package's host logic (validation, coefficient builds, the cyclic-reduction solve) runs
without a device against scipy.interpolate."""

import importlib
import types

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages


def ppoly_model(c, x, xq, nu, extrapolate, out_dt, desc=False):
    k, m = c.shape[0], c.shape[1]
    c2 = np.asarray(c).reshape(k, m, -1)
    xq = np.asarray(xq, dtype=float)
    xs = x[::-1] if desc else x
    i = np.searchsorted(xs, xq, side="right") - 1
    i = (m - 1 - i) if desc else i
    if desc:
        i = np.searchsorted(-x, -xq, side="right") - 1
    i = np.clip(i, 0, m - 1)
    s = xq - x[i]
    out = np.zeros((xq.shape[0], c2.shape[2]), dtype=np.result_type(c2.dtype, float))
    for p in range(k - nu):
        power = k - 1 - p
        f = np.prod(np.arange(power - nu + 1, power + 1)) if nu else 1.0
        out = out * s[:, None] + c2[p, i] * f
    lo, hi = (x[-1], x[0]) if desc else (x[0], x[-1])
    bad = np.isnan(xq) | ((not extrapolate) & ((xq < lo) | (xq > hi)))
    out[bad] = np.nan
    return out.astype(out_dt)


def linear_model(x, y, xq, below, above, extrapolate, out_dt, use_numpy=False, pairs=None, check=None,
                 weights=False):
    if check is not None:
        check(xq)
    y = np.asarray(y)
    idx = np.clip(np.searchsorted(x, xq), 1, len(x) - 1)
    xl, xh = x[idx - 1].astype(float), x[idx].astype(float)
    if weights:  # SciPy 1.18's formula
        out = ((xq - xl) / (xh - xl))[:, None] * y[idx] + ((xh - xq) / (xh - xl))[:, None] * y[idx - 1]
    else:  # 1.17's
        out = (y[idx] - y[idx - 1]) / (xh - xl)[:, None] * (xq - xl)[:, None] + y[idx - 1]
    if not extrapolate:
        yc = y.shape[1]
        if out.dtype.kind == "c":
            below, above = below.view(complex), above.view(complex)
        out = np.where((xq < x[0])[:, None], below[:yc][None], out)
        out = np.where((xq > x[-1])[:, None], above[:yc][None], out)
    return out.astype(out_dt)


def ndbspline_model(ts, ks, c, xi, nus, extrapolate, out_dt):
    import scipy.interpolate as si

    c = np.asarray(c)
    ncols = c.shape[-1]
    out = np.empty((xi.shape[0], ncols), dtype=np.result_type(c.dtype, float))
    for j in range(ncols):
        cj = c[..., j][tuple(slice(0, len(t) - k - 1) for t, k in zip(ts, ks))]
        spl = si.NdBSpline(tuple(np.asarray(t, float) for t in ts), cj, tuple(ks), extrapolate=extrapolate)
        out[:, j] = spl(np.asarray(xi, float), nu=tuple(nus)) if xi.shape[0] else 0
    out[np.isnan(xi).any(axis=1)] = np.nan
    return out.astype(out_dt)


def entries_model(t, k, xq, extrapolate):
    import scipy.interpolate as si

    m = si.BSpline.design_matrix(xq, t, k, extrapolate)
    return m.data.reshape(-1, k + 1), m.indices.reshape(-1, k + 1).astype(np.int64)


def gtsv_model(dl, d, du, b):
    """_tridiag.gtsv's stand-in: what cuSPARSE's gtsv2 takes checked (three diagonals of m >= 3 rows,
    dl[0] = du[-1] = 0, one real dtype, b (k, m) C-contiguous), then the system solved densely."""
    m = d.shape[0]
    assert m >= 3 and dl.shape == du.shape == (m,) and b.shape[1] == m and b.flags.c_contiguous
    assert dl[0] == 0 and du[-1] == 0
    assert dl.dtype == d.dtype == du.dtype == b.dtype and b.dtype.char in "fd"
    a = np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1)
    b[...] = np.linalg.solve(a, b.T).T


def numpy_namespace():
    ns = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np) if not n.startswith("_")})
    ns.gtsv = gtsv_model
    ns.param = lambda v, dtype=None: np.array(v, dtype=dtype)
    ns.values = lambda v, dtype=None: np.array(v, dtype=dtype)
    ns.data = np.asarray
    ns.to_host = np.asarray
    ns.solve = np.linalg.solve
    import scipy.sparse

    ns.csr_array = scipy.sparse.csr_array
    import scipy.spatial.distance

    ns.cdist = scipy.spatial.distance.cdist
    ns.qr = np.linalg.qr
    return ns


def routine_standins(module, ns):
    """{name: ns's routine of that name} for each cuarray routine `module` imports from outside
    cuarray.scipy.interpolate (bound under NumPy's name, or with a trailing `_` where it would hide
    a builtin or a local name: `max_`); the module's own names and its package's are left."""
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.scipy.interpolate"):
            continue
        key = name[:-1] if name.endswith("_") else name
        if hasattr(ns, key):
            out[name] = getattr(ns, key)
    return out


def interpolate_standins(ns):
    """{module: stand-ins} of the package's modules for host_modules: NumPy for the routines, the
    namespace's host-input conversions and gtsv."""
    from cuarray.scipy.interpolate import _inputs, _tridiag

    standins = {importlib.import_module("cuarray.scipy.interpolate." + mod): {} for mod in MODULES}
    for module in standins:
        standins[module] = routine_standins(module, ns)
    standins[_inputs] = dict(param=ns.param, values=ns.values, data=ns.data)
    standins[_tridiag]["gtsv"] = ns.gtsv
    return standins


MODULES = ["_cubic", "_cubic_spline", "_interp1d", "_ppoly", "_tridiag", "_bspline", "_make", "_ndbspline", "_rgi", "_rbf", "_polyint", "_fitpack", "_bpoly", "_ndppoly", "_ndgriddata", "_fitpack_more",
           "_fitpack2", "_rbf_legacy", "_poly1d_fits", "_aaa"]


def linear_evaluator_of(linear):
    """`_kernels.linear_evaluator`'s contract on a stand-in of `linear_eval`: the values reshaped."""

    def linear_evaluator(x, y, q_dt, below, above, extrapolate, out_dt, use_numpy=False, pairs=None, weights=False,
                         fixed=False):
        def run(xq, shape, check=None):
            return np.asarray(linear(x, y, xq, below, above, extrapolate, out_dt, use_numpy, pairs, check,
                                     weights)).reshape(shape)
        run.snapshot = False
        return run

    return linear_evaluator


def host_interpolate_of(ppoly, linear, nd, entries):
    """cuarray.scipy.interpolate's private copy (every module of it: nothing of cuarray is
    patched) with NumPy as its array namespace and these device evaluations."""
    from cuarray.scipy import interpolate
    from cuarray.scipy.interpolate import _kernels

    import cuarray.scipy.spatial as spatial

    standins = interpolate_standins(numpy_namespace())
    standins[_kernels] = dict(ppoly_eval=ppoly, linear_eval=linear, linear_evaluator=linear_evaluator_of(linear),
                              ndbspline_eval=nd, bspline_entries=entries)
    # the scattered-data interpolators' KDTree and Delaunay: spatial's own host copies (its test shim)
    copies = host_packages([interpolate, spatial], standins, _spatial_shim().spatial_standins())
    return copies[interpolate]


def _spatial_shim():
    """tests/scipy/spatial/_host_shim.py (loaded by path: tests/scipy is no package)."""
    import importlib.util
    import pathlib
    import sys

    name = "interpolate_conftest_spatial_shim"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, pathlib.Path(__file__).resolve().parents[1] / "spatial" / "_host_shim.py")
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


@pytest.fixture(scope="module")
def host_tridiag():
    """cuarray.scipy.interpolate._tridiag's private copy with NumPy (and gtsv_model) for its routines."""
    from cuarray.scipy.interpolate import _tridiag
    from cuarray.testing.fake_device import host_module

    return host_module(_tridiag, interpolate_standins(numpy_namespace())[_tridiag])


@pytest.fixture(scope="module")
def host_interpolate():
    return host_interpolate_of(ppoly_model, linear_model, ndbspline_model, entries_model)


def _kernel_host():
    import importlib.util
    import pathlib

    spec = importlib.util.spec_from_file_location("interpolate_kernel_host",
                                                  pathlib.Path(__file__).parent / "kernel_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def _interpolate_lib():
    import pathlib
    import shutil

    if shutil.which("g++") is None:
        pytest.skip("no g++")
    import host_build  # tests/ is on sys.path

    inc = pathlib.Path(__file__).resolve().parents[3] / "cuarray" / "scipy" / "interpolate" / "templates"
    return host_build.library_of(_kernel_host().DRIVER, ["-O1", "-shared", "-fPIC", "-I", inc])


@pytest.fixture(scope="module")
def native_interpolate(_interpolate_lib):
    """host_interpolate with templates/interpolate.cuh itself (g++) in place of the NumPy models."""
    return host_interpolate_of(*_kernel_host().models(_interpolate_lib))
