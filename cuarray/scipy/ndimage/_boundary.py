"""Boundary modes of the filters: SciPy's names, the codes of templates/boundary.cuh, and a NumPy
mirror of its `map_index` (what the tests check against scipy.ndimage on the host). Pure Python."""

from __future__ import annotations

import numpy

__all__ = ["MODES", "filter_mode", "map_index"]

# Codes of templates/boundary.cuh. For filters SciPy treats grid-mirror as reflect, grid-wrap as
# wrap and grid-constant as constant (_ni_support._extend_mode_to_code(mode, is_filter=True)).
MODES = {"reflect": 0, "grid-mirror": 0, "mirror": 1, "nearest": 2, "wrap": 3, "grid-wrap": 3,
         "constant": 4, "grid-constant": 4}


def filter_mode(mode) -> int:
    """The code of a filter mode; SciPy's RuntimeError for anything else."""
    code = MODES.get(mode) if isinstance(mode, str) else None
    if code is None:
        raise RuntimeError("boundary mode not supported")
    return code


def map_index(i, n: int, code: int):
    """The index in [0, n) that position(s) i read under mode `code`, or -1 (constant outside).
    The same arithmetic as boundary.cuh's map_index, vectorised over i."""
    i = numpy.asarray(i, dtype=numpy.int64)
    inside = (i >= 0) & (i < n)
    if code == 0:
        r = numpy.mod(i, 2 * n)
        r = numpy.where(r < n, r, 2 * n - 1 - r)
    elif code == 1:
        if n == 1:
            r = numpy.zeros_like(i)
        else:
            p = 2 * n - 2
            r = numpy.mod(i, p)
            r = numpy.where(r < n, r, p - r)
    elif code == 2:
        r = numpy.where(i < 0, 0, n - 1)
    elif code == 3:
        r = numpy.mod(i, n)
    else:
        r = numpy.full_like(i, -1)
    return numpy.where(inside, i, r)
