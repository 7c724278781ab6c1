"""Two ways to define a kernel inside cuarray, no more (docs/architecture.md, "Rules"):

- kernels the engine writes: its `Definition`s (`_core/elementwise.py`: ufunc-like),
  `ReductionDef`s (`_core/reduction.py`: reduction-like), scans and fused kernels, built from a
  parameter list and C expressions (calling functions of a `templates/` header where the body is
  more than an expression). scipy.special's ufunc tables are of this form already: each special
  function is a cuarray `ufunc` whose loops are the engine's `Definition`s (checked below);
- `.cu` templates declared as a `KernelFamily` (`cuda/kernel_family.py`).

The CuPy-style classes (`ElementwiseKernel`, `ReductionKernel`, `RawKernel`, `RawModule`) are the
users' API: cuarray's own code does not construct them (nor subclass them) outside the modules that
define them. A routine may still accept a user's kernel object (ndimage's `generic_filter` takes a
RawKernel or a ReductionKernel; `geometric_transform` an ElementwiseKernel): an `isinstance` test
is not a use. And only the engine (`_core/`) and the runtime (`cuda/`) reach the compiler or
`kernel_family.generated` (the generated kernels' cache).
"""

from __future__ import annotations

import ast

import numpy as np

from test_rules import _calls_into, _files, _imported, _rel, _tree  # tests/ is on sys.path

USER_CLASSES = {
    "cuarray._core.elementwise_kernel.ElementwiseKernel",
    "cuarray._core.reduction_kernel.ReductionKernel",
    "cuarray.cuda.raw.RawKernel",
    "cuarray.cuda.raw.RawModule",
}
_SHORT = {name.rpartition(".")[2] for name in USER_CLASSES}
# The modules that define (or lazily export, by name in a string) the users' classes.
DEFINERS = {"_core/elementwise_kernel.py", "_core/reduction_kernel.py", "cuda/raw.py"}
ENGINE = ("_core/", "cuda/")


def _user_class(node, imported) -> bool:
    """Whether `node` (a call's callee or a base class) names one of the users' classes: a name
    imported from its module (under any alias), or an attribute of that name (``cuarray.RawKernel``)."""
    if isinstance(node, ast.Name):
        return imported.get(node.id) in USER_CLASSES
    return isinstance(node, ast.Attribute) and node.attr in _SHORT


def _offenders() -> dict:
    found = {}
    for path in _files():
        rel = _rel(path)
        if rel in DEFINERS:
            continue
        tree = _tree(path)
        imported = _imported(path, tree)
        lines = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _user_class(node.func, imported):
                lines.append(node.lineno)
            elif isinstance(node, ast.ClassDef) and any(_user_class(b, imported) for b in node.bases):
                lines.append(node.lineno)
        if lines:
            found[rel] = sorted(lines)
    return found


def test_no_user_kernel_classes_inside_cuarray():
    """No module of cuarray/ (but the classes' own) builds an ElementwiseKernel, ReductionKernel,
    RawKernel or RawModule: its kernels are engine Definitions or a KernelFamily's."""
    found = _offenders()
    assert not found, "the users' kernel classes used inside cuarray/ (write an engine Definition or a " \
                      "KernelFamily over a templates/ .cu file instead): {}".format(
                          ["{} lines {}".format(k, v) for k, v in sorted(found.items())])


def test_only_the_engine_reaches_the_compiler():
    """Outside _core/ and cuda/, nothing compiles CUDA source (`compiler.compile_module`,
    `compile_cubin`) or builds a generated kernel (`kernel_family.generated`): a routine's
    kernels are its KernelFamily's or the engine's."""
    found = {}
    for path in _files():
        rel = _rel(path)
        if rel.startswith(ENGINE):
            continue
        tree = _tree(path)
        imported = _imported(path, tree)
        lines = list(_calls_into(tree, imported, "cuarray.cuda.compiler", ("compile_module", "compile_cubin")))
        lines += _calls_into(tree, imported, "cuarray.cuda.kernel_family", ("generated",))
        if lines:
            found[rel] = sorted(set(lines))
    assert not found, "compiles outside the engine and the kernel families: {}".format(found)


def test_special_ufunc_tables_are_engine_definitions():
    """scipy.special's ufunc tables are the first form: every special function that SciPy makes a
    ufunc is a cuarray ufunc, and its loops' kernels are the engine's `Definition`s."""
    import scipy.special as ss

    from cuarray._core.elementwise import Definition
    from cuarray._core.ufunc import ufunc
    from cuarray.scipy import special as cs

    names = [n for n in dir(cs) if isinstance(getattr(ss, n, None), np.ufunc)]
    assert len(names) > 100
    for name in names:
        uf = getattr(cs, name)
        assert isinstance(uf, ufunc), "scipy.special.{} is not a cuarray ufunc: {!r}".format(name, uf)
        sig = uf.types[0]
        loop = uf._resolve(tuple(np.dtype(c) for c in sig.split("->")[0]), None, "same_kind")
        d = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
        assert type(d) is Definition, (name, type(d))
