"""SciPy's transition of random-state arguments to `rng` (SPEC 7), for the cuarray.scipy names
whose SciPy 1.18 signature still lists the old keyword (`random_state`, `seed`): the old name is
accepted as a keyword-only alias of `rng`, giving both is SciPy's TypeError, and `rng` given by
keyword is normalised by `numpy.random.default_rng` (the draws stay host work, as SciPy's)."""

from __future__ import annotations

import functools
import inspect
import numbers

import numpy

__all__ = ["rng_transition", "check_random_state"]


def check_random_state(seed):
    """SciPy's reading of a legacy seed: None is NumPy's global RandomState, an integer a new
    RandomState, a RandomState or Generator itself."""
    if seed is None or seed is numpy.random:
        return numpy.random.mtrand._rand
    if isinstance(seed, (numbers.Integral, numpy.integer)):
        return numpy.random.RandomState(seed)
    if isinstance(seed, (numpy.random.RandomState, numpy.random.Generator)):
        return seed
    raise ValueError(f"'{seed}' cannot be used to seed a numpy.random.RandomState instance")


def rng_transition(old_name, position_num=None):
    """Decorate a function whose `rng` parameter was called `old_name`: the old name becomes a
    keyword-only parameter (default None) at the end of the signature, as SciPy's decorator adds
    it (without SciPy's deprecation warnings, which it emits only with an end version)."""

    def decorator(fun):
        @functools.wraps(fun)
        def wrapper(*args, **kwargs):
            as_old = old_name in kwargs
            as_new = "rng" in kwargs
            as_pos = position_num is not None and len(args) >= position_num + 1
            if as_old + as_new + as_pos > 1:
                raise TypeError(f"{fun.__name__}() got multiple values for argument now known as `rng`. "
                                f"Specify one of `rng` or `{old_name}`.")
            if as_old:
                kwargs["rng"] = kwargs.pop(old_name)
            elif as_new:
                kwargs["rng"] = numpy.random.default_rng(kwargs["rng"])
            return fun(*args, **kwargs)

        sig = inspect.signature(fun)
        wrapper.__signature__ = sig.replace(parameters=[
            *sig.parameters.values(), inspect.Parameter(old_name, inspect.Parameter.KEYWORD_ONLY, default=None)])
        return wrapper

    return decorator
