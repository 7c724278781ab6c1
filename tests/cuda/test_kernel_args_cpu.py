"""Issue 54, CuPy's kernel arguments: Python scalars take the declared width of the parameter
(known from the driver's parameter sizes), host NumPy values pass by value as structs; no GPU."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import launch
from cuarray.cuda import module as m


@pytest.mark.parametrize("width,value,typ", [(4, 7, np.int32), (4, -2 ** 31, np.int32), (4, 2 ** 32 - 1, np.uint32),
                                             (2, -5, np.int16), (2, 65535, np.uint16), (1, 200, np.uint8),
                                             (1, -128, np.int8), (8, 2 ** 40, np.int64)])
def test_python_int_takes_the_parameter_width(width, value, typ):
    (c,) = m.convert_args((value,), "k", (width,))
    assert type(c) is typ and int(c) == value and c.itemsize == width


@pytest.mark.parametrize("width,value", [(4, 2 ** 32), (4, -2 ** 31 - 1), (2, 70000), (1, 256), (1, -129)])
def test_python_int_out_of_range_overflows(width, value):
    with pytest.raises(OverflowError, match="argument 0 of kernel 'k': .* does not fit its {}-byte".format(width)):
        m.convert_args((value,), "k", (width,))


def test_python_float_for_float_and_double():
    (c,) = m.convert_args((0.1,), "k", (4,))
    assert type(c) is np.float32 and c == np.float32(0.1)
    (c,) = m.convert_args((0.1,), "k", (8,))
    assert type(c) is np.float64 and c == 0.1
    with pytest.raises(TypeError, match="2-byte parameter but Python float"):
        m.convert_args((0.1,), "k", (2,))


def test_unknown_sizes_keep_cupys_widths():
    a, b = m.convert_args((5, 1.5), "k")
    assert type(a) is np.int64 and type(b) is np.float64


_DOUBLE3 = np.dtype({"names": list("xyz"), "formats": [np.float64] * 3})


def test_vector_type_view_by_value():
    rhs = np.array([1.0, 2.0, 3.0])
    (c,) = m.convert_args((rhs.view(_DOUBLE3),), "k", (24,))
    assert type(c) is launch.StructBytes and c.data == rhs.tobytes()
    (c,) = m.convert_args((np.array([1.0, 2, 3, 4], np.float32),), "k", (16,))  # a float4's bytes
    assert bytes(c.tobytes()) == np.array([1.0, 2, 3, 4], np.float32).tobytes()


def test_structured_scalar_0d_and_one_element():
    dt = np.dtype([("a", np.int32), ("b", np.float64)], align=True)
    s = np.zeros((), dt)
    s["a"], s["b"] = 3, 2.5
    for v in (s, s.reshape(1), s[()]):
        (c,) = m.convert_args((v,), "k", (16,))
        assert bytes(np.asarray(c).tobytes()) == s.tobytes()
    (c,) = m.convert_args((s.reshape(1),), "k")  # without the driver's sizes: one structured element
    assert bytes(np.asarray(c).tobytes()) == s.tobytes()


def test_packed_matrix_by_value():
    mat = np.arange(16, dtype=np.float64).reshape(4, 4)
    matrix = np.dtype({"names": ["value"], "formats": [(np.float64, (4, 4))]})
    (c,) = m.convert_args((mat.ravel().view(matrix),), "k", (128,))
    assert c.data == mat.tobytes()
    (c,) = m.convert_args((mat.T,), "k", (128,))  # C order of the values, as the view would be
    assert c.data == np.ascontiguousarray(mat.T).tobytes()


def test_size_mismatch_is_a_clear_type_error():
    unaligned = np.dtype([("a", np.int32), ("b", np.float64)])  # 12 bytes: the C struct is 16
    with pytest.raises(TypeError, match="16-byte parameter but the host NumPy array .* is 12 bytes.*align=True"):
        m.convert_args((np.zeros(1, unaligned),), "k", (16,))
    with pytest.raises(TypeError, match="8-byte parameter but the host NumPy array"):
        m.convert_args((np.zeros(3),), "k", (8,))  # a host array where a pointer is declared
    with pytest.raises(TypeError, match="numpy.ndarray"):
        m.convert_args((np.zeros(3),), "k")
