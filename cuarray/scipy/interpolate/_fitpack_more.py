"""The rest of FITPACK's interface: `splprep`, `spalde`, `insert`, `bisplrep`, `bisplev`, and the
newer `make_splrep`, `make_splprep`, `generate_knots`. The fits and the per-point utilities
(`spalde`, `insert`) are host work (SciPy on host copies); the knots and coefficients come back as
device arrays (a BSpline for the make_* functions), and `bisplev` evaluates on the device."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import stack
from . import _inputs
from ._bspline import BSpline
from ._fitpack import tensor_eval
from ._host import host_scipy

__all__ = ["splprep", "spalde", "insert", "bisplrep", "bisplev", "make_splrep", "make_splprep", "generate_knots"]

_F8 = numpy.dtype(numpy.float64)


def _host(v):
    """A host copy of an argument: device arrays are copied, lists of them element by element."""
    if v is None or isinstance(v, (numpy.ndarray, numpy.generic, int, float, complex, str)):
        return v
    if isinstance(v, (list, tuple)):
        return type(v)(_host(u) for u in v)
    if isinstance(v, BSpline):
        return host_scipy().BSpline(_host(v.t), _host(v.c), v.k, v.extrapolate, v.axis)
    return to_host(_inputs.param(v))


def _device(v):
    """Device copies of a host result: arrays, lists/tuples of them, SciPy BSplines."""
    if isinstance(v, numpy.ndarray):
        return _inputs.param(v)
    if isinstance(v, list):
        return [_device(u) for u in v]
    if isinstance(v, tuple):
        return tuple(_device(u) for u in v)
    if type(v).__name__ == "BSpline":
        return BSpline.construct_fast(_inputs.param(v.t), _inputs.param(v.c), v.k, v.extrapolate, v.axis)
    return v


def splprep(x, w=None, u=None, ub=None, ue=None, k=3, task=0, s=None, t=None, full_output=0, nest=None, per=0,
            quiet=1):
    """See `scipy.interpolate.splprep` (host work; the tck and u as device arrays)."""
    res = host_scipy().splprep(_host(x), _host(w), _host(u), ub, ue, k, task, s, _host(t), full_output, nest, per,
                               quiet)
    return _device(res)


def spalde(x, tck):
    """See `scipy.interpolate.spalde` (host work)."""
    return _device(host_scipy().spalde(_host(x), _host(tck)))


def insert(x, tck, m=1, per=0):
    """See `scipy.interpolate.insert` (host work)."""
    return _device(host_scipy().insert(x, _host(tck), m, per))


def bisplrep(x, y, z, w=None, xb=None, xe=None, yb=None, ye=None, kx=3, ky=3, task=0, s=None, eps=1e-16, tx=None,
             ty=None, full_output=0, nxest=None, nyest=None, quiet=1):
    """See `scipy.interpolate.bisplrep` (host work: FITPACK's surfit; the tck as device arrays)."""
    res = host_scipy().bisplrep(_host(x), _host(y), _host(z), _host(w), xb, xe, yb, ye, kx, ky, task, s, eps,
                                _host(tx), _host(ty), full_output, nxest, nyest, quiet)
    return _device(res)


def bisplev(x, y, tck, dx=0, dy=0):
    """See `scipy.interpolate.bisplev`: the grid of x by y evaluated on the device (coordinates
    clamped to the knot range, as FITPACK's bispev)."""
    tx, ty, c, kx, ky = tck
    tx, ty = _inputs.param(tx).astype(_F8), _inputs.param(ty).astype(_F8)
    if not (0 <= dx < kx) and dx:
        raise ValueError(f"0 <= dx = {dx} < kx = {kx} must hold")
    if not (0 <= dy < ky) and dy:
        raise ValueError(f"0 <= dy = {dy} < ky = {ky} must hold")
    x, y = _inputs.data(x).astype(_F8), _inputs.data(y).astype(_F8)
    if x.ndim > 1 or y.ndim > 1:
        raise ValueError("First two entries should be rank-1 arrays.")
    x, y = x.reshape(-1), y.reshape(-1)
    nx, ny = tx.shape[0] - kx - 1, ty.shape[0] - ky - 1
    ends = [(float(v) for v in to_host(stack((tx[kx], tx[nx])))),
            (float(v) for v in to_host(stack((ty[ky], ty[ny]))))]
    ends = [tuple(e) for e in ends]
    cc = _inputs.param(c).astype(_F8)[:nx * ny].reshape((nx, ny, 1))
    shape = (x.shape[0], y.shape[0])
    xs = broadcast_to(x[:, None], shape)
    ys = broadcast_to(y[None, :], shape)
    z = tensor_eval((tx, ty), (int(kx), int(ky)), cc, ends, xs, ys, dx, dy, shape)
    if z.shape[0] > 1:
        return z
    if z.shape[1] > 1:
        return z[0]
    return z[0, 0]


def make_splrep(x, y, *, w=None, xb=None, xe=None, k=3, s=0, t=None, nest=None, bc_type=None):
    """See `scipy.interpolate.make_splrep` (host work; a device BSpline)."""
    return _device(host_scipy().make_splrep(_host(x), _host(y), w=_host(w), xb=xb, xe=xe, k=k, s=s, t=_host(t),
                                            nest=nest, bc_type=bc_type))


def make_splprep(x, *, w=None, u=None, ub=None, ue=None, k=3, s=0, t=None, nest=None, bc_type=None):
    """See `scipy.interpolate.make_splprep` (host work; a device BSpline and u)."""
    return _device(host_scipy().make_splprep(_host(x), w=_host(w), u=_host(u), ub=ub, ue=ue, k=k, s=s, t=_host(t),
                                             nest=nest, bc_type=bc_type))


def generate_knots(x, y, *, w=None, xb=None, xe=None, k=3, s=0, nest=None, bc_type=None):
    """See `scipy.interpolate.generate_knots` (host work; each knot vector a device array)."""
    for t in host_scipy().generate_knots(_host(x), _host(y), w=_host(w), xb=xb, xe=xe, k=k, s=s, nest=nest,
                                         bc_type=bc_type):
        yield _inputs.param(t)
