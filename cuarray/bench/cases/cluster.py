"""cuarray.scipy.cluster (group `cluster`): kmeans2 of 10^7 float32 observations in 32-D into 256
clusters from a given code book (minit='matrix', 10 Lloyd steps, missing='warn'), against SciPy on
the host. SciPy runs 10^5 of the observations and its time is scaled by 100 (a Lloyd step is linear
in the observations: one nearest-code pass and one centroid pass), so the row costs seconds, not
minutes. Each call returns the code book and the labels, as a user's call does (cuarray reads one
flag a step: whether a cluster went empty). And hierarchy.linkage of 8000 observations against SciPy:
the share of the time the device's distance matrix saves, the agglomeration being SciPy's host loop
in both columns."""

from __future__ import annotations

import time

from ...scipy.cluster import hierarchy as _cuarray_hierarchy
from ...scipy.cluster import vq as _cuarray_vq
from . import random_array, register

N, D, K, STEPS = 10**7, 32, 256, 10
HOST_SHARE = 100  # SciPy runs N // HOST_SHARE observations


def _sync(xp):
    if getattr(xp, "__name__", "") == "numpy":
        return lambda: None
    return xp.cuda.Device().synchronize


kmeans2 = register(
    "cluster-kmeans2", group="cluster",
    description="vq.kmeans2(x, book, iter=10, minit='matrix'), x 1e7 x 32 float32, 256 codes (SciPy: 1e5 rows, "
                "time x 100)",
    size=3, quick=1, timing="process", size_label=lambda runs: "1e7x32, k=256",
)


@kmeans2.setup("cuarray", "numpy")
def _(xp, runs, param):
    host = getattr(xp, "__name__", "") == "numpy"
    n = N // HOST_SHARE if host else N
    x = random_array(xp, (n, D), "float32", seed=61)
    book = x[:K].copy()
    if host:
        from scipy.cluster import vq  # optional dependency: SciPy, the host peer
    else:
        vq = _cuarray_vq
    sync = _sync(xp)

    def run():
        sync()
        t = time.perf_counter()
        vq.kmeans2(x, book, iter=STEPS, minit="matrix")
        sync()
        return {"time_s": (time.perf_counter() - t) * (HOST_SHARE if host else 1)}

    return run


LINKAGE_N = 8000

linkage = register(
    "cluster-linkage", group="cluster",
    description="hierarchy.linkage(x, method) of 8000 float64 observations in 16-D (cuarray: distances on the "
                "device; 'single': the minimum spanning tree on the device, its edges labelled on the host; "
                "the others: one copy of the condensed matrix, SciPy's agglomeration on the host)",
    size=LINKAGE_N, quick=2000, params=("single", "average", "ward"), param_label=lambda p: p, timing="host",
)


@linkage.setup("cuarray", "numpy")
def _(xp, n, method):
    x = random_array(xp, (n, 16), "float64", seed=62)
    if getattr(xp, "__name__", "") == "numpy":
        from scipy.cluster import hierarchy  # optional dependency: SciPy, the host peer
    else:
        hierarchy = _cuarray_hierarchy
    return lambda: hierarchy.linkage(x, method)
