"""`vectorize`'s compiler: the function's Python source read as a small statically typed language
(CuPy's `vectorize` reads the same subset), one C++ lambda per call signature.

The function's AST is interpreted abstractly. A value is either a Python object known when the
kernel is built (numbers, closures, modules, NumPy types: computed in Python, as NumPy would) or an
element (`_Element`, a typed C expression); operators and ufuncs on elements are resolved by the
tracer of `vectorize.py`, exactly as the ufunc would be (NEP 50 weak Python scalars). Statements
become C++: `if`/`elif`/`else` and conditional expressions on elements become C `if`s, `for i in
range(...)` and `while` become C loops (`break`/`continue` included), `return` assigns the outputs.

A name holds one value at a time; where paths meet (after an `if`, at a loop's head) and disagree,
the name becomes a C variable of the promoted type of what the paths hold (a Python number is weak,
as in NumPy 2), and each path assigns it (a `_Fixup`). Loops are compiled again until their head
types no longer change, so `y = 0` followed by `y += x` in a loop over float32 `x` makes `y`
float32, which is what NumPy's scalars would give.
"""

from __future__ import annotations

import ast
import math
import operator
import types

import numpy

from .._core import dtypes as _dtypes
from .._core import registry as _registry
from .._core.elementwise import compute_ctype
from .vectorize_builtins import _B, Builtins
from .vectorize_source import _UNBOUND, function_source, reads_hold, resolve_name, stable as _stable

__all__ = ["function_source", "reads_hold", "compile_body"]  # (the first two: vectorize_source's)

_NUMBERS = (bool, int, float, complex, numpy.generic)
_MAX_LOOP_PASSES = 16

_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_, ast.BitXor: operator.xor,
}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}

class _Fixup:
    """Assignments that make the bindings of one path (`env`) agree with those where it joins
    others (`target`, known once the join is computed)."""

    __slots__ = ("env", "target")

    def __init__(self, env):
        self.env = env
        self.target = None


class _Block:
    __slots__ = ("head", "items")

    def __init__(self, head, items):
        self.head = head
        self.items = items


class _Ret:
    __slots__ = ("values", "is_tuple")

    def __init__(self, values, is_tuple):
        self.values = values
        self.is_tuple = is_tuple


class _Range:
    __slots__ = ("args",)

    def __init__(self, args):
        self.args = args


class _NodeError(Exception):
    """An error of the compiled function, with the statement or expression that raised it."""

    def __init__(self, exc, node):
        super().__init__(str(exc))
        self.exc = exc
        self.node = node


# ---------------------------------------------------------------------------------------------
# The compiler


def _is_element(v) -> bool:
    return hasattr(v, "_tracer") and hasattr(v, "expr")


def _same(a, b) -> bool:
    if a is b:
        return True
    ea, eb = _is_element(a), _is_element(b)
    if ea or eb:
        return ea and eb and a.expr == b.expr and a.dtype == b.dtype and a.weak == b.weak
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


_PROXY = {"b": False, "i": 0, "f": 0.0, "c": 0j}


def _promotion_item(v):
    """What stands for `v` in NEP 50 promotion: a weak element as a Python number of its kind."""
    if _is_element(v):
        return _PROXY[v.dtype.kind] if v.weak else v.dtype
    return v


def _is_weak(v) -> bool:
    return v.weak if _is_element(v) else type(v) in (bool, int, float, complex)


def _unify(vals):
    """(dtype, weak) of one value standing for any of `vals` (numbers or elements): all Python
    numbers keep NumPy's default types and stay weak; otherwise NEP 50 promotion."""
    if all(_is_weak(v) for v in vals):
        dts = [v.dtype if _is_element(v) else numpy.asarray(v).dtype for v in vals]
        return _dtypes.result_type(*dts), True
    return _dtypes.result_type(*[_promotion_item(v) for v in vals]), False


