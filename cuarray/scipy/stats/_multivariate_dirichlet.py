"""`scipy.stats.dirichlet`: SciPy's multivariate object (scipy/stats/_multivariate.py,
dirichlet_gen) with its checks, messages and shapes: x holds the components along its first axis
(K, or K - 1 with the last made 1 - sum), alpha is a parameter vector (host values are copied).
The densities and moments are SciPy's formulas on the device; checking x costs one read of its
flags (SciPy raises for a value out of [0, 1], a 0 where alpha < 1, or a column off the simplex)."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.ndarray import ndarray
from ..._core.transfer import to_host
from ..._creation.matrices import diag
from ..._logic.truth import any as any_
from ..._manipulation.dims import expand_dims, squeeze
from ..._manipulation.joining import concatenate
from ..._math.explog import exp
from ..._statistics.order import min as min_
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._logic.ops import logical_and
from ...random._generator import default_rng
from ..special._convenience import xlogy
from ..special._gamma import gammaln, psi

_F64 = numpy.dtype(numpy.float64)


def _alpha(alpha, fn):
    """SciPy's _dirichlet_check_parameters: every alpha > 0, then one-dimensional (checked on
    the host for host values, by one read of the minimum for a device array)."""
    host = None if isinstance(alpha, ndarray) else numpy.asarray(alpha, dtype=_F64)
    alpha = as_parameter(alpha if host is None else host, "scipy.stats.dirichlet." + fn).astype(_F64, copy=False)
    if float(to_host(min_(alpha)) if host is None else host.min()) <= 0:
        raise ValueError("All parameters must be greater than 0")
    if alpha.ndim != 1:
        raise ValueError("Parameter vector 'a' must be one dimensional, but a.shape = {}.".format(tuple(alpha.shape)))
    return alpha


def _x(alpha, x, fn):
    """SciPy's _dirichlet_check_input: the last component appended where x has K - 1 rows, then
    its checks in SciPy's order from one read of their flags."""
    x = as_literal_or_array(x, "scipy.stats.dirichlet." + fn).astype(_F64, copy=False)
    k = alpha.shape[0]
    if x.ndim == 0 or (x.shape[0] + 1 != k and x.shape[0] != k):
        raise ValueError("Vector 'x' must have either the same number of entries as, or one entry fewer than, "
                         "parameter vector 'a', but alpha.shape = {} and x.shape = {}.".format(
                             tuple(alpha.shape), tuple(x.shape)))
    if x.ndim > 2:
        raise ValueError("The input must be one dimensional or a two dimensional matrix containing the entries.")
    if x.shape[0] != k:
        x = concatenate([x, expand_dims(1 - sum_(x, axis=0), 0)], axis=0)
    a = alpha if x.ndim == 1 else expand_dims(alpha, 1)
    flags = to_host(concatenate([expand_dims(v, 0) for v in (
        any_(x < 0), any_(x > 1), any_(logical_and(x == 0, a < 1)),
        any_(absolute(sum_(x, axis=0) - 1.0) > 10e-10))]))
    if flags[0]:
        raise ValueError("Each entry in 'x' must be greater than or equal to zero.")
    if flags[1]:
        raise ValueError("Each entry in 'x' must be smaller or equal one.")
    if flags[2]:
        raise ValueError("Each entry in 'x' must be greater than zero if its alpha is less than one.")
    if flags[3]:
        raise ValueError("The input vector 'x' must lie within the normal simplex. but np.sum(x, 0) = {}.".format(
            to_host(sum_(x, axis=0))))
    return x, a


def _squeeze(out):
    """SciPy's _squeeze_output: length-1 axes dropped (a 0-d array where SciPy's is a scalar)."""
    return squeeze(out)


def _lnb(alpha):
    return sum_(gammaln(alpha)) - gammaln(sum_(alpha))


class dirichlet_gen:
    """See `scipy.stats.dirichlet` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> alpha = [1.5, 2.0, 3.0]
    >>> x = cuarray.asarray([0.2, 0.3, 0.5])
    >>> round(float(stats.dirichlet.pdf(x, alpha)), 6)
    5.447795
    >>> cuarray.round(stats.dirichlet.mean(alpha), 6)
    array([0.230769, 0.307692, 0.461538])
    >>> round(float(stats.dirichlet(alpha).entropy()), 6)
    -1.101605
    """

    def __repr__(self):
        return "<cuarray.scipy.stats.dirichlet distribution>"

    def __call__(self, alpha, seed=None):
        return dirichlet_frozen(alpha, seed=seed)

    def _logpdf(self, x, a, alpha):
        return sum_(xlogy(a - 1, x), axis=0) - _lnb(alpha)

    def logpdf(self, x, alpha):
        """See `scipy.stats.dirichlet.logpdf`."""
        alpha = _alpha(alpha, "logpdf")
        x, a = _x(alpha, x, "logpdf")
        return _squeeze(self._logpdf(x, a, alpha))

    def pdf(self, x, alpha):
        """See `scipy.stats.dirichlet.pdf`."""
        alpha = _alpha(alpha, "pdf")
        x, a = _x(alpha, x, "pdf")
        return _squeeze(exp(self._logpdf(x, a, alpha)))

    def mean(self, alpha):
        """See `scipy.stats.dirichlet.mean`."""
        alpha = _alpha(alpha, "mean")
        return _squeeze(alpha / sum_(alpha))

    def var(self, alpha):
        """See `scipy.stats.dirichlet.var`."""
        alpha = _alpha(alpha, "var")
        alpha0 = sum_(alpha)
        return _squeeze((alpha * (alpha0 - alpha)) / ((alpha0 * alpha0) * (alpha0 + 1)))

    def cov(self, alpha):
        """See `scipy.stats.dirichlet.cov`."""
        alpha = _alpha(alpha, "cov")
        alpha0 = sum_(alpha)
        a = alpha / alpha0
        return _squeeze((diag(a) - expand_dims(a, 1) * expand_dims(a, 0)) / (alpha0 + 1))

    def entropy(self, alpha):
        """See `scipy.stats.dirichlet.entropy`."""
        alpha = _alpha(alpha, "entropy")
        alpha0 = sum_(alpha)
        k = alpha.shape[0]
        return _squeeze(_lnb(alpha) + (alpha0 - k) * psi(alpha0) - sum_((alpha - 1) * psi(alpha)))

    def rvs(self, alpha, size=1, random_state=None):
        """See `scipy.stats.dirichlet.rvs`: drawn with `cuarray.random` (`random_state`: None, a
        seed or a cuarray Generator); the streams are not SciPy's."""
        alpha = _alpha(alpha, "rvs")
        return default_rng(random_state).dirichlet(alpha, size=size)


class dirichlet_frozen:
    """See `scipy.stats.dirichlet`: the distribution with `alpha` fixed (`dirichlet(alpha)`)."""

    def __init__(self, alpha, seed=None):
        self.alpha = _alpha(alpha, "freeze")
        self._dist = dirichlet
        self._rng = default_rng(seed)  # SciPy's frozen object keeps one generator of its seed

    def logpdf(self, x):
        return self._dist.logpdf(x, self.alpha)

    def pdf(self, x):
        return self._dist.pdf(x, self.alpha)

    def mean(self):
        return self._dist.mean(self.alpha)

    def var(self):
        return self._dist.var(self.alpha)

    def cov(self):
        return self._dist.cov(self.alpha)

    def entropy(self):
        return self._dist.entropy(self.alpha)

    def rvs(self, size=1, random_state=None):
        return self._dist.rvs(self.alpha, size, self._rng if random_state is None else random_state)


dirichlet = dirichlet_gen()
