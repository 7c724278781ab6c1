"""ElementwiseKernel's reuse of a call's binding (`_call_key` -> `_Binding`): a call whose
arguments have the types, dtypes, shapes and contiguity of an earlier one launches what the full
binding launches, with this call's scalars and pointers; anything the key does not capture (a
placeholder bound by a Python int's value, structured data, size=) is bound afresh; errors are
raised as before. On the fake device (launches recorded, kernels as placeholders)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray._core.elementwise_kernel import ElementwiseKernel


def _names(calls):
    return [c[2][0] for c in calls]


def test_a_repeated_call_launches_what_the_first_did(recorded_launches):
    k = ElementwiseKernel("T x, T y, int64 n", "T z", "z = x * y + n", "bind_probe")
    x, y, z = (cp.empty((64, 8), dtype="float32") for _ in range(3))
    k(x, y, 3, z)
    k(x, y, 3, z)
    k(x, y, 7, z)
    assert len(k._bindings) == 1
    first, second, third = recorded_launches
    assert first == second and third[:3] == first[:3]
    assert np.int64(7) in third[3:] and np.int64(3) not in third[3:]
    out = k(x, y, 3)  # an output allocated: another key
    assert out.shape == (64, 8) and out.dtype == np.float32 and len(k._bindings) == 2


def test_new_dtypes_shapes_and_layouts_bind_afresh(recorded_launches):
    k = ElementwiseKernel("T x", "T z", "z = x + x", "bind_dtypes")
    k(cp.empty(16, dtype="float32"))
    k(cp.empty(16, dtype="float64"))
    k(cp.empty((4, 4), dtype="float64"))
    assert len(k._bindings) == 3
    names = _names(recorded_launches)
    assert "float32" in names[0] and "float64" in names[1]


def test_a_raw_input_is_copied_when_not_c_contiguous(recorded_launches):
    k = ElementwiseKernel("raw T x", "T z", "z = x[i]", "bind_raw")
    a = cp.empty((8, 8), dtype="float32")
    z = cp.empty(64, dtype="float32")
    k(a, z)
    del recorded_launches[:]
    k(a.T, z)  # another key (not C-contiguous): its copy first
    k(a.T, z)
    assert len(recorded_launches) == 4 and _names(recorded_launches)[1] == _names(recorded_launches)[3]
    assert _names(recorded_launches)[1] != _names(recorded_launches)[0]


def test_a_placeholder_bound_by_a_python_int_is_bound_each_call(recorded_launches):
    k = ElementwiseKernel("T s, float32 x", "float32 y", "y = x + (float)s", "bind_pyint")
    x = cp.empty(8, dtype="float32")
    k(5, x)
    k(2**63, x)  # NumPy makes this uint64, not int64
    assert not k._bindings
    names = _names(recorded_launches)
    assert "int64" in names[0] and "uint64" in names[1]


def test_errors_on_a_reused_binding(recorded_launches):
    k = ElementwiseKernel("T x, int64 n", "T z", "z = x + n", "bind_errors")
    x, z = cp.empty(8, dtype="float32"), cp.empty(8, dtype="float32")
    k(x, 1, z)
    with pytest.raises(OverflowError):
        k(x, 2**70, z)  # the scalar's conversion, as the full binding raises it
    with pytest.raises(TypeError, match="Type is mismatched"):
        k(x, 1, cp.empty(8, dtype="float64"))
    with pytest.raises(ValueError, match="broadcast"):
        k(x, 1, cp.empty(9, dtype="float32"))
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        k(x)
    n = len(recorded_launches)
    k(x, 1, z)  # usable after the errors
    assert len(recorded_launches) == n + 1


def test_size_and_structs_are_not_reused(recorded_launches):
    k = ElementwiseKernel("raw T x", "raw T z", "z[i] = x[i]", "bind_size")
    x, z = cp.empty(8, dtype="float32"), cp.empty(8, dtype="float32")
    k(x, z, size=8)
    k(x, z, size=4)
    assert not k._bindings and len(recorded_launches) == 2
    s = ElementwiseKernel("S p, T x", "T z", "z = x + p.a", "bind_struct")
    v = np.zeros((), dtype=[("a", "f4"), ("b", "i4")])[()]
    s(v, x)
    assert not s._bindings


@pytest.mark.parametrize("params", [("int64 i", "float64 a"), ("float64 x", "float64 i"), ("raw T i", "T z"),
                                    ("float64 _n", "float64 z"), ("float64 x", "float64 _ind")])
def test_reserved_parameter_names(params):
    # A parameter `i` shadowed the flat index in the contiguous loop (`const long long i =
    # i_ptr[i]`, read before it is set): a 1-D geometric_transform mapping wrote wrong
    # coordinates on the GPU. CuPy's generated loop cannot compile such a kernel either.
    with pytest.raises(ValueError, match="reserved"):
        ElementwiseKernel(*params, "a = 1", "reserved_name")
    ElementwiseKernel("int64 r", "float64 a", "a = r + i", "index_ok")  # `i` in the operation is the index


def test_reserved_parameter_names_reduction():
    # the generated code's names (`_j`, `_in_ind`, ...) are reserved in ReductionKernel too, through
    # the one parameter parser
    from cuarray._core.reduction_kernel import ReductionKernel

    with pytest.raises(ValueError, match="reserved"):
        ReductionKernel("T _j", "T y", "_j", "a + b", "y = a", "0", "reserved_reduction")
    ReductionKernel("T i", "T y", "i", "a + b", "y = a", "0", "index_name_ok")  # (its index is `_j`)
