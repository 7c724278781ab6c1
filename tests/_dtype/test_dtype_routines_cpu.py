"""Data type routines and the Array API inspection namespace: no device needed."""

from __future__ import annotations

import itertools

import numpy
import pytest

import cuarray
from cuarray._dtype import info as _info

DTYPES = [numpy.dtype(c) for c in "?bhilqBHILQefdFD"]


@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, repeat=2))[::7], ids=str)
def test_result_type_can_cast_match_numpy_on_dtypes(a, b):
    assert cuarray.result_type(a, b) == numpy.result_type(a, b)
    assert cuarray.result_type(a, 1, 2.0) == numpy.result_type(a, 1, 2.0)
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        assert cuarray.can_cast(a, b, casting) == numpy.can_cast(a, b, casting)
    assert cuarray.promote_types(a, b) == numpy.promote_types(a, b)


def test_min_scalar_type_and_common_type_of_host_values():
    assert cuarray.min_scalar_type(300) == numpy.min_scalar_type(300)
    assert cuarray.min_scalar_type(-1.5) == numpy.min_scalar_type(-1.5)
    with pytest.raises(TypeError, match="asarray"):
        cuarray.common_type(numpy.zeros(3))


def test_dtype_only_names_are_numpys():
    for name in ("issubdtype", "isdtype", "isscalar", "promote_types", "mintypecode", "typename",
                 "errstate", "intp", "int_", "double", "floating", "ScalarType", "typecodes"):
        assert getattr(cuarray, name) is getattr(numpy, name), name
    assert cuarray.isdtype(cuarray.float32, "real floating")
    assert not cuarray.isscalar(numpy.zeros(()))


def test_exceptions_are_numpys():
    import numpy.exceptions as ne

    for name in ("AxisError", "ComplexWarning", "DTypePromotionError", "TooHardError", "RankWarning",
                 "VisibleDeprecationWarning"):
        assert getattr(cuarray.exceptions, name) is getattr(ne, name)


def test_ndim_shape_size_of_host_data():
    x = [[1, 2, 3], [4, 5, 6]]
    assert cuarray.ndim(x) == 2 and cuarray.shape(x) == (2, 3) and cuarray.size(x) == 6
    assert cuarray.size(x, 1) == 3


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_fields_are_python_numbers(dt):
    f, ref = cuarray.finfo(dt), numpy.finfo(dt)
    for name in ("eps", "max", "min", "smallest_normal", "tiny", "resolution", "epsneg"):
        v = getattr(f, name)
        assert type(v) is float and v == float(getattr(ref, name)), name
    for name in ("bits", "nmant", "nexp", "precision", "maxexp", "minexp"):
        assert type(getattr(f, name)) is int and getattr(f, name) == getattr(ref, name), name
    assert f.dtype == ref.dtype  # the real type for complex, as the standard says
    with pytest.raises(ValueError):
        cuarray.finfo("int32")


@pytest.mark.parametrize("dt", ["int8", "uint16", "int32", "uint64"])
def test_iinfo_fields_are_python_ints(dt):
    i, ref = cuarray.iinfo(dt), numpy.iinfo(dt)
    assert type(i.min) is int and type(i.max) is int and type(i.bits) is int
    assert (i.min, i.max, i.bits, i.dtype) == (ref.min, ref.max, ref.bits, ref.dtype)


def test_finfo_is_a_class_with_equality():
    assert isinstance(cuarray.finfo("float32"), _info.finfo)
    assert cuarray.finfo("float32") == cuarray.finfo(numpy.float32)
    assert cuarray.finfo("float32") != cuarray.finfo("float64")


def test_array_namespace_info_matches_the_standard():
    info = cuarray.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert caps["boolean indexing"] is True and caps["max dimensions"] == 64
    assert isinstance(info.devices(), tuple)  # 2025.12: a tuple, not a list
    assert all(isinstance(d, cuarray.cuda.Device) for d in info.devices())
    dd = info.default_dtypes()
    assert dd == {"real floating": numpy.dtype("float64"), "complex floating": numpy.dtype("complex128"),
                  "integral": numpy.dtype("int64"), "indexing": numpy.dtype("intp")}
    every = info.dtypes()
    assert list(every) == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                           "float32", "float64", "complex64", "complex128"]
    assert all(numpy.dtype(k) == v for k, v in every.items())
    assert list(info.dtypes(kind="integral")) == ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                                  "uint32", "uint64"]
    assert list(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex64", "complex128"]
    assert list(info.dtypes(kind="numeric")) == list(every)[1:]
    # NumPy agrees on the kinds (its own inspection namespace)
    np_info = numpy.__array_namespace_info__()
    for kind in ("bool", "signed integer", "unsigned integer", "real floating", "complex floating"):
        assert info.dtypes(kind=kind) == np_info.dtypes(kind=kind), kind
    with pytest.raises(ValueError):
        info.dtypes(kind="floating point")
    with pytest.raises(ValueError):
        info.dtypes(device="cpu")
    assert isinstance(info.default_device(), cuarray.cuda.Device)


def test_namespace_declares_version_and_extensions():
    assert cuarray.__array_api_version__ == "2025.12"
    assert hasattr(cuarray.linalg, "eigvals") and hasattr(cuarray.fft, "rfftfreq")


@pytest.mark.parametrize("order,expected", [("c", "C"), ("F", "F"), ("a", "A"), ("k", "K"), (None, "K")])
def test_normalize_order_accepts_either_case(order, expected):
    from cuarray._core.shapes import normalize_order

    assert normalize_order(order) == expected


def test_normalize_order_rejects_others():
    from cuarray._core.shapes import normalize_order

    for bad in ("X", "CF", 1):
        with pytest.raises(ValueError, match="order must be one of"):
            normalize_order(bad)
