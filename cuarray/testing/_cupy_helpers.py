"""The rest of `cupy.testing`'s public helpers under CuPy's names: data makers (`shaped_linspace`,
`shaped_sparse_random`, `generate_matrix`), version checks (`installed`, `numpy_satisfies`),
`assert_warns`, `for_contiguous_axes`, and the random-seed helpers (`fix_random`,
`generate_seed`). With `_cupy_names` they let a test written for `cupy.testing` (cupyx's own SciPy
tests among them) run by changing its import. Written from CuPy's documented behaviour.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import warnings

import numpy

from ._cupy_names import _installed
from ._random import _default_xp

__all__ = ["installed", "numpy_satisfies", "assert_warns", "shaped_linspace", "shaped_sparse_random",
           "generate_matrix", "for_contiguous_axes", "fix_random", "generate_seed"]


def installed(*specifiers: str) -> bool:
    """True if every requirement (``'numpy>=2'``) is met by the installed packages."""
    return all(_installed(s) for s in specifiers)


def numpy_satisfies(version_range: str) -> bool:
    """True if NumPy's version is in `version_range` (``'>=2.0'``)."""
    return _installed("numpy" + version_range)


@contextlib.contextmanager
def assert_warns(expected):
    """Fails unless the block raises a warning of class `expected` (every warning recorded)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError("{} not triggered".format(getattr(expected, "__name__", expected)))


def shaped_linspace(start, stop, shape, xp=None, dtype=numpy.float32):
    """`shape` evenly spaced values from `start` to `stop` in `dtype` (bounds clipped to what bool
    and unsigned types hold), on `xp` (default: cuarray)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    host = numpy.linspace(start, stop, int(numpy.prod(shape))).astype(dtype).reshape(shape)
    return (xp or _default_xp()).asarray(host)


def shaped_sparse_random(shape, sp=None, dtype=numpy.float32, density=0.01, format="coo", seed=0):
    """A random sparse matrix of `shape` (SciPy's `sparse.random` with `seed`) in `format`, made
    by the sparse module `sp` (default: cuarray.scipy.sparse)."""
    import scipy.sparse

    if sp is None:
        from cuarray.scipy import sparse as sp  # import time: cuarray.scipy.sparse for this helper only
    host = scipy.sparse.random(shape[0], shape[1], density, random_state=seed).astype(dtype)
    try:
        return sp.coo_matrix(host).asformat(format)
    except AttributeError:
        raise ValueError("{} is not a sparse matrix module".format(sp)) from None


def generate_matrix(shape, xp=None, dtype=numpy.float32, *, singular_values=None):
    """A random matrix (or stack, shape ``(..., M, N)``) whose singular values are `singular_values`
    (broadcast to ``(..., min(M, N))``): U diag(s) V^H from the SVD of random data, made on the host."""
    if len(shape) <= 1:
        raise ValueError("shape {} is invalid for matrices: too few axes".format(shape))
    if singular_values is None:
        raise TypeError("singular_values is not given")
    xp = xp or _default_xp()
    if not isinstance(singular_values, numpy.ndarray) and hasattr(singular_values, "get"):
        singular_values = singular_values.get()
    s = numpy.asarray(singular_values)
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError("dtype {} is not supported".format(dtype))
    if s.dtype.kind == "c":
        raise TypeError("singular_values is not real")
    if (s < 0).any():
        raise ValueError("negative singular value is given")
    rng = numpy.random.default_rng()
    a = rng.standard_normal(shape)
    if dtype.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    u, sv, vh = numpy.linalg.svd(a, full_matrices=False)
    a = (u * numpy.broadcast_to(s, sv.shape)[..., None, :]) @ vh
    return xp.asarray(a.astype(dtype))


def for_contiguous_axes(name="axis"):
    """Run the test once per axis tuple over which an array of the test's `shape` and `order`
    arguments is contiguous: ``(i, ..., ndim-1)`` for C order, ``(0, ..., i)`` for F order, for
    each i; `name` receives the tuple and leaves the test's signature (pytest does not see it)."""
    def deco(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            ndim, order = len(kwargs["shape"]), kwargs["order"]
            if order not in ("c", "C", "f", "F"):
                raise ValueError("for_contiguous_axes needs the order 'C' or 'F', got {!r}".format(order))
            for i in range(ndim):
                kwargs[name] = tuple(range(i, ndim)) if order in ("c", "C") else tuple(range(0, i + 1))
                fn(*args, **kwargs)

        wrapper.__signature__ = sig.replace(parameters=[p for p in sig.parameters.values() if p.name != name])
        return wrapper

    return deco


def generate_seed():
    """A fresh seed (CuPy's: for the decorated test's random state)."""
    return int(numpy.random.SeedSequence().generate_state(1)[0])


def fix_random():
    """Decorator: the test runs with NumPy's global random state seeded, and restored after."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            state = numpy.random.get_state()
            numpy.random.seed(0)
            try:
                return fn(*args, **kwargs)
            finally:
                numpy.random.set_state(state)
        return wrapper

    return deco
