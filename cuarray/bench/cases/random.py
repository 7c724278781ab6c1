"""Random-number cases (docs/bench-targets.md "random"): Generator random() and standard_normal() of
1 Gi float32 and integers of 1 Gi int32 (bytes counted: the output written once, so the fraction
of the copy rate is against a copy's read + write: a pure writer at full speed shows ~1.0 only if
writes alone reach the copy's total rate; the target is >= 0.8 of the write bandwidth), then
permutation(1e8), choice(1e8, 1e6, replace=False), and binomial / poisson / gamma of 1e8 values.
Peers: CuPy's Generator (its legacy API where the Generator lacks a method) and PyTorch."""

from __future__ import annotations

from . import NotAvailable, register

GI = 2**30


def _cupy_method(cp, name):
    g = cp.random.default_rng(1)
    f = getattr(g, name, None)
    if f is None:
        f = getattr(cp.random, name, None)
    if f is None:
        raise NotAvailable("cupy has no {}".format(name))
    return f


stream = register(
    "random-stream", group="random",
    description="Generator random()/standard_normal() float32, integers(0, 1000) int32 (bytes written)",
    size=GI, quick=GI // 8, params=("random", "standard_normal", "integers"),
    nbytes=lambda n, p: 4 * n,
)


@stream.setup("cuarray", "cupy")
def _(xp, n, param):
    if xp.__name__ == "cuarray":
        g = xp.random.default_rng(1)
        f = getattr(g, param)
    else:
        f = _cupy_method(xp, param)
    if param == "integers":
        return lambda: f(0, 1000, size=n, dtype=xp.int32)
    return lambda: f(size=n, dtype=xp.float32)


@stream.setup("torch")
def _(torch, n, param):
    if param == "random":
        return lambda: torch.rand(n, device="cuda")
    if param == "standard_normal":
        return lambda: torch.randn(n, device="cuda")
    return lambda: torch.randint(0, 1000, (n,), dtype=torch.int32, device="cuda")


perm = register(
    "random-perm", group="random",
    description="permutation(n) and choice(n, n // 100, replace=False)",
    size=10**8, quick=10**7, params=("permutation", "choice"),
)


@perm.setup("cuarray", "cupy")
def _(xp, n, param):
    if xp.__name__ == "cuarray":
        g = xp.random.default_rng(1)
        perm_f, choice_f = g.permutation, g.choice
    else:
        perm_f, choice_f = _cupy_method(xp, "permutation"), xp.random.choice  # cupy's Generator has no choice
    if param == "permutation":
        return lambda: perm_f(n)
    return lambda: choice_f(n, n // 100, replace=False)


@perm.setup("torch")
def _(torch, n, param):
    if param == "permutation":
        return lambda: torch.randperm(n, device="cuda")
    return lambda: torch.randperm(n, device="cuda")[: n // 100]  # what torch users write


dists = register(
    "random-dists", group="random",
    description="binomial(100, 0.3), poisson(10.0), gamma(2.0) of n values (float64 / int64, NumPy's dtypes)",
    size=10**8, quick=10**7, params=("binomial", "poisson", "gamma"),
    nbytes=lambda n, p: 8 * n,
)


@dists.setup("cuarray", "cupy")
def _(xp, n, param):
    f = getattr(xp.random.default_rng(1), param) if xp.__name__ == "cuarray" else _cupy_method(xp, param)
    args = {"binomial": (100, 0.3), "poisson": (10.0,), "gamma": (2.0, 1.0)}[param]
    return lambda: f(*args, size=n)


@dists.setup("torch")
def _(torch, n, param):
    if param == "binomial":
        count = torch.full((n,), 100.0, device="cuda")
        prob = torch.full((n,), 0.3, device="cuda")
        return lambda: torch.binomial(count, prob)
    if param == "poisson":
        rate = torch.full((n,), 10.0, device="cuda", dtype=torch.float64)
        return lambda: torch.poisson(rate)
    alpha = torch.full((n,), 2.0, device="cuda", dtype=torch.float64)
    return lambda: torch._standard_gamma(alpha)
