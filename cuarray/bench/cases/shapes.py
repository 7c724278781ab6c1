"""Shapes real programs make (docs/bench-targets.md, group `shapes`): reductions over a
short axis with many rows (contiguous and strided, nan-variants, argmax, var), a short kept axis
with a long reduced one, the middle axes of a 3-D array, and four row-wise programs written as a
NumPy user writes them: softmax over 10 classes, centring columns, k-means' distance step and one
EM step of a two-component Gaussian mixture. CuPy and PyTorch run the same work in the same run.

Bytes counted: the input read once for a reduction; for the programs, the one-pass floor (every
input read once, every output written once), so the copy-rate fraction says how far a program is
from a single fused pass.
"""

from __future__ import annotations

import math

from . import NotAvailable, random_array, register
from ...scipy import special as _cuarray_special

# label: (shape, dtype, op, axis, view). view "step2": x[:, ::2] of a (rows, 2 n) array (rows of n
# elements 2 apart); "T": the transpose of a C array (the reduced axis is the slow one).
REDUCTIONS = {
    "sum ax1 (4e5,2) f64": ((400_000, 2), "float64", "sum", 1, None),
    "sum(exp) ax1 (4e5,2) f64": ((400_000, 2), "float64", "sumexp", 1, None),
    "sum ax1 (4e6,3) f32": ((4_000_000, 3), "float32", "sum", 1, None),
    "sum ax1 (4e6,4) f32": ((4_000_000, 4), "float32", "sum", 1, None),
    "sum ax1 (1.6e7,4) f32": ((16_000_000, 4), "float32", "sum", 1, None),
    "sum ax1 (2e6,8) f32": ((2_000_000, 8), "float32", "sum", 1, None),
    "sum ax1 (4e6,16) f32": ((4_000_000, 16), "float32", "sum", 1, None),
    "sum ax1 (5e5,64) f32": ((500_000, 64), "float32", "sum", 1, None),
    "sum ax1 (1e6,64) f32": ((1_000_000, 64), "float32", "sum", 1, None),
    "sum ax1 [:, ::2] (4e6,8) f32": ((4_000_000, 8), "float32", "sum", 1, "step2"),
    "sum ax1 .T (4,4e6) f32": ((4, 4_000_000), "float32", "sum", 1, "T"),
    "mean ax1 (4e6,4) f32": ((4_000_000, 4), "float32", "mean", 1, None),
    "var ax1 (1e6,16) f32": ((1_000_000, 16), "float32", "var", 1, None),
    "max ax1 (1e6,16) f32": ((1_000_000, 16), "float32", "max", 1, None),
    "argmax ax1 (1e6,16) f32": ((1_000_000, 16), "float32", "argmax", 1, None),
    "argmax ax1 (4e6,8) f32": ((4_000_000, 8), "float32", "argmax", 1, None),
    "nansum ax1 (4e6,4) f32": ((4_000_000, 4), "float32", "nansum", 1, None),
    "nanmax ax1 (1e6,16) f32": ((1_000_000, 16), "float32", "nanmax", 1, None),
    "nanmean ax1 (1e6,16) f32": ((1_000_000, 16), "float32", "nanmean", 1, None),
    "sum ax0 (1e6,4) f32": ((1_000_000, 4), "float32", "sum", 0, None),
    "sum ax0 (1.6e7,4) f32": ((16_000_000, 4), "float32", "sum", 0, None),
    "sum ax0 (1e6,32) f32": ((1_000_000, 32), "float32", "sum", 0, None),
    "sum ax0 (2,4e6) f32": ((2, 4_000_000), "float32", "sum", 0, None),
    "sum ax0 (2,3.2e7) f32": ((2, 32_000_000), "float32", "sum", 0, None),
    "mean ax(0,2) (64,1024,256) f32": ((64, 1024, 256), "float32", "mean", (0, 2), None),
    "var ax0 (1e6,4) f32": ((1_000_000, 4), "float32", "var", 0, None),
    "var ax0 (1e6,2) f32": ((1_000_000, 2), "float32", "var", 0, None),  # kept rows of 8 bytes: folded vectors
    "sum ax0 (1e6,2) f32": ((1_000_000, 2), "float32", "sum", 0, None),
}


def _base_shape(shape, view):
    if view == "step2":
        return (shape[0], 2 * shape[1])
    if view == "T":
        return shape[::-1]
    return shape


def _nbytes(label):
    shape, dtype, op, axis, view = REDUCTIONS[label]
    return math.prod(shape) * (8 if dtype == "float64" else 4)


red = register(
    "shapes-red", group="shapes",
    description="reductions over short axes, short kept axes, middle axes (bytes read)",
    size=1, params=tuple(REDUCTIONS), nbytes=lambda n, p: _nbytes(p),
    size_label=lambda n: "-",
)


def _input(xp, label, seed):
    shape, dtype, op, axis, view = REDUCTIONS[label]
    x = random_array(xp, _base_shape(shape, view), dtype, seed=seed)
    if op.startswith("nan"):
        x[::97, 0] = float("nan")
    if view == "step2":
        x = x[:, ::2]
    elif view == "T":
        x = x.T
    return x, op, axis


@red.setup("cuarray", "cupy")
def _(xp, n, label):
    x, op, axis = _input(xp, label, 31)
    if op == "sumexp":
        return lambda: xp.exp(x).sum(axis=axis)
    f = getattr(xp, op)
    return lambda: f(x, axis=axis)


