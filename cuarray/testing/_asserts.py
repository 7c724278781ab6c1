"""numpy.testing's assertions for cuarray or NumPy arrays (as `cupy.testing`'s).

Each copies device arrays to the host (containers too: lists, tuples, dicts of arrays) and calls
the `numpy.testing` function of the same name, so messages and semantics are NumPy's.
"""

from __future__ import annotations

import numpy

__all__ = [
    "assert_allclose",
    "assert_array_almost_equal",
    "assert_array_almost_equal_nulp",
    "assert_array_max_ulp",
    "assert_array_equal",
    "assert_array_list_equal",
    "assert_array_less",
    "assert_equal",
]


def _is_device_array(x) -> bool:
    return hasattr(x, "__cuda_array_interface__") or type(x).__module__.startswith("cuarray")


def to_host(x):
    """`x` with every device array in it (recursively through lists, tuples, dicts) on the host."""
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(to_host(v) for v in x)
    if isinstance(x, dict):
        return {k: to_host(v) for k, v in x.items()}
    if _is_device_array(x):
        from ._compare import _cuarray  # cycle: _compare imports this module

        return _cuarray().asnumpy(x)
    if hasattr(x, "get") and hasattr(x, "dtype"):  # another GPU library's array (CuPy's)
        return x.get()
    return x


def _strict(strict):
    # `strict=` came to some of these functions only in later NumPy 2 releases: pass it when asked for.
    return {"strict": True} if strict else {}


def assert_allclose(actual, desired, rtol=1e-7, atol=0.0, equal_nan=True, err_msg="",
                    verbose=True, *, strict=False):
    """See `numpy.testing.assert_allclose`; device arrays are copied to the host."""
    numpy.testing.assert_allclose(to_host(actual), to_host(desired), rtol=rtol, atol=atol,
                                  equal_nan=equal_nan, err_msg=err_msg, verbose=verbose,
                                  **_strict(strict))


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    """See `numpy.testing.assert_array_almost_equal`; device arrays are copied to the host."""
    numpy.testing.assert_array_almost_equal(to_host(x), to_host(y), decimal=decimal,
                                            err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    """See `numpy.testing.assert_array_almost_equal_nulp`; device arrays are copied to the host."""
    numpy.testing.assert_array_almost_equal_nulp(to_host(x), to_host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    """See `numpy.testing.assert_array_max_ulp`; device arrays are copied to the host."""
    numpy.testing.assert_array_max_ulp(to_host(a), to_host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False, *, strict=False):
    """See `numpy.testing.assert_array_equal`; device arrays are copied to the host.

    `strides_check` (CuPy's) also requires equal strides when both are arrays.
    """
    if strides_check:
        sx, sy = getattr(x, "strides", None), getattr(y, "strides", None)
        if sx is not None and sy is not None and sx != sy:
            raise AssertionError("strides differ: {} and {}\n{}".format(sx, sy, err_msg))
    numpy.testing.assert_array_equal(to_host(x), to_host(y), err_msg=err_msg, verbose=verbose,
                                     **_strict(strict))


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Assert two sequences of arrays are equal item by item (CuPy's `assert_array_list_equal`)."""
    if len(xlist) != len(ylist):
        raise AssertionError("List size is different: {} and {}".format(len(xlist), len(ylist)))
    for i, (x, y) in enumerate(zip(xlist, ylist)):
        numpy.testing.assert_array_equal(to_host(x), to_host(y), err_msg="item {}: {}".format(i, err_msg),
                                         verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    """See `numpy.testing.assert_array_less`; device arrays are copied to the host."""
    numpy.testing.assert_array_less(to_host(x), to_host(y), err_msg=err_msg, verbose=verbose)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """See `numpy.testing.assert_equal` (nested containers included); device arrays are copied."""
    numpy.testing.assert_equal(to_host(actual), to_host(desired), err_msg=err_msg, verbose=verbose,
                               **_strict(strict))
