"""SciPy's own functions on cuarray arrays, with SCIPY_ARRAY_API unset and set (docs/scipy.md,
"SciPy itself on cuarray arrays"): which cuarray function each SciPy call reaches, checked without
a GPU. Each case runs in a fresh interpreter, since SciPy reads the variable when it is first
imported and the routes must work right after `import cuarray` (tests/scipy/test_scipy_dispatch_gpu.py
runs them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("scipy")

MODES = ["unset", "1"]


def _fresh(code: str, mode: str):
    env = dict(os.environ)
    env.pop("SCIPY_ARRAY_API", None)
    if mode != "unset":
        env["SCIPY_ARRAY_API"] = mode
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


# Which cuarray callable `scipy.special.<name>` reaches for a cuarray array, by SciPy's own route:
# a ufunc through `__array_ufunc__` (the engine's lookup, numpy_protocol._cuarray_ufunc), a wrapper
# of SciPy's alternative backends through the namespace's `special` (SciPy's own _wrapper_for).
_ROUTES = r'''
import json, sys, numpy, cuarray
import scipy.special as sps
before = "cuarray.scipy" in sys.modules
from cuarray._core.numpy_protocol import _cuarray_ufunc
import scipy.special._support_alternative_backends as sab
wrapped = {nfo.name: nfo for nfo in sab._special_funcs}
out = {"imported_before": before, "routes": {}}
names = [n for n in dir(cuarray.special) if not n.startswith("_")]
ours = {n: getattr(cuarray.special, n) for n in names}
for name, f in ours.items():
    theirs = getattr(sps, name, None)
    if theirs is None:
        route = "no such SciPy name"
    elif isinstance(theirs, numpy.ufunc):
        # by SciPy's name for the ufunc: scipy.special.jn is its jv ufunc
        route = "ufunc" if _cuarray_ufunc(theirs) is ours.get(theirs.__name__, f) else "ufunc, NOT ROUTED"
    elif getattr(theirs, "__name__", name) in wrapped and sab.SCIPY_ARRAY_API:
        # by SciPy's name for the function: scipy.special.digamma is its psi
        nfo = wrapped[theirs.__name__]
        route = "namespace" if nfo._wrapper_for(cuarray) is ours.get(nfo.name, f) else "namespace, NOT ROUTED"
    elif name == "zeta":
        # SciPy's zeta calls its private ufuncs _riemann_zeta(x) and _zeta(x, q): ours have their names
        from cuarray._core import registry
        su = sys.modules["scipy.special._ufuncs"]
        ok = all(_cuarray_ufunc(getattr(su, p)) is registry.ufuncs[p] for p in ("_zeta", "_riemann_zeta"))
        route = "private ufuncs" if ok else "private ufuncs, NOT ROUTED"
    else:
        route = "python"
    out["routes"][name] = route
print(json.dumps(out))
'''


@pytest.fixture(scope="module", params=MODES)
def routes(request):
    return request.param, _fresh(_ROUTES, request.param)


def test_scipy_special_is_not_loaded_by_import_cuarray(routes):
    mode, got = routes
    assert got["imported_before"] is False


def test_every_scipy_special_ufunc_or_wrapper_reaches_ours(routes):
    mode, got = routes
    r = got["routes"]
    assert not [n for n, v in r.items() if "NOT ROUTED" in v]
    routed = [n for n, v in r.items() if v in ("ufunc", "namespace")]
    assert len(routed) >= 120, len(routed)  # (not vacuous: cuarray.scipy.special has 126 ufuncs)
    for name in ("erf", "gammaln", "expit", "i0e", "ndtr", "jv", "betainc", "wofz"):
        assert r[name] in ("ufunc", "namespace"), (name, r[name])
    if mode == "1":
        # SciPy's wrappers route through the namespace: erf, gammaln, ... are wrapped in SciPy
        # 1.17 and 1.18; zeta is not a ufunc there either way.
        assert r["erf"] == r["gammaln"] == r["zeta"] == "namespace"
    else:
        assert r["erf"] == "ufunc" and r["zeta"] == "private ufuncs"


def test_the_python_level_functions_are_the_documented_ones(routes):
    """SciPy's functions that are neither a ufunc nor (with the variable set) a wrapper convert to
    NumPy: docs/scipy.md lists them, and the TypeError names ours (test below)."""
    mode, got = routes
    python = sorted(n for n, v in got["routes"].items() if v == "python")
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "scipy.md")).read()
    text = text[text.index("## SciPy itself on cuarray arrays"):]
    assert len(python) >= 10  # (not vacuous)
    assert [n for n in python if "`{}`".format(n) not in text] == []


def test_import_cuarray_loads_neither_scipy_nor_cuarray_scipy():
    code = "import json, sys, cuarray; print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy' or m.startswith('cuarray.scipy'))))"
    for mode in MODES:
        assert _fresh(code, mode) == []


def test_the_namespace_special_is_cuarray_scipy_special():
    got = _fresh("import json, cuarray, cuarray.scipy.special as s; print(json.dumps([cuarray.special is s, "
                 "'special' in dir(cuarray), 'special' in cuarray.__all__]))", "unset")
    assert got == [True, True, False]


# SciPy code that converts its input with numpy.asarray: the object's __array__ raises with the hint
# that cuarray's ndarray.__array__ adds (the engine's registry.conversion_hint()).
_HINT = r'''
import json, numpy, cuarray, scipy.ndimage, scipy.special, scipy.linalg, scipy.optimize
from cuarray._core import registry
class DeviceLike:  # what SciPy sees of a cuarray array: an array-API object that refuses __array__
    shape, ndim, dtype, device = (3,), 1, numpy.dtype("float64"), "cuda:0"
    def __array_namespace__(self, api_version=None):
        return cuarray
    def __array__(self, dtype=None, copy=None):
        raise TypeError(registry.conversion_hint())
def message(f, *args):
    try:
        f(*args)
    except TypeError as e:
        return str(e)
    return "no error"
print(json.dumps({
    "gaussian_filter": message(scipy.ndimage.gaussian_filter, DeviceLike(), 1.0),
    "lambertw": message(scipy.special.lambertw, DeviceLike()),
    "expm": message(scipy.linalg.expm, DeviceLike()),
    "geometric_transform": message(scipy.ndimage.geometric_transform, DeviceLike(), abs),
    "linprog": message(scipy.optimize.linprog, DeviceLike()),
    "no scipy": message(numpy.asarray, DeviceLike()),
}))
'''


@pytest.mark.parametrize("mode", MODES)
def test_conversion_error_names_the_cuarray_function(mode):
    got = _fresh(_HINT, mode)
    assert "call `cuarray.scipy.ndimage.gaussian_filter`" in got["gaussian_filter"]
    assert "call `cuarray.scipy.special.lambertw`" in got["lambertw"]
    assert "call `cuarray.scipy.linalg.expm`" in got["expm"]
    assert "call `cuarray.scipy.ndimage.geometric_transform`" in got["geometric_transform"]
    assert "cuarray has no `cuarray.scipy.optimize.linprog`" in got["linprog"]
    assert "pass `x.get()`" in got["linprog"]
    assert got["no scipy"] == ""


def test_a_ufunc_call_from_scipy_that_cuarray_cannot_take_names_ours():
    """`__array_ufunc__` raises the hint's TypeError (not NumPy's "all returned NotImplemented") when
    SciPy code calls a private ufunc cuarray lacks or passes a NumPy array beside ours; outside
    SciPy code, or with another library's array among the operands, it defers as before."""
    import numpy

    import scipy.special  # noqa: F401  (the hint looks up SciPy's public names)
    from cuarray._core.numpy_protocol import _refuse_for_scipy

    # a function that SciPy's module scipy.special._spherical_bessel would run
    scope = {"__name__": "scipy.special._spherical_bessel", "refuse": _refuse_for_scipy, "numpy": numpy}
    exec("def spherical_jn(uf, ours, foreign):\n    refuse(uf, ours, foreign)\n", scope)
    with pytest.raises(TypeError, match=r"takes no NumPy arrays .*call `cuarray.scipy.special.spherical_jn`"):
        scope["spherical_jn"](numpy.add, object(), [numpy.asarray(2)])
    with pytest.raises(TypeError, match=r"cuarray has no ufunc 'add'.*`cuarray.scipy.special.spherical_jn`"):
        scope["spherical_jn"](numpy.add, None, [])
    scope["spherical_jn"](numpy.add, None, [[1, 2]])  # a list: not only NumPy arrays, defer
    _refuse_for_scipy(numpy.add, None, [])  # not called from SciPy: defer


