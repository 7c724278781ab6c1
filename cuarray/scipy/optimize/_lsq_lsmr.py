"""`least_squares(tr_solver='lsmr')`: SciPy's iterative trust-region steps (scipy/optimize/_lsq/
trf.py and dogbox.py). For 'trf', `cuarray.sparse.linalg.lsmr` gives a (regularized) Gauss-Newton
direction, the trust-region problem is solved on the 2-D subspace it spans with the scaled gradient
(Byrd, Schnabel and Shultz, Math. Program. 40 (1988); the 2-D problem on the host), and the
quadratic models of the reflective step selection are products with the Jacobian on the device.
For 'dogbox', lsmr gives the Gauss-Newton step on the free variables. The Jacobian stays on the
device; the n-sized directions come to the host (one read each), and each quadratic model is one
small read of ``|J p|^2``-type inner products, where the exact solver takes them from its SVD."""

import numpy

from ..._core.transfer import from_host
from ..._creation.basic import zeros
from ..._manipulation.joining import concatenate, stack
from ..._sorting.searching import where
from ...linalg._decomp import qr
from ...linalg._products import dot
from ...sparse.linalg._interface import LinearOperator, aslinearoperator
from ...sparse.linalg._lsmr import lsmr
from ._lsq_host import minimize_quadratic_1d, quadratic, quadratic_1d
from ._lsq_linear_systems import regularized_operator
from ._lsq_problem import read

__all__ = ["SvdModel", "OperatorModel", "trf_subspace", "dogbox_newton"]


class SvdModel:
    """The quadratic model ``0.5 |J p|^2 (+ p'diag p) + g'p`` from the exact solver's SVD factors."""

    def __init__(self, s, V, g):
        self.s, self.V, self.g = s, V, g

    def value(self, p):
        return quadratic(self.s, self.V, self.g, p)

    def line(self, d, s0=None):
        return quadratic_1d(self.s, self.V, self.g, d, s0)


class OperatorModel:
    """The same model through products with the device matrix J (SciPy's evaluate_quadratic and
    build_quadratic_1d with a LinearOperator): one read of the inner products per call."""

    def __init__(self, J, g, diag=None):
        self.J, self.g, self.diag = J, g, diag

    def _gram(self, *vectors):
        W = numpy.stack(vectors, axis=1)
        JW = dot(self.J, from_host(W))
        G = read(dot(JW.T, JW))[0]  # the model's read
        return G if self.diag is None else G + (W * self.diag[:, None]).T.dot(W)

    def value(self, p):
        return 0.5 * self._gram(p)[0, 0] + numpy.dot(self.g, p)

    def line(self, d, s0=None):
        if s0 is None:
            return 0.5 * self._gram(d)[0, 0], numpy.dot(self.g, d)
        G = self._gram(d, s0)
        return 0.5 * G[0, 0], numpy.dot(self.g, d) + G[0, 1], 0.5 * G[1, 1] + numpy.dot(self.g, s0)


def trf_subspace(J, f, d, g_h, diag_h, Delta, regularize, options):
    """SciPy's lsmr branch of trf: the direction ``lsmr([J D; diag((diag_h + reg)^0.5)], [f; 0])``
    (without bounds: ``lsmr(J D, f, damp=(damp^2 + reg)^0.5)``), reg making the direction's model
    no worse than the Cauchy point's; S the orthonormal basis of (g_h, direction), QR on the device.
    Returns (model of J D, S, B_S = S'(D J'J D + diag_h)S, g_S = S'g_h) on the host."""
    J_h = J * from_host(d)
    model = OperatorModel(J_h, g_h, diag_h)
    reg = 0.0
    if regularize:
        a, b = model.line(-g_h)
        reg = -minimize_quadratic_1d(a, b, 0, Delta / numpy.linalg.norm(g_h))[1] / Delta ** 2
    options = dict(options)
    if diag_h is None:
        damp = options.pop("damp", 0.0)
        gn_h = lsmr(J_h, f, damp=float(damp ** 2 + reg) ** 0.5, **options)[0]
    else:
        op = regularized_operator(aslinearoperator(J), from_host(d), from_host((diag_h + reg) ** 0.5))
        gn_h = lsmr(op, concatenate([f, zeros(J.shape[1])]), **options)[0]
    S_dev, _ = qr(stack([from_host(g_h), gn_h], axis=1))
    JS = dot(J_h, S_dev)
    S, B = read(S_dev, dot(JS.T, JS))  # the subspace's read
    if diag_h is not None:
        B = B + (S.T * diag_h).dot(S)
    return model, S, B, S.T.dot(g_h)


def dogbox_newton(J, f, scale, free, options):
    """SciPy's lsmr branch of dogbox: ``lsmr(J diag(scale), f)`` with the active columns left out
    (zeroed in J's transpose products, so lsmr's iterates keep them at zero), scaled back; the
    free part on the host (one read)."""
    m, n = J.shape
    active = from_host(~free)
    s_dev = from_host(scale)

    def matvec(v):
        return dot(J, v.reshape(-1) * s_dev)

    def rmatvec(u):
        return where(active, 0.0, s_dev * dot(J.T, u.reshape(-1)))

    op = LinearOperator((m, n), matvec=matvec, rmatvec=rmatvec, dtype=numpy.float64)
    step = read(lsmr(op, f, **options)[0])[0]
    return -step[free] * scale[free]
