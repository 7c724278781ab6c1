"""`Rbf`: SciPy's legacy radial-basis interpolator (`RBFInterpolator`'s predecessor), with its
semantics: `function` (a name or a callable of r, or of (self, r)), `epsilon` (default: the
mean spacing of the nodes' bounding box), `smooth` (subtracted from the diagonal), `norm` (any
`cdist` metric), `mode` '1-D' or 'N-D', extra keywords kept as attributes.

Everything scales with the nodes or the queries, so it is device work: the (N, N) system of the
pairwise distances' kernel and its solve (`cuarray.linalg.solve`, every value column at once), and
evaluation in chunks of queries, each a distance block, the kernel elementwise and one product
with the weights. Euclidean distances are sums of squared coordinate differences (exact as
SciPy's, no |x|^2 + |y|^2 - 2 x.y rounding); other norms are `cuarray.scipy.spatial`'s `cdist`."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._creation.ranges import arange
from ..._manipulation.joining import concatenate, stack
from ..._math.explog import exp, log
from ..._math.misc import sqrt
from ..._sorting.searching import where
from ..._statistics.order import max as max_, min as min_
from ...linalg._solve import solve
from ..spatial.distance import cdist
from . import _inputs
from ._rbf import _matvec, _solve_real

__all__ = ["Rbf"]

_F8 = numpy.dtype(numpy.float64)
_CHUNK = 1 << 25  # distances in one evaluation block
_ALIASES = {"inverse": "inverse_multiquadric", "inverse multiquadric": "inverse_multiquadric",
            "thin-plate": "thin_plate"}


def _distances(a, b, norm):
    """Distances (M, N) between the columns of a (ndim, M) and b (ndim, N)."""
    if isinstance(norm, str) and norm in ("euclidean", "euclid", "eu", "e"):
        acc = zeros((a.shape[1], b.shape[1]), dtype=_F8)
        for k in range(a.shape[0]):
            d = a[k][:, None] - b[k][None, :]
            acc = acc + d * d
        return sqrt(acc)
    return cdist(a.T, b.T, norm)


class Rbf:
    """See `scipy.interpolate.Rbf`. Nodes, values and queries may be device arrays (the nodes and
    values also host sequences, copied once); `A`, `nodes` and the results are device arrays. A
    callable `function` is called with device arrays of distances."""

    # the radial functions of r, selectable by name ("_h_" + name, as SciPy's)
    def _h_multiquadric(self, r):
        return sqrt((1.0 / self.epsilon * r) ** 2 + 1)

    def _h_inverse_multiquadric(self, r):
        return 1.0 / sqrt((1.0 / self.epsilon * r) ** 2 + 1)

    def _h_gaussian(self, r):
        return exp(-(1.0 / self.epsilon * r) ** 2)

    def _h_linear(self, r):
        return r

    def _h_cubic(self, r):
        return r ** 3

    def _h_quintic(self, r):
        return r ** 5

    def _h_thin_plate(self, r):
        return where(r == 0, 0.0, r ** 2 * log(where(r == 0, 1.0, r)))  # xlogy(r^2, r)

    def _init_function(self, r):
        if isinstance(self.function, str):
            self.function = self.function.lower()
            self.function = _ALIASES.get(self.function, self.function)
            if not hasattr(self, "_h_" + self.function):
                names = [n[3:] for n in dir(self) if n.startswith("_h_")]
                raise ValueError("function must be a callable or one of " + ", ".join(names))
            self._function = getattr(self, "_h_" + self.function)
        elif callable(self.function):
            one_ok = hasattr(self.function, "__code__")
            if one_ok:
                code = self.function.__code__
            elif hasattr(self.function, "__call__"):
                code = self.function.__call__.__func__.__code__
            else:  # pragma: no cover (callable() implies __call__)
                raise ValueError("Cannot determine number of arguments to function")
            if one_ok and code.co_argcount == 1:
                self._function = self.function
            elif code.co_argcount == 2:
                self._function = self.function.__get__(self, Rbf)
            else:
                raise ValueError("Function argument must take 1 or 2 arguments.")
        a0 = self._function(r)
        if a0.shape != r.shape:
            raise ValueError("Callable must take array and return array of the same shape")
        return a0

    def __init__(self, *args, **kwargs):
        self.xi = stack([_inputs.values(a).astype(_F8).reshape(-1) for a in args[:-1]])
        self.N = self.xi.shape[-1]
        self.mode = kwargs.pop("mode", "1-D")
        if self.mode == "1-D":
            self.di = _inputs.values(args[-1]).reshape(-1)
            self._target_dim = 1
        elif self.mode == "N-D":
            self.di = _inputs.values(args[-1])
            self._target_dim = self.di.shape[-1]
        else:
            raise ValueError("Mode has to be 1-D or N-D.")
        if self.N != self.di.shape[0]:
            raise ValueError("All arrays must be equal length.")
        self.norm = kwargs.pop("norm", "euclidean")
        self.epsilon = kwargs.pop("epsilon", None)
        if self.epsilon is None:
            # the bounding box's edges (a few host numbers): the mean spacing of N nodes in it
            edges = numpy.asarray(to_host(max_(self.xi, axis=1) - min_(self.xi, axis=1)))
            edges = edges[numpy.nonzero(edges)]
            self.epsilon = float(numpy.power(numpy.prod(edges) / self.N, 1.0 / edges.size))
        self.smooth = kwargs.pop("smooth", 0.0)
        self.function = kwargs.pop("function", "multiquadric")
        for name, value in kwargs.items():  # kept for a callable `function` (SciPy's rule)
            setattr(self, name, value)
        rhs = self.di.reshape((self.N, -1))
        a = self.A
        sol = _solve_real(a, rhs) if rhs.dtype.kind == "c" else solve(a, rhs.astype(_F8))
        if self._target_dim > 1:
            self.nodes = sol.astype(self.di.dtype)  # SciPy fills an array of di's dtype
        else:  # SciPy's solve(A, di): (N,) in 1-D mode, (N, 1) for 'N-D' values of one component
            self.nodes = sol.reshape(-1) if self.mode == "1-D" else sol

    @property
    def A(self):  # noqa: N802 (SciPy's name)
        r = _distances(self.xi, self.xi, self.norm)
        eye = (arange(self.N)[:, None] == arange(self.N)[None, :]).astype(_F8)
        return self._init_function(r) - eye * self.smooth

    def _call_norm(self, x1, x2):
        return _distances(x1, x2, self.norm)

    def __call__(self, *args):
        """See `scipy.interpolate.Rbf.__call__` (device arrays or scalars)."""
        args = [_inputs.data(x) for x in args]
        if not all(x.shape == y.shape for x in args for y in args):
            raise ValueError("Array lengths must be equal")
        shape = args[0].shape + ((self._target_dim,) if self._target_dim > 1 else ())
        xa = stack([a.reshape(-1).astype(_F8) for a in args])
        m = xa.shape[1]
        step = max(1, _CHUNK // max(self.N, 1))
        parts = []
        for start in range(0, m, step):
            kmat = self._function(self._call_norm(xa[:, start:start + step], self.xi))
            parts.append(_matvec(kmat, self.nodes.reshape((self.N, -1))))
        if not parts:
            return zeros(shape, dtype=numpy.result_type(self.nodes.dtype, _F8))
        out = parts[0] if len(parts) == 1 else concatenate(parts)
        return out.reshape(shape)