class FunctionCompiler(Builtins):
    """Compiles one call of the function: `compile(bound arguments)` then `render()`."""

    def __init__(self, tracer, element_type, fn, tree, source, first_line):
        self.tr = tracer
        self.Element = element_type
        self.fn = fn
        self.tree = tree
        self.source = source
        self.first_line = first_line
        self.decls = {}  # C variable -> dtype
        self.returns = []
        self.depth = 0  # > 0 inside control flow that depends on an element, or a loop
        self.loops = []
        self.env = {}
        self.terminated = False
        self.nloop = 0
        self.reads = []  # (name, value) of every closure/global/builtin name the source read
        self.cacheable = True  # whether the program depends only on `reads` (by identity)

    # -- driver --------------------------------------------------------------------------------
    def compile(self, bound: dict):
        a = self.tree.args
        if a.kwonlyargs and not all(k.arg in bound for k in a.kwonlyargs):
            raise NotImplementedError("keyword only arguments are not supported currently.")
        self.env = dict(bound)
        self.tr.lines = self.items = []
        try:
            self._block(self.tree.body)
        except _NodeError as e:
            self._reraise(e)
        if not self.returns:
            raise TypeError("Invalid return type: void (vectorize: {} returns no value)".format(self._name()))
        if not self.terminated:
            raise TypeError("vectorize: {} can reach its end without returning a value (None is not an "
                            "element)".format(self._name()))
        n = {len(r.values) for r in self.returns}
        if len(n) != 1:
            raise ValueError("Failed to infer the return type: {} returns {} values".format(
                self._name(), " or ".join(str(k) for k in sorted(n))))

    def out_dtypes(self):
        """The dtype of each output: the promoted type of what the returns give at that place."""
        outs = []
        for k in range(len(self.returns[0].values)):
            vals = [r.values[k] for r in self.returns]
            for v in vals:
                if not (_is_element(v) or isinstance(v, _NUMBERS)):
                    raise TypeError("Invalid return type: vectorize: {} returns a {}; it must return elements "
                                    "or numbers".format(self._name(), type(v).__name__))
            outs.append(_unify(vals)[0])
        return outs

    def render(self, out_dts) -> str:
        """The C++ of the call: a lambda run once per element (so `return` can leave it)."""
        self._out_dts = out_dts
        body = []
        self._render(self.items, body, 2)
        decls = ["    {} {}{{}};".format(compute_ctype(dt), n) for n, dt in self.decls.items()]
        return "\n".join(["[&]() -> void {"] + decls + body + ["  }();"])

    def _name(self):
        return getattr(self.fn, "__qualname__", "the function")

    def _reraise(self, e):
        node = e.node
        start = getattr(node, "lineno", None)
        text = str(e.exc)
        if start is not None:
            end = getattr(node, "end_lineno", start) or start
            lines = self.source.split("\n")
            lo, hi = max(start - 1, 0), min(end, len(lines))
            if self.fn.__name__ == "<lambda>":
                listing = ["> " + l.rstrip() for l in lines[lo:hi]]
            else:
                listing = [("> " if start <= i + 1 <= end else "  ") + l.rstrip() for i, l in enumerate(lines)]
            text = "{}\n\n{}".format(text, "\n".join(listing).rstrip())
        try:
            new = type(e.exc)(text)
        except Exception:
            raise e.exc from None
        raise new from None

    # -- emission ------------------------------------------------------------------------------
    def _emit(self, item):
        self.tr.lines.append(item)

    def _temp(self, dt):
        name = "t%d" % self.tr.ntemp
        self.tr.ntemp += 1
        return name

    def _var(self, name, dt, weak=False):
        cname = "l_{}_{}".format(name, dt.name)
        self.decls[cname] = dt
        return self.Element(self.tr, dt, cname, weak)

    def _c_value(self, v, dt) -> str:
        """C expression of value `v` converted to `dt`'s compute type."""
        ct = compute_ctype(dt)
        if _is_element(v):
            return v.expr if v.dtype == dt else "cuarray::cast<{}>({})".format(ct, v.expr)
        if not isinstance(v, _NUMBERS):
            raise TypeError("vectorize: a {} cannot be an element".format(type(v).__name__))
        return self.tr.const(v, dt)

    def _cast(self, v, dt, weak=False):
        """Element `v` as `dt` (an explicit cast: C's conversion rules, NumPy's for complex)."""
        if dt.kind == "b":
            v = self._truth(v)
        t = self._temp(dt)
        self._emit("const {} {} = {};".format(compute_ctype(dt), t, self._c_value(v, dt)))
        return self.Element(self.tr, dt, t, weak)

    def _truth(self, v):
        """A bool element: `v`'s truth as Python's `bool(v)` (nonzero; complex: either part)."""
        if v.dtype.kind == "b":
            return v
        return self.tr.apply(self._uf("not_equal"), (v, 0))

    def _uf(self, name):
        return _registry.ufuncs[name]

    # -- statements ----------------------------------------------------------------------------
    def _block(self, stmts):
        for s in stmts:
            if self.terminated:
                break
            try:
                self._stmt(s)
            except _NodeError:
                raise
            except Exception as e:
                raise _NodeError(e, s) from e

    def _sub(self, stmts, env, prelude=None):
        saved = (self.tr.lines, self.env, self.terminated)
        items = []
        self.tr.lines, self.env, self.terminated = items, dict(env), False
        try:
            if prelude is not None:
                prelude()
            if not self.terminated:
                self._block(stmts)
            fix = None
            if not self.terminated:
                fix = _Fixup(dict(self.env))
                items.append(fix)
            return items, self.env, self.terminated, fix
        finally:
            self.tr.lines, self.env, self.terminated = saved

    def _stmt(self, s):
        if isinstance(s, ast.Return):
            if s.value is None:
                raise TypeError("Invalid return type: void (a bare `return`)")
            v = self._expr(s.value)
            vals = v if isinstance(v, tuple) else (v,)
            for x in vals:
                if isinstance(x, tuple):
                    raise TypeError("Invalid return type: a nested tuple")
                if x is None:
                    raise TypeError("Invalid return type: None")
            r = _Ret(tuple(vals), isinstance(v, tuple))
            self.returns.append(r)
            self._emit(r)
            self.terminated = True
        elif isinstance(s, ast.Assign):
            v = self._expr(s.value)
            for t in s.targets:
                self._assign(t, v)
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise NotImplementedError("vectorize: augmented assignment to a {} is not supported".format(
                    type(s.target).__name__))
            cur = self._load(s.target.id)
            self._bind(s.target.id, _BINOPS[type(s.op)](cur, self._expr(s.value)))
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self._assign(s.target, self._expr(s.value))
        elif isinstance(s, ast.If):
            self._if(s)
        elif isinstance(s, ast.For):
            self._for(s)
        elif isinstance(s, ast.While):
            self._while(s)
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                raise SyntaxError("'{}' outside loop".format("break" if isinstance(s, ast.Break) else "continue"))
            fix = _Fixup(dict(self.env))
            self.loops[-1]["breaks" if isinstance(s, ast.Break) else "conts"].append(fix)
            self._emit(fix)
            self._emit("break;" if isinstance(s, ast.Break) else "continue;")
            self.terminated = True
        elif isinstance(s, ast.Expr):
            self._expr(s.value)
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Assert):
            v = self._expr(s.test)
            if not _is_element(v):
                assert v
        elif isinstance(s, ast.ClassDef):
            raise NotImplementedError("class is not supported currently.")
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise NotImplementedError("Nested functions are not supported currently.")
        elif isinstance(s, ast.Delete):
            raise NotImplementedError("`del` is not supported currently.")
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            raise ValueError("Switching contexts are not allowed.")
        elif isinstance(s, (ast.Raise, ast.Try)):
            raise ValueError("throw/catch are not allowed.")
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            raise ValueError("Cannot import modules from the target functions.")
        elif isinstance(s, (ast.Global, ast.Nonlocal)):
            raise ValueError("Cannot use global/nonlocal in the target functions.")
        elif isinstance(s, ast.AsyncFor):
            raise ValueError("`async for` is not allowed.")
        else:
            raise ValueError("Not supported: type {}".format(type(s)))

    def _assign(self, target, v):
        if isinstance(target, ast.Name):
            self._bind(target.id, v)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(v, (tuple, list)):
                if _is_element(v):
                    raise TypeError("cannot unpack a non-iterable element")
                v = tuple(v)
            n = len(target.elts)
            if len(v) > n:
                raise ValueError("too many values to unpack (expected {})".format(n))
            if len(v) < n:
                raise ValueError("not enough values to unpack (expected {}, got {})".format(n, len(v)))
            # The right side is read before any name is bound (`x, y = y, x`): C variables copied first.
            vals = [self._snapshot(x) for x in v]
            for t, x in zip(target.elts, vals):
                self._assign(t, x)
        else:
            raise NotImplementedError("vectorize: assignment to a {} is not supported".format(type(target).__name__))

    def _snapshot(self, v):
        if isinstance(v, tuple):
            return tuple(self._snapshot(x) for x in v)
        if _is_element(v) and v.expr in self.decls:
            t = self._temp(v.dtype)
            self._emit("const {} {} = {};".format(compute_ctype(v.dtype), t, v.expr))
            return self.Element(self.tr, v.dtype, t)
        return v

    def _bind(self, name, v):
        if _is_element(v):
            var = self._var(name, v.dtype, v.weak)
            if var.expr != v.expr:
                self._emit("{} = {};".format(var.expr, v.expr))
            self.env[name] = var
        elif isinstance(v, tuple):
            if self.depth:
                raise TypeError("vectorize: a tuple cannot be assigned inside a branch or loop that depends on "
                                "an element (`{}`); unpack it instead".format(name))
            self.env[name] = self._snapshot(v)
        elif isinstance(v, _NUMBERS):
            self.env[name] = v
        else:
            if self.depth:
                raise TypeError("Cannot assign constant value not at top-level. (`{}` = a {}, inside control "
                                "flow that depends on an element)".format(name, type(v).__name__))
            self.env[name] = v

    def _join(self, envs):
        """Bindings where the paths `envs` meet: a name the paths disagree on becomes a C variable
        of the promoted type (each path assigns it through its `_Fixup`)."""
        out = {}
        names = []
        for e in envs:
            for n in e:
                if n not in out and n not in names:
                    names.append(n)
        for n in names:
            bound = [b for b in (e.get(n, _UNBOUND) for e in envs) if b is not _UNBOUND]
            if all(_same(b, bound[0]) for b in bound[1:]):
                out[n] = bound[0]
                continue
            for b in bound:
                if not (_is_element(b) or isinstance(b, _NUMBERS)):
                    raise TypeError("Data type mismatch of variable: `{}` holds a {} on one path and something "
                                    "else on another".format(n, type(b).__name__))
            out[n] = self._var(n, *_unify(bound))
        return out

    def _if(self, s):
        test = self._expr(s.test)
        if not _is_element(test):
            self._block(s.body if test else s.orelse)  # decided now: the other branch is not compiled
            return
        c = self._truth(test)
        self.depth += 1
        try:
            e0 = dict(self.env)
            it, et, tt, ft = self._sub(s.body, e0)
            ie, ee, te, fe = self._sub(s.orelse, e0)
        finally:
            self.depth -= 1
        self._emit(_Block("if ({})".format(c.expr), it))
        if ie:
            self._emit(_Block("else", ie))
        live = [(e, f) for e, t, f in ((et, tt, ft), (ee, te, fe)) if not t]
        if not live:
            self.terminated = True
            return
        j = self._join([e for e, _ in live])
        for _, f in live:
            f.target = j
        self.env = j

    def _range(self, it):
        if not isinstance(it, _Range):
            raise NotImplementedError("for-loop is supported only for range iterator.")
        args = it.args
        if not 1 <= len(args) <= 3:
            raise TypeError("range expected 1 to 3 arguments, got {}".format(len(args)))
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], 1) if len(args) == 2 else args
        for a in (start, stop, step):
            if _is_element(a) and a.dtype.kind not in "iub" or not _is_element(a) and not isinstance(
                    a, (int, numpy.integer)):
                raise TypeError("range supports only for integer type.")
        if not _is_element(step) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        return start, stop, step

    def _for(self, s):
        if s.orelse:
            raise NotImplementedError("for-else is not supported.")
        if not isinstance(s.target, ast.Name):
            raise NotImplementedError("vectorize: the target of a for loop must be a name")
        start, stop, step = self._range(self._expr(s.iter))
        k = self.nloop
        self.nloop += 1
        i64 = numpy.dtype("i8")
        c = [self._c_value(v, i64) for v in (start, stop, step)]
        it, st, sp = "_it%d" % k, "_stop%d" % k, "_step%d" % k
        if not _is_element(step):
            cond = "{} < {}".format(it, st) if step > 0 else "{} > {}".format(it, st)
        else:
            cond = "({sp} > 0 ? {it} < {st} : {sp} < 0 && {it} > {st})".format(sp=sp, it=it, st=st)
        name = s.target.id

        def prelude():
            self._bind(name, self.Element(self.tr, i64, it, True))  # (Python ints: weak)

        self._loop(s.body, "for (long long {} = {}, {} = {}, {} = {}; ; {} += {})".format(
            it, c[0], st, c[1], sp, c[2], it, sp), lambda: self.Element(self.tr, _B, cond), prelude)

    def _while(self, s):
        if s.orelse:
            raise NotImplementedError("while-else is not supported.")
        self._loop(s.body, "for (;;)", lambda: self._expr(s.test), None)

    def _loop(self, body, head, condition, prelude):
        """One C loop: its head bindings found by compiling the body until they stop changing."""
        e0 = dict(self.env)
        entry_fix = _Fixup(e0)
        self._emit(entry_fix)
        entry = e0
        self.depth += 1
        try:
            nconsts = len(self.tr.consts)
            for _ in range(_MAX_LOOP_PASSES):
                del self.tr.consts[nconsts:]  # (the constants of a pass that is compiled again)
                rec = {"breaks": [], "conts": [], "exit": None, "always": False}

                def start():
                    cv = condition()
                    if not _is_element(cv):
                        if not cv:  # (never true at the head: the loop ends here)
                            rec["exit"] = _Fixup(dict(self.env))
                            self._emit(rec["exit"])
                            self._emit("break;")
                            self.terminated = True
                            return
                        rec["always"] = True
                    else:
                        rec["exit"] = _Fixup(dict(self.env))
                        self._emit(_Block("if (!({}))".format(self._truth(cv).expr), [rec["exit"], "break;"]))
                    if prelude is not None:
                        prelude()

                self.loops.append(rec)
                try:
                    items, env_end, term, fix_end = self._sub(body, entry, start)
                finally:
                    self.loops.pop()
                back = ([] if term else [env_end]) + [f.env for f in rec["conts"]]
                joined = self._join([e0] + back)
                if all(n in entry and _same(joined[n], entry[n]) for n in joined):
                    break
                entry = joined
            else:
                raise TypeError("vectorize: the types of the loop's variables do not settle")
        finally:
            self.depth -= 1
        entry_fix.target = entry
        for f in rec["conts"] + ([fix_end] if fix_end is not None else []):
            f.target = entry
        exits = ([rec["exit"]] if rec["exit"] is not None else []) + rec["breaks"]
        self._emit(_Block(head, items))
        if not exits:
            self.terminated = True
            return
        after = self._join([f.env for f in exits])
        for f in exits:
            f.target = after
        self.env = after

    # -- expressions ---------------------------------------------------------------------------
    def _expr(self, e):
        try:
            return self._expr_inner(e)
        except _NodeError:
            raise
        except Exception as exc:
            raise _NodeError(exc, e) from exc

    def _load(self, name):
        v = self.env.get(name, _UNBOUND)
        if v is not _UNBOUND:
            return v
        v = resolve_name(self.fn, name)
        if v is _UNBOUND:
            raise NameError("name '{}' is not defined".format(name))
        self.reads.append((name, v))
        if not _stable(v):
            self.cacheable = False
        return v

    def _expr_inner(self, e):
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Name):
            return self._load(e.id)
        if isinstance(e, ast.BinOp):
            return _BINOPS[type(e.op)](self._expr(e.left), self._expr(e.right))
        if isinstance(e, ast.UnaryOp):
            v = self._expr(e.operand)
            if isinstance(e.op, ast.Not):
                return self.tr.apply(self._uf("logical_not"), (v,)) if _is_element(v) else not v
            return _UNARY[type(e.op)](v)
        if isinstance(e, ast.Compare):
            return self._compare(e)
        if isinstance(e, ast.BoolOp):
            return self._boolop(e.op, e.values)
        if isinstance(e, ast.IfExp):
            c = self._expr(e.test)
            if not _is_element(c):
                return self._expr(e.body if c else e.orelse)
            return self._select(self._truth(c), lambda: self._expr(e.body), lambda: self._expr(e.orelse))
        if isinstance(e, ast.Call):
            return self._call(e)
        if isinstance(e, ast.Attribute):
            v = self._expr(e.value)
            if _is_element(v):
                return self._attribute(v, e.attr)
            return getattr(v, e.attr)
        if isinstance(e, ast.Subscript):
            v, i = self._expr(e.value), self._expr(e.slice)
            if _is_element(v) or _is_element(i):
                raise TypeError("vectorize: an element cannot be indexed or be an index")
            return v[i]
        if isinstance(e, ast.Tuple):
            return tuple(self._starred(e.elts))
        if isinstance(e, ast.List):
            return list(self._starred(e.elts))
        if isinstance(e, ast.Slice):
            return slice(*[None if x is None else self._expr(x) for x in (e.lower, e.upper, e.step)])
        if isinstance(e, ast.Lambda):
            raise NotImplementedError("Not implemented: a lambda inside a vectorized function")
        raise ValueError("Not supported: type {}".format(type(e)))

    def _starred(self, elts):
        out = []
        for x in elts:
            if isinstance(x, ast.Starred):
                out.extend(self._expr(x.value))
            else:
                out.append(self._expr(x))
        return out

    def _compare(self, e):
        operands = [e.left] + list(e.comparators)
        left = self._expr(operands[0])
        result = None
        for op, node in zip(e.ops, operands[1:]):
            right = self._expr(node)
            if type(op) not in _COMPARE:
                if _is_element(left) or _is_element(right):
                    raise TypeError("vectorize: `{}` of an element is not supported".format(type(op).__name__))
                r = {ast.Is: operator.is_, ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
                     ast.NotIn: lambda a, b: a not in b}[type(op)](left, right)
            else:
                r = _COMPARE[type(op)](left, right)
            if result is None:
                result = r
            elif _is_element(result):  # a < b < c is (a < b) and (b < c)
                prev = result
                result = self._select(self._truth(prev), lambda r=r: r, lambda p=prev: p)
            elif result:
                result = r
            left = right
        return result

    def _boolop(self, op, nodes):
        """`and`/`or` as Python's: the value of the operand that decides, later operands compiled
        only where they are reached."""
        v = self._expr(nodes[0])
        if len(nodes) == 1:
            return v
        rest = nodes[1:]
        if not _is_element(v):
            decided = (not v) if isinstance(op, ast.And) else bool(v)
            return v if decided else self._boolop(op, rest)
        c = self._truth(v)
        more = lambda: self._boolop(op, rest)  # noqa: E731
        same = lambda: v  # noqa: E731
        return self._select(c, more, same) if isinstance(op, ast.And) else self._select(c, same, more)

    def _select(self, c, then, other):
        """`then() if c else other()`, each side computed only on its own path."""
        saved = self.tr.lines
        ia, ib = [], []
        try:
            self.tr.lines = ia
            a = then()
            self.tr.lines = ib
            b = other()
        finally:
            self.tr.lines = saved
        if not _is_element(a) and not _is_element(b) and _same(a, b):
            return a
        for v in (a, b):
            if not (_is_element(v) or isinstance(v, _NUMBERS)):
                raise TypeError("vectorize: both sides of a conditional value must be numbers or elements, "
                                "got a {}".format(type(v).__name__))
        dt, weak = _unify((a, b))
        t = self._temp(dt)
        self._emit("{} {};".format(compute_ctype(dt), t))
        ia.append("{} = {};".format(t, self._c_value(a, dt)))
        ib.append("{} = {};".format(t, self._c_value(b, dt)))
        self._emit(_Block("if ({})".format(c.expr), ia))
        self._emit(_Block("else", ib))
        return self.Element(self.tr, dt, t, weak)

    def _call(self, e):
        fn = self._expr(e.func)
        args = self._starred(e.args)
        kwargs = {}
        for kw in e.keywords:
            if kw.arg is None:
                kwargs.update(self._expr(kw.value))
            else:
                kwargs[kw.arg] = self._expr(kw.value)
        if not _stable(fn):  # (a function of the user's: what it computes may change between calls)
            self.cacheable = False
        if fn is range:
            if kwargs:
                raise TypeError("range() takes no keyword arguments")
            if not any(_is_element(a) for a in args):
                return _Range(args)  # (only `for` may iterate it; anything else is refused there)
            return _Range(args)
        elements = [a for a in list(args) + list(kwargs.values()) if _is_element(a)]
        if not elements:
            return fn(*args, **kwargs)  # known now: computed by Python, as NumPy's vectorize would
        if fn is min or fn is max:
            return self._minmax(fn, args, kwargs)
        if (getattr(fn, "__name__", None) == "where" and len(args) == 3 and not kwargs
                and (getattr(fn, "__module__", None) or "").split(".")[0] in ("cuarray", "numpy")):
            c, a, b = args  # where(c, a, b) of elements: NumPy's type of a and b, the value of one
            if not _is_element(c):
                c = self.Element(self.tr, _B, "true" if c else "false")
            return self._select(self._truth(c), lambda: a, lambda: b)
        if fn in (float, int, complex, bool) or (isinstance(fn, type) and issubclass(fn, numpy.generic)):
            return self._explicit_cast(fn, args, kwargs)
        if getattr(fn, "__self__", None) is math or (isinstance(fn, types.BuiltinFunctionType)
                                                    and getattr(fn, "__module__", None) == "math"):
            return self._math(fn, args, kwargs)
        if fn is abs or fn is divmod or fn is pow:
            return fn(*args, **kwargs)
        if fn is len or fn is range or isinstance(fn, type) and fn in (list, tuple, dict, set, str):
            raise TypeError("vectorize: {}() of an element is not supported".format(fn.__name__))
        # A ufunc, or a Python function of elements: traced (it must be straight-line code).
        return fn(*args, **kwargs)

    # -- rendering -----------------------------------------------------------------------------
    def _render(self, items, out, indent):
        pad = "  " * indent
        for it in items:
            if isinstance(it, str):
                out.append(pad + it)
            elif isinstance(it, _Block):
                out.append(pad + it.head + " {")
                self._render(it.items, out, indent + 1)
                out.append(pad + "}")
            elif isinstance(it, _Fixup):
                for line in self._fixup_lines(it):
                    out.append(pad + line)
            elif isinstance(it, _Ret):
                for k, (v, dt) in enumerate(zip(it.values, self._out_dts)):
                    out.append(pad + "r{} = {};".format(k, self._c_value(v, dt)))
                out.append(pad + "return;")
            else:
                raise AssertionError(it)

    def _fixup_lines(self, f):
        lines = []
        if f.target is None:
            return lines
        for name, want in f.target.items():
            if not (_is_element(want) and want.expr in self.decls):
                continue
            have = f.env.get(name, _UNBOUND)
            if have is _UNBOUND or _same(have, want):
                continue
            lines.append("{} = {};".format(want.expr, self._c_value(have, want.dtype)))
        return lines


def compile_body(tracer, element_type, fn, bound_args, otypes):
    """Compile one call of `fn` (source known: `function_source(fn)` is not None).

    `bound_args`: the function's parameters bound to elements or Python values. Returns (C++ of
    the body, the outputs' computed dtypes, whether the function returns a tuple, and the names
    read with their values when the program depends on nothing else, else None: see
    `reads_hold`)."""
    tree, source, first = function_source(fn)
    c = FunctionCompiler(tracer, element_type, fn, tree, source, first)
    for v in bound_args.values():
        if not _is_element(v) and not _stable(v):
            c.cacheable = False
    c.compile(bound_args)
    outs = c.out_dtypes()
    if otypes is not None:
        if len(otypes) != len(outs):
            raise ValueError("Invalid number of outputs: otypes has {}, the function returned {}".format(
                len(otypes), len(outs)))
        outs = list(otypes)
    return c.render(outs), outs, c.returns[0].is_tuple, (c.reads if c.cacheable else None)
