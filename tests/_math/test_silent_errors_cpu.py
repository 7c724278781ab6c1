"""Issue 54's host-side checks on the fake device (launches recorded, no GPU): which kernels an
integer `power` launches (the negative-exponent check after the power's own, only where an integer
loop meets a signed exponent array), that the operators' fast-path test declines exactly those
cases, and the host errors (out= shape against the mask's broadcast, initial= out of range)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray._core import device_errors
from cuarray._math import arithmetic

CHECK = "cuarray_power_negative_exponent_check_"


@pytest.fixture
def recorded_launches(recorded_launches):
    """The fake device's recording with an error buffer in fake memory (a real one is zeroed by a
    synchronous memset, which needs a device)."""
    from cuarray.cuda import device
    device_errors._buffers[device.get_device_id()] = cp.empty(4, dtype="uint64")
    return recorded_launches


def _names(calls):
    return [c[2][0] for c in calls]


@pytest.mark.parametrize("da,db", [("int64", "int64"), ("int8", "int32"), ("uint8", "int8")])
def test_power_launches_the_exponent_check(recorded_launches, da, db):
    a, b = cp.empty(8, dtype=da), cp.empty(8, dtype=db)
    for call in (lambda: cp.power(a, b), lambda: a ** b, lambda: 2 ** b, lambda: np.power(a, b)):
        del recorded_launches[:]
        call()
        names = _names(recorded_launches)
        assert len(names) == 2 and names[1] == CHECK + db, names
        assert device_errors._pending  # read at the next synchronisation


@pytest.mark.parametrize("da,db", [("float32", "int64"), ("int64", "uint8"), ("int64", "float64"),
                                   ("uint64", "int64")])
def test_power_without_check(recorded_launches, da, db):
    """A float loop (uint64 ** int64 is float64), an unsigned exponent: one launch, no check."""
    a, b = cp.empty(8, dtype=da), cp.empty(8, dtype=db)
    cp.power(a, b)
    a ** b
    assert not any(n.startswith(CHECK) for n in _names(recorded_launches))


def test_power_check_skipped_for_empty_and_masked_by_the_mask(recorded_launches):
    a, b = cp.empty((0, 3), dtype="int64"), cp.empty(3, dtype="int64")
    cp.power(a, b)
    assert not any(n.startswith(CHECK) for n in _names(recorded_launches))
    w = cp.empty(3, dtype=bool)
    cp.power(cp.empty(3, dtype="int64"), b, where=w, out=cp.empty(3, dtype="int64"))
    names = _names(recorded_launches)
    assert names[-1] == CHECK + "int64" and "multiply" in names[-2]  # the exponents where the mask is True


def test_prepared2_declines_only_the_checked_cases(recorded_launches):
    a = cp.empty(8, dtype="int64")
    f = cp.empty(8, dtype="float64")
    power = arithmetic.power
    for x, y in ((a, 2), (a, a), (f, f), (f, 3), (f, a), (a, a.astype("uint8"))):
        power(x, y)  # registers the fast path where one applies
    assert power.prepared2(a, 2) is not None and power.prepared2(f, f) is not None
    assert power.prepared2(a, -1) is None
    assert power.prepared2(a, a) is None
    assert power.prepared2(f, a) is not None  # a float loop keeps its fast path
    # add's fast path is the base class's: nothing added on ew-small's path
    assert type(cp.add).prepared2 is cp.ufunc.prepared2


def test_scalar_negative_exponent_raises_at_the_call(recorded_launches):
    a = cp.empty(8, dtype="int32")
    a ** 2
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        a ** -1
    assert len(recorded_launches) == 1


def test_device_error_channel_raises_value_error_for_negative_power():
    """The record (value, NEGATIVE_POWER, 0) is raised as NumPy's ValueError, by both readers."""
    prev = device_errors._take_error
    try:
        device_errors._take_error = lambda: (-3, device_errors.NEGATIVE_POWER, 0)
        with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
            device_errors.check_index_errors()
        with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
            device_errors.raise_now(lambda v, ax, n: IndexError("wrong"))
    finally:
        device_errors._take_error = prev


def test_out_checked_against_the_mask_broadcast(recorded_launches):
    x = cp.empty(17)
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        cp.add(x, x, out=cp.empty(17), where=cp.empty((3, 17), dtype=bool))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        cp.less(cp.empty((1, 4, 4, 17)), cp.empty((4, 17)), out=cp.empty((4, 4, 17), dtype=bool))
    assert not recorded_launches


