"""`scipy.stats.gaussian_kde`: SciPy's class (scipy/stats/_kde.py) with its attributes, bandwidth
rules, checks and messages. The dataset and weights stay on the device; the d x d data
covariance is read once (SciPy's Cholesky factor, its LinAlgError for data in a subspace, and the
effective size are host numbers). Densities are sums of Gaussian kernels over the whitened points
taken a tile of points x data at a time (never the whole m x n matrix), the log-density a
running log-sum-exp over the same tiles."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.ndarray import ndarray
from ..._core.transfer import to_host
from ..._creation.basic import full, zeros
from ..._manipulation.dims import atleast_1d, atleast_2d, expand_dims, squeeze
from ..._manipulation.joining import concatenate
from ..._manipulation.shape import reshape
from ..._math.explog import exp, log
from ..._math.extrema import maximum
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._matmul import matmul
from ...random._generator import default_rng
from ..special._stats import ndtr
from ._multivariate_normal import _marginal_dims, multivariate_normal

_F64 = numpy.dtype(numpy.float64)
_TILE = 1 << 22  # elements of one points x data block (32 MiB of float64)


def _data(x, fn):
    return as_literal_or_array(x, "scipy.stats.gaussian_kde." + fn)


def _host_matrix(v, fn):
    """A small parameter (mean, covariance, bounds) as a host float64 array."""
    return numpy.asarray(to_host(v) if isinstance(v, ndarray) else v, dtype=_F64)


def _blocks(m, n, tile):
    nt = max(1, min(n, tile))
    mt = max(1, min(m, tile // nt))
    return [(i, min(i + mt, m)) for i in range(0, m, mt)], [(j, min(j + nt, n)) for j in range(0, n, nt)]


def _arg(xw, dw):
    """Half the squared distances between whitened points (d, mt) and data (d, nt): (mt, nt)."""
    acc = None
    for k in range(xw.shape[0]):
        r = expand_dims(xw[k], 1) - expand_dims(dw[k], 0)
        acc = r * r if acc is None else acc + r * r
    return acc / 2


def kernel_sums(xw, dw, w, tile=_TILE):
    """sum_j w_j exp(-|x_i - d_j|^2 / 2) for every whitened point x_i, tile by tile."""
    rows, cols = _blocks(xw.shape[1], dw.shape[1], tile)
    out = []
    for a, b in rows:
        acc = zeros(b - a)
        for c, e in cols:
            acc = acc + matmul(exp(-_arg(xw[:, a:b], dw[:, c:e])), w[c:e])
        out.append(acc)
    return concatenate(out) if len(out) != 1 else out[0]


def kernel_logsums(xw, dw, logw, tile=_TILE):
    """log sum_j exp(log w_j - |x_i - d_j|^2 / 2), a running log-sum-exp over the data tiles."""
    rows, cols = _blocks(xw.shape[1], dw.shape[1], tile)
    out = []
    for a, b in rows:
        top, acc = full(b - a, -numpy.inf), zeros(b - a)
        for c, e in cols:
            t = expand_dims(logw[c:e], 0) - _arg(xw[:, a:b], dw[:, c:e])
            new = maximum(top, max_(t, axis=1))
            safe = where(new == -numpy.inf, 0.0, new)  # no point of weight: keep exp's arguments finite
            acc = acc * exp(top - safe) + sum_(exp(t - expand_dims(safe, 1)), axis=1)
            top = new
        out.append(top + log(acc))
    return concatenate(out) if len(out) != 1 else out[0]


class gaussian_kde:
    """See `scipy.stats.gaussian_kde` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> data = cuarray.asarray([[-1.0, 0.0, 0.5, 2.0, 2.5]])
    >>> kde = stats.gaussian_kde(data)
    >>> round(float(kde.factor), 6), kde.n
    (0.72478, 5)
    >>> cuarray.round(kde(cuarray.asarray([0.0, 1.0])), 6)
    array([0.209419, 0.204183])
    >>> round(float(kde.integrate_box_1d(-1.0, 1.0)), 6)
    0.396957
    """

    def __init__(self, dataset, bw_method=None, weights=None):
        self.dataset = atleast_2d(_data(dataset, "__init__")).astype(_F64, copy=False)
        if not self.dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        self.d, self.n = self.dataset.shape
        if weights is not None:
            w = atleast_1d(_data(weights, "__init__")).astype(_F64)
            if w.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(w) != self.n:
                raise ValueError("`weights` input should be of length n")
            self._weights = w / sum_(w)
        else:
            self._weights = full(self.n, 1.0 / self.n)
        if self.d > self.n:
            raise ValueError("Number of dimensions is greater than number of samples. "
                             "This results in a singular data covariance matrix, which "
                             "cannot be treated using the algorithms implemented in "
                             "`gaussian_kde`. Note that `gaussian_kde` interprets each "
                             "*column* of `dataset` to be a point; consider transposing "
                             "the input to `dataset`.")
        w = self._weights
        avg = matmul(self.dataset, w)
        centered = self.dataset - expand_dims(avg, 1)
        ww = sum_(w * w)
        cov = matmul(centered * w, centered.T) / (1 - ww)  # numpy.cov's aweights, ddof 1
        host = numpy.asarray(to_host(concatenate([reshape(cov, (-1,)), reshape(ww, (1,))])), dtype=_F64)  # the one read
        self._neff = 1 / host[-1]
        self._data_covariance_host = host[:-1].reshape(self.d, self.d)
        try:
            self._data_cho_host = numpy.linalg.cholesky(self._data_covariance_host)
        except numpy.linalg.LinAlgError as e:
            raise numpy.linalg.LinAlgError(
                "The data appears to lie in a lower-dimensional subspace "
                "of the space in which it is expressed. This has resulted "
                "in a singular data covariance matrix, which cannot be "
                "treated using the algorithms implemented in "
                "`gaussian_kde`. Consider performing principal component "
                "analysis / dimensionality reduction and using "
                "`gaussian_kde` with the transformed data.") from e
        if not numpy.isfinite(self._data_cho_host).all():
            raise ValueError("array must not contain infs or NaNs")
        self._data_inv_cho = numpy.linalg.inv(self._data_cho_host)
        self.set_bandwidth(bw_method=bw_method)

    @property
    def weights(self):
        return self._weights

    @property
    def neff(self):
        return self._neff

    def scotts_factor(self):
        """See `scipy.stats.gaussian_kde.scotts_factor`."""
        return numpy.power(self.neff, -1. / (self.d + 4))

    def silverman_factor(self):
        """See `scipy.stats.gaussian_kde.silverman_factor`."""
        return numpy.power(self.neff * (self.d + 2.0) / 4.0, -1. / (self.d + 4))

    covariance_factor = scotts_factor

    def set_bandwidth(self, bw_method=None):
        """See `scipy.stats.gaussian_kde.set_bandwidth`."""
        if bw_method is None:
            pass
        elif isinstance(bw_method, str) and bw_method == "scott":
            self.covariance_factor = self.scotts_factor
        elif isinstance(bw_method, str) and bw_method == "silverman":
            self.covariance_factor = self.silverman_factor
        elif numpy.isscalar(bw_method) and not isinstance(bw_method, str):
            self._bw_method = "use constant"
            self.covariance_factor = lambda: bw_method
        elif callable(bw_method):
            self._bw_method = bw_method
            self.covariance_factor = lambda: self._bw_method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar or a callable.")
        self._compute_covariance()

    def _compute_covariance(self):
        self.factor = self.covariance_factor()
        f = float(self.factor)
        fn = "scipy.stats.gaussian_kde"
        self._covariance_host = self._data_covariance_host * f ** 2
        self.covariance = as_parameter(self._covariance_host, fn)
        self.cho_cov = as_parameter(self._data_cho_host * f, fn)
        self.log_det = float(2 * numpy.log(numpy.diag(self._data_cho_host * f * numpy.sqrt(2 * numpy.pi))).sum())
        self._whiten = as_parameter(self._data_inv_cho / f, fn)  # cho_cov^-1
        self._dataset_w = matmul(self._whiten, self.dataset)
        self._log_norm = -self.d / 2 * math.log(2 * math.pi) - float(numpy.sum(numpy.log(numpy.diag(self._data_cho_host * f))))

    @property
    def inv_cov(self):
        self.factor = self.covariance_factor()
        return as_parameter(numpy.linalg.inv(self._data_covariance_host) / float(self.factor) ** 2,
                            "scipy.stats.gaussian_kde")

    def _points(self, points, fn):
        points = atleast_2d(_data(points, fn)).astype(_F64, copy=False)
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = reshape(points, (self.d, 1))
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return matmul(self._whiten, points)

    def evaluate(self, points):
        """See `scipy.stats.gaussian_kde.evaluate`: kernel sums over tiles of points x data."""
        return kernel_sums(self._points(points, "evaluate"), self._dataset_w, self.weights) * math.exp(self._log_norm)

    __call__ = evaluate

    def pdf(self, x):
        """See `scipy.stats.gaussian_kde.pdf`."""
        return self.evaluate(x)

    def logpdf(self, x):
        """See `scipy.stats.gaussian_kde.logpdf`: a running log-sum-exp over the same tiles."""
        return kernel_logsums(self._points(x, "logpdf"), self._dataset_w, log(self.weights)) + self._log_norm

    def _sum_cov_factor(self, cov):
        """(cho(sum)^-1 on the device, log of the normalising constant) of covariance + cov."""
        sum_cov = self._covariance_host + cov
        cho = numpy.linalg.cholesky(sum_cov)
        norm_const = numpy.power(2 * numpy.pi, sum_cov.shape[0] / 2.0) * numpy.prod(numpy.diagonal(cho))
        return as_parameter(numpy.linalg.inv(cho), "scipy.stats.gaussian_kde"), norm_const

    def integrate_gaussian(self, mean, cov):
        """See `scipy.stats.gaussian_kde.integrate_gaussian`."""
        mean = numpy.atleast_1d(numpy.squeeze(_host_matrix(mean, "integrate_gaussian")))
        cov = numpy.atleast_2d(_host_matrix(cov, "integrate_gaussian"))
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        whiten, norm_const = self._sum_cov_factor(cov)
        mw = matmul(whiten, as_parameter(mean[:, None], "scipy.stats.gaussian_kde"))
        return squeeze(kernel_sums(mw, matmul(whiten, self.dataset), self.weights)) / norm_const

    def integrate_box_1d(self, low, high):
        """See `scipy.stats.gaussian_kde.integrate_box_1d`."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        stdev = math.sqrt(self._covariance_host[0, 0])
        data = self.dataset[0]
        delta = ndtr((high - data) / stdev) - ndtr((low - data) / stdev)
        return matmul(self.weights, delta)

    def integrate_box(self, low_bounds, high_bounds, maxpts=None, *, rng=None):
        """See `scipy.stats.gaussian_kde.integrate_box`: one `multivariate_normal.cdf` call for
        every data point at once (`rng`: a seed or a cuarray Generator)."""
        fn = "scipy.stats.gaussian_kde.integrate_box"
        low = as_parameter(_host_matrix(low_bounds, fn), fn) - self.dataset.T
        high = as_parameter(_host_matrix(high_bounds, fn), fn) - self.dataset.T
        values = multivariate_normal.cdf(high, lower_limit=low, cov=self.covariance, maxpts=maxpts, rng=rng)
        return sum_(values * self.weights, axis=-1)

    def integrate_kde(self, other):
        """See `scipy.stats.gaussian_kde.integrate_kde`: the kernel sums of one dataset over the
        other's, tile by tile."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        small, large = (other, self) if other.n < self.n else (self, other)
        whiten, norm_const = self._sum_cov_factor(other._covariance_host)
        sums = kernel_sums(matmul(whiten, small.dataset), matmul(whiten, large.dataset), large.weights)
        return matmul(sums, small.weights) / norm_const

    def resample(self, size=None, seed=None):
        """See `scipy.stats.gaussian_kde.resample`: cuarray.random's normals times the kernel's
        Cholesky factor around data points chosen by weight (`seed`: None, a seed or a cuarray
        Generator; not SciPy's stream)."""
        if size is None:
            size = int(self.neff)
        rng = default_rng(seed)
        norm = matmul(self.cho_cov, rng.standard_normal((self.d, size)))
        indices = rng.choice(self.n, size=size, p=self.weights)
        return self.dataset[:, indices] + norm

    def marginal(self, dimensions):
        """See `scipy.stats.gaussian_kde.marginal`."""
        dims = numpy.atleast_1d(dimensions)
        if not numpy.issubdtype(dims.dtype, numpy.integer):
            raise ValueError("Elements of `dimensions` must be integers - the indices "
                             "of the marginal variables being retained.")
        if len(dims) == 0:
            raise ValueError("`dataset` input should have multiple elements.")
        dims = _marginal_dims(dims, self.d)
        rows = [self.dataset[int(i)] for i in dims]
        dataset = concatenate([expand_dims(r, 0) for r in rows])
        return gaussian_kde(dataset, bw_method=self.covariance_factor(), weights=self.weights)

