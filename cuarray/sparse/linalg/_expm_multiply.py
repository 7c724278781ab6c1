"""expm_multiply: the action of the matrix exponential, e^{tA} B. See
`scipy.sparse.linalg.expm_multiply`.

A. H. Al-Mohy and N. J. Higham, "Computing the action of the matrix exponential, with an
application to exponential integrators", SIAM J. Sci. Comput. 33 (2011): the truncated Taylor
series of Algorithm 3.2 with the degree m* and the step count s of Code Fragment 3.1 (their
Table 3.1 of theta_m for u = 2^-53, 1-norms of powers of A by `onenormest`), after shifting A by
mu = trace(A) / n; over a grid of time points, their Algorithm 5.2. Every product with A and every
vector is on the device; each Taylor term reads two infinity norms to the host for the stopping
test. A LinearOperator without `traceA` gets its trace estimated by Hutch++ (R. A. Meyer, C.
Musco, C. Musco and D. P. Woodruff, SOSA 2021) with SciPy's warning, as SciPy does.
"""

from __future__ import annotations

import math
import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._creation.from_data import asarray
from ..._creation.matrices import eye
from ..._manipulation.joining import stack
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_
from ...linalg._decomp import qr
from .._sputils import issparse
from .._construct import eye_array
from ._interface import LinearOperator, aslinearoperator
from ._onenormest import exact_onenorm, onenormest

__all__ = ["expm_multiply", "traceest"]

_U = 2.0 ** -53
# theta_m for u = 2^-53: Al-Mohy and Higham 2011, Table 3.1.
_THETA = {1: 2.29e-16, 2: 2.58e-8, 3: 1.39e-5, 4: 3.40e-4, 5: 2.40e-3, 6: 9.07e-3, 7: 2.38e-2, 8: 5.00e-2,
          9: 8.96e-2, 10: 1.44e-1, 11: 2.14e-1, 12: 3.00e-1, 13: 4.00e-1, 14: 5.14e-1, 15: 6.41e-1, 16: 7.81e-1,
          17: 9.31e-1, 18: 1.09, 19: 1.26, 20: 1.44, 21: 1.62, 22: 1.82, 23: 2.01, 24: 2.22, 25: 2.43, 26: 2.64,
          27: 2.86, 28: 3.08, 29: 3.31, 30: 3.54, 35: 4.7, 40: 6.0, 45: 7.2, 50: 8.5, 55: 9.9}
_M_MAX = 55


def traceest(A, m3, seed=None):
    """Hutch++'s estimate of trace(A) from 3 m3 products (device blocks; the +-1 sketches drawn
    on the host): a host scalar."""
    rng = numpy.random.default_rng(seed)
    n = A.shape[-1]
    S = asarray(rng.choice([-1.0, 1.0], (n, m3)))
    Q = qr(A.matmat(S))[0]
    tr_q = sum_((Q.conj() * A.matmat(Q)))
    G = asarray(rng.choice([-1.0, 1.0], (n, m3)))
    right = G - Q @ (Q.conj().T @ G)
    tr_g = sum_(right.conj() * A.matmat(right))
    return (tr_q + tr_g / m3).get()[()]


def _inf_norm(B):
    """The infinity norm of a vector or a block (max absolute row sum), on the device."""
    return max_(absolute(B)) if B.ndim == 1 else max_(sum_(absolute(B), axis=1))


class _NormInfo:
    """1-norms of powers of a scaled operator, estimated once each: d_p = |A^p|_1^(1/p)."""

    def __init__(self, A, A_1_norm, scale=1.0):
        self.A, self.A_1_norm, self.scale, self._d = A, A_1_norm, scale, {}

    def onenorm(self):
        return self.scale * self.A_1_norm

    def d(self, p):
        if p not in self._d:
            self._d[p] = float(onenormest(aslinearoperator(self.A) ** p)) ** (1.0 / p)
        return self.scale * self._d[p]

    def alpha(self, p):
        return max(self.d(p), self.d(p + 1))


def _p_max(m_max):
    """The largest p with p (p - 1) <= m_max + 1 (around sqrt(m_max))."""
    root = math.sqrt(m_max)
    return max(p for p in range(int(math.floor(root)), int(math.ceil(root + 1)) + 1) if p * (p - 1) <= m_max + 1)


def _fragment_3_1(info, n0, ell=2):
    """Code Fragment 3.1: the Taylor degree m* and the step count s minimising m s."""
    p_max = _p_max(_M_MAX)
    best = None
    if info.onenorm() <= 2 * ell * p_max * (p_max + 3) * _THETA[_M_MAX] / float(n0 * _M_MAX):  # (3.13)
        for m, theta in _THETA.items():
            s = int(math.ceil(info.onenorm() / theta))
            if best is None or m * s < best[0] * best[1]:
                best = (m, s)
    else:
        for p in range(2, p_max + 1):
            for m in range(p * (p - 1) - 1, _M_MAX + 1):
                if m in _THETA:
                    s = int(math.ceil(info.alpha(p) / _THETA[m]))
                    if best is None or m * s < best[0] * best[1]:
                        best = (m, s)
        best = (best[0], max(best[1], 1))
    return best


