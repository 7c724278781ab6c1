"""scipy.integrate cases (group "integrate"): cuarray.scipy.integrate against SciPy on the host
("numpy" column) in the same run; CuPy has no cumulative_simpson or tanhsinh (n/a).

- cumulative-simpson: cumulative_simpson(y, dx=0.5) of n float64 samples (full: 1e8; quick: 1e6):
  two elementwise passes and one scan. SciPy is n/a at 1e8 (about 3.5 s a call and several GB of
  temporaries on the host; 0.33 s at 1e7 on the development host): its quick row is the peer.
- tanhsinh: tanhsinh(f, 0, 1, args=(c,)) of n Gaussians exp(-c x^2), c in [0.5, 2] (full: 1e6
  integrals; quick: 1e5): every level's abscissae of all integrals in one call of f, one flag read
  a level. SciPy is n/a at 1e6 (about 15 s a call: 1.5 s at 1e5 on the development host).
- quad-vec: quad_vec(sin(a x) exp(-x), 0, 10) of an n-vector integrand, a in [1, 100] (full and
  quick: 1e4): 4011 evaluations on 96 intervals in 8 rounds; SciPy 1.5 s a call on the development
  host, calling f once per node. "array calls": f written with cuarray's functions, so cuarray
  calls it once a round with all the round's nodes (10 calls); "float calls": the same f through
  math.exp, which takes no device array, so cuarray calls it node by node as SciPy does (the
  rounds' sums still batched).
- quad-peaked: nquad over the unit square of a sum of n narrow Gaussian bumps (width^2 0.002,
  random centres; full and quick: n = 64): about 1e5 evaluations. SciPy calls the integrand
  point by point (0.57 s on the development host); cuarray calls it once a round with every
  inner integral's nodes of that round (16 calls).
- cubature-peaked: cubature over the unit cube of a sum of n Gaussian bumps (width^2 0.02, random
  centres; full and quick: n = 16), Genz-Malik's rule to rtol 1e-6: SciPy splits one region a step
  and calls the integrand once a region; cuarray splits a round's regions together and calls it
  once a round."""

from __future__ import annotations

import math

import numpy

from . import NotAvailable, register, scipy_module


def _host_too_slow(xp, n, limit, why):
    if getattr(xp, "__name__", "") == "numpy" and n > limit:
        raise NotAvailable(why)


csimp = register(
    "cumulative-simpson", group="integrate",
    description="cumulative_simpson(y, dx=0.5) of n float64 samples",
    size=10**8, quick=10**6, nbytes=lambda n, p: 16.0 * n,
)


@csimp.setup("cuarray", "numpy")
def _(xp, n, param):
    _host_too_slow(xp, n, 10**7, "SciPy on the host: ~3.5 s a call at 1e8 (see the quick row)")
    ig = scipy_module(xp, "integrate")
    y = xp.asarray(numpy.random.default_rng(71).standard_normal(n))
    return lambda: ig.cumulative_simpson(y, dx=0.5)


ths = register(
    "tanhsinh", group="integrate",
    description="tanhsinh(exp(-c x^2), 0, 1) of n integrals (c in [0.5, 2])",
    size=10**6, quick=10**5,
)


@ths.setup("cuarray", "numpy")
def _(xp, n, param):
    _host_too_slow(xp, n, 10**5, "SciPy on the host: ~15 s a call at 1e6 integrals (see the quick row)")
    ig = scipy_module(xp, "integrate")
    c = xp.asarray(numpy.random.default_rng(72).uniform(0.5, 2.0, n))

    def f(x, c):
        return xp.exp(-c * x * x)

    return lambda: ig.tanhsinh(f, 0.0, 1.0, args=(c,))


qv = register(
    "quad-vec", group="integrate",
    description="quad_vec(sin(a x) exp(-x), 0, 10) of an n-vector integrand (a in [1, 100])",
    size=10**4, quick=10**4, params=("array calls", "float calls"), param_label=lambda p: p,
)


def quad_vec_integrand(xp, n, param):
    """sin(a x) exp(-x) for a = linspace(1, 100, n): with xp's functions (it takes an array of
    nodes), or through math.exp (Python floats only: cuarray calls it node by node)."""
    a = xp.asarray(numpy.linspace(1.0, 100.0, n))
    if param == "float calls":
        return lambda x: xp.sin(a * x) * math.exp(-x)
    return lambda x: xp.sin(a * x) * xp.exp(-x)


@qv.setup("cuarray", "numpy")
def _(xp, n, param):
    ig = scipy_module(xp, "integrate")
    f = quad_vec_integrand(xp, n, param)
    return lambda: ig.quad_vec(f, 0.0, 10.0)


qp = register(
    "quad-peaked", group="integrate",
    description="nquad over [0,1]^2 of a sum of n Gaussian bumps (width^2 0.002, random centres)",
    size=64, quick=64,
)


def bumps(xp, n):
    """The integrand of quad-peaked: f(y, x) = sum_k exp(-|(x, y) - c_k|^2 / 0.002), for Python
    floats (SciPy) and for device arrays of nodes (cuarray) alike."""
    cx, cy = (xp.asarray(v) for v in numpy.random.default_rng(73).uniform(0.1, 0.9, (2, n)))

    def f(y, x):
        d = (xp.asarray(x)[..., None] - cx) ** 2 + (xp.asarray(y)[..., None] - cy) ** 2
        return xp.exp(-d / 0.002).sum(axis=-1)

    return f


@qp.setup("cuarray", "numpy")
def _(xp, n, param):
    ig = scipy_module(xp, "integrate")
    f = bumps(xp, n)
    return lambda: ig.nquad(f, [[0.0, 1.0], [0.0, 1.0]])


cp_ = register(
    "cubature-peaked", group="integrate",
    description="cubature over [0,1]^3 of a sum of n Gaussian bumps (width^2 0.02), genz-malik, rtol 1e-6",
    size=16, quick=16,
)


def bumps3(xp, n):
    """The integrand of cubature-peaked: f(x) = sum_k exp(-|x - c_k|^2 / 0.02) for x of shape
    (npoints, 3), NumPy or device arrays alike."""
    c = xp.asarray(numpy.random.default_rng(74).uniform(0.2, 0.8, (n, 3)))

    def f(x):
        d = ((x[:, None, :] - c[None, :, :]) ** 2).sum(axis=-1)
        return xp.exp(-d / 0.02).sum(axis=-1)

    return f


@cp_.setup("cuarray", "numpy")
def _(xp, n, param):
    ig = scipy_module(xp, "integrate")
    f = bumps3(xp, n)
    return lambda: ig.cubature(f, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], rule="genz-malik", rtol=1e-6)