def test_larger_out_runs_over_its_shape(recorded_launches):
    x = cp.empty(17)
    o = cp.empty((3, 17))
    cp.add(x, x, out=o)
    assert len(recorded_launches) == 1
    assert recorded_launches[0][2][1] != "flat"  # x broadcasts: the strided layout over (3, 17)


@pytest.mark.parametrize("dt,init", [("uint8", -2), ("uint64", -2), ("uint16", 70000), ("int8", 2 ** 70)])
def test_initial_out_of_range(recorded_launches, dt, init):
    with pytest.raises(OverflowError):
        np.max(np.arange(3, dtype=dt), initial=init)
    with pytest.raises(OverflowError):
        cp.max(cp.empty(3, dtype=dt), initial=init)
    assert not recorded_launches


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64"])
def test_exponent_check_kernel_compiles(dt):
    from cubin_info import compile_sm90  # tests/ is on sys.path

    d = arithmetic._negative_exponent_check(np.dtype(dt))
    for layout, nd, it in (("flat", 1, np.int32), ("vec", 1, np.int32)):
        name, src = d.source(layout, nd, it)
        cubin, _ = compile_sm90(src, [name])
        assert cubin


def test_device_error_names_the_first_operation(monkeypatch):
    """The message names the operation of the first launch given the buffer since the last check."""
    dev = 0
    monkeypatch.setattr(device_errors, "_pending", {dev})
    monkeypatch.setattr(device_errors, "_sites", {dev: "a gather (x[idx], take, take_along_axis, ...)"})

    def take():
        device_errors._pending.discard(dev)
        device_errors._last_site[0] = device_errors._sites.pop(dev, "")
        return (7, 0, 5)

    monkeypatch.setattr(device_errors, "_take_error", take)
    with pytest.raises(IndexError, match=r"index 7 is out of bounds for axis 0 with size 5 \(found on the "
                                         r"device in a gather \(x\[idx\], take"):
        device_errors.check_index_errors()


def test_error_buffer_keeps_the_first_site(recorded_launches):
    from cuarray.cuda import device
    dev = device.get_device_id()
    device_errors._pending.discard(dev)
    device_errors.error_buffer("first")
    device_errors.error_buffer("second")
    assert device_errors._sites[dev] == "first"


@pytest.mark.parametrize("shape,dt,kw", [
    ((1, 7), "uint32", dict(prepend=0, append=[[-1]], axis=0)),  # fuzz seed 3 index 61
    ((4, 4, 3, 2), "int64", dict(prepend=np.zeros((4, 4, 3, 1), "int64"), axis=-3)),  # index 82's kind
    ((3, 2, 2), "float16", dict(append=[[[-2], [0]], [[-1], [1]], [[-2], [3]]], axis=-2)),  # index 46's kind
    ((2, 3), "float32", dict(prepend=(1.0, 2.0, 3.0), axis=0)),  # 1-d: not broadcast either
    ((2, 3), "float64", dict(append="device (2, 1)", axis=0)),  # a device array: not broadcast
])
def test_diff_prepend_append_not_broadcast(recorded_launches, shape, dt, kw):
    """NumPy's diff broadcasts a 0-d prepend/append only; any other must match a's other dimensions
    (concatenate's ValueError), checked before anything is copied or launched."""
    host = np.zeros(shape, dt)
    with pytest.raises(ValueError) as want:
        np.diff(host, **{k: (np.zeros((2, 1)) if isinstance(v, str) else v) for k, v in kw.items()})
    kw = {k: (cp.empty((2, 1)) if isinstance(v, str) else v) for k, v in kw.items()}
    del recorded_launches[:]
    with pytest.raises(ValueError) as got:
        cp.diff(cp.empty(shape, dt), **kw)
    assert str(got.value) == str(want.value) and not recorded_launches


def test_diff_0d_prepend_broadcast_shape(recorded_launches):
    """A 0-d device prepend is broadcast along the other dimensions (NumPy's rule), as before."""
    r = cp.diff(cp.empty((2, 3), "float32"), prepend=cp.empty((), "float32"), append=cp.empty((2, 1), "float32"))
    assert r.shape == np.diff(np.zeros((2, 3), "float32"), prepend=0, append=np.zeros((2, 1), "float32")).shape


