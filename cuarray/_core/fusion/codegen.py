"""Code generation of fused kernels: a cluster of elementwise nodes -> one device function
(`templates/fused.cuh`), used by the elementwise engine (`elementwise.Definition`, whose
operation stores the function's value) or by the reduction engine (`reduction.ReductionDef`,
whose map expression calls it on each loaded element).

Each node's C code is its ufunc's own expression from the ufunc table (`out0 = in0 + in1`),
with the loop's compute types, exactly as the eager kernel of that ufunc computes it: inputs
cast to the loop's compute type, the result cast to the node's dtype (float16 results are
rounded to half). Fused kernels compile, as the ufuncs' eager kernels do, without FMA contraction
(`elementwise.EXACT_ROUNDING`), so `a * b` of one node is never merged with `+ c` of the next
into one fma: a fused chain gives the eager result bit for bit. (An empty `asm` on each node's
value, the earlier barrier, stopped NVVM but not ptxas, which contracted `x + x * x` on the GPU.)

Kernels are keyed by the generated source (structure, dtypes, which inputs are scalars),
never by values or sizes: scalars are kernel arguments, like the eager ufuncs' weak scalars.
"""

from __future__ import annotations

import re

import numpy

from .. import dtypes as _dtypes
from .. import reduction_ops as _rops
from ..elementwise import EXACT_ROUNDING, Definition, KernelParam, _skeleton, compute_ctype
from ..reduction import ReductionDef
from ...cuda import caches as _caches

__all__ = ["Cluster", "elementwise_definition", "reduction_definition", "ufunc_statement"]

_BOOL = numpy.dtype(bool)
_defs: dict = {}
_caches.register("fused elementwise definitions", _defs)
_rdefs: dict = {}
_caches.register("fused reduction definitions", _rdefs)


def ufunc_statement(uf, loop, in_exprs, outs) -> str:
    """One application of a ufunc as a C block, the one every traced ufunc becomes (a fused
    kernel's node, a `vectorize` statement): `in_exprs` (C expressions in the loop's compute
    types) bound to in0.., the ufunc table's expression on them, each out_k stored into `outs`
    [(variable, its C type)]."""
    ins = " ".join("const {} in{} = {};".format(compute_ctype(d), i, e)
                   for i, (d, e) in enumerate(zip(loop.in_dtypes, in_exprs)))
    decl = " ".join("{} out{};".format(compute_ctype(d), k) for k, d in enumerate(loop.out_dtypes))
    store = " ".join("{} = cuarray::cast<{}>(out{});".format(v, t, k) for k, (v, t) in enumerate(outs))
    return "{{ {} {} {}; {} }}".format(ins, decl, uf._op_for(loop).strip().rstrip(";"), store)


