"""cuarray.scipy.special.comb / perm with exact=True (host integers, no GPU): SciPy's values and
SciPy's exceptions for non-integers and arrays. (exact=False, the array path: test_special_gpu.py.)"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

from cuarray.scipy import special as cs  # noqa: E402


@pytest.mark.parametrize("repetition", [False, True])
def test_comb_exact_matches_scipy(repetition):
    for n, k in itertools.product(range(-3, 40), range(-3, 45)):
        want = special.comb(n, k, exact=True, repetition=repetition)
        got = cs.comb(n, k, exact=True, repetition=repetition)
        assert type(got) is int and got == want, (n, k, got, want)
    big = cs.comb(1000, 500, exact=True)
    assert big == special.comb(1000, 500, exact=True)  # Python int: exact beyond float64


def test_perm_exact_matches_scipy():
    for n, k in itertools.product(range(-3, 30), range(-3, 35)):
        want, got = special.perm(n, k, exact=True), cs.perm(n, k, exact=True)
        assert type(got) is int and got == want, (n, k)
    assert cs.perm(np.array([10]), np.array(3), exact=True) == 720  # size-1 arrays squeeze, as SciPy's


@pytest.mark.parametrize("f", ["comb", "perm"])
def test_exact_errors_are_scipys(f):
    for args in ((10.5, 3), (10, 2.5), (np.array([10, 5]), 3)):
        try:
            getattr(special, f)(*args, exact=True)
        except Exception as exc:  # noqa: BLE001 (the type is what is compared)
            want = type(exc)
        else:
            want = None
        if want is None:
            getattr(cs, f)(*args, exact=True)
        else:
            with pytest.raises(want):
                getattr(cs, f)(*args, exact=True)


def test_comb_perm_refuse_lists():
    with pytest.raises(TypeError):
        cs.comb([10, 5], 3)
