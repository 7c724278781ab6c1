"""Host copies of cuarray.scipy.optimize and cuarray.scipy.differentiate with NumPy in place of the
cuarray routines their modules import, so the real algorithms run on the host against SciPy:
`host_elementwise` / `host_differentiate` (the loop, Chandrupatla's steps, the bracket expansion,
the finite differences) and `host_optimize` (line search driving, BFGS/CG loops, finite
differences, callbacks, results)."""

import importlib

import numpy as np
import pytest
import scipy.linalg

from cuarray.testing.fake_device import host_packages, numpy_standins

from elementwise_host import standins
@pytest.fixture(scope="session")
def host_scipy():
    """{"optimize": copy, "differentiate": copy} of the two packages on NumPy."""
    import cuarray.scipy.differentiate as differentiate
    import cuarray.scipy.optimize as optimize
    from cuarray.scipy import _elementwise_loop
    from cuarray.scipy.differentiate import _differentiate
    from cuarray.scipy.optimize import _bracket, _chandrupatla

    group = {m: standins(m) for m in (_elementwise_loop, _bracket, _chandrupatla, _differentiate)}
    copies = host_packages([optimize, differentiate], group)
    return {"optimize": copies[optimize], "differentiate": copies[differentiate]}


@pytest.fixture(scope="session")
def host_elementwise(host_scipy):
    return host_scipy["optimize"].elementwise


@pytest.fixture(scope="session")
def host_differentiate(host_scipy):
    return host_scipy["differentiate"]


MODULES = ["_result", "_differentiate", "_objective", "_linesearch", "_neldermead", "_newtoncg", "_lbfgsb", "_nnls",
           "_trustregion", "_trustkrylov", "_trustexact", "_slsqp_qp", "_slsqp", "_powell", "_tnc_search", "_tnc", "_minimize", "_root_lm", "_nonlin",
           "_nonlin_mixing", "_nonlin_broyden", "_spectral", "_root", "_rosen", "_scalar",
           "_lsq_host", "_lsq_problem", "_lsq_trf", "_lsq_lm", "_least_squares", "_curve_fit", "_lsq_batched",
           "_lsq_dogbox", "_lsq_lsmr", "_lsq_linear_systems", "_lsq_trf_linear", "_lsq_bvls", "_lsq_linear", "_auction", "_lsap"]


def host_standins(module):
    """NumPy stand-ins of the cuarray routines `module` imports (`max_`/`min_` are NumPy's max/min)."""
    import scipy.linalg
    import scipy.sparse
    import scipy.sparse.linalg as spla
    from scipy.sparse.linalg import LinearOperator

    # cuarray.scipy.linalg's cholesky is SciPy's (upper by default), cuarray.linalg's NumPy's (lower)
    scipy_style = getattr(getattr(module, "cholesky", None), "__module__", "").startswith("cuarray.scipy")
    return numpy_standins(module, "cuarray.scipy.optimize", {
        "max": np.max, "min": np.min, "cholesky": scipy.linalg.cholesky if scipy_style else np.linalg.cholesky,
        "eigh": np.linalg.eigh, "qr": np.linalg.qr, "svd": np.linalg.svd, "solve": np.linalg.solve,
        "inv": np.linalg.inv, "solve_triangular": scipy.linalg.solve_triangular, "norm": np.linalg.norm,
        "LinearOperator": LinearOperator, "lstsq": np.linalg.lstsq, "lsmr": spla.lsmr,
        "aslinearoperator": spla.aslinearoperator, "issparse": scipy.sparse.issparse,
        **{k: getattr(spla, k) for k in ("lgmres", "gmres", "bicgstab", "cgs", "minres", "tfqmr", "gcrotmk")}})


def host_chains(a, p, owner, free, persons, n, m, eps):
    """What templates/auction.cu's `auction_chains` does, one bid at a time on the host: each
    person bids Gauss-Seidel, the one it outbids next, until a bid takes a free object."""
    for cur in persons.tolist():
        while cur >= 0:
            v = (a[cur] if cur < n else 0.0) - p[:m]
            j1 = int(np.argmax(v))
            bid = p[j1] + (v[j1] - np.delete(v, j1).max()) + eps
            prev = int(owner[j1])
            owner[j1], p[j1] = cur, bid
            if cur < n:
                free[cur] = False
            if 0 <= prev < n:
                free[prev] = True
            cur = prev


@pytest.fixture(scope="session")
def host_optimize_copies():
    """{module name: host copy} of cuarray.scipy.optimize's modules ("" for the package); the
    auction's one-launch tail (`chains`) is `host_chains`."""
    from cuarray.scipy import optimize

    mods = [importlib.import_module("cuarray.scipy.optimize." + m) for m in MODULES]
    standins = {m: host_standins(m) for m in mods}
    standins[importlib.import_module("cuarray.scipy.optimize._auction")]["chains"] = host_chains
    copies = host_packages([optimize], standins)
    return {m.__name__.rpartition("optimize")[2].lstrip("."): c for m, c in copies.items()}


@pytest.fixture(scope="session")
def host_optimize(host_optimize_copies):
    return host_optimize_copies[""]
