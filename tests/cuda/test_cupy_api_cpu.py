"""CuPy's user API, argument validation only (no device): RawKernel/RawModule keywords,
ElementwiseKernel/ReductionKernel names and parameter lists, `size=` rules, stream constants."""

from __future__ import annotations

import inspect

import pytest

import cuarray
from cuarray._core.elementwise_kernel import check_kernel_name, check_size

SRC = 'extern "C" __global__ void f(float* x) { x[threadIdx.x] = 1; }'


def test_raw_kernel_takes_cupys_keywords():
    k = cuarray.RawKernel(SRC, "f", options=("-std=c++17",), backend="nvrtc", translate_cucomplex=False,
                          enable_cooperative_groups=True, jitify=False, name_expressions=None)
    assert k.enable_cooperative_groups and k.options == ("-std=c++17",) and k.backend == "nvrtc"
    m = cuarray.RawModule(code=SRC, options=(), backend="nvrtc", translate_cucomplex=False,
                          enable_cooperative_groups=False, name_expressions=("f",), jitify=False)
    assert m.name_expressions == ("f",)
    # CuPy's parameter names and order (positional callers rely on them)
    assert list(inspect.signature(cuarray.RawKernel).parameters)[:5] == [
        "code", "name", "options", "backend", "translate_cucomplex"]


@pytest.mark.parametrize("kwargs,match", [
    ({"jitify": True}, "jitify=True cannot be honoured"),
    ({"backend": "nvcc"}, "only the 'nvrtc' backend"),
    ({"translate_cucomplex": True}, "translate_cucomplex=True cannot be honoured"),
])
def test_values_that_cannot_be_honoured_raise_at_construction(kwargs, match):
    with pytest.raises(ValueError, match=match):
        cuarray.RawKernel(SRC, "f", **kwargs)
    with pytest.raises(ValueError, match=match):
        cuarray.RawModule(code=SRC, **kwargs)


@pytest.mark.parametrize("name", ["bad name", "1k", "k-1", "", "k()"])
def test_invalid_kernel_names_are_value_errors(name):
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cuarray.ElementwiseKernel("float32 x", "float32 y", "y = x", name)
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", name)


def test_valid_names_pass():
    for name in ("k", "_k1", "my_kernel"):
        assert check_kernel_name(name) == name


@pytest.mark.parametrize("params", ["float32", "float32 x y", "float32 x,", "raw raw x", "float32 1x"])
def test_invalid_parameter_lists_are_value_errors(params):
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel(params, "float32 y", "y = 1", "k")


def test_duplicate_and_clashing_parameters():
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("float32 x, float32 x", "float32 y", "y = x", "k")
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("float32 x", "float32 x", "x = 1", "k")
    with pytest.raises(TypeError):
        cuarray.ElementwiseKernel(["float32 x"], "float32 y", "y = x", "k")


def test_size_rules():
    assert check_size(None) is None and check_size(5) == 5
    with pytest.raises(ValueError):
        check_size(-1)
    with pytest.raises(TypeError):
        check_size(2.5)
    k = cuarray.ElementwiseKernel("", "raw float32 y", "y[i] = i", "fill_index")
    with pytest.raises(ValueError, match="non-negative"):
        k(cuarray.ndarray.__new__(cuarray.ndarray), size=-3)


def test_stream_constants_are_cudas():
    rt = cuarray.cuda.runtime
    assert (rt.streamDefault, rt.streamNonBlocking, rt.streamLegacy, rt.streamPerThread) == (0, 1, 1, 2)
    assert rt.CUDARuntimeError is cuarray.cuda.CUDARuntimeError
    assert cuarray.cuda.Stream.ptds.ptr == 2 and cuarray.cuda.Stream.null.ptr == 0
    assert cuarray.cuda.Stream.ptds != cuarray.cuda.Stream.null


def test_device_ordering_needs_no_driver():
    D = cuarray.cuda.Device
    assert D(0) < D(1) <= D(1) < D(2) and D(2) > D(0) >= D(0)
    assert sorted([D(2), D(0), D(1)]) == [D(0), D(1), D(2)]
    with pytest.raises(TypeError):
        D(0) < 1  # noqa: B015


def _shell(n=2):
    """A float32 cuarray array with no memory behind it: enough for the argument checks."""
    import numpy

    return cuarray.ndarray._view((n,), (4,), numpy.dtype(numpy.float32), None, None)


def _kernel(input_raw, output_raw):
    ins = ", ".join("{}float32 x{}".format("raw " if r else "", i) for i, r in enumerate(input_raw))
    outs = ", ".join("{}float32 y{}".format("raw " if r else "", i) for i, r in enumerate(output_raw))
    return cuarray.ElementwiseKernel(ins, outs, "", "kernel")


@pytest.mark.parametrize("input_raw, output_raw", [((False, True), (False,)), ((False, False), (True,)),
                                                   ((True, True), (False,))])
def test_size_refused_with_a_non_raw_array(input_raw, output_raw):
    # CuPy's TestElementwiseKernelSize: size= only when every array argument is raw.
    args = (_shell(), _shell(), _shell())
    if any(not r for r in input_raw) or any(not r for r in output_raw):
        with pytest.raises(ValueError, match=r"^Specified 'size' can"):
            _kernel(input_raw, output_raw)(*args, size=2)


def test_size_required_without_non_raw_arrays():
    with pytest.raises(ValueError, match=r"^Loop size is undecided\."):
        _kernel((True, True), (True,))(_shell(), _shell(), _shell())


def test_raw_output_needs_size_to_be_allocated():
    with pytest.raises(ValueError, match="^Output array size is Undecided"):
        _kernel((False, False), (True,))(_shell(), _shell())
