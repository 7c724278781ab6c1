"""The one result class of cuarray.scipy (SciPy's `_RichResult`): keys as attributes, SciPy's print
order, and the subclasses SciPy names (`OptimizeResult`, `OdeResult`)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize as so

from cuarray.scipy._rich_result import RichResult
from cuarray.scipy.integrate import OdeResult
from cuarray.scipy.optimize import OptimizeResult


def test_keys_are_attributes():
    r = RichResult(x=np.ones(2), lamb=2.0)
    assert r.lamb == 2.0 and r["x"] is r.x and sorted(dir(r)) == ["lamb", "x"]
    r.nit = 3
    assert r["nit"] == 3
    del r.nit
    with pytest.raises(AttributeError):
        r.nit
    with pytest.raises(AttributeError):
        r.fun


def test_printed_as_scipy_prints_its_results():
    fields = dict(nit=4, x=np.array([1.0, 2.0]), success=True, fun=0.5, message="done", njev=2)

    def keys(r):
        return [line.split(":")[0].strip() for line in repr(r).splitlines()]

    assert keys(OptimizeResult(**fields)) == keys(so.OptimizeResult(**fields))
    assert repr(OptimizeResult()) == "OptimizeResult()" and repr(RichResult()) == "RichResult()"
    r = RichResult(b=1, a=2, _order_keys=["a"])
    assert repr(r).splitlines() == [" a: 2", " b: 1"]  # its own order first, private keys hidden
    multi = repr(RichResult(x=np.eye(2)))
    assert multi.splitlines()[1].startswith(" " * 4)  # a many-line value indented under its key


def test_the_subclasses_are_scipys_kinds():
    assert issubclass(OptimizeResult, RichResult) and issubclass(OdeResult, RichResult)
    assert OdeResult(t=1).t == 1