def _taylor(dot, B, t, mu, m_star, s):
    """Algorithm 3.2's core: e^{t (A + mu I)} B by s steps of the degree-m* Taylor series of the
    shifted A, each stopped early once two successive terms are below u |F|."""
    F = B
    eta = numpy.exp(t * mu / float(s))
    for _ in range(s):
        c1 = float(_inf_norm(B))
        for j in range(m_star):
            B = dot(B) * (t / float(s * (j + 1)))
            F = F + B
            c2, nf = stack([_inf_norm(B), _inf_norm(F)]).get()  # one read per term
            if c1 + c2 <= _U * nf:
                break
            c1 = c2
        F = F * eta
        B = F
    return F


def _shifted(A, mu):
    """A - mu I (sparse, dense or an operator) and its product with a block."""
    n = A.shape[0]
    if issparse(A):
        As = A - eye_array(n, dtype=numpy.result_type(A.dtype, numpy.asarray(mu).dtype), format="csr") * mu
        return As, (lambda X: As @ X), exact_onenorm(As)
    if isinstance(A, ndarray):
        As = A - eye(n, dtype=A.dtype) * mu
        return As, (lambda X: As @ X), exact_onenorm(As)
    op = aslinearoperator(A)
    As = LinearOperator(op.shape, matvec=lambda x: op.matvec(x) - mu * x, rmatvec=lambda x: op.rmatvec(x)
                        - numpy.conj(mu) * x, dtype=numpy.result_type(op.dtype, numpy.asarray(mu).dtype))
    return As, As.dot, float(onenormest(As))


def _prepare(A, B, traceA, m3):
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected A to be like a square matrix")
    if not isinstance(B, ndarray):
        raise TypeError("B must be a cuarray array (call cuarray.asarray first)")
    if A.shape[1] != B.shape[0]:
        raise ValueError("shapes of matrices A {} and B {} are incompatible".format(A.shape, B.shape))
    if B.ndim not in (1, 2):
        raise ValueError("expected B to be like a matrix or a vector")
    is_operator = not issparse(A) and not isinstance(A, ndarray)
    if traceA is None:
        if is_operator:
            warnings.warn("Trace of LinearOperator not available, it will be estimated. Provide `traceA` to "
                          "ensure performance.", stacklevel=3)
            traceA = traceest(aslinearoperator(A), m3=m3)
        else:
            traceA = A.trace()
    if isinstance(traceA, ndarray):
        traceA = traceA.get()[()]
    mu = traceA / float(A.shape[0])
    As, dot, norm1 = _shifted(A, mu)
    return As, dot, norm1, mu, 1 if B.ndim == 1 else B.shape[1]


def _steps(As, norm1, t, n0):
    if t * norm1 == 0:
        return 0, 1, None
    info = _NormInfo(As * t, abs(t) * norm1)
    m_star, s = _fragment_3_1(info, n0)
    return m_star, s, info


def _interval(dot, As, B, norm1, mu, n0, start, stop, num, endpoint):
    """Algorithm 5.2: e^{t_k A} B on numpy.linspace(start, stop, num, endpoint)."""
    kwargs = {"retstep": True}
    if num is not None:
        kwargs["num"] = num
    if endpoint is not None:
        kwargs["endpoint"] = endpoint
    samples, h = numpy.linspace(start, stop, **kwargs)
    if len(samples) < 2:
        raise ValueError("at least two time points are required")
    q = len(samples) - 1
    t0 = float(samples[0])
    m_star, s, info = _steps(As, norm1, float(samples[q]) - t0, n0)
    X = [_taylor(dot, B, t0, mu, m_star, s)]
    if q <= s:
        if info is None or info.onenorm() == 0:
            m_star, s = 0, 1
        else:
            info.scale = 1.0 / q
            m_star, s = _fragment_3_1(info, n0)
        for k in range(q):
            X.append(_taylor(dot, X[k], h, mu, m_star, s))
        return stack(X)
    d = q // s
    j, r = q // d, q - d * (q // d)
    for i in range(j + 1):
        K = [X[i * d]]
        for k in range(1, (d if i < j else r) + 1):
            F = K[0]
            c1 = float(_inf_norm(F))
            for p in range(1, m_star + 1):
                if p == len(K):
                    K.append(dot(K[p - 1]) * (h / float(p)))
                coeff = float(k ** p)
                F = F + K[p] * coeff
                kp, nf = stack([_inf_norm(K[p]), _inf_norm(F)]).get()  # one read per term
                c2 = coeff * kp
                if c1 + c2 <= _U * nf:
                    break
                c1 = c2
            X.append(F * numpy.exp(k * h * mu))
    return stack(X)


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None):
    """See `scipy.sparse.linalg.expm_multiply` (A sparse, a dense cuarray array or an operator;
    B a cuarray array; the result a cuarray array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[1., 0.], [0., 1.]]))
    >>> b = cuarray.array([1., 1.])
    >>> splinalg.expm_multiply(a, b, start=1, stop=2, num=3, endpoint=True)
    array([[2.71828183, 2.71828183],
           [4.48168907, 4.48168907],
           [7.3890561 , 7.3890561 ]])
    """
    interval = not (start is None and stop is None and num is None and endpoint is None)
    As, dot, norm1, mu, n0 = _prepare(A, B, traceA, 5 if interval else 1)
    if interval:
        out = _interval(dot, As, B, norm1, mu, n0, start, stop, num, endpoint)
        return out.astype(numpy.result_type(A.dtype, B.dtype, float), copy=False)
    m_star, s, _ = _steps(As, norm1, 1.0, n0)
    return _taylor(dot, B, 1.0, mu, m_star, s)
