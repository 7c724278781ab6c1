"""NumPy's scalar 0.5 rule of `power` with a 0-d exponent array (fuzz seed 7 index 81): NumPy reads
the 0-d exponent on the host and takes sqrt for 0.5 ((-inf)**0.5 is nan, (-0.0)**0.5 is -0.0,
where C's pow gives inf and 0); cuarray decides it per element on the device, in one kernel. Which
calls take that kernel (the fake device's launches), and its source compiling for sm_90."""

import numpy as np
import pytest

from cuarray._core.elementwise import Definition, KernelParam

F4, F8 = np.dtype("f4"), np.dtype("f8")


@pytest.mark.parametrize("base,exp,shape,rule", [
    (F8, F4, (), True), (F8, F8, (3,), True), (F4, F4, (2, 2), True),  # a 0-d float exponent, base's dtype
    (F4, F8, (3,), False),  # the result float64 is not the base's: NumPy's loop, no rule
    (np.dtype("f2"), np.dtype("f2"), (3,), False),  # float16's loop has no rule
])
def test_zero_d_exponent_takes_the_rule_kernel(recorded_launches, base, exp, shape, rule):
    import cuarray

    a, b = cuarray.empty(shape, base), cuarray.empty((), exp)
    del recorded_launches[:]
    cuarray.power(a, b)
    names = [c[2][0] for c in recorded_launches]
    assert len(names) == 1 and ("power_half_rule" in names[0]) == rule, names


def test_array_exponent_and_host_scalar_keep_their_paths(recorded_launches):
    import cuarray

    a = cuarray.empty((3,), F8)
    del recorded_launches[:]
    cuarray.power(a, cuarray.empty((3,), F8))  # an array exponent: NumPy's loop (pow) element by element
    cuarray.power(a, 0.5)  # a host scalar: sqrt itself
    names = [c[2][0] for c in recorded_launches]
    assert "power_half_rule" not in names[0] and "power" in names[0] and "sqrt" in names[1], names


def test_rule_kernel_compiles_for_sm90():
    from cubin_info import compile_sm90  # tests/ is on sys.path

    from cuarray._math import arithmetic

    op = arithmetic._power_half_rule._ops["dd->d"]
    assert "sqrt" in op and "sqrt" in arithmetic._power_half_rule._ops["ff->f"]
    srcs = []
    for t, e in ((F8, F8), (F4, F4)):
        d = Definition("cuarray_power_half_rule_test_{}".format(t.name),
                       [KernelParam("in0", "in", t), KernelParam("in1", "in", e, t), KernelParam("out0", "out", t)], op)
        srcs.append(d.source("flat", 1, np.int32)[1])
    cubin, _ = compile_sm90("\n".join(srcs), [])
    assert cubin
