"""cuarray.scipy.stats argument errors raised before any device work, with SciPy's exception
types (host-backed arrays, cuarray/testing/fake_device.py), and the signatures against the installed SciPy."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import stats as cst  # noqa: E402

X = np.arange(1.0, 6.0)

CASES = {
    "nan_policy": lambda m, c: m.skew(c(X), nan_policy="bogus"),
    "pearsonr-alternative": lambda m, c: m.pearsonr(c(X), c(X), alternative="x"),
    "pearsonr-short": lambda m, c: m.pearsonr(c(X[:1]), c(X[:1])),
    "pearsonr-broadcast": lambda m, c: m.pearsonr(c(X), c(X[:4])),
    # broadcastable, but of different lengths along `axis`: SciPy does not broadcast along it
    "pearsonr-axis-length": lambda m, c: m.pearsonr(c(np.ones((3, 5))), c(np.ones((1, 5)))),
    "pearsonr-axis-int": lambda m, c: m.pearsonr(c(X), c(X), axis=0.5),
    "pearsonr-complex": lambda m, c: m.pearsonr(c(X + 1j), c(X)),
    "pearsonr-method": lambda m, c: m.pearsonr(c(X), c(X), method="exact"),
    "spearmanr-alternative": lambda m, c: m.spearmanr(c(X), c(X), alternative="x"),
    "entropy-base": lambda m, c: m.entropy(c(X), base=-1),
    "entropy-shapes": lambda m, c: m.entropy(c(np.ones((3, 2))), c(np.ones((2, 2)))),
    "entropy-axis": lambda m, c: m.entropy(c(np.ones((3, 2))), axis=2),
    "entropy-axis-qk": lambda m, c: m.entropy(c(np.ones((3, 2))), c(np.ones(2)), axis=-3),
    "entropy-complex-qk": lambda m, c: m.entropy(c(X), c(X + 1j)),
    "trim_mean-too-big": lambda m, c: m.trim_mean(c(np.arange(11.0)), 0.6),
    "rankdata-method": lambda m, c: m.rankdata(c(X), method="x"),
    "pmean-p": lambda m, c: m.pmean(c(X), "1"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        CASES[case](cst, from_np)
    with pytest.raises(Exception) as theirs:
        CASES[case](stats, np.asarray)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


NAMES = """entropy zscore zmap trim_mean mode rankdata boxcox_llf gmean hmean pmean kurtosis skew moment describe
pearsonr spearmanr""".split()


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    ours = inspect.signature(getattr(cst, name))
    theirs = inspect.signature(getattr(stats, name))
    assert list(ours.parameters) == list(theirs.parameters)
    for p in ours.parameters.values():
        q = theirs.parameters[p.name]
        assert p.kind == q.kind and p.default == q.default, (name, p, q)


def test_p_values_need_no_scipy():
    """The p-values come from cuarray.scipy.special on the device: the module imports no SciPy
    (it did, lazily, for its host p-values)."""
    import ast

    from cuarray.scipy.stats import _correlation

    tree = ast.parse(inspect.getsource(_correlation))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "scipy" for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level > 0 or (node.module or "").split(".")[0] != "scipy", node.module
