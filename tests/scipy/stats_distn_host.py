"""cuarray.scipy.stats' distribution modules (_distn_*.py) with NumPy and scipy.special in place
of the cuarray routines they import: the real formulas and machinery run on the host, so the CPU
tests compare them with scipy.stats (loaded by path from the tests; tests/scipy is no package)."""

import types
import warnings

import numpy as np
import scipy.special as sc
from scipy.optimize import elementwise

from cuarray.testing.fake_device import host_modules, numpy_standins

MODULES = ("_censored", "_survival", "_distn_base", "_distn_fit", "_distn_fit_closed", "_distn_continuous", "_distn_gamma", "_distn_discrete",
           "_distn_real_shape", "_distn_vonmises", "_distn_truncnorm",
           "_multivariate_dirichlet", "_binomtest", "_qmvn", "_multivariate_normal", "_kde")
# cuarray.scipy.optimize routines a module calls, in place of the copies: SciPy's own
OPTIMIZE_STANDINS = {"_binomtest": {"find_root": elementwise.find_root}}
# what `fit` runs of cuarray.scipy.optimize: its Nelder-Mead, copied on NumPy with the stats modules
OPTIMIZE = ("_result", "_differentiate", "_neldermead", "_scalar")


def _namespace():
    ns = {n: getattr(np, n) for n in dir(np) if not n.startswith("_")}
    ns.update({n: getattr(sc, n) for n in dir(sc) if not n.startswith("_")})
    ns.update(gamma_fn=sc.gamma, beta_fn=sc.beta, all_=np.all, max_=np.max, to_host=np.asarray,
              as_literal_or_array=lambda x, fn: np.asarray(x), as_parameter=lambda x, fn: np.asarray(x),
              as_array=lambda x, fn: np.asarray(x), ndarray=np.ndarray,
              default_rng=np.random.default_rng, eigh=np.linalg.eigh)
    return ns


def host_stats():
    """{name: module copy} of the distribution modules, every cuarray routine they import bound to
    NumPy's or scipy.special's routine of that name."""
    import importlib

    ns = _namespace()
    standins = {}
    for name in MODULES:
        module = importlib.import_module("cuarray.scipy.stats." + name)
        own = {}
        for attr, value in vars(module).items():
            origin = getattr(value, "__module__", None) or getattr(type(value), "__module__", "")
            if attr.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray"):
                continue
            if origin.startswith(("cuarray.scipy.stats", "cuarray.scipy.optimize")):
                continue
            key = attr[:-1] if attr.endswith("_") and attr not in ns else attr
            assert key in ns, (name, attr)
            own[attr] = ns[key]
        standins[module] = {**own, **OPTIMIZE_STANDINS.get(name, {})}
    for name in OPTIMIZE:
        module = importlib.import_module("cuarray.scipy.optimize." + name)
        standins[module] = numpy_standins(module, "cuarray.scipy.optimize", {"max": np.max, "min": np.min})
    copies = host_modules(standins)
    return {m.__name__.rsplit(".", 1)[1]: c for m, c in copies.items() if m.__name__.startswith("cuarray.scipy.stats")}


def quiet(fn, *args, **kw):
    """fn(*args, **kw) with NumPy's and SciPy's warnings silenced."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def mixed_interval(rng, m):
    """An (m, 2) `interval` argument of `CensoredData` with rows of every kind: exact (a == b),
    left-censored (-inf, b), right-censored (a, inf) and finite intervals."""
    lo = rng.normal(0.0, 2.0, m)
    hi = lo + rng.exponential(1.0, m)
    kind = rng.integers(0, 4, m)
    hi[kind == 0] = lo[kind == 0]
    lo[kind == 1] = -np.inf
    hi[kind == 2] = np.inf
    return np.column_stack([lo, hi])
