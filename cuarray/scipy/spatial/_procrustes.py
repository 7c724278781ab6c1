"""`procrustes` and `geometric_slerp` (`scipy.spatial`). The data stay on the device; the small
problems are host work: the SVD of one d x d matrix (procrustes), the QR of a 2 x d basis
(geometric_slerp)."""

from __future__ import annotations

import warnings

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import from_host, to_host
from ..._creation.basic import empty
from ..._math.trigonometric import cos, sin

__all__ = ["procrustes", "geometric_slerp"]


def procrustes(data1, data2):
    """See `scipy.spatial.procrustes`. Device arrays; the d x d SVD of the orthogonal Procrustes
    problem is host work."""
    m1 = as_literal_or_array(data1, "procrustes").astype(numpy.float64, copy=True)
    m2 = as_literal_or_array(data2, "procrustes").astype(numpy.float64, copy=True)
    if m1.ndim != 2 or m2.ndim != 2:
        raise ValueError("Input matrices must be two-dimensional")
    if m1.shape != m2.shape:
        raise ValueError("Input matrices must be of same shape")
    if m1.size == 0:
        raise ValueError("Input matrices must be >0 rows and >0 cols")
    m1 = m1 - m1.mean(axis=0)
    m2 = m2 - m2.mean(axis=0)
    n1, n2 = (float(to_host((m * m).sum())) ** 0.5 for m in (m1, m2))
    if n1 == 0 or n2 == 0:
        raise ValueError("Input matrices must contain >1 unique points")
    m1, m2 = m1 / n1, m2 / n2
    # host work: the SVD of the d x d matrix m1^T m2 (the orthogonal Procrustes rotation)
    u, w, vt = numpy.linalg.svd(to_host(m1.T @ m2))
    R = from_host(u @ vt)
    m2 = (m2 @ R.T) * float(w.sum())
    d = m1 - m2
    return m1, m2, (d * d).sum()


def geometric_slerp(start, end, t, tol=1e-7):
    """See `scipy.spatial.geometric_slerp`. The 2 x d basis of the great circle is host work (one
    QR); the points for every t are computed on the device."""
    s = numpy.asarray(to_host(start) if hasattr(start, "get") else start, dtype=numpy.float64)
    e = numpy.asarray(to_host(end) if hasattr(end, "get") else end, dtype=numpy.float64)
    t = as_parameter(t, "geometric_slerp")
    if t.ndim > 1:
        raise ValueError("The interpolation parameter value must be one dimensional.")
    if s.ndim != 1 or e.ndim != 1:
        raise ValueError("Start and end coordinates must be one-dimensional")
    if s.size != e.size:
        raise ValueError("The dimensions of start and end must match (have same size)")
    if s.size < 2 or e.size < 2:
        raise ValueError("The start and end coordinates must both be in at least two-dimensional space")
    if numpy.array_equal(s, e):
        out = empty((t.size, s.size))
        out[...] = from_host(s)
        return out
    for c in (s, e):
        if not numpy.allclose(numpy.linalg.norm(c), 1.0, rtol=1e-9, atol=0):
            raise ValueError("start and end are not on a unit n-sphere")
    if not isinstance(tol, float):
        raise ValueError("tol must be a float")
    if numpy.allclose(numpy.linalg.norm(s - e), 2.0, rtol=0, atol=abs(tol)):
        warnings.warn("start and end are antipodes using the specified tolerance; this may cause ambiguous "
                      "slerp paths", stacklevel=2)
    t = t.astype(numpy.float64)
    if t.size == 0:
        return empty((0, s.size))
    # host work: an orthonormal basis of the plane of start and end, and the angle between them
    Q, R = numpy.linalg.qr(numpy.vstack([s, e]).T)
    signs = 2 * (numpy.diag(R) >= 0) - 1
    Q, R = Q.T * signs[:, None], R.T * signs[:, None]
    omega = numpy.arctan2(numpy.linalg.det(R), numpy.dot(s, e))
    tt = t.reshape(-1)
    pts = cos(tt * omega)[:, None] * from_host(Q[0]) + sin(tt * omega)[:, None] * from_host(Q[1])
    return pts.reshape(s.size) if t.ndim == 0 else pts
