"""Every public name of scipy.signal and scipy.signal.windows (the installed SciPy's `__all__` less
its submodules, and the names SciPy 1.18 added that an older SciPy lacks) exists in cuarray's
module, as the same kind of object, with SciPy 1.18's parameters: names, kinds and defaults,
annotations aside, a default compared by its repr with object addresses removed (a bare
`object()` sentinel is one whatever its address).

SciPy 1.18 is the reference. Where an older SciPy's signature differs (CI's Python 3.11 has 1.17),
`SCIPY_1_18` writes 1.18's out, with what the older SciPy shows, which is checked too, so the
table cannot go stale; under 1.18 or newer the table is checked against SciPy itself."""

import inspect
import re
import types

import pytest
import scipy
import scipy.signal as ss
import scipy.signal.windows as sw

from cuarray.scipy import signal as cs
from cuarray.scipy.signal import windows as cw

SCIPY = tuple(int(v) for v in scipy.__version__.split(".")[:2])
ABSENT, NO_SIGNATURE = "absent", "no signature"

# name: (what SciPy 1.17 shows: its signature, ABSENT or NO_SIGNATURE; SciPy 1.18's parameters)
SCIPY_1_18 = {
    # new in 1.18 (scipy/signal/_whittaker.py)
    "whittaker_henderson": (ABSENT, "signal, *, lamb='reml', order=2, weights=None"),
    # a C function, given a text signature in 1.18
    "sepfir2d": (NO_SIGNATURE, "input, hrow, hcol"),
    # 1.18 made the default a float
    "sawtooth": ("(t, width=1)", "t, width=1.0"),
    # 1.18 gave the system classes' __new__ a keyword-only dt (scipy/signal/_ltisys.py)
    "dlti": ("(*system, **kwargs)", "*system, dt=None"),
    "StateSpace": ("(*system, **kwargs)", "*system, dt=None"),
    "TransferFunction": ("(*system, **kwargs)", "*system, dt=None"),
    "ZerosPolesGain": ("(*system, **kwargs)", "*system, dt=None"),
}


def _default(value):
    if value is inspect.Parameter.empty:
        return "<no default>"
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


def _params_of(signature):
    return [(p.name, p.kind.name, _default(p.default)) for p in signature.parameters.values()]


def parameters(obj):
    """(name, kind, default) of each parameter, or NO_SIGNATURE where inspect finds none (an
    exception class's C constructor)."""
    try:
        return _params_of(inspect.signature(obj))
    except ValueError:
        return NO_SIGNATURE


def of_1_18(params):
    return _params_of(inspect.signature(eval("lambda {}: None".format(params))))


def kind(obj):
    """What sort of object a public name is: a class (with its nearest builtin base), a function."""
    if isinstance(obj, type):
        base = next(b for b in obj.__mro__ if b.__module__ == "builtins")
        return "class", base.__name__
    return "callable" if callable(obj) else type(obj).__name__


def _public(module):
    return [n for n in module.__all__ if not isinstance(getattr(module, n), types.ModuleType)]


NAMES = ([("signal", n) for n in sorted(set(_public(ss)) | set(SCIPY_1_18))]
         + [("windows", n) for n in _public(sw)])


def reference(module, name):
    """SciPy 1.18's (kind, parameters) of the name."""
    installed = getattr(module, name, None)
    if name in SCIPY_1_18 and module is ss and SCIPY < (1, 18):
        old, new = SCIPY_1_18[name]
        shown = ABSENT if installed is None else parameters(installed)
        if shown not in (ABSENT, NO_SIGNATURE):
            shown = str(inspect.signature(installed))
        assert shown == old, "SciPy {}'s {} is {!r}, recorded as {!r}".format(scipy.__version__, name, shown, old)
        return kind(installed) if installed is not None else "callable", of_1_18(new)  # (absent: a function)
    assert installed is not None, name
    return kind(installed), parameters(installed)


@pytest.mark.parametrize("where, name", NAMES, ids=["{}.{}".format(*n) for n in NAMES])
def test_name_has_scipy_1_18s_parameters(where, name):
    scipy_module, ours = (ss, cs) if where == "signal" else (sw, cw)
    want_kind, want = reference(scipy_module, name)
    assert hasattr(ours, name), "cuarray.scipy.{} has no {}".format(where, name)
    got = getattr(ours, name)
    assert kind(got) == want_kind, (kind(got), want_kind)
    assert parameters(got) == want


@pytest.mark.parametrize("name", sorted(SCIPY_1_18))
def test_the_table_is_scipy_1_18s(name):
    if SCIPY < (1, 18):
        pytest.skip("SciPy {} is older than the table's 1.18 (the test above checks what it shows)".format(
            scipy.__version__))
    assert parameters(getattr(ss, name)) == of_1_18(SCIPY_1_18[name][1])


def test_every_name_was_read():
    assert len(NAMES) > 180  # scipy.signal's ~158 names and its windows' 26
    assert ("signal", "whittaker_henderson") in NAMES and ("windows", "dpss") in NAMES


def test_defaults_compare_without_addresses():
    sentinel_a, sentinel_b = object(), object()

    def f(x, *, a=sentinel_a):
        pass

    def g(x, *, a=sentinel_b):
        pass

    def h(x, *, a=1):
        pass

    def k(x, *, a=1.0):
        pass

    assert parameters(f) == parameters(g)
    assert parameters(h) != parameters(k)  # (1 and 1.0 are different defaults)
    assert parameters(f) != parameters(h)
