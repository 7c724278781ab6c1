"""The ten workloads of the `compilers` bench group (cases/compilers.py), each written once as NumPy
code and once for PyTorch.

`numpy(np, *args)` is plain NumPy: cuarray runs it unchanged under `cuarray.lazy()`, NumPy runs it on
the host for the reference every column is checked against, and JAX runs it through `jax.numpy`
under `jax.jit` (its one rewrite: a pure function, and a loop as `lax.fori_loop`). `torch(torch,
*args)` is the PyTorch spelling (`dim`/`keepdim`, `amax`, `@`) that `torch.compile` traces; where
the NumPy code is already valid PyTorch (the stencil, the chain, the variance, Black-Scholes) it is
the same function. Inputs are float32 and made on the host from a fixed seed.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy

from .linalg_products import _logreg_step

__all__ = ["Workload", "WORKLOADS", "Reference", "run_numpy", "check", "LOGREG_STEPS"]

LOGREG_STEPS = 100
LOGREG_FEATURES = 784
GRAD_DIMS = (784, 512, 10)  # the seed network: inputs, hidden, outputs
KMEANS_DIM, KMEANS_K = 16, 64
RATE, VOLATILITY = 0.02, 0.30  # Black-Scholes: the CUDA samples' riskless rate and volatility


@dataclasses.dataclass(frozen=True)
class Workload:
    """One workload. With `steps`, `numpy`/`torch` are one step of a loop: the first `nconst`
    arguments are constants, the rest the state each step returns (the seed's training loop)."""

    name: str
    description: str
    size: int
    inputs: Callable[[int], tuple]
    numpy: Callable
    torch: Callable
    size_label: Callable[[int], str]
    rtol: float = 1e-4
    # absolute tolerance as a fraction of the reference's largest magnitude: float32 results
    # summed in another order differ by about sqrt(terms) * 6e-8 of the terms' scale
    atol: float = 1e-5
    steps: int | None = None
    nconst: int = 0
    nbytes: Callable[[int], float] | None = None
    flops: Callable[[int], float] | None = None
    labels: bool = False  # an argmin: checked by the distance it picks, not by the index


def _rng(name: str):
    return numpy.random.default_rng(sum(map(ord, name)))


def _normal(rng, shape, scale=1.0, shift=0.0):
    return (rng.standard_normal(shape) * scale + shift).astype(numpy.float32)


# The seed's logistic regression: `_logreg_step` is the tutorial's step as the seed wrote it (cases
# seed-logreg run it too); N samples of 784 features, LOGREG_STEPS gradient steps.
def _logreg_inputs(n):
    rng = _rng("logreg")
    x = _normal(rng, (n, LOGREG_FEATURES), 0.05)  # x @ w of unit scale: the sigmoid not saturated
    y = (rng.random(n) > 0.5).astype(numpy.float32)
    return x, y, _normal(rng, LOGREG_FEATURES), numpy.zeros((), numpy.float32)


def _logreg_numpy(np, x, y, w, b):
    return _logreg_step(np, np.dot, x, y, w, b, x.shape[0])


def _logreg_torch(torch, x, y, w, b):
    N = x.shape[0]
    p_1 = 1 / (1 + torch.exp(-(x @ w) - b))
    prediction = p_1 > 0.5  # noqa: F841 - the seed computes it every step
    xent = -y * torch.log(p_1) - (1 - y) * torch.log(1 - p_1)
    cost = xent.mean() + 0.01 * (w ** 2).sum()  # noqa: F841
    gw = (x.T @ (p_1 - y)) / N + 0.02 * w
    gb = (p_1 - y).mean()
    return w - 0.1 * gw, b - 0.1 * gb


# The seed's gradient (cases seed-grad): backpropagation through a sigmoid hidden layer.
def _grad_inputs(n):
    rng = _rng("grad")
    d_in, d_hid, d_out = GRAD_DIMS
    h = (1 / (1 + numpy.exp(-rng.standard_normal((n, d_hid))))).astype(numpy.float32)
    return (_normal(rng, (n, d_in)), _normal(rng, (d_out, d_hid), 0.1), h,
            _normal(rng, (n, d_out)), _normal(rng, (n, d_out)))


def _grad_numpy(np, X, W, h, x, z):
    delta_o = -(x - z)
    delta_h = np.dot(delta_o, W) * h * (1.0 - h)
    return np.dot(X.T, delta_h)


def _grad_torch(torch, X, W, h, x, z):
    delta_o = -(x - z)
    delta_h = (delta_o @ W) * h * (1.0 - h)
    return X.T @ delta_h


def _square_inputs(name, extra=0):
    def make(n):
        rng = _rng(name)
        return (_normal(rng, (n, n), 3.0),) + tuple(_normal(rng, n) for _ in range(extra))
    return make


def _softmax_numpy(np, x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _softmax_torch(torch, x):
    e = torch.exp(x - x.amax(dim=1, keepdim=True))
    return e / e.sum(dim=1, keepdim=True)


def _layernorm_numpy(np, x, g, b):
    m = x.mean(axis=1, keepdims=True)
    d = x - m
    v = (d * d).mean(axis=1, keepdims=True)
    return d / np.sqrt(v + 1e-5) * g + b


def _layernorm_torch(torch, x, g, b):
    m = x.mean(dim=1, keepdim=True)
    d = x - m
    v = (d * d).mean(dim=1, keepdim=True)
    return d / torch.sqrt(v + 1e-5) * g + b


def _stencil(np, u):
    """One explicit step of the heat equation on the interior (5-point Laplacian); valid PyTorch too."""
    c = u[1:-1, 1:-1]
    return c + 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)


def _gelu_inputs(n):
    rng = _rng("gelu")
    # x @ W of unit scale: n terms of variance 1/n each
    s = float(n) ** -0.25
    return _normal(rng, (n, n), s), _normal(rng, (n, n), s), _normal(rng, n, 0.5)


def _gelu_numpy(np, x, W, b):
    h = np.dot(x, W) + b
    return 0.5 * h * (1 + np.tanh(0.7978845608028654 * (h + 0.044715 * h * h * h)))


def _gelu_torch(torch, x, W, b):
    h = x @ W + b
    return 0.5 * h * (1 + torch.tanh(0.7978845608028654 * (h + 0.044715 * h * h * h)))


def _vector_inputs(name, count=1, low=None, high=None):
    def make(n):
        rng = _rng(name)
        if low is None:
            return tuple(_normal(rng, n, 1.0, 3.0) for _ in range(count))
        return tuple(rng.uniform(lo, hi, n).astype(numpy.float32) for lo, hi in zip(low, high))
    return make


def _chain10(np, x):
    """Ten elementwise operations (* + sin * abs + sqrt + neg exp); valid PyTorch too. (The square
    root of at least 0.25: well conditioned, so float32 results of any rounding order agree.)"""
    t = np.sin(x * 1.7 + 0.3) * x
    t = np.sqrt(np.abs(t) + 0.25) + x
    return np.exp(-t)


def _variance(np, x):
    """The variance by two passes: the mean, then the mean squared deviation; valid PyTorch too."""
    m = x.mean()
    d = x - m
    return (d * d).mean()


def _cnd(np, d):
    # The cumulative normal by the Abramowitz-Stegun polynomial, as the CUDA samples' BlackScholes.
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    c = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d > 0, 1.0 - c, c)