class Cluster:
    """Elementwise nodes computed by one kernel. `root`: the node whose value the kernel gives;
    `nodes`: interior nodes, inputs before users; `inputs`: the nodes read from memory (arrays,
    in parameter order); `scalars`: (scalar node, loop dtype) passed by value, in order.
    `roots`: every node the kernel writes, `root` first (several: sibling outputs of one shape
    computed by one kernel, their shared nodes once; `fused_multi.cuh`)."""

    __slots__ = ("root", "roots", "nodes", "inputs", "scalars", "_names", "_src", "_params")

    def __init__(self, root, nodes, inputs, roots=None):
        self.root = root
        self.roots = (root,) if roots is None else tuple(roots)
        self.nodes = nodes
        self.inputs = inputs
        self.scalars = []
        self._names = {id(n): "a{}".format(k) for k, n in enumerate(inputs)}
        self._src = None
        self._params = None

    def _scalar_name(self, node, dtype) -> str:
        for k, (n, d) in enumerate(self.scalars):
            if n is node and d == dtype:
                return "s{}".format(k)
        self.scalars.append((node, dtype))
        return "s{}".format(len(self.scalars) - 1)

    def _ref(self, node, dtype) -> str:
        """The C expression of `node` as an operand computed in `dtype`."""
        if node.kind == "scalar":
            return self._scalar_name(node, dtype)
        return "cuarray::cast<{}>({})".format(compute_ctype(dtype), self._names[id(node)])

    def body(self, fname: str, ret_dtype) -> str:
        """The device function `fname` returning the root's value in `ret_dtype`'s compute type."""
        if self._src is not None:
            return self._src
        if any(n.dtype.kind in "Mm" for n in list(self.nodes) + list(self.inputs)):
            # Their unit casts and NaT rules are the eager engine's (datetimes.py), not written here.
            raise TypeError("fused kernels (fuse, lazy mode) do not take datetime64/timedelta64 values; "
                            "run these operations outside fuse")
        lines, preambles = [], []
        for k, n in enumerate(self.nodes):
            var = "v{}".format(k)
            st = _dtypes.ctype(n.dtype)
            if n.kind == "ufunc":
                uf, loop = n.attr
                if uf._preamble and uf._preamble not in preambles:
                    preambles.append(uf._preamble)
                ins = [self._ref(a, d) for a, d in zip(n.args, loop.in_dtypes)]
                lines.append("{} {};\n  {}".format(st, var, ufunc_statement(uf, loop, ins, [(var, st)])))
            elif n.kind == "cast":
                src = n.args[0]
                lines.append("const {st} {v} = cuarray::cast<{st}>({e});".format(
                    st=st, v=var, e=self._ref(src, src.dtype)))
            elif n.kind == "where":
                c, x, y = n.args
                lines.append("{st} {v} = cuarray::cast<{st}>({c} ? {x} : {y});".format(
                    st=st, v=var, c=self._ref(c, _BOOL), x=self._ref(x, n.dtype), y=self._ref(y, n.dtype)))
            else:
                raise AssertionError(n.kind)
            self._names[id(n)] = var
        params = ["const {} {}".format(compute_ctype(n.dtype), self._names[id(n)]) for n in self.inputs]
        params += ["const {} s{}".format(compute_ctype(d), k) for k, (_, d) in enumerate(self.scalars)]
        self._params = [self._names[id(n)] for n in self.inputs] + ["s{}".format(k) for k in range(len(self.scalars))]
        if len(self.roots) > 1:  # several results, stored through references (the kernel's outK)
            params += ["{}& r{}".format(compute_ctype(r.dtype), k) for k, r in enumerate(self.roots)]
            stores = ["r{} = cuarray::cast<{}>({});".format(k, compute_ctype(r.dtype), self._names[id(r)])
                      for k, r in enumerate(self.roots)]
            self._params += ["out{}".format(k) for k in range(len(self.roots))]
            self._src = _skeleton("fused_multi.cuh").substitute(
                node_preambles="\n".join(preambles), name=fname, params=", ".join(params),
                body="\n  ".join(lines), stores="\n  ".join(stores))
            return self._src
        ret = self._names[id(self.root)]
        self._src = _skeleton("fused.cuh").substitute(
            node_preambles="\n".join(preambles), name=fname, ret_t=compute_ctype(ret_dtype),
            params=", ".join(params), body="\n  ".join(lines), ret=ret)
        return self._src

    def uses_half(self, ret_dtype) -> bool:
        """Whether the device function touches float16 anywhere (an interior node, a loop's
        compute type, a scalar), not only in the kernel's params: then cuda_fp16.h is needed."""
        dts = [numpy.dtype(ret_dtype)] + [n.dtype for n in self.nodes] + [n.dtype for n in self.inputs]
        dts += [r.dtype for r in self.roots]
        dts += [d for _, d in self.scalars]
        for n in self.nodes:
            if n.kind == "ufunc":
                loop = n.attr[1]
                dts += list(loop.in_dtypes) + list(loop.out_dtypes)
        return any(numpy.dtype(d).char == "e" for d in dts)

    def call(self) -> str:
        return "_fused({})".format(", ".join(self._params))

    def kernel_name(self, prefix: str) -> str:
        """A readable name: the ufuncs in order and the output dtype (profiler tables show it)."""
        ops = []
        for n in self.nodes:
            op = n.attr[0].__name__ if n.kind == "ufunc" else n.kind
            if not ops or ops[-1] != op:
                ops.append(op)
        name = "_".join(ops[:6]) + ("_etc" if len(ops) > 6 else "")
        outs = "_{}outs".format(len(self.roots)) if len(self.roots) > 1 else ""
        return "cuarray_{}_{}_{}{}".format(prefix, name, self.root.dtype.name, outs)


def _header() -> str:
    return ""


def elementwise_definition(cl: Cluster, name=None) -> Definition:
    """One `Definition` computing the cluster's root into `out0` (array inputs, then scalars),
    or each of its roots into out0, out1, ... (a multi-output cluster)."""
    body = cl.body("_fused", cl.root.dtype)
    name = name or cl.kernel_name("fused")
    key = (name, body)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam(cl._names[id(n)], "in", n.dtype, n.dtype) for n in cl.inputs]
        params += [KernelParam("s{}".format(k), "scalar", dt, dt) for k, (_, dt) in enumerate(cl.scalars)]
        params += [KernelParam("out{}".format(k), "out", r.dtype, r.dtype) for k, r in enumerate(cl.roots)]
        op = cl.call() if len(cl.roots) > 1 else "out0 = " + cl.call()
        d = _defs[key] = Definition(name, params, op, preamble=_header() + body,
                                     options=EXACT_ROUNDING, half=cl.uses_half(cl.root.dtype))
    return d


def reduction_definition(cl: Cluster, op_name: str, res_dtype, name=None) -> ReductionDef:
    """A `ReductionDef` of the table op `op_name` whose elements are the cluster's root, computed
    from the loaded inputs by the fused function (the producer never touches memory)."""
    op = _rops.OPS[op_name]
    x_dtype = cl.root.dtype
    acc = _rops.acc_dtype_for(op, x_dtype, res_dtype)
    compute = _rops._compute_for(op, x_dtype, acc)
    body = cl.body("_fused", compute)
    name = name or cl.kernel_name(op_name)
    key = (name, body, op_name, res_dtype)
    d = _rdefs.get(key)
    if d is None:
        params = [KernelParam(cl._names[id(n)], "in", n.dtype, n.dtype) for n in cl.inputs]
        params += [KernelParam("s{}".format(k), "scalar", dt, dt) for k, (_, dt) in enumerate(cl.scalars)]
        out = KernelParam("y", "out", res_dtype, res_dtype)
        mapped = "_acc_t({})".format(re.sub(r"\bx\b", cl.call(), op.map))
        post = "y = cuarray::cast<{}>(a)".format(_dtypes.ctype(res_dtype))
        d = _rdefs[key] = ReductionDef(name, params, out, _dtypes.ctype(acc), acc.itemsize, mapped, op.reduce,
                                       op.identity, post, preamble=_header() + body,
                                       options=EXACT_ROUNDING, half=cl.uses_half(compute))
    return d
