"""`host_cluster`: cuarray.scipy.cluster's private copy with NumPy in place of the cuarray routines
its modules import, so Lloyd's iteration, the initialisations, single linkage's spanning tree and
the validation run without a device against scipy.cluster (the oracle)."""

import numpy as np
import pytest

from cuarray.testing.fake_device import host_packages, numpy_standins


def _vq_standins():
    return dict(
        as_array=lambda x, fn: np.asarray(x), as_parameter=lambda x, fn: np.asarray(x), to_host=np.asarray,
        zeros=np.zeros, arange=np.arange, take=np.take, isfinite=np.isfinite, all_=np.all,
        concatenate=np.concatenate, sqrt=np.sqrt, cumsum=np.cumsum, where=np.where, searchsorted=np.searchsorted,
        mean=np.mean, std=np.std, cov=np.cov, cholesky=np.linalg.cholesky,
        bincount_known=lambda x, w, n: np.bincount(x, w, minlength=n))


def _hierarchy_standins():
    import scipy.spatial.distance

    return dict(as_literal_or_array=lambda x, fn: np.asarray(x), to_host=np.asarray, asarray=np.asarray, all_=np.all,
                isfinite=np.isfinite,
                absolute=np.abs, pdist=scipy.spatial.distance.pdist)


@pytest.fixture(scope="module")
def host_copies():
    from cuarray.scipy import cluster
    from cuarray.scipy.cluster import _hierarchy, _single, _vq

    single = numpy_standins(_single, "cuarray.scipy.cluster")
    copies = host_packages([cluster], {_vq: _vq_standins(), _hierarchy: _hierarchy_standins(), _single: single})
    return copies[cluster], copies[_single]


@pytest.fixture(scope="module")
def host_cluster(host_copies):
    return host_copies[0]


@pytest.fixture(scope="module")
def host_single(host_copies):
    """The copy of the device's single linkage (Boruvka's rounds) on NumPy."""
    return host_copies[1]
