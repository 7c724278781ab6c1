"""The ODE names of cuarray.scipy.integrate have SciPy's signatures (the installed SciPy's; 1.17
and 1.18 agree on them), and their public methods too; `solve_ivp_batched` is ours, not SciPy's."""

import inspect

import pytest
import scipy.integrate as si

from cuarray.scipy import integrate as ci

ODE_NAMES = ["solve_ivp", "OdeSolver", "DenseOutput", "OdeSolution", "RK23", "RK45", "DOP853", "Radau", "BDF", "LSODA", "odeint",
             "ode", "complex_ode"]


@pytest.mark.parametrize("name", ODE_NAMES)
def test_signature_is_scipys(name):
    ours, theirs = getattr(ci, name), getattr(si, name)
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    if inspect.isclass(theirs):
        for attr, value in vars(theirs).items():
            if callable(value) and not attr.startswith("_") or attr == "__call__":
                assert str(inspect.signature(getattr(ours, attr))) == str(inspect.signature(value)), attr
        public = {a for a in dir(theirs) if not a.startswith("_")}
        assert public <= set(dir(ours)), public - set(dir(ours))


def test_odeint_warning_class():
    assert issubclass(ci.ODEintWarning, Warning) and ci.ODEintWarning.__bases__ == si.ODEintWarning.__bases__


def test_result_fields_and_batched_name():
    assert issubclass(ci.OdeResult, dict)
    assert not hasattr(si, "solve_ivp_batched")
    params = inspect.signature(ci.solve_ivp_batched).parameters
    assert list(params)[:5] == ["fun", "t_span", "y0", "method", "args"]
