"""scipy.stats distribution cases (group `stats`): norm.cdf, t.ppf (df 7) and gamma.logpdf
(a 2.5) on 1e8 float64 values in (0, 1), the distribution's methods as a user calls them
(argument checks, loc/scale, the support masks). Peers: SciPy on the host (the "numpy" column;
the same number of values, run as n/HOST_SPLIT calls on n/HOST_SPLIT values each, so its memory
stays small) and torch.distributions where it has the method (Normal.cdf, Gamma.log_prob;
StudentT has no icdf: n/a). cupyx.scipy.stats has no distributions."""

from __future__ import annotations

from . import NotAvailable, random_array, register
import cuarray.scipy.stats

HOST_SPLIT = 100
_OPS = ("norm.cdf", "t.ppf", "gamma.logpdf")


def _scipy_call(stats, op):
    name, method = op.split(".")
    args = {"norm": (), "t": (7.0,), "gamma": (2.5,)}[name]
    f = getattr(getattr(stats, name), method)
    return lambda x: f(x, *args)


dist = register(
    "stats-distributions", group="stats",
    description="norm.cdf / t.ppf(df 7) / gamma.logpdf(a 2.5) on 1e8 float64 values in (0, 1)",
    size=10**8, quick=10**7, params=_OPS,
    nbytes=lambda n, p: 16 * n,
)


@dist.setup("cuarray")
def _(xp, n, op):
    x = random_array(xp, n, "float64", seed=41) - 0.5  # in (0, 1)
    f = _scipy_call(cuarray.scipy.stats, op)
    return lambda: f(x)


@dist.setup("numpy")
def _(xp, n, op):
    import scipy.stats as stats

    x = random_array(xp, max(n // HOST_SPLIT, 1), "float64", seed=41) - 0.5
    f = _scipy_call(stats, op)
    reps = HOST_SPLIT if n >= HOST_SPLIT else 1

    def run():
        for _ in range(reps):
            out = f(x)
        return out

    return run


@dist.setup("torch")
def _(xp, n, op):
    if op == "t.ppf":
        raise NotAvailable("torch.distributions.StudentT has no icdf")
    x = random_array(xp, n, "float64", seed=41) - 0.5
    d = xp.distributions
    if op == "norm.cdf":
        f = d.Normal(xp.tensor(0.0, dtype=x.dtype, device=x.device), xp.tensor(1.0, dtype=x.dtype, device=x.device))
        return lambda: f.cdf(x)
    f = d.Gamma(xp.tensor(2.5, dtype=x.dtype, device=x.device), xp.tensor(1.0, dtype=x.dtype, device=x.device),
                validate_args=False)
    return lambda: f.log_prob(x)
