"""Where `vectorize` finds a function's source: the `ast.FunctionDef` of a `def`, or of a lambda
picked out of its file (several lambdas on one line are told apart by the columns of their code);
and what the free names of that source are now (a compiled program is reused while they are the
same objects)."""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
import textwrap
import types

import numpy

__all__ = ["function_source", "resolve_name", "reads_hold", "stable"]

_UNBOUND = object()  # (a name bound to nothing)

_sources: dict = {}


def function_source(fn):
    """(ast.FunctionDef, source text, first line) of a plain Python function or lambda, or None
    when its source cannot be read (built-ins, ufuncs, callables, code typed at the prompt): those
    are traced instead. Several lambdas on one line are told apart by the columns of their code;
    CuPy's ValueError when that is not possible."""
    if not isinstance(fn, types.FunctionType):
        return None
    code = fn.__code__
    hit = _sources.get(code)
    if hit is not None:
        return hit
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    if fn.__name__ != "<lambda>":
        text = textwrap.dedent("".join(lines))
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return None
        if not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
            return None
        res = (tree.body[0], text, first)
    else:
        filename = code.co_filename
        full = "".join(linecache.getlines(filename))
        try:
            tree = ast.parse(full)
        except SyntaxError:
            return None
        end = first + len(lines)
        cands = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and first <= n.lineno < end
                 and len(n.args.args) == code.co_argcount]
        if len(cands) > 1:
            cands = [n for n in cands if _code_inside(code, n)]
            if len(cands) > 1:  # (a lambda holding another: the innermost whose span holds the code)
                span = lambda n: (n.end_lineno - n.lineno, n.end_col_offset - n.col_offset)  # noqa: E731
                inner = min(span(n) for n in cands)
                cands = [n for n in cands if span(n) == inner]
        if not cands:
            return None
        if len(cands) > 1:
            raise ValueError("Multiple callables are found near the definition of {}, and vectorize could not "
                             "identify the source code for it.".format(fn))
        lam = cands[0]
        node = ast.FunctionDef(name="_lambda", args=lam.args, body=[ast.Return(lam.body, lineno=lam.lineno,
                               col_offset=lam.col_offset)], decorator_list=[], returns=None, type_comment=None,
                               lineno=lam.lineno, col_offset=lam.col_offset)
        res = (node, full, 1)
    _sources[code] = res
    return res


def _code_inside(code, node) -> bool:
    """Whether every source position of `code`'s instructions lies in `node`'s span."""
    start = (node.lineno, node.col_offset)
    stop = (node.end_lineno, node.end_col_offset)
    seen = False
    for line, end_line, col, end_col in code.co_positions():
        if line is None or col is None or (line, col) == (end_line, end_col):
            continue  # (no position, or an empty span: the function's entry)
        seen = True
        if (line, col) < start or (end_line, end_col) > stop:
            return False
    return seen


# -- the names a source reads (what a cached program depends on) --

_PURE_MODULES = ("builtins", "math", "cmath", "operator")


def stable(v) -> bool:
    """Whether what the compiler makes of `v` cannot change while `v` stays the same object:
    numbers, strings, dtypes and NumPy scalar types, modules, built-ins and ufuncs, and the
    functions of NumPy, cuarray and `math` (a user's object or function may be mutated or read
    globals of its own)."""
    if type(v) in (bool, int, float, complex, str, bytes, type(None)) or isinstance(
            v, (numpy.generic, numpy.dtype, types.ModuleType, numpy.ufunc)):
        return True
    if isinstance(v, types.BuiltinFunctionType):  # (math.sqrt, len: pure; random.random, time.time: not)
        owner = getattr(v, "__self__", None)
        if owner is None:
            return True
        return isinstance(owner, types.ModuleType) and (owner.__name__ in _PURE_MODULES
                                                        or owner.__name__.split(".")[0] == "numpy")
    if isinstance(v, type):
        return issubclass(v, numpy.generic) or v.__module__ == "builtins"
    if isinstance(v, tuple):
        return all(stable(x) for x in v)
    if isinstance(v, types.FunctionType) or hasattr(v, "_resolve"):  # (cuarray's ufuncs resolve loops)
        mod = getattr(v, "__module__", None) or ""
        return mod.split(".")[0] in ("cuarray", "numpy", "math")
    return False


def resolve_name(fn, name):
    """What a free name of `fn`'s source is now: its closure cell, global or built-in (or _UNBOUND)."""
    code = fn.__code__
    if fn.__closure__ and name in code.co_freevars:
        try:
            return fn.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:
            return _UNBOUND
    g = fn.__globals__
    if name in g:
        return g[name]
    return getattr(builtins, name, _UNBOUND)


def reads_hold(fn, reads) -> bool:
    """Whether every name a cached program read still names the same object."""
    for name, v in reads:
        if resolve_name(fn, name) is not v:
            return False
    return True
