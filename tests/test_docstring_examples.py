"""The Examples sections of the docstrings a new user reads first run as written: those that need
no device here (CI has none), the rest under the `gpu` marker. docs/api_pages.py puts these
docstrings on the site; this keeps their examples true."""

from __future__ import annotations

import doctest

import pytest

import cuarray

# (name under cuarray, needs a device to run its Examples)
EXAMPLES = [
    ("get_array_module", False),
    ("result_type", False),
    ("fuse", False),
    ("lazy", False),
    ("asarray", True),
    ("zeros", True),
    ("arange", True),
    ("linspace", True),
    ("asnumpy", True),
    ("sum", True),
    ("where", True),
    ("reshape", True),
    ("concatenate", True),
    ("ElementwiseKernel", True),
]


def _run(name):
    obj = getattr(cuarray, name)
    finder = doctest.DocTestFinder(recurse=False)
    (test,) = finder.find(obj, "cuarray." + name, globs={})
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    result = runner.run(test, out=out.append)
    assert result.attempted > 0, "cuarray.{} has no examples".format(name)
    assert result.failed == 0, "".join(out)


@pytest.mark.parametrize("name", [n for n, dev in EXAMPLES if not dev])
def test_examples_run_without_a_device(name):
    _run(name)


@pytest.mark.gpu
@pytest.mark.parametrize("name", [n for n, dev in EXAMPLES if dev])
def test_examples_run_on_the_device(name):
    _run(name)


@pytest.mark.parametrize("name", [n for n, _ in EXAMPLES])
def test_examples_are_a_numpydoc_section(name):
    doc = getattr(cuarray, name).__doc__
    assert "\n    Examples\n    --------\n" in doc or "\nExamples\n--------\n" in doc
