"""A pytest plugin that runs tests written for CuPy on cuarray: `cupy`, `cupyx` and
`cupy_backends` imports resolve to cuarray's modules (`cupy.testing` -> `cuarray.testing`,
`cupyx.scipy.signal` -> `cuarray.scipy.signal`, ...), with small stand-ins for CuPy's runtime
queries that tests branch on (`runtime.is_hip`, `driver.get_build_version`). Nothing of CuPy's is
imported or patched: with the plugin loaded, an installed CuPy is hidden.

    python -m pytest -p cupy_alias CUPY_CHECKOUT/tests/cupyx_tests/scipy_tests --sample-every 5

(`scripts/ecosystem` on PYTHONPATH; scripts/ecosystem/cupyx_tests.py runs it and writes the report.)
`--sample-every N` keeps about one test in N, the same functions under CuPy and under cuarray:
one function in about sqrt(N), chosen by a hash of its id without the parametrization, and within
it one test in about sqrt(N) by a hash of its full id (at least one). The two libraries render
parameters differently (cuarray.testing makes one test per dtype where CuPy loops over dtypes in
one test), so a hash of full ids alone would sample different functions on each side, and
functions alone are too lumpy (one function of CuPy's has 8,000 parametrizations).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import math
import sys
import types
import zlib

# (prefix of CuPy's module names, prefix of cuarray's): the first that matches is used.
ALIASES = (("cupyx.scipy", "cuarray.scipy"), ("cupy", "cuarray"))
# The runtime queries CuPy's tests branch on, answered as a CUDA (not ROCm) build of CuPy 14 on
# CUDA 13 would; a test that needs more of cupy.cuda gets AttributeError and fails, counted.
_CUDA_BUILD = 13000


class Proxy(types.ModuleType):
    """A module under CuPy's name whose attributes are those of cuarray's module `target` (a
    submodule through the alias again, so that its own stand-ins apply). Test modules' globals
    that hold a proxy are rebound to `target` itself before the tests run, so that a test's
    `xp is cupy` sees the module the comparison decorators pass."""

    def __init__(self, name, target):
        super().__init__(name)
        self.__cuarray_target__ = target

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        full = "{}.{}".format(self.__name__, attr)
        if full in STANDINS:
            return importlib.import_module(full)
        value = getattr(self.__cuarray_target__, attr)
        if isinstance(value, types.ModuleType):
            return importlib.import_module(full)
        return value


def _runtime_standin(name):
    """CuPy's runtime/driver queries that its tests branch on, answered as a CUDA (not ROCm) build
    of CuPy 14 on CUDA 13 would; other names are cuarray.cuda.runtime's."""
    from cuarray.cuda import runtime

    mod = Proxy(name, runtime)
    mod.is_hip = False
    mod.runtimeGetVersion = lambda: _CUDA_BUILD
    mod.driverGetVersion = lambda: _CUDA_BUILD
    mod.get_build_version = lambda: _CUDA_BUILD
    return mod


def _helper_standin(name):
    """`cupy.testing._helper`: cuarray.testing, plus the decorator CuPy's tests take from there."""
    import pytest

    import cuarray.testing

    mod = Proxy(name, cuarray.testing)

    def skip_if_after_baseline(*, numpy=None, scipy=None, reason=""):
        """Skip where the installed NumPy or SciPy is at least the given version (CuPy also asks
        that the version be newer than its baseline; every version it names is)."""
        newer = [n + ">=" + v for n, v in (("numpy", numpy), ("scipy", scipy)) if v is not None]
        return pytest.mark.skipif(any(cuarray.testing.installed(r) for r in newer), reason=reason)

    def is_after_baseline(*, numpy=None, scipy=None):
        return True

    mod.skip_if_after_baseline = skip_if_after_baseline
    mod.is_after_baseline = is_after_baseline
    return mod