def _black_scholes(np, S, X, T):
    """European call and put prices; valid PyTorch too."""
    sqrt_t = np.sqrt(T)
    d1 = (np.log(S / X) + (RATE + 0.5 * VOLATILITY * VOLATILITY) * T) / (VOLATILITY * sqrt_t)
    d2 = d1 - VOLATILITY * sqrt_t
    cnd1, cnd2 = _cnd(np, d1), _cnd(np, d2)
    discount = X * np.exp(-RATE * T)
    return S * cnd1 - discount * cnd2, discount * (1.0 - cnd2) - S * (1.0 - cnd1)


def _kmeans_inputs(n):
    rng = _rng("kmeans")
    return _normal(rng, (n, KMEANS_DIM)), _normal(rng, (KMEANS_K, KMEANS_DIM))


def _kmeans_numpy(np, x, c):
    d = (x * x).sum(axis=1, keepdims=True) - 2.0 * np.dot(x, c.T) + (c * c).sum(axis=1)
    return np.argmin(d, axis=1)


def _kmeans_torch(torch, x, c):
    d = (x * x).sum(dim=1, keepdim=True) - 2.0 * (x @ c.T) + (c * c).sum(dim=1)
    return torch.argmin(d, dim=1)


def _square(n):
    return "{0}x{0} f32".format(n)


def _elements(n):
    return "2^{} f32".format(n.bit_length() - 1)


