"""`host_cluster`: cuarray.scipy.cluster's private copy with NumPy in place of the cuarray routines
its modules import, so Lloyd's iteration, the initialisations and the validation run without a
device against scipy.cluster (the oracle)."""

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages


def _vq_standins():
    return dict(
        as_array=lambda x, fn: np.asarray(x), as_parameter=lambda x, fn: np.asarray(x), to_host=np.asarray,
        zeros=np.zeros, arange=np.arange, take=np.take, isfinite=np.isfinite, all_=np.all,
        concatenate=np.concatenate, sqrt=np.sqrt, cumsum=np.cumsum, where=np.where, searchsorted=np.searchsorted,
        mean=np.mean, std=np.std, cov=np.cov, cholesky=np.linalg.cholesky,
        bincount_known=lambda x, w, n: np.bincount(x, w, minlength=n))


def _hierarchy_standins():
    import scipy.spatial.distance

    return dict(as_array=lambda x, fn: np.asarray(x), to_host=np.asarray, asarray=np.asarray, all_=np.all,
                isfinite=np.isfinite,
                absolute=np.abs, pdist=scipy.spatial.distance.pdist)


@pytest.fixture(scope="module")
def host_cluster():
    from cuarray.scipy import cluster
    from cuarray.scipy.cluster import _hierarchy, _vq

    return host_packages([cluster], {_vq: _vq_standins(), _hierarchy: _hierarchy_standins()})[cluster]