STANDINS = {
    "cupy.testing._helper": _helper_standin,
    "cupy.cuda.runtime": _runtime_standin,
    "cupy.cuda.driver": _runtime_standin,
    "cupy_backends": types.ModuleType,
    "cupy_backends.cuda": types.ModuleType,
    "cupy_backends.cuda.api": types.ModuleType,
    "cupy_backends.cuda.api.runtime": _runtime_standin,
    "cupy_backends.cuda.api.driver": _runtime_standin,
    "cupyx": types.ModuleType,
}


def target(name: str):
    """cuarray's module name for CuPy's `name`, or None where cuarray has no such module."""
    for cupy_prefix, ours in ALIASES:
        if name == cupy_prefix or name.startswith(cupy_prefix + "."):
            return ours + name[len(cupy_prefix):]
    return None


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `cupy...`, `cupyx...` and `cupy_backends...` before any installed CuPy."""

    def find_spec(self, name, path=None, target_module=None):
        if name.split(".")[0] not in ("cupy", "cupyx", "cupy_backends"):
            return None
        return importlib.util.spec_from_loader(name, self, is_package=True)

    def create_module(self, spec):
        name = spec.name
        if name in STANDINS:
            return STANDINS[name](name)
        ours = target(name)
        try:
            mod = importlib.import_module(ours) if ours else None
        except ImportError:
            mod = None
        if mod is None:  # cuarray has no such module: importing it fails, as it would
            raise ModuleNotFoundError("cuarray has no counterpart of {}".format(name), name=name)
        return Proxy(name, mod)

    def exec_module(self, module):
        pass


FINDER = _Alias()


def install():
    """Hide an installed CuPy and resolve its names to cuarray's (idempotent)."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("cupy", "cupyx", "cupy_backends")]:
        del sys.modules[name]
    if FINDER not in sys.meta_path:
        sys.meta_path.insert(0, FINDER)


def rebind(namespace: dict) -> None:
    """Replace each proxy in `namespace` (a test module's globals) by cuarray's module itself."""
    for key, value in list(namespace.items()):
        if isinstance(value, Proxy) and "is_hip" not in vars(value):  # stand-ins stay
            namespace[key] = value.__cuarray_target__


def function_id(nodeid: str) -> str:
    """The test function a (parametrized) test id belongs to: `f.py::TestA::test_x[p-float32]` ->
    `f.py::TestA::test_x`."""
    return nodeid.split("[", 1)[0]


def sample(nodeids, every: int) -> list:
    """The ids of `nodeids` in the one-in-about-`every` sample (the same functions under any
    library, whatever its parametrization; a function is kept with at least one of its tests)."""
    if every <= 1:
        return list(nodeids)
    f = max(1, round(math.sqrt(every)))
    per = max(1, round(every / f))
    groups = {}
    for i in nodeids:
        fid = function_id(i)
        if zlib.crc32(fid.encode()) % f == 0:
            groups.setdefault(fid, []).append(i)
    kept = set()
    for ids in groups.values():
        chosen = [i for i in ids if zlib.crc32(i.encode()) % per == 0]
        kept.update(chosen or [min(ids, key=lambda i: zlib.crc32(i.encode()))])
    return [i for i in nodeids if i in kept]


# ---- pytest hooks ---------------------------------------------------------------------------------

def pytest_addoption(parser):
    parser.addoption("--sample-every", type=int, default=1,
                     help="keep about one test in N, the same test functions for every library (see the module docstring)")
    parser.addoption("--as-cupy", action="store_true", default=False,
                     help="run the tests on the installed CuPy itself (only --sample-every applies)")


def pytest_configure(config):
    if not config.getoption("--as-cupy"):
        install()


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--as-cupy"):
        for module in {id(i.module): i.module for i in items if getattr(i, "module", None)}.values():
            rebind(vars(module))
    every = config.getoption("--sample-every")
    if every > 1:
        kept = set(sample([i.nodeid for i in items], every))
        config.hook.pytest_deselected(items=[i for i in items if i.nodeid not in kept])
        items[:] = [i for i in items if i.nodeid in kept]
