"""`squareform`, `is_valid_dm`, `is_valid_y`, `num_obs_dm`, `num_obs_y` (SciPy 1.18's checks and
messages). The conversions are one scatter or gather of the upper triangle on the device; the
validity checks read one boolean each on the host, as their answers are host values."""

from __future__ import annotations

import math
import warnings

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import zeros
from ..._creation.basic import empty
from ..._indexing.generating import triu_indices

__all__ = ["squareform", "is_valid_dm", "is_valid_y", "num_obs_dm", "num_obs_y"]


def squareform(X, force="no", checks=True):
    """See `scipy.spatial.distance.squareform`. The validity check of a matrix (`checks=True`)
    reads two booleans on the host."""
    X = as_literal_or_array(X, "squareform")
    s = X.shape
    if force.lower() == "tomatrix":
        if len(s) != 1:
            raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    elif force.lower() == "tovector":
        if len(s) != 2:
            raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if len(s) == 1:
        if s[0] == 0:
            return zeros((1, 1), dtype=X.dtype)
        d = int(math.ceil(math.sqrt(s[0] * 2)))
        if d * (d - 1) != s[0] * 2:
            raise ValueError("Incompatible vector size. It must be a binomial coefficient n choose 2 "
                             "for some integer n >= 2.")
        M = zeros((d, d), dtype=X.dtype)
        i, j = triu_indices(d, 1)
        M[i, j] = X
        M[j, i] = X
        return M
    if len(s) == 2:
        if s[0] != s[1]:
            raise ValueError("The matrix argument must be square.")
        if checks:
            is_valid_dm(X, throw=True, name="X")
        d = s[0]
        if d <= 1:
            return empty((0,), dtype=X.dtype)
        i, j = triu_indices(d, 1)
        return X[i, j]
    raise ValueError("The first argument must be one or two dimensional array. A {}-dimensional array "
                     "is not permitted".format(len(s)))


def _dm_problem(D, tol, name):
    """SciPy's first failed condition on a distance matrix, as its message; None when valid."""
    who = "Distance matrix '{}'".format(name) if name else "Distance matrix"
    if D.ndim != 2:
        return "{} must have shape=2 (i.e. be two-dimensional).".format(who)
    if D.shape[0] != D.shape[1]:  # SciPy's D == D.T fails to broadcast here
        return "{} must be symmetric.".format(who)
    diag = D.diagonal()
    if tol == 0.0:
        if not bool((D == D.T).all()):
            return "{} must be symmetric.".format(who)
        if not bool((diag == 0).all()):
            return "{} diagonal must be zero.".format(who)
    else:
        if not bool((D - D.T <= tol).all()):
            return "{} must be symmetric within tolerance {:5.5f}.".format(who, tol)
        if not bool((diag <= tol).all()):
            return "{} diagonal must be close to zero within tolerance {:5.5f}.".format(who, tol)
    return None


def is_valid_dm(D, tol=0.0, throw=False, name="D", warning=False):
    """See `scipy.spatial.distance.is_valid_dm`. A host boolean (reads the checks' answers)."""
    D = as_literal_or_array(D, "is_valid_dm")
    problem = _dm_problem(D, tol, name)
    if problem is None:
        return True
    if throw:
        raise ValueError(problem)
    if warning:
        warnings.warn(problem, stacklevel=2)
    return False


def is_valid_y(y, warning=False, throw=False, name=None):
    """See `scipy.spatial.distance.is_valid_y`. A host boolean (from the shape alone)."""
    y = as_literal_or_array(y, "is_valid_y")
    name_str = "'{}' ".format(name) if name else ""
    problem = None
    if y.ndim != 1:
        problem = "Condensed distance matrix {}must have shape=1 (i.e. be one-dimensional).".format(name_str)
    else:
        n = y.shape[0]
        d = int(math.ceil(math.sqrt(n * 2)))
        if d * (d - 1) / 2 != n:
            problem = ("Length n of condensed distance matrix {}must be a binomial coefficient, i.e. "
                       "there must be a k such that (k \\choose 2)=n)!".format(name_str))
    if problem is None:
        return True
    if throw:
        raise ValueError(problem)
    if warning:
        warnings.warn(problem, stacklevel=2)
    return False


def num_obs_dm(d):
    """See `scipy.spatial.distance.num_obs_dm`."""
    d = as_literal_or_array(d, "num_obs_dm")
    is_valid_dm(d, tol=float("inf"), throw=True, name="d")
    return d.shape[0]


def num_obs_y(Y):
    """See `scipy.spatial.distance.num_obs_y`."""
    Y = as_literal_or_array(Y, "num_obs_y")
    is_valid_y(Y, throw=True, name="Y")
    k = Y.shape[0]
    if k == 0:
        raise ValueError("The number of observations cannot be determined on an empty distance matrix.")
    return int(math.ceil(math.sqrt(k * 2)))
