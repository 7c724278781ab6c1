"""`AAA`: the adaptive Antoulas-Anderson rational approximation (Y. Nakatsukasa, O. Sete,
L. N. Trefethen, "The AAA algorithm for rational approximation", SIAM J. Sci. Comput. 40 (2018);
SciPy 1.15's formulation, Froissart-doublet clean-up included).

What scales with the M sample points is device work: the greedy step's error and its argmax,
the Cauchy and Loewner columns, the current approximant at every sample (two matrix-vector
products), and the Loewner matrix's reduction to its (m, m) triangular factor R by a device QR
(the rows of the points already chosen are zeroed, so they add nothing to R^H R). What is m x m
(m <= max_terms, 100 by default) is host work: the SVD of R (its singular values and right
vectors are the Loewner matrix's; the weights are those vectors up to a unit factor, which the
rational function does not see), the null space of the few-row case, and the poles, residues and
roots (small generalised eigenproblems). Each step reads the chosen index and the maximum error
back to the host. Evaluation at query points is the barycentric formula on the device."""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import ones, zeros
from ..._indexing.inserting import take
from ..._logic.content import isfinite, isinf, isnan
from ..._logic.truth import all as all_
from ..._manipulation.joining import stack
from ..._math.explog import exp, log
from ..._math.misc import abs as abs_, sqrt
from ..._math.sums import sum as sum_
from ..._sets.unique import unique
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._statistics.averages import mean
from ..._statistics.order import max as max_, min as min_
from ...linalg._decomp import qr
from . import _inputs
from ._host import host_linalg
from ._polyint import barycentric_rational

__all__ = ["AAA"]

_BLOCK = 1 << 25  # elements of one (poles x points) distance block in clean_up


def _right_vectors(a):
    """Singular values and right singular vectors (rows of V^H) of a device matrix (rows, k):
    the SVD of its k x k (or rows x k) triangular factor, on the host."""
    r = numpy.asarray(to_host(qr(a, mode="r")))
    _, s, vh = host_linalg().svd(r, full_matrices=True, check_finite=False)
    return s, vh