# The same calls a user makes, on cuarray arrays of the CPU tests' fake device (cuarray/testing/fake_device.py:
# no-op launches, so the values are not checked here; tests/scipy/test_scipy_dispatch_gpu.py does):
# each result is a cuarray array of SciPy's dtype, and the calls with no route raise naming ours.
_FAKE = r'''
import json, sys
import numpy as np
import scipy.special as sps, scipy.ndimage
import cuarray
out = {"loaded_early": "cuarray.scipy" in sys.modules, "calls": {}, "errors": {}}
x, h = cuarray.empty(8), np.linspace(0.5, 3.0, 8)
x32, h32 = x.astype(np.float32), h.astype(np.float32)
for key, f, gargs, hargs in [("erf", sps.erf, (x,), (h,)), ("erf32", sps.erf, (x32,), (h32,)),
                             ("gammaln", sps.gammaln, (x,), (h,)), ("cbrt", sps.cbrt, (x,), (h,)),
                             ("jn", sps.jn, (x, x), (h, h)), ("zeta", sps.zeta, (x,), (h + 1,)),
                             ("zeta_q", sps.zeta, (x, x), (h + 1, h)), ("wofz", sps.wofz, (x,), (h,)),
                             ("i0e", sps.i0e, (x32,), (h32,)), ("expit", sps.expit, (x,), (h,))]:
    got = f(*gargs)
    out["calls"][key] = [type(got).__module__.split(".")[0], str(got.dtype), str(f(*hargs).dtype)]
for key, f, args in [("gaussian_filter", scipy.ndimage.gaussian_filter, (x, 1.0)),
                     ("spherical_jn", sps.spherical_jn, (2, x)), ("polygamma", sps.polygamma, (1, x))]:
    try:
        f(*args)
        out["errors"][key] = "ran"
    except TypeError as e:
        out["errors"][key] = str(e)
print(json.dumps(out))
'''


@pytest.mark.parametrize("mode", MODES)
def test_scipy_calls_on_fake_device_arrays(mode):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        from cuarray.testing.fake_device import SCRIPT_PRELUDE
    finally:
        sys.path.pop(0)
    script = _FAKE
    if mode == "1":  # our polygamma runs then, and uploads its order: the fake device has no pinned memory
        script = script.replace(', ("polygamma", sps.polygamma, (1, x))', "")
    got = _fresh(SCRIPT_PRELUDE + script, mode)
    assert got["loaded_early"] is False
    assert len(got["calls"]) == 10
    for key, (library, ours, theirs) in got["calls"].items():
        assert library == "cuarray" and ours == theirs, (key, library, ours, theirs)
    assert "call `cuarray.scipy.ndimage.gaussian_filter`" in got["errors"]["gaussian_filter"]
    assert "call `cuarray.scipy.special.spherical_jn`" in got["errors"]["spherical_jn"]
    if mode == "unset":
        assert "call `cuarray.scipy.special.polygamma`" in got["errors"]["polygamma"]