@red.setup("torch")
def _(torch, n, label):
    x, op, axis = _input(torch, label, 31)
    if op == "sumexp":
        return lambda: torch.exp(x).sum(dim=axis)
    if op == "var":
        return lambda: torch.var(x, dim=axis, correction=0)
    f = {"sum": torch.sum, "mean": torch.mean, "max": torch.amax, "argmax": torch.argmax,
         "nansum": torch.nansum, "nanmean": torch.nanmean}.get(op)
    if f is None:
        raise NotAvailable("no torch.{}".format(op))
    return lambda: f(x, dim=axis)


# -- programs ------------------------------------------------------------------------------------

softmax = register(
    "shapes-softmax", group="shapes",
    description="softmax over 10 classes of (1e6, 10) float32: the library's call, and written out",
    size=(1_000_000, 10), params=("library", "written", "written-lazy", "library-axis0"),
    param_label=lambda p: {"library": "scipy.special / torch.softmax", "written": "exp(x - max) / sum",
                           "written-lazy": "the same in cuarray.lazy()",
                           "library-axis0": "classes on axis 0: (10, 1e6), the library's call"}[p],
    nbytes=lambda s, p: 2 * 4 * s[0] * s[1],
    size_label=lambda s: "{}x{} f32".format(*s),
)


def _written_softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@softmax.setup("cuarray", "cupy")
def _(xp, shape, param):
    axis = 1
    if param == "library-axis0":
        shape, axis = shape[::-1], 0
    x = random_array(xp, shape, "float32", seed=41)
    if param == "written":
        return lambda: _written_softmax(xp, x)
    if param == "written-lazy":
        if not hasattr(xp, "lazy"):
            raise NotAvailable("no lazy mode")

        def lazy():
            with xp.lazy():
                y = _written_softmax(xp, x)
            return y

        return lazy
    if xp.__name__ == "cuarray":
        special = _cuarray_special
    else:
        try:
            from cupyx.scipy import special
        except ImportError as exc:
            raise NotAvailable("no cupyx.scipy.special") from exc
    return lambda: special.softmax(x, axis=axis)


@softmax.setup("torch")
def _(torch, shape, param):
    if param == "library-axis0":
        x = random_array(torch, shape[::-1], "float32", seed=41)
        return lambda: torch.softmax(x, dim=0)
    x = random_array(torch, shape, "float32", seed=41)
    if param == "written-lazy":
        raise NotAvailable("no lazy mode")
    if param == "written":
        def written():
            e = torch.exp(x - x.amax(dim=1, keepdim=True))
            return e / e.sum(dim=1, keepdim=True)

        return written
    return lambda: torch.softmax(x, dim=1)


center = register(
    "shapes-center", group="shapes",
    description="x - x.mean(axis=0) of (1e6, 32) float32 (bytes: read x, write the result)",
    size=(1_000_000, 32), nbytes=lambda s, p: 2 * 4 * s[0] * s[1],
    size_label=lambda s: "{}x{} f32".format(*s),
)


@center.setup("cuarray", "cupy")
def _(xp, shape, param):
    x = random_array(xp, shape, "float32", seed=42)
    return lambda: x - x.mean(axis=0)


@center.setup("torch")
def _(torch, shape, param):
    x = random_array(torch, shape, "float32", seed=42)
    return lambda: x - x.mean(dim=0)


kmeans = register(
    "shapes-kmeans", group="shapes",
    description="k-means' step: squared distances of (1e6, 2) float32 points to 8 centres, and the labels",
    size=(1_000_000, 2, 8), params=("distances", "labels"),
    nbytes=lambda s, p: 4 * s[0] * (s[1] + (s[2] if p == "distances" else 0)) + (8 * s[0] if p == "labels" else 0),
    size_label=lambda s: "{}x{} to {}".format(*s),
)


@kmeans.setup("cuarray", "cupy", "torch")
def _(xp, shape, param):
    n, d, k = shape
    x = random_array(xp, (n, d), "float32", seed=43)
    c = random_array(xp, (k, d), "float32", seed=44)
    torch = xp.__name__ == "torch"

    def dist():
        return ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)

    if param == "distances":
        return dist
    return (lambda: dist().argmin(dim=1)) if torch else (lambda: dist().argmin(axis=1))


em = register(
    "shapes-em", group="shapes",
    description="one EM step of a 2-component diagonal Gaussian mixture on (4e5, 2) float64 points",
    size=(400_000, 2, 2), nbytes=lambda s, p: 8 * s[0] * s[1], rounds=5,
    size_label=lambda s: "{}x{}, K={}".format(*s),
)


def _em_step(xp, X, w, mu, var, torch):
    """E step (log-responsibilities, normalised by log-sum-exp), M step (weights, means, variances),
    the way a NumPy user writes it; `torch` switches the spelling of max/keepdims."""
    diff = X[:, None, :] - mu[None, :, :]  # (N, K, D)
    logp = -0.5 * (diff * diff / var).sum(2) - 0.5 * xp.log(2 * math.pi * var).sum(1) + xp.log(w)
    m = logp.amax(dim=1, keepdim=True) if torch else logp.max(axis=1, keepdims=True)
    r = xp.exp(logp - m)
    r = r / (r.sum(1, keepdim=True) if torch else r.sum(axis=1, keepdims=True))
    nk = r.sum(0)
    w = nk / X.shape[0]
    mu = (r.T @ X) / nk[:, None]
    var = (r.T @ (X * X)) / nk[:, None] - mu * mu
    return w, mu, var


@em.setup("cuarray", "cupy", "torch")
def _(xp, shape, param):
    n, d, k = shape
    X = random_array(xp, (n, d), "float64", seed=45)
    mu = random_array(xp, (k, d), "float64", seed=46)
    var = random_array(xp, (k, d), "float64", seed=47)
    w = random_array(xp, (k,), "float64", seed=48)
    torch = xp.__name__ == "torch"
    w = w / w.sum()
    return lambda: _em_step(xp, X, w, mu, var, torch)
