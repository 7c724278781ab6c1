"""cuarray.scipy.stats' tests (`_normality`, `_goodness`, `_anova`, with the `_descriptive`, `_correlation`
and `_omit` code they run) as private copies on NumPy and scipy.special: the real formulas, the
sample-size rules and the omit machinery on the host, for the CPU tests to compare with
scipy.stats (loaded by path from the tests; tests/scipy is no package)."""

import types

import numpy as np
import scipy.optimize as so
import scipy.special as sc

from cuarray._core.host_input import is_scalar
from cuarray.testing.fake_device import host_modules

MODULES = ("_omit", "_descriptive", "_correlation", "_multisample", "_normality", "_goodness", "_anova", "_trimmed", "_ksample", "_fdr", "_brunnermunzel", "_frequency", "_theilslopes", "_contingency", "_quantile", "_power", "_montecarlo", "_permutation", "_bootstrap", "_ordinal", "qmc._discrepancy", "qmc._lhs", "_ks1samp", "_cvm", "_ranksums", "_anderson", "_rank_tests", "_shapiro", "_fisher", "_resampling", "_ansari", "_anderson_ksamp", "_dispersion", "_epps")


class HostArray(np.ndarray):
    """A NumPy array with cuarray's `get()` (the device reads the modules make)."""

    def get(self):
        return np.asarray(self)


def _wrapped(f):
    def call(*args, **kwargs):
        out = f(*args, **kwargs)
        return np.asarray(out).view(HostArray) if isinstance(out, (np.ndarray, np.generic)) else out
    return call


def _host_scalar(solver):
    """scipy.optimize's scalar loop on a function returning a 0-d array (cuarray's wrapper reads it)."""
    def call(f, *args, **kwargs):
        return solver(lambda t, *a: float(f(t, *a)), *args, **kwargs)
    return call


def _namespace():
    ns = {n: getattr(np, n) for n in dir(np) if not n.startswith("_")}
    ns.update({n: getattr(sc, n) for n in dir(sc) if not n.startswith("_")})
    ns.update(pinv=np.linalg.pinv, matrix_rank=np.linalg.matrix_rank)
    ns.update(normalize_axis_index=np.lib.array_utils.normalize_axis_index, abs=np.abs, any=np.any, all=np.all, sum=np.sum, max=np.max, min=np.min, to_host=np.asarray, is_scalar=is_scalar, default_rng=np.random.default_rng, minimize_scalar=_host_scalar(so.minimize_scalar),
              root_scalar=_host_scalar(so.root_scalar),
              as_literal_or_array=lambda x, fn=None: np.asarray(x), as_parameter=lambda x, fn=None: np.asarray(x))
    # ufuncs keep their methods (`maximum.accumulate`); their results are never read with `get()`
    return {k: _wrapped(v) if callable(v) and not isinstance(v, (type, np.ufunc)) else v for k, v in ns.items()}


def host_stats_tests():
    """{name: private copy} of the modules (`_normality`, `_goodness`, `_anova`, ...)."""
    import importlib

    ns = _namespace()
    standins = {}
    for name in MODULES:
        module = importlib.import_module("cuarray.scipy.stats." + name)
        own = {}
        for attr, value in vars(module).items():
            origin = getattr(value, "__module__", None) or ""
            if attr.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                    or origin.startswith("cuarray.scipy.stats") or origin == "cuarray.scipy._rich_result":
                continue
            own[attr] = ns[attr[:-1] if attr.endswith("_") else attr]
        standins[module] = own
    copies = host_modules(standins)
    return {m.__name__.rpartition(".")[2]: c for m, c in copies.items()}