# initial= as NumPy's own item assignment into the loop's dtype: a Python float is truncated to an
# int and range-checked (-2.0 for uint8 is OverflowError, NaN ValueError), a NumPy integer of
# another type goes through a Python int (np.uint8(200) for int8 raises) or wraps, None is "no
# start value" (a reduction with an identity loses it), an out= of another dtype is the loop's.
_INITIALS = (-2, -2.0, -2.5, -0.5, 300.0, 2 ** 63, 2 ** 64, 1e30, float("nan"), float("inf"), 1j, None, True,
             np.int64(-2), np.uint64(2 ** 63), np.uint8(200), np.float64(1e30))
_CALLS = {
    "max": lambda xp, x, **k: xp.max(x, **k), "amin": lambda xp, x, **k: xp.amin(x, **k),
    "method": lambda xp, x, **k: x.max(**k), "nanmin": lambda xp, x, **k: xp.nanmin(x, **k),
    "sum": lambda xp, x, **k: xp.sum(x, **k), "prod": lambda xp, x, **k: xp.prod(x, **k),
    "maximum.reduce": lambda xp, x, **k: xp.maximum.reduce(x, **k),
    "fmin.reduce": lambda xp, x, **k: xp.fmin.reduce(x, **k),
}


@pytest.fixture
def reductions_recorded(recorded_launches, monkeypatch):
    """The recorder with reductions' kernels as placeholders (name, ...), on a simulated SM count."""
    from cuarray._core import reduction
    from cuarray.cuda import device

    monkeypatch.setattr(reduction.ReductionDef, "_kernel", lambda self, st: (self.name, st))
    monkeypatch.setattr(reduction, "_new_counter", lambda dev: 1 << 39)
    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)
    return recorded_launches


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 (the type is the comparison)
        return type(e).__name__
    return "value " + str(r.dtype)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dt", ["uint8", "uint32", "uint64", "int8", "bool", "float16", "complex64"])
def test_initial_raises_as_numpy(reductions_recorded, dt):
    h = np.arange(1, 7).astype(dt).reshape(2, 3)
    g = cp.empty((2, 3), dtype=dt)
    kws = ({}, {"axis": (0, 1), "keepdims": True}, {"axis": 0, "out": np.int64}, {"axis": 0, "out": np.uint8},
           {"axis": 1, "where": True}, {"axis": 0, "empty": True})
    bad = []
    for name, fn in _CALLS.items():
        for init in _INITIALS:
            for kw in kws:
                def call(xp, x, kw=kw):
                    k = dict(kw)
                    if k.pop("empty", False):
                        x = x[:0]
                    if "out" in k:
                        k["out"] = (np.zeros if xp is np else cp.empty)(3, dtype=k["out"])
                    if "where" in k:
                        k["where"] = np.ones(3, bool) if xp is np else cp.empty(3, dtype=bool)
                    return lambda: fn(xp, x, initial=init, **k)
                with np.errstate(all="ignore"):
                    want = _outcome(call(np, h))
                got = _outcome(call(cp, g))
                if want != got:
                    bad.append((name, init, kw, want, got))
    assert not bad, bad[:10]


def _init_scalar(calls):
    """The `_init` launch scalar of the last reduction launched: (stream, config, kernel, the input's
    pointer, `_init`, the output's pointer, ...)."""
    return calls[-1][4]


@pytest.mark.parametrize("dt,init,out", [
    ("uint8", np.int64(-2), None), ("int8", -2.5, None), ("uint16", np.float64(1e30), None),
    ("uint8", -2, "int64"), ("int64", -2, "uint8"), ("float16", 1e6, None), ("bool", -2, None),
    ("float32", -2.5, "float64")])
def test_initial_start_value_is_numpys(reductions_recorded, dt, init, out):
    """The start value the kernel gets is NumPy's for a slice the mask leaves empty (where all
    False); max of uint8 into an int64 out starts from -2, not 254 (its loop is int64)."""
    kw = {} if out is None else {"out": np.zeros((), out)}
    with np.errstate(all="ignore"):
        want = np.max(np.zeros(1, dt), where=np.zeros(1, bool), initial=init, **kw)
    gkw = {} if out is None else {"out": cp.empty((), dtype=out)}
    cp.max(cp.empty(4, dtype=dt), initial=init, **gkw)
    got = _init_scalar(reductions_recorded)
    assert got == want or (np.isnan(want) and np.isnan(got)), (got, want)
