"""A pytest plugin that adds cuarray to scikit-learn's array API test namespaces (beside NumPy,
array-api-strict, CuPy and PyTorch) for scikit-learn's own tests, without editing its installed
files:

    SCIPY_ARRAY_API=1 python -m pytest -p sklearn_namespaces --pyargs sklearn.metrics -k array_api

(scripts/ecosystem on PYTHONPATH.) scikit-learn's tests parametrize over
`sklearn.utils._array_api.yield_namespace_device_dtype_combinations()`, which asks
`yield_namespaces()` by its module-global name; this plugin wraps that generator when pytest is
configured, before any test module is imported, so every such parametrization gains
("cuarray", None, None): cuarray's default device and dtypes, as CuPy's entry has."""

from __future__ import annotations

NAME = "cuarray"


def with_cuarray(yield_namespaces):
    """`yield_namespaces` followed by cuarray (once)."""

    def namespaces(include_numpy_namespaces=True):
        seen = False
        for name in yield_namespaces(include_numpy_namespaces=include_numpy_namespaces):
            seen |= name == NAME
            yield name
        if not seen:
            yield NAME

    namespaces.__wrapped__ = yield_namespaces
    return namespaces


def pytest_configure(config):
    from sklearn.utils import _array_api

    if not hasattr(_array_api.yield_namespaces, "__wrapped__"):
        _array_api.yield_namespaces = with_cuarray(_array_api.yield_namespaces)
