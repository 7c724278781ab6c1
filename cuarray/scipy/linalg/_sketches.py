"""clarkson_woodruff_transform: SciPy's CountSketch, S @ A with S a sketch_size x n sparse matrix
holding one random sign per column in a random row, applied on the device by cuarray.sparse.

The n row indices and signs are drawn as SciPy draws them, from NumPy's generators on the host
(`rng` by SciPy's rules: keyword `rng` through numpy.random.default_rng, `seed` or a positional
value through SciPy's check_random_state, nothing the global RandomState), so a seed gives SciPy's
sketch exactly; they are 1/d of the data of an n x d matrix, copied once. A cuarray
`random.Generator` draws them on the device instead (same distribution, not NumPy's stream)."""

from __future__ import annotations

import inspect
import numbers

import numpy

from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._manipulation.transpose import moveaxis
from ...linalg._util import as_array
from ._validate import batch_shape

__all__ = ["clarkson_woodruff_transform"]

_FN = "clarkson_woodruff_transform"


# cuarray.random and cuarray.sparse are imported on first use: at module level they added ~50 ms to
# `import cuarray.scipy.linalg` (~330 ms; -X importtime).
def _device_generator():
    """cuarray.random's Generator class."""
    from ...random._generator import Generator  # import time: see above

    return Generator


def _sparse():
    """The cuarray.sparse package."""
    import cuarray.sparse as sparse  # import time: see above (the subsystem by its full name: tests/test_layers.py)

    return sparse


def _legacy_generator(seed):
    """SciPy's check_random_state: the global RandomState (through numpy.random's functions, which
    draw from it) for None, a new RandomState for an int, a generator as it is."""
    if seed is None or seed is numpy.random:
        return numpy.random
    if isinstance(seed, (numbers.Integral, numpy.integer)):
        return numpy.random.RandomState(seed)
    if isinstance(seed, (numpy.random.RandomState, numpy.random.Generator, _device_generator())):
        return seed
    raise ValueError("'{}' cannot be used to seed a numpy.random.RandomState instance".format(seed))


def _draws(gen, sketch_size, n):
    """(rows, signs), two int64 device arrays of length n: SciPy's cwt_matrix draws."""
    if isinstance(gen, _device_generator()):
        rows = gen.integers(0, sketch_size, size=n, dtype=numpy.int64)
        return rows, 1 - 2 * gen.integers(0, 2, size=n, dtype=numpy.int64)
    if isinstance(gen, numpy.random.Generator):  # scipy._lib._util.rng_integers
        rows = gen.integers(0, high=sketch_size, size=n, dtype="int64", endpoint=False)
    else:
        rows = gen.randint(0, high=sketch_size, size=n, dtype="int64")
    signs = gen.choice([1, -1], n)
    return asarray(rows), asarray(numpy.asarray(signs, dtype=numpy.int64))


def _sketch(input_matrix, sketch_size, gen):
    sparse = _sparse()
    sparse_input = sparse.issparse(input_matrix)
    if sparse_input and input_matrix.ndim > 2:
        raise NotImplementedError("Batch support for sparse arrays is not available.")
    a = input_matrix if sparse_input else as_array(input_matrix, _FN)
    n = a.shape[-2]
    rows, signs = _draws(gen, sketch_size, n)
    s = sparse.csc_array((signs, rows, arange(n + 1)), shape=(sketch_size, n))
    if sparse_input:
        # SciPy 1.18's (A.T @ S.T).T: CSR stays CSR, anything else gives CSC (array or matrix as A)
        out = (a.T @ s.T).T
        return out.asformat("csr" if a.format == "csr" else "csc")
    if a.ndim <= 2:
        return s @ a
    batch = batch_shape(_FN, a.shape[:-2])
    d = a.shape[-1]
    out = s @ moveaxis(a, -2, 0).reshape(n, -1)  # every matrix of the stack in one product
    return moveaxis(out.reshape((sketch_size,) + batch + (d,)), 0, -2)


def clarkson_woodruff_transform(input_matrix, sketch_size, *args, **kwargs):
    """See `scipy.linalg.clarkson_woodruff_transform` (leading dimensions are batches, one sketch
    for all, as SciPy 1.18's; cuarray.sparse input gives a sparse result, as SciPy's). S @ A on the
    device through cuarray.sparse (cuSPARSE), in SciPy's result dtype. The random rows and signs
    come from NumPy's generators with SciPy's `rng`/`seed` rules, so a seed gives SciPy's sketch;
    `rng` may also be a `cuarray.random.Generator`, which draws them on the device (the same
    distribution, other values). See the module's notes.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.arange(12.).reshape(4, 3)
    >>> linalg.clarkson_woodruff_transform(a, 2, rng=0)   # SciPy's sketch for this seed
    array([[ 9., 10., 11.],
           [ 9., 12., 15.]])
    """
    if len(args) > 1:
        raise TypeError("{}() takes from 2 to 3 positional arguments but {} were given".format(_FN, 2 + len(args)))
    unknown = sorted(set(kwargs) - {"rng", "seed"})
    if unknown:
        raise TypeError("{}() got an unexpected keyword argument '{}'".format(_FN, unknown[0]))
    if len(args) + len(kwargs) > 1:
        raise TypeError("{}() got multiple values for argument now known as `rng`. Specify one of `rng` or "
                        "`seed`.".format(_FN))
    if "rng" in kwargs:  # SciPy's _transition_to_rng: the keyword is normalised by default_rng
        rng = kwargs["rng"]
        gen = rng if isinstance(rng, _device_generator()) else numpy.random.default_rng(rng)
    else:
        gen = _legacy_generator(args[0] if args else kwargs.get("seed"))
    return _sketch(input_matrix, sketch_size, gen)


# SciPy's signature (its decorator adds the keyword-only `seed`); the body above tells a positional
# `rng` from a keyword one, as SciPy does.
clarkson_woodruff_transform.__signature__ = inspect.Signature([
    inspect.Parameter("input_matrix", inspect.Parameter.POSITIONAL_OR_KEYWORD),
    inspect.Parameter("sketch_size", inspect.Parameter.POSITIONAL_OR_KEYWORD),
    inspect.Parameter("rng", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
    inspect.Parameter("seed", inspect.Parameter.KEYWORD_ONLY, default=None)])
