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


@pytest.hookimpl(tryfirst=True)
def pytest_plugin_registered(plugin, manager):
    # tryfirst: before pytest's fixture manager reads the conftest's fixtures
    if getattr(plugin, "__name__", "") == "scipy.conftest" and not getattr(plugin, "_cuarray_added", False):
        keep = tuple(b for b in _option(manager.get_plugin("pytestconfig")).split(",") if b)
        add_backend(plugin, keep)
        plugin._cuarray_added = True
