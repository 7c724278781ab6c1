"""Searching, sets, counting, histograms and percentiles: unique of 64 Mi int32 with
1 Mi distinct values, searchsorted of 1e7 queries into 1e6 sorted float32, bincount of 1e8 int64
into 1000 bins, histogram of 1e8 float32 into 100 bins (range from the data), percentile
(10, 50, 90) of 1e8 float32. Bytes counted: the inputs read once (the floor of any method).

percentile runs cuarray twice: radix selection ("select", the default) and a sort of the data
("sort", the sort engine), so one run says which is faster."""

from __future__ import annotations

import numpy

from . import register
from ..._statistics import quantiles

Q = (10.0, 50.0, 90.0)


def _to(xp, host):
    if getattr(xp, "__name__", "") == "torch":
        return xp.from_numpy(host).cuda()
    return xp.asarray(host)


def _rng(seed):
    return numpy.random.default_rng(seed)


unique = register("unique", group="sets-hist", description="unique of int32 with 1 Mi distinct values",
                  size=64 * 2**20, quick=2**22, nbytes=lambda n, p: 4 * n)


@unique.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = _to(xp, _rng(1).integers(0, 2**20, n, dtype=numpy.int32))
    return lambda: xp.unique(x)


search = register("searchsorted", group="sets-hist", description="1e7 float32 queries into 1e6 sorted float32",
                  size=10**7, quick=10**6, nbytes=lambda n, p: 4 * n + 8 * n)


@search.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    a = _to(xp, numpy.sort(_rng(2).random(10**6, dtype=numpy.float32)))
    v = _to(xp, _rng(3).random(n, dtype=numpy.float32))
    return lambda: xp.searchsorted(a, v)


bincount = register("bincount", group="sets-hist", description="bincount of int64 values into 1000 bins",
                    size=10**8, quick=10**7, nbytes=lambda n, p: 8 * n)


@bincount.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = _to(xp, _rng(4).integers(0, 1000, n, dtype=numpy.int64))
    return lambda: xp.bincount(x)


histogram = register("histogram", group="sets-hist", description="histogram of float32 into 100 bins, range from "
                     "the data", size=10**8, quick=10**7, nbytes=lambda n, p: 4 * n)


@histogram.setup("cuarray", "cupy")
def _(xp, n, param):
    x = _to(xp, _rng(5).normal(size=n).astype(numpy.float32))
    return lambda: xp.histogram(x, 100)


@histogram.setup("torch")
def _(torch, n, param):
    x = _to(torch, _rng(5).normal(size=n).astype(numpy.float32))
    return lambda: torch.histc(x, bins=100)


percentile = register("percentile", group="sets-hist", description="percentile (10, 50, 90) of float32",
                      size=10**8, quick=10**7, params=("select", "sort"), peers_once=True,
                      nbytes=lambda n, p: 4 * n)


@percentile.setup("cuarray")
def _(xp, n, param):
    x = _to(xp, _rng(6).random(n, dtype=numpy.float32))
    saved = quantiles.order_statistics_by(param)
    yield lambda: xp.percentile(x, Q)
    quantiles.order_statistics_by(saved)


@percentile.setup("cupy")
def _(xp, n, param):
    x = _to(xp, _rng(6).random(n, dtype=numpy.float32))
    q = xp.asarray(Q)
    return lambda: xp.percentile(x, q)


@percentile.setup("torch")
def _(torch, n, param):
    # torch.quantile refuses inputs over 16 Mi elements: the same recipe by a sort.
    x = _to(torch, _rng(6).random(n, dtype=numpy.float32))
    pos = torch.tensor([q / 100 * (n - 1) for q in Q], device="cuda", dtype=torch.float64)
    lo = pos.floor().long()
    hi = torch.clamp(lo + 1, max=n - 1)
    g = (pos - lo).float()

    def run():
        s = torch.sort(x).values
        return s[lo] + (s[hi] - s[lo]) * g

    return run


percentile_rows = register("percentile-rows", group="sets-hist",
                           description="percentile 50 along the last axis: rows x length float32, radix "
                           "selection against a sort of the rows", size=2**26, quick=2**24,
                           params=(("select", 64), ("sort", 64), ("select", 4096), ("sort", 4096),
                                   ("select", 2**17), ("sort", 2**17)),
                           param_label=lambda p: "{} rows={}".format(*p), nbytes=lambda n, p: 4 * n)


@percentile_rows.setup("cuarray")
def _(xp, n, param):
    how, rows = param
    x = _to(xp, _rng(7).random(n, dtype=numpy.float32).reshape(rows, -1))
    saved = quantiles.order_statistics_by(how)
    yield lambda: xp.percentile(x, 50.0, axis=1)
    quantiles.order_statistics_by(saved)


@percentile_rows.setup("cupy")
def _(xp, n, param):
    x = _to(xp, _rng(7).random(n, dtype=numpy.float32).reshape(param[1], -1))
    return lambda: xp.percentile(x, 50.0, axis=1)