class AAA:
    """See `scipy.interpolate.AAA`. The sample points and values may be device arrays or host
    sequences (copied once); the greedy steps run on the device as the module says, one host read
    of the chosen point and of the error a step. `support_points`, `support_values`, `weights`,
    `errors` and the results of `poles`, `residues`, `roots` and calls are device arrays; the
    weights may differ from SciPy's by a common unit factor (the sign of a singular vector), which
    leaves the approximant unchanged."""

    def __init__(self, x, y, *, rtol=None, max_terms=100, clean_up=True, clean_up_tol=1e-13):
        max_terms = operator.index(max_terms)
        if max_terms < 1:
            raise ValueError("`max_terms` must be an integer value greater than or equal to one.")
        z, f = _inputs.param(x), _inputs.values(y)
        if f.ndim != 1:
            raise ValueError("`y` must be 1-D.")
        if z.ndim != 1:
            raise ValueError("`x` must be 1-D.")
        if z.shape[0] != f.shape[0]:
            raise ValueError(f"`x` be of size {f.shape[0]} but got size {z.shape[0]}.")
        if not bool(all_(isfinite(z))):
            raise ValueError("`x` must be finite.")
        keep = isfinite(f)
        if not bool(all_(keep)):
            z, f = z[keep], f[keep]
        z, first = unique(z, return_index=True)
        f = take(f, first)
        self._shape = ()
        with numpy.errstate(divide="ignore", invalid="ignore"):  # (the host stand-in's NumPy; SciPy's too)
            self._support_points, self._support_values, self.weights = self._compute_weights(z, f, rtol, max_terms)
        self._poles = self._residues = self._roots = None
        if clean_up:
            self.clean_up(clean_up_tol)

    @property
    def support_points(self):
        return self._support_points

    @property
    def support_values(self):
        return self._support_values

    def _compute_weights(self, z, f, rtol, max_terms):
        count = z.shape[0]
        dtype = numpy.result_type(z.dtype, f.dtype, 1.0)
        z, f = z.astype(dtype), f.astype(dtype)
        rtol = numpy.finfo(dtype).eps ** 0.75 if rtol is None else rtol
        atol = rtol * float(to_host(max_(abs_(f)))) if count else 0.0
        mask = ones(count, dtype=bool)
        cauchy, loewner, chosen = [], [], []
        errors = []
        approx = zeros(count, dtype=dtype) + mean(f)
        ill_conditioned = False
        ill_conditioned_tol = 1 / (3 * numpy.finfo(dtype).eps)
        wj = None
        for m in range(max_terms):
            # the sample not yet chosen where the approximant is worst (NaN first, as argmax)
            jj = int(to_host(argmax(where(mask, abs_(f - approx), -1.0))))
            chosen.append(jj)
            cauchy.append(1 / (z - z[jj]))
            mask[jj] = False
            loewner.append((f - f[jj]) * cauchy[-1])
            rows = count - (m + 1)
            amat = where(mask[:, None], stack(loewner, axis=1), 0)
            if rows >= m + 1:
                if not ill_conditioned:
                    s, vh = _right_vectors(amat)
                    with numpy.errstate(invalid="ignore", divide="ignore"):
                        ill_conditioned = bool(s[0] / s[-1] > ill_conditioned_tol)
                if ill_conditioned:
                    col_norm = sqrt(sum_(abs_(amat) ** 2, axis=0))
                    s, vh = _right_vectors(amat / col_norm)
                smallest = s == numpy.min(s)
                wj = (vh.conj()[smallest, :].sum(axis=0) / numpy.sqrt(smallest.sum())).astype(dtype)
                if ill_conditioned:
                    wj = wj / numpy.asarray(to_host(col_norm))
            else:  # fewer rows than columns: the null space of the (small) remaining rows, host work
                small = numpy.asarray(to_host(amat[mask]))
                null = host_linalg().null_space(small, check_finite=False)
                wj = null.sum(axis=-1) / numpy.sqrt(null.shape[-1])
            nonzero = numpy.nonzero(wj != 0)[0]
            cols = stack([cauchy[i] for i in nonzero], axis=1)
            w = _inputs.param(wj[nonzero]).astype(dtype)
            fj = take(f, _inputs.param(numpy.asarray(chosen)[nonzero]))
            num, den = cols @ (w * fj), cols @ w
            bad = isinf(den) | isnan(den)
            approx = where(bad, f, num) / where(bad, 1, den)
            errors.append(float(to_host(max_(abs_(f - approx)))))
            if errors[-1] <= atol:
                break
        if m == max_terms - 1:
            warnings.warn(f"AAA failed to converge within {max_terms} iterations.", RuntimeWarning, stacklevel=3)
        real = numpy.dtype(dtype).type(0).real.dtype
        self.errors = _inputs.param(numpy.asarray(errors, dtype=real))
        self._points, self._values = z, f
        keep = numpy.nonzero(wj != 0)[0]
        idx = _inputs.param(numpy.asarray(chosen)[keep])
        return take(z, idx), take(f, idx), _inputs.param(wj[keep].astype(dtype))

    def __call__(self, z):
        """See `scipy.interpolate.AAA.__call__` (device points)."""
        z = _inputs.data(z)
        dtype = numpy.result_type(z.dtype, self._support_points.dtype, self.weights.dtype,
                                  self._support_values.dtype)
        zv = z.reshape(-1)
        out = barycentric_rational(zv, self._support_points, self.weights, self._support_values[:, None], dtype)
        return out.reshape(z.shape + self._shape)

    # -- the small eigenproblems (host work) --------------------------------------------------------
    def _host_parts(self):
        return (numpy.asarray(to_host(self.weights)), numpy.asarray(to_host(self._support_points)),
                numpy.asarray(to_host(self._support_values)))

    def _companion_eigvals(self, top):
        w, zj, _ = self._host_parts()
        m = w.size
        b = numpy.eye(m + 1, dtype=w.dtype)
        b[0, 0] = 0
        e = numpy.zeros_like(b, dtype=numpy.result_type(w, zj, top))
        e[0, 1:] = top
        e[1:, 0] = 1
        numpy.fill_diagonal(e[1:, 1:], zj)
        vals = host_linalg().eigvals(e, b)
        return vals[numpy.isfinite(vals)]

    def poles(self):
        """See `scipy.interpolate.AAA.poles` (host work: an (m + 1)-square eigenproblem)."""
        if self._poles is None:
            self._poles = _inputs.param(self._companion_eigvals(self._host_parts()[0]))
        return self._poles

    def residues(self):
        """See `scipy.interpolate.AAA.residues` (host work)."""
        if self._residues is None:
            w, zj, fj = self._host_parts()
            poles = numpy.asarray(to_host(self.poles()))
            with numpy.errstate(divide="ignore", invalid="ignore"):
                inv = 1 / numpy.subtract.outer(poles, zj)
                self._residues = _inputs.param((inv @ (fj * w)) / (-(inv ** 2) @ w))
        return self._residues

    def roots(self):
        """See `scipy.interpolate.AAA.roots` (host work)."""
        if self._roots is None:
            w, _, fj = self._host_parts()
            self._roots = _inputs.param(self._companion_eigvals(w * fj))
        return self._roots

    def clean_up(self, cleanup_tol=1e-13):
        """See `scipy.interpolate.AAA.clean_up`: the distances from the poles to the samples and
        the refit's Loewner matrix are device work, its SVD host work as in the greedy steps."""
        # SciPy's scale: the geometric mean of |f| (0 when some value is 0)
        with numpy.errstate(divide="ignore"):
            gmean = float(to_host(exp(mean(log(abs_(self._values))))))
        poles = self.poles()
        npoles, count = poles.shape[0], self._points.shape[0]
        dist = numpy.full(npoles, numpy.inf)
        step = max(1, _BLOCK // max(npoles, 1))
        for start in range(0, count, step):
            block = abs_(poles[:, None] - self._points[None, start:start + step])
            dist = numpy.minimum(dist, numpy.asarray(to_host(min_(block, axis=1))))
        res = numpy.asarray(to_host(self.residues()))
        with numpy.errstate(divide="ignore", invalid="ignore"):
            doublets = numpy.nonzero(numpy.abs(res) / dist < cleanup_tol * gmean)[0]
        if doublets.size == 0:
            return 0
        warnings.warn(f"{doublets.size} Froissart doublets detected.", RuntimeWarning, stacklevel=2)
        _, zj, fj = self._host_parts()
        hpoles = numpy.asarray(to_host(poles))[doublets]
        nearest = numpy.argmin(numpy.abs(numpy.subtract.outer(zj, hpoles)), axis=0)
        zj, fj = numpy.delete(zj, nearest), numpy.delete(fj, nearest)
        self._support_points, self._support_values = _inputs.param(zj), _inputs.param(fj)
        spt, sval = self._support_points, self._support_values
        away = all_(self._points[:, None] != spt[None, :], axis=1)
        f, z = self._values[away], self._points[away]
        with numpy.errstate(divide="ignore", invalid="ignore"):
            cauchy = 1 / (z[:, None] - spt[None, :])
        _, vh = _right_vectors(f[:, None] * cauchy - cauchy * sval[None, :])
        self.weights = _inputs.param(numpy.conj(vh[zj.size - 1, :]))
        self._poles = self._residues = self._roots = None
        return doublets.size
