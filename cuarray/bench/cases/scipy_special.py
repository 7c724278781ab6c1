"""cuarray.scipy cases (group `scipy`): special functions on 256 Mi elements and SciPy
linear algebra at 4096 float64.

- scipy-special: erf, gammaln, i0e, ndtri, expit on 256 Mi float32 / float64 values in (0, 1)
  (ndtri's domain; the others take them too). Peers: cupyx.scipy.special and torch.special where
  it has the function (erf, gammaln, i0e, ndtri, expit all exist there). Bytes: one read and one
  write per element, so "fraction of the copy rate" says how memory-bound each function is (the
  target is >= 0.9 where it is).
- scipy-linalg-4096: lu_factor, lu_solve (64 right-hand sides, factors made once), solve_triangular
  (64 right-hand sides) and expm of a 4096 x 4096 float64 matrix, against cupyx.scipy.linalg.
"""

from __future__ import annotations

import functools

import numpy

from . import random_array, register
import cuarray.scipy.linalg
import cuarray.scipy.special

M = 2**20
_FUNCS = ("erf", "gammaln", "i0e", "ndtri", "expit")
_TORCH = {"erf": "erf", "gammaln": "gammaln", "i0e": "i0e", "ndtri": "ndtri", "expit": "expit"}


def _special(xp):
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        return cuarray.scipy.special
    if name == "cupy":
        import cupyx.scipy.special

        return cupyx.scipy.special
    return xp.special  # torch


special = register(
    "scipy-special", group="scipy",
    description="erf / gammaln / i0e / ndtri / expit on 256 Mi float32 and float64 values in (0, 1)",
    size=256 * M, quick=32 * M, params=tuple((f, dt) for dt in ("float32", "float64") for f in _FUNCS),
    param_label=lambda p: "{} {}".format(*p),
    nbytes=lambda n, p: 2 * n * (4 if p[1] == "float32" else 8),
    size_label=lambda n: "{} Mi".format(n // M),
)


@special.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    fn, dt = param
    x = random_array(xp, n, dt, seed=30)
    f = getattr(_special(xp), _TORCH[fn] if getattr(xp, "__name__", "") == "torch" else fn)
    return lambda: f(x)


@functools.lru_cache(maxsize=2)
def _host(n: int):
    rng = numpy.random.default_rng(30)
    a = rng.standard_normal((n, n)) + n ** 0.5 * numpy.eye(n)
    b = rng.standard_normal((n, 64))
    return a, b


def _linalg(xp):
    if getattr(xp, "__name__", "") == "cuarray":
        return cuarray.scipy.linalg
    import cupyx.scipy.linalg

    return cupyx.scipy.linalg


_LINALG = ("lu_factor", "lu_solve", "solve_triangular", "expm")
linalg = register(
    "scipy-linalg-4096", group="scipy",
    description="lu_factor / lu_solve (64 rhs) / solve_triangular (64 rhs) / expm of a 4096x4096 float64 matrix",
    size=4096, quick=1024, params=_LINALG,
    flops=lambda n, p: {"lu_factor": 2 / 3 * n**3, "lu_solve": 2 * n * n * 64, "solve_triangular": n * n * 64,
                        "expm": 2 * n**3 * 9}[p],
    size_label=lambda n: "{0}x{0} f64".format(n),
)


@linalg.setup("cuarray", "cupy")
def _(xp, n, op):
    la = _linalg(xp)
    ha, hb = _host(n)
    a, b = xp.asarray(ha), xp.asarray(hb)
    if op == "lu_factor":
        return lambda: la.lu_factor(a)
    if op == "lu_solve":
        f = la.lu_factor(a)
        return lambda: la.lu_solve(f, b)
    if op == "solve_triangular":
        t = xp.asarray(numpy.triu(ha))
        return lambda: la.solve_triangular(t, b)
    s = xp.asarray(ha / (4 * n ** 0.5))  # norm ~ a few units: a few squarings, as typical
    return lambda: la.expm(s)