WORKLOADS = (
    Workload("logreg", "the seed's logistic-regression loop, {} steps, N x 784".format(LOGREG_STEPS),
             2**16, _logreg_inputs, _logreg_numpy, _logreg_torch,
             lambda n: "N={} x 784, {} steps".format(n, LOGREG_STEPS),
             # 100 steps of rate 0.1 on a unit-scale problem: the rounding of each step's two
             # products (784 and N terms) carried on, not amplified (the loss is convex)
             rtol=1e-3, atol=1e-4, steps=LOGREG_STEPS, nconst=2,
             nbytes=lambda n: 2.0 * n * LOGREG_FEATURES * 4 * LOGREG_STEPS),
    Workload("grad", "the seed's gradient (784 -> 512 -> 10): two GEMMs and their elementwise parts",
             2**16, _grad_inputs, _grad_numpy, _grad_torch, lambda n: "N={} x 784-512-10".format(n),
             # sums of N = 65536 products: sqrt(N) * 6e-8 = 1.5e-5 of the largest term's scale
             atol=2e-4, flops=lambda n: 2.0 * n * GRAD_DIMS[2] * GRAD_DIMS[1] + 2.0 * n * GRAD_DIMS[0] * GRAD_DIMS[1]),
    Workload("softmax", "softmax over the rows", 4096, _square_inputs("softmax"), _softmax_numpy,
             _softmax_torch, _square, nbytes=lambda n: 8.0 * n * n),
    Workload("layernorm", "layer normalisation over the rows, with gain and bias", 4096,
             _square_inputs("layernorm", 2), _layernorm_numpy, _layernorm_torch, _square,
             nbytes=lambda n: 8.0 * n * n),
    Workload("stencil", "one explicit heat-equation step, the 5-point Laplacian, on the interior", 4096,
             _square_inputs("stencil"), _stencil, _stencil, _square, nbytes=lambda n: 8.0 * n * n),
    Workload("gelu-bias", "GELU (tanh form) of x @ W + b", 4096, _gelu_inputs, _gelu_numpy, _gelu_torch,
             lambda n: "{0}^3 f32".format(n),
             # sums of 4096 unit-scale products: sqrt(4096) * 6e-8 = 4e-6 of the scale
             atol=1e-4, flops=lambda n: 2.0 * n ** 3),
    Workload("chain10", "an elementwise chain of 10 operations (* + sin * abs + sqrt + neg exp)", 2**24,
             _vector_inputs("chain10"), _chain10, _chain10, _elements, nbytes=lambda n: 8.0 * n),
    Workload("variance", "the variance by two passes (mean, then mean squared deviation)", 2**24,
             _vector_inputs("variance"), _variance, _variance, _elements, nbytes=lambda n: 8.0 * n),
    Workload("black-scholes", "Black-Scholes call and put prices (the CUDA samples' inputs)", 2**24,
             _vector_inputs("black-scholes", low=(5.0, 1.0, 0.25), high=(30.0, 100.0, 10.0)),
             _black_scholes, _black_scholes, _elements, nbytes=lambda n: 20.0 * n),
    Workload("kmeans", "a k-means assignment step: squared distances to 64 centroids in 16-D, argmin",
             2**20, _kmeans_inputs, _kmeans_numpy, _kmeans_torch,
             lambda n: "{} x {}, k={}".format(n, KMEANS_DIM, KMEANS_K), labels=True),
)

def run_numpy(w: Workload, args):
    """The workload on NumPy: one call, or the loop."""
    if w.steps is None:
        return w.numpy(numpy, *args)
    const, state = args[:w.nconst], tuple(args[w.nconst:])
    for _ in range(w.steps):
        state = tuple(w.numpy(numpy, *const, *state))
    return state[0]


class Reference:
    """`reference(n)`: (host inputs, NumPy's result) of one workload at size `n`, computed once for
    the size last asked: every column of its steady and first rows checks against them (the
    logistic regression's takes seconds on the host)."""

    def __init__(self, w: Workload):
        self.w = w
        self._size = self._value = None

    def __call__(self, n: int):
        if self._size != n:
            self._value = None  # (the previous size's arrays freed first)
            args = self.w.inputs(n)
            self._value, self._size = (args, run_numpy(self.w, args)), n
        return self._value


def check(w: Workload, got, want, args) -> None:
    """Raise AssertionError (the cell's error) unless `got` (host arrays) is NumPy's `want`."""
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want), "{}: {} results, NumPy has {}".format(w.name, len(got), len(want))
    for g, r in zip(got, want):
        g = numpy.asarray(g)
        assert g.shape == r.shape, "{}: shape {}, NumPy's {}".format(w.name, g.shape, r.shape)
        if w.labels:
            _check_labels(w, g, args)
            continue
        scale = float(numpy.abs(r).max())
        bad = ~numpy.isclose(g, r, rtol=w.rtol, atol=w.atol * scale)
        assert not bad.any(), "{}: {} of {} values differ from NumPy's (first at {}: {} against {})".format(
            w.name, int(bad.sum()), bad.size, numpy.argwhere(bad)[0].tolist(), g[bad].flat[0], r[bad].flat[0])


def _check_labels(w, labels, args):
    """Each label is a nearest centroid: its distance (in float64) within float32 rounding of the
    least (ties and near-ties may pick either centroid)."""
    x, c = (a.astype(numpy.float64) for a in args)
    d = (x * x).sum(1)[:, None] - 2.0 * (x @ c.T) + (c * c).sum(1)
    assert labels.dtype.kind in "iu" and labels.min() >= 0 and labels.max() < c.shape[0], "{}: labels {} in [{}, {}]".format(
        w.name, labels.dtype, labels.min(), labels.max())
    picked = numpy.take_along_axis(d, labels.astype(numpy.int64)[:, None], 1)[:, 0]
    # float32 squared distances carry errors of a few 6e-8 of |x|^2 + |c|^2
    tol = 1e-5 * ((x * x).sum(1) + (c * c).sum(1).max())
    bad = picked > d.min(1) + tol
    assert not bad.any(), "{}: {} of {} points not given a nearest centroid".format(w.name, int(bad.sum()), bad.size)
