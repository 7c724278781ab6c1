"""NumPy's float32/float64 `power` loop with a stride-0 exponent (a host scalar, a 0-d array) takes
1/x, 1, sqrt, x or x*x for the exponents -1, 0, 0.5, 1, 2 (umath's POWER_FAST_PATH): (-inf)**0.5
is nan and (-0.0)**0.5 is -0.0 where C's pow gives inf and 0, and x**2 is the correctly rounded
product where CUDA's pow is within 2 ulp (fuzz seed 7 index 81; the GPU test of the 0.5 rule alone
failed at 2.0). cuarray decides it per element on the device, in one kernel. Which calls take that
kernel (the fake device's launches), and its source compiling for sm_90."""

import numpy as np
import pytest

from cuarray._core.elementwise import Definition, KernelParam

F4, F8 = np.dtype("f4"), np.dtype("f8")


@pytest.mark.parametrize("base,exp,shape,rule", [
    (F8, F4, (), True), (F8, F8, (3,), True), (F4, F4, (2, 2), True),  # a 0-d float exponent
    (F4, F8, (3,), True),  # the loop is float64's (a 0-d array is not a weak scalar): the rule too
    (np.dtype("i4"), F8, (3,), True),  # an integer base in float64's loop
    (F4, np.dtype("i8"), (3,), True),  # an integer 0-d exponent cast to float64's loop
    (np.dtype("f2"), np.dtype("f2"), (3,), False),  # float16's loop has no fast path
    (np.dtype("c8"), F4, (3,), False),  # nor complex's
])
def test_zero_d_exponent_takes_the_rule_kernel(recorded_launches, base, exp, shape, rule):
    import cuarray

    a, b = cuarray.empty(shape, base), cuarray.ones((), exp)
    del recorded_launches[:]
    cuarray.power(a, b)
    names = [c[2][0] for c in recorded_launches]
    assert ("power_scalar_rule" in names[-1]) == rule, names


@pytest.mark.parametrize("b,rule", [(0.5, True), (2, True), (2.0, True), (-1, True), (1.0, True), (0, True),
                                    (np.float64(2.0), True), (np.int8(-1), True),
                                    (2.5, False), (-0.5, False), (3, False), (True, False)])
def test_host_scalar_exponents(recorded_launches, b, rule):
    import cuarray

    a = cuarray.empty((3,), F4)
    del recorded_launches[:]
    cuarray.power(a, b)
    names = [c[2][0] for c in recorded_launches]
    assert len(names) == 1 and ("power_scalar_rule" in names[0]) == rule, names


@pytest.mark.parametrize("how", ["keyword", "positional", "inplace"])
def test_the_rule_whichever_way_out_is_given(recorded_launches, how):
    # NumPy's loop takes the rule for power(a, 0.5, o) as for out=o; cuarray's positional out
    # reached the plain power loop (pow: (-inf)**0.5 inf, not nan)
    import cuarray

    a, o = cuarray.empty((3,), F4), cuarray.empty((3,), F4)
    del recorded_launches[:]
    if how == "keyword":
        cuarray.power(a, 0.5, out=o)
    elif how == "positional":
        cuarray.power(a, 0.5, o)
    else:
        a **= 2.0
    names = [c[2][0] for c in recorded_launches]
    assert len(names) == 1 and "power_scalar_rule" in names[0], names


def test_array_exponent_and_integer_base_keep_their_paths(recorded_launches):
    import cuarray

    a = cuarray.empty((3,), F8)
    del recorded_launches[:]
    cuarray.power(a, cuarray.empty((3,), F8))  # an array exponent: NumPy's loop (pow) element by element
    cuarray.power(cuarray.empty((3,), np.int32), 2)  # the integer loop
    names = [c[2][0] for c in recorded_launches]
    assert not any("power_scalar_rule" in n for n in names), names
    with pytest.raises(ValueError, match="negative integer powers"):
        cuarray.power(cuarray.empty((3,), np.int32), -1)


def test_rule_kernel_compiles_for_sm90():
    from cubin_info import compile_sm90  # tests/ is on sys.path

    from cuarray._math import arithmetic

    for t in ("dd->d", "ff->f"):
        op = arithmetic._power_scalar_rule._ops[t]
        assert all(s in op for s in ("in0 * in0", "sqrt(in0)", "/ in0", "cuarray::power(in0, in1)")), op
    srcs = []
    for t, e in ((F8, F8), (F4, F4)):
        d = Definition("cuarray_power_scalar_rule_test_{}".format(t.name),
                       [KernelParam("in0", "in", t), KernelParam("in1", "in", e, t), KernelParam("out0", "out", t)],
                       arithmetic._power_scalar_rule._ops["dd->d" if t == F8 else "ff->f"])
        srcs.append(d.source("flat", 1, np.int32)[1])
    cubin, _ = compile_sm90("\n".join(srcs), [])
    assert cubin


@pytest.mark.parametrize("base,exp,out", [(F8, "0d", "i4"), (F4, "0d", "i2"), (F8, "0d", "?"), (F4, 0.5, "i4"),
                                          (np.dtype("i4"), 2.0, "i4")])
def test_rule_calls_raise_numpys_error_naming_power(recorded_launches, base, exp, out):
    """A call that takes the rule kernel raises NumPy's exception for the same call, with its text:
    the ufunc named is `power` (the rule's ufunc is an implementation detail of power)."""
    import cuarray

    hb, db = (np.array(0.5, base), cuarray.empty((), base)) if exp == "0d" else (exp, exp)
    with pytest.raises(Exception) as want:
        np.power(np.ones(3, base), hb, out=np.empty(3, out))
    with pytest.raises(type(want.value)) as got:
        cuarray.power(cuarray.empty((3,), base), db, out=cuarray.empty((3,), out))
    assert str(got.value) == str(want.value) and "'power'" in str(got.value)


def test_rule_ufunc_is_named_power(recorded_launches):
    """What shows the rule's ufunc by name (its repr, lazy mode's nodes, the fusion planner's
    weights) names `power`; its kernels keep their own name (cuarray_power_scalar_rule_*)."""
    import cuarray
    from cuarray._core.fusion import cost
    from cuarray._math import arithmetic

    uf = arithmetic._power_scalar_rule
    assert uf.__name__ == "power" and repr(uf) == "<ufunc 'power'>"
    assert cost.WEIGHTS.get(uf.__name__) == cost.WEIGHTS["power"] > 1.0
    a, b = cuarray.empty((3,), F8), cuarray.empty((), F8)
    with cuarray.lazy():
        y = cuarray.power(a, b)
        assert y._node.attr[0] is uf and repr(y._node) == "<Node power -> float64 (3,)>"
    del recorded_launches[:]
    cuarray.power(a, b)
    assert [c[2][0] for c in recorded_launches] == ["cuarray_power_scalar_rule_float64_float64"]
