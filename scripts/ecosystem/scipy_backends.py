"""A pytest plugin that adds cuarray to SciPy's array API backends, beside NumPy, CuPy and PyTorch,
for SciPy's own tests (they ship in SciPy's wheel), without editing SciPy's installed files and
without passing cuarray off as CuPy (SciPy would then send our arrays to cupyx's code paths).

    SCIPY_ARRAY_API=1 python -m pytest -p scipy_backends --pyargs scipy.special -m array_api_backends \
        --xp-backends numpy,cupy,torch,cuarray

(scripts/ecosystem on PYTHONPATH; `array_api_suites.py` runs it module by module.) SciPy's conftest
builds its backend list and the `xp` fixture's parameters when it is imported; this plugin, told
first when that conftest is registered, appends cuarray to the list and redefines the fixture over
it before pytest reads the conftest's fixtures. cuarray is a device-only library, like CuPy:
tests SciPy marks `cpu_only` (no array-agnostic path) are skipped for it as for CuPy.
SciPy's test assertions (`xp_assert_close` and friends) compare CuPy's and PyTorch's arrays with
those libraries' own testing functions and any other backend's through `np.testing`, which asks
NumPy to convert the arrays; cuarray refuses implicit device-to-host copies, so for cuarray arrays
the plugin runs SciPy's own checks (namespace, dtype, shape, its default rtol) and then the same
`np.testing` comparison on explicit host copies (`cuarray.asnumpy`), as SciPy does for JAX.
`--xp-backends` keeps only the named backends (SciPy's own selection, a JSON list in
SCIPY_ARRAY_API, checks names against its fixed list, which cannot name cuarray)."""

from __future__ import annotations

import pytest

NAME = "cuarray"


def pytest_addoption(parser):
    parser.addoption("--xp-backends", default="", help="comma-separated array API backends to keep "
                     "(numpy, array_api_strict, torch, cupy, jax.numpy, dask.array, cuarray); all when empty")


def _wrapped(fixture):
    """The function a `pytest.fixture` decorated (pytest >= 8.4 wraps it in a definition object)."""
    get = getattr(fixture, "_get_wrapped_function", None)
    return get() if get is not None else getattr(fixture, "__wrapped__", fixture)


def backend_params(existing, keep=()):
    """SciPy's backend parameters plus cuarray's, filtered to the ids in `keep` (all when empty)."""
    import cuarray

    params = [p for p in existing if p.id != NAME]
    params.append(pytest.param(cuarray, id=NAME, marks=pytest.mark.array_api_backends))
    if keep:
        unknown = set(keep) - {p.id for p in params}
        if unknown:
            raise pytest.UsageError("--xp-backends: not available here: {}".format(", ".join(sorted(unknown))))
        params = [p for p in params if p.id in keep]
    return params


def add_backend(conftest, keep=()):
    """Append cuarray to SciPy's conftest module `conftest` (its backend list, its known names, its
    device-only set) and redefine its `xp` fixture over the new list."""
    if not getattr(conftest, "SCIPY_ARRAY_API", None):
        raise pytest.UsageError("set SCIPY_ARRAY_API=1: without it SciPy tests NumPy alone")
    params = backend_params(conftest.xp_available_backends, keep)
    conftest.xp_available_backends[:] = params
    conftest.xp_known_backends.add(NAME)
    conftest.xp_skip_cpu_only_backends.add(NAME)
    conftest.xp = pytest.fixture(params=params)(_wrapped(conftest.xp))


def _option(config) -> str:
    """--xp-backends, also while pytest loads its first conftests (before the full parse)."""
    if config is None:
        return ""
    try:
        return config.getoption("xp_backends") or ""
    except ValueError:
        return getattr(config.known_args_namespace, "xp_backends", "") or ""


def _ours(x) -> bool:
    import cuarray

    return isinstance(x, cuarray.ndarray) or x is cuarray


def _host(x):
    import cuarray

    return cuarray.asnumpy(x) if isinstance(x, cuarray.ndarray) else x


def host_assertions(api):
    """{name: replacement} for SciPy's `scipy._lib._array_api` module `api`: each replacement
    hands cuarray arrays to SciPy's `_strict_check` and compares host copies with `np.testing`
    exactly as SciPy's function does for the backends it has no special case for; other arrays go
    to SciPy's function unchanged."""
    import numpy as np

    def adapt(name, compare):
        original = getattr(api, name)
        if getattr(original, "_cuarray_original", None) is not None:
            return original

        def assertion(actual, desired, *args, xp=None, **kw):
            __tracebackhide__ = True
            if not (_ours(actual) or _ours(desired) or _ours(xp)):
                return original(actual, desired, *args, xp=xp, **kw)
            checks = {k: kw.pop(k) for k in ("check_namespace", "check_dtype", "check_shape", "check_0d")
                      if k in kw}
            actual, desired, xp = api._strict_check(actual, desired, xp, **checks)
            return compare(xp, _host(actual), _host(desired), *args, **kw)

        assertion._cuarray_original = original
        assertion.__name__ = assertion.__qualname__ = name
        return assertion

    def close(xp, actual, desired, *, rtol=None, atol=0, err_msg=""):
        if rtol is None:
            floating = np.asarray(actual).dtype.kind in "fc"
            rtol = np.finfo(actual.dtype).eps ** 0.5 * 4 if floating else 1e-7
        np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, err_msg=err_msg)

    def equal(xp, actual, desired, *, err_msg=""):
        np.testing.assert_array_equal(actual, desired, err_msg=err_msg)

    def nulp(xp, actual, desired, *, nulp=1):
        np.testing.assert_array_almost_equal_nulp(actual, desired, nulp=nulp)

    def less(xp, actual, desired, *, err_msg="", verbose=True):
        np.testing.assert_array_less(actual, desired, err_msg=err_msg, verbose=verbose)

    out = {name: adapt(name, fn) for name, fn in (("xp_assert_close", close), ("xp_assert_equal", equal),
                                                   ("xp_assert_close_nulp", nulp), ("xp_assert_less", less))
           if hasattr(api, name)}
    copy = getattr(api, "_xp_copy_to_numpy", None)
    if copy is not None and getattr(copy, "_cuarray_original", None) is None:
        def to_numpy(x):
            import cuarray

            return cuarray.asnumpy(x) if isinstance(x, cuarray.ndarray) else copy(x)

        to_numpy._cuarray_original = copy
        out["_xp_copy_to_numpy"] = to_numpy
    return out


def install_host_assertions():
    """Put `host_assertions` in SciPy's testing helpers, and in the no-0d variants' references to
    them when that module is already imported (test modules import the names later)."""
    import sys

    from scipy._lib import _array_api as api

    for name, fn in host_assertions(api).items():
        setattr(api, name, fn)
    no0d = sys.modules.get("scipy._lib._array_api_no_0d")
    if no0d is not None:
        for name in ("xp_assert_close", "xp_assert_equal", "xp_assert_less"):
            if hasattr(no0d, name + "_base"):
                setattr(no0d, name + "_base", getattr(api, name))


@pytest.hookimpl(tryfirst=True)
def pytest_plugin_registered(plugin, manager):
    # tryfirst: before pytest's fixture manager reads the conftest's fixtures
    if getattr(plugin, "__name__", "") == "scipy.conftest" and not getattr(plugin, "_cuarray_added", False):
        keep = tuple(b for b in _option(manager.get_plugin("pytestconfig")).split(",") if b)
        add_backend(plugin, keep)
        install_host_assertions()
        plugin._cuarray_added = True
