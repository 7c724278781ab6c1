"""scipy.optimize cases, minimize (group "optimize"): cuarray.scipy.optimize.minimize against SciPy's on
the host ("numpy" column).

- minimize-logreg: L2-free logistic regression, n samples x d = 1000 float64 features (n = 1e6,
  quick 1e5), minimize(method='BFGS', jac=True) from w = 0 for 10 iterations (maxiter=10, so
  every library does the same work; the row's time / 10 is the time per iteration: two matrix-vector
  products over the n x d data a function call, the line search's scalar reads, BFGS's d x d
  update). SciPy n/a above 1e5 samples (8 GB of data, seconds an iteration on the host). CuPy n/a:
  cupyx has no scipy.optimize.minimize. The `jax` column: `jax.scipy.optimize.minimize(method=
  'BFGS')` on the same float64 data (x64 enabled), the whole minimize under `jax.jit` (compiled
  in the setup, outside the timing), the gradient by JAX's autodiff, 10 iterations; it runs when
  named: `python -m cuarray.bench --cases minimize-logreg --libs cuarray,numpy,jax`.
- minimize-lbfgsb-logreg: the same problem with a small ridge (1e-3 |w|^2 / 2, so the minimizer is
  unique), minimize(method='L-BFGS-B', jac=True) from w = 0 to convergence at SciPy's default
  tolerances; the row's extra number `nit` (the iterations this library took) gives the time per
  iteration. The two libraries' iteration counts may differ by a few (rounding). SciPy n/a above
  1e5 samples as above. There is no JAX column: the bench has no JAX peer (JAX's minimize has BFGS
  only).
- minimize-tnc-logreg: the ridge problem in the box [-1, 1]^d, minimize(method='TNC', jac=True)
  from w = 0 with maxfun=50 (TNC's count of calls of `fun`: its CG loop's Hessian-vector products
  and its step search's trials), so both libraries make about the same 50 calls; the row's time / 50
  is the time per call with TNC's work around it (its extra numbers: `nit`, `nfev`). SciPy n/a above
  1e5 samples as above."""

from __future__ import annotations

import importlib

import numpy

from . import NotAvailable, register, scipy_module

D = 1000
ITERATIONS = 10


def _optimize(xp, n):
    if getattr(xp, "__name__", "") == "numpy" and n > 10**5:
        raise NotAvailable("SciPy on the host: 8 GB of samples, seconds an iteration above 1e5 samples")
    return scipy_module(xp, "optimize")


def problem(xp, n, d=D, seed=71):
    """(X, y) on xp's device: standard normal features, labels from a planted model."""
    rng = numpy.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d) / numpy.sqrt(d)
    y = (rng.uniform(size=n) < 1 / (1 + numpy.exp(-X @ w))).astype(float)
    return xp.asarray(X), xp.asarray(y)


def loss_and_grad(xp, X, y):
    n = X.shape[0]

    def f(w):
        z = X @ w
        loss = xp.sum(xp.logaddexp(0.0, z) - y * z) / n
        grad = X.T @ (1 / (1 + xp.exp(-z)) - y) / n
        return loss, grad
    return f


logreg = register(
    "minimize-logreg", group="optimize",
    description="minimize(BFGS, jac=True), logistic regression n x 1000 float64, 10 iterations",
    size=10**6, quick=10**5, timing="host", ops=ITERATIONS,
    flops=lambda n, p: 4.0 * n * D * ITERATIONS,
)


def run(opt, xp, n, d):
    """The timed call: `opt.minimize`'s BFGS for ITERATIONS iterations on an n x d problem."""
    X, y = problem(xp, n, d)
    f = loss_and_grad(xp, X, y)
    w0 = xp.zeros(d)
    return lambda: opt.minimize(f, w0, method="BFGS", jac=True, options={"maxiter": ITERATIONS})


@logreg.setup("cuarray", "numpy")
def _(xp, n, param):
    return run(_optimize(xp, n), xp, n, D)


@logreg.setup("jax")
def _(jax, n, param):
    jax.config.update("jax_enable_x64", True)  # the problem is float64, as the other columns'
    jnp = importlib.import_module("jax.numpy")
    minimize = importlib.import_module("jax.scipy.optimize").minimize
    X, y = problem(jnp, n, D)

    def loss(w):
        z = X @ w
        return jnp.sum(jnp.logaddexp(0.0, z) - y * z) / n

    solve = jax.jit(lambda w0: minimize(loss, w0, method="BFGS", options={"maxiter": ITERATIONS}).x)
    w0 = jnp.zeros(D, dtype=jnp.float64)
    solve(w0).block_until_ready()  # the trace and compile, outside the timing
    return lambda: solve(w0).block_until_ready()


RIDGE = 1e-3


def ridge_loss_and_grad(xp, X, y):
    f0 = loss_and_grad(xp, X, y)

    def f(w):
        loss, grad = f0(w)
        return loss + 0.5 * RIDGE * xp.sum(w * w), grad + RIDGE * w
    return f


lbfgsb = register(
    "minimize-lbfgsb-logreg", group="optimize",
    description="minimize(L-BFGS-B, jac=True), ridge logistic regression n x 1000 float64, to convergence",
    size=10**6, quick=10**5, timing="host",
)


def run_lbfgsb(opt, xp, n, d):
    """The timed call: `opt.minimize`'s L-BFGS-B to convergence; returns the iteration count."""
    X, y = problem(xp, n, d)
    f = ridge_loss_and_grad(xp, X, y)
    w0 = xp.zeros(d)

    def call():
        res = opt.minimize(f, w0, method="L-BFGS-B", jac=True)
        return {"nit": int(res.nit)}
    return call


@lbfgsb.setup("cuarray", "numpy")
def _(xp, n, param):
    return run_lbfgsb(_optimize(xp, n), xp, n, D)


TNC_MAXFUN = 50

tnc = register(
    "minimize-tnc-logreg", group="optimize",
    description="minimize(TNC, jac=True), ridge logistic regression n x 1000 float64 in [-1, 1], maxfun=50",
    size=10**6, quick=10**5, timing="host", ops=TNC_MAXFUN,
)


def run_tnc(opt, xp, n, d):
    """The timed call: `opt.minimize`'s TNC for TNC_MAXFUN calls; returns its counts."""
    X, y = problem(xp, n, d)
    f = ridge_loss_and_grad(xp, X, y)
    w0 = xp.zeros(d)
    bounds = [(-1.0, 1.0)] * d

    def call():
        res = opt.minimize(f, w0, method="TNC", jac=True, bounds=bounds, options={"maxfun": TNC_MAXFUN})
        return {"nit": int(res.nit), "nfev": int(res.nfev)}
    return call


@tnc.setup("cuarray", "numpy")
def _(xp, n, param):
    return run_tnc(_optimize(xp, n), xp, n, D)
