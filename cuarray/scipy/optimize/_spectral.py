"""`root(method='df-sane')`: SciPy's derivative-free spectral residual method (scipy/optimize/
_spectral.py; W. La Cruz, J. M. Martinez and M. Raydan, Math. Comp. 75, 1429 (2006), the spectral
coefficient safeguarded as W. La Cruz, Optim. Methods Softw. 29, 24 (2014)) with its nonmonotone
backtracking line searches ('cruz', the paper's; 'cheng': W. Cheng and D.-H. Li, IMA J. Numer.
Anal. 29, 814 (2009)). The step is x - alpha sigma F(x) and the spectral coefficient
sigma = (s, s) / (s, y) with s, y the changes of x and F: both stay on the device, sigma's bounds
applied there. One host read per call of `fun`: the merit |F|^2 that the line search and the
convergence test need. Complex problems run, as SciPy's, on the interleaved real and imaginary
parts, which is what `fnorm`, `eta_strategy` and `callback` see."""

import collections

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._manipulation.joining import stack
from ..._math.complex import imag, real
from ..._math.misc import absolute, sign
from ..._sorting.searching import where
from ...linalg._norms import norm
from ...linalg._products import vdot
from ._result import OptimizeResult

__all__ = ["root_df_sane", "DF_SANE_OPTIONS"]

_NAME = "scipy.optimize.root"
DF_SANE_OPTIONS = ("ftol", "fatol", "maxfev", "fnorm", "disp", "M", "eta_strategy", "sigma_eps", "sigma_0",
                   "line_search")


class _NoConvergence(Exception):
    pass


def _to_real(z):
    """The interleaved real and imaginary parts of a complex vector (SciPy's view as float64)."""
    return stack([real(z), imag(z)], axis=1).reshape(-1).astype(numpy.float64)


def _to_complex(x):
    pairs = x.reshape(-1, 2)
    return pairs[:, 0] + 1j * pairs[:, 1]


def _line_search(f, x_k, d, f_k, bound, eta, gamma=1e-4, tau_min=0.1, tau_max=0.5):
    """SciPy's nonmonotone backtracking on |F|^2 (both searches): trial steps +alpha_p and
    -alpha_m until the merit is below `bound` + eta - gamma alpha^2 f_k, the step lengths shrunk
    by the quadratic interpolation, clipped to [tau_min, tau_max] times the last one."""
    alpha_p = alpha_m = 1.0
    while True:
        xp = x_k + alpha_p * d
        fp, Fp = f(xp)
        if fp <= bound + eta - gamma * alpha_p ** 2 * f_k:
            return alpha_p, xp, fp, Fp
        alpha_tp = alpha_p ** 2 * f_k / (fp + (2 * alpha_p - 1) * f_k)
        xp = x_k - alpha_m * d
        fp, Fp = f(xp)
        if fp <= bound + eta - gamma * alpha_m ** 2 * f_k:
            return -alpha_m, xp, fp, Fp
        alpha_tm = alpha_m ** 2 * f_k / (fp + (2 * alpha_m - 1) * f_k)
        alpha_p = float(numpy.clip(alpha_tp, tau_min * alpha_p, tau_max * alpha_p))
        alpha_m = float(numpy.clip(alpha_tm, tau_min * alpha_m, tau_max * alpha_m))


def root_df_sane(fun, x0, args=(), callback=None, ftol=1e-8, fatol=1e-300, maxfev=1000, fnorm=None, disp=False, M=10,
                 eta_strategy=None, sigma_eps=1e-10, sigma_0=1.0, line_search="cruz"):
    """SciPy's _root_df_sane with the iterate on the device (see the module's docstring)."""
    if line_search not in ("cheng", "cruz"):
        raise ValueError(f"Invalid value {line_search!r} for 'line_search'")
    x0 = as_parameter(x0, _NAME)
    x0 = x0 if x0.dtype.kind in "fc" else x0.astype(numpy.float64)
    shape = x0.shape
    F = as_array(fun(x0, *args), _NAME).reshape(-1)
    is_complex = x0.dtype.kind == "c" or F.dtype.kind == "c"
    nfev = 1

    def merit(Fv):
        return float(to_host(norm(Fv))) ** 2  # the evaluation's read

    def f(x):
        nonlocal nfev
        if nfev >= maxfev:
            raise _NoConvergence
        nfev += 1
        z = _to_complex(x) if is_complex else x
        Fv = as_array(fun(z.reshape(shape), *args), _NAME).reshape(-1)
        Fv = _to_real(Fv) if is_complex else Fv
        return merit(Fv), Fv

    x_k = _to_real(x0.reshape(-1)) if is_complex else x0.reshape(-1)
    F_k = _to_real(F) if is_complex else F
    f_k = f_0 = merit(F_k)
    if eta_strategy is None:
        # SciPy's choice (not the paper's): invariant under a scaling of F
        def eta_strategy(k, x, Fv):
            return f_0 / (1 + k) ** 2
    def norm_of(Fv):
        if fnorm is None:
            return f_k ** 0.5
        return float(to_host(as_parameter(fnorm(Fv), _NAME)))  # the caller's norm, on the host or the device

    # Python scalars: a NumPy scalar on the left of a device array would not defer to it
    k, sigma_k, sigma_eps = 0, float(sigma_0), float(sigma_eps)
    F_0_norm = norm_of(F_k)
    prev_fs = collections.deque([f_k], M)
    Q, C = 1.0, f_0
    converged, message = False, "too many function evaluations required"
    while True:
        F_k_norm = norm_of(F_k)
        if disp:
            print(f"iter {k}: ||F|| = {F_k_norm:g}, sigma = {float(to_host(sigma_k)) if k else sigma_k:g}")
        if callback is not None:
            callback(x_k, F_k)
        if F_k_norm < ftol * F_0_norm + fatol:
            converged, message = True, "successful convergence"
            break
        # sigma's safeguard, on the device: |sigma| in [sigma_eps, 1 / sigma_eps]
        if k == 0:
            sigma_k = float(numpy.sign(sigma_k)) / sigma_eps if abs(sigma_k) > 1 / sigma_eps else (
                sigma_eps if abs(sigma_k) < sigma_eps else sigma_k)
        else:
            big = absolute(sigma_k) > 1 / sigma_eps
            sigma_k = where(big, sign(sigma_k) / sigma_eps,
                            where(absolute(sigma_k) < sigma_eps, sigma_eps, sigma_k)).astype(F_k.dtype)
        d = -sigma_k * F_k
        eta = eta_strategy(k, x_k, F_k)
        try:
            if line_search == "cruz":
                _, xp, fp, Fp = _line_search(f, x_k, d, prev_fs[-1], max(prev_fs), eta)
            else:
                _, xp, fp, Fp = _line_search(f, x_k, d, f_k, C, eta)
                # Cheng and Li's average of the merits, with nu = 0.85
                Q_next = 0.85 * Q + 1
                C, Q = (0.85 * Q * (C + eta) + fp) / Q_next, Q_next
        except _NoConvergence:
            break
        s_k, y_k = xp - x_k, Fp - F_k
        sigma_k = vdot(s_k, s_k) / vdot(s_k, y_k)
        x_k, F_k, f_k = xp, Fp, fp
        if line_search == "cruz":
            prev_fs.append(fp)
        k += 1
    x = (_to_complex(x_k) if is_complex else x_k).reshape(shape)
    return OptimizeResult(x=x, success=converged, message=message, fun=_to_complex(F_k) if is_complex else F_k,
                          nfev=nfev, nit=k, method="df-sane")
