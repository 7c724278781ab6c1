"""Code generation of the reduction passes with templates of their own (reduction.cu's
@@tile@@/@@tilebody@@: row tiles, `reduction._ROW_TILE`; @@cols@@: output vectors,
`reduction._OUT_VEC`; @@fold@@: folded output vectors, `reduction._OUT_FOLD`), the output indexer
they share with the one-pass skeleton, and the planner's tests for output vectors. Functions of a
`reduction.ReductionDef` `rdef` (its arrays, map/step, post map); pure: no device."""

from __future__ import annotations

from . import dtypes as _dtypes
from .elementwise import compute_ctype

__all__ = ["out_indexer", "cols_pass", "fold_pass", "tile_pass", "out_vec_width", "out_fold_width"]


def out_vec_width(p, itemsizes, aligned) -> int:
    """Adjacent outputs per 16-byte load (1: none) for output vectors: one kept dim and one reduced
    dim; every input has unit stride along the kept dim (one item size), 16-byte aligned pointer
    and reduced stride (every row of outputs starts aligned). An input broadcast along the kept dim
    could not share a load between outputs: none."""
    if len(p.out_dims) != 1 or len(p.red_dims) != 1 or aligned is None:
        return 1
    sizes = set(itemsizes)
    if len(sizes) != 1:
        return 1
    isz = sizes.pop()
    if isz > 8:
        return 1
    for k, s in enumerate(p.red_strides):
        if p.out_strides[1 + k][0] != isz or s[0] % 16 or not aligned[k]:
            return 1
    return 16 // isz


def out_fold_width(p, itemsizes, aligned, max_fold) -> int:
    """Rows per 16-byte load (1: none) for folded output vectors: one kept and one reduced dim; every
    input has one item size, unit stride along the kept dim, a row of 2, 4 or 8 bytes (16 / row
    rows a vector, at most `max_fold`), rows one after the other (reduced stride = the row's bytes:
    not reversed, not strided, no input broadcast along either dim) and a 16-byte aligned pointer,
    so that every vector the kernel loads is aligned."""
    if max_fold < 2 or len(p.out_dims) != 1 or len(p.red_dims) != 1 or aligned is None:
        return 1
    sizes = set(itemsizes)
    if len(sizes) != 1:
        return 1
    isz = sizes.pop()
    row = p.out_dims[0] * isz
    if row >= 16 or 16 % row or 16 // row > max_fold:
        return 1
    for k, s in enumerate(p.red_strides):
        if p.out_strides[1 + k][0] != isz or s[0] != row or not aligned[k]:
            return 1
    return 16 // row


def out_indexer(rdef, ond, it, clamp) -> list:
    """Lines giving `_ob_<name>`, the byte offset of output `_o` in each operand; `clamp`: an
    `_o` past the end reads the last output's (groups of lanes that must stay in the loop)."""
    names = [p.name for p in rdef._arrays] + [rdef.out.name]
    lines = []
    if ond:
        lines.append(("{} _q = _o < _n_out ? _o : _n_out - 1;" if clamp else "{} _q = _o;").format(it))
        for d in range(ond - 1, 0, -1):
            lines.append("const {t} _k{d} = _q % _od{d}; _q /= _od{d};".format(t=it, d=d))
        lines.append("const {} _k0 = _q;".format(it))
    for n in names:
        terms = " + ".join("_k{d} * _os{n}_{d}".format(d=d, n=n) for d in range(ond)) or "0"
        lines.append("const {} _ob_{} = {};".format(it, n, terms))
    return lines


def cols_pass(rdef, cols_t, dst, unroll, ovec, sub, it, block, accs=0) -> str:
    """The output-vector pass (`_OUT_VEC`): `ovec` adjacent outputs a thread, one kept and one
    reduced dim, `sub` sub-chunks combined in the block; `dst` 'out' or 'part'. `accs`: accumulator
    sets a thread keeps; 0: one per load of a round (`unroll`: the text of every plan before
    `ReductionDef.wide`), else fewer, the round's loads folding into set `_u % accs` (var's 16-24
    byte moments keep `unroll` 16-byte loads in flight in ~128 bytes of accumulators)."""
    vdecl, vload, lane_load = [], [], []
    for p in rdef._arrays:
        vt = "cuarray::vec<{}, {}>".format(_dtypes.ctype(p.dtype), ovec)
        vdecl.append("{vt} _v{n}[_U];".format(vt=vt, n=p.name))
        vload.append("_v{n}[_u] = *(const {vt}*)((const char*){n}_ptr + _ob_{n} + _j * _rs{n}_0);".format(
            vt=vt, n=p.name))
        lane_load.append("const {ct} {n} = cuarray::cast<{ct}>(_v{n}[_u].v[_k]);".format(
            ct=compute_ctype(p.compute), n=p.name))
    step, store = _lane_step_and_store(rdef, dst)
    fields = dict(
        block=block, index_t=it, sub=sub, ovec=ovec, unroll=unroll, identity=rdef.identity,
        r0="({})blockIdx.y * _chunk".format(it), r1="min(_r0 + _chunk, _n_red)",
        out_indexer="\n      ".join(out_indexer(rdef, 1, it, False)), vdecl=" ".join(vdecl),
        vload="\n          ".join(vload),
        lane_load="\n            ".join(lane_load),
        step_u=step.format(acc="_acc[_u % {}][_k]".format(accs) if accs else "_acc[_u][_k]"),
        step_0=step.format(acc="_acc[0][_k]"), store=store, accs=accs or "_U",
    )
    return cols_t.substitute(fields)


def _lane_step_and_store(rdef, dst) -> tuple:
    """The output-vector passes' (cols_pass, fold_pass) step of one lane (a format string of `acc`)
    and the store of a thread's combined `_t`: through post_map into the output (`dst` 'out'), or
    into the block's partials."""
    step = rdef.step
    if step is None:
        step = "{acc} = _reduce({acc}, (%s));" % rdef.map_expr.replace("{", "{{").replace("}", "}}")
    if dst == "out":
        store = "{t}& {n} = *({t}*)((char*){n}_ptr + _ob_{n});\n      const _acc_t a = _t;\n      {pm};".format(
            t=_dtypes.ctype(rdef.out.dtype), n=rdef.out.name, pm=rdef.post_map)
    else:
        store = "_part_out[_o * _pdo + (long long)blockIdx.y * _pdc] = _t;"
    return step, store


def fold_pass(rdef, fold_t, dst, unroll, ovec, fold, it, block, accs=0) -> str:
    """The folded output-vector pass (`_OUT_FOLD`): 16-byte vectors of `ovec` lanes holding `fold`
    rows of `ovec // fold` outputs, one kept and one reduced dim (rows packed: a vector every 16
    bytes), 256 sub-chunks combined in the block; `dst` 'out' or 'part'. `accs`: accumulator sets
    of `ovec` lanes a thread keeps (the round's `unroll` loads fold into set `_u % accs`); 0: one a
    load."""
    vdecl, vload, tail_load, lane_load = [], [], [], []
    for p in rdef._arrays:
        st = _dtypes.ctype(p.dtype)
        vt = "cuarray::vec<{}, {}>".format(st, ovec)
        vdecl.append("{vt} _v{n}[_U];".format(vt=vt, n=p.name))
        vload.append("_v{n}[_u] = *(const {vt}*)((const char*){n}_ptr + _ob_{n} + _jv * 16);".format(vt=vt, n=p.name))
        tail_load.append("_v{n}[0].v[_k] = *(const {st}*)((const char*){n}_ptr + _ob_{n} + _j * _rs{n}_0 + "
                         "(_k % _NO) * _os{n}_0);".format(st=st, n=p.name))
        lane_load.append("const {ct} {n} = cuarray::cast<{ct}>(_v{n}[_u].v[_k]);".format(
            ct=compute_ctype(p.compute), n=p.name))
    step, store = _lane_step_and_store(rdef, dst)
    fields = dict(
        block=block, index_t=it, ovec=ovec, fold=fold, unroll=unroll, identity=rdef.identity,
        r0="({})blockIdx.y * _chunk".format(it), out_indexer="\n      ".join(out_indexer(rdef, 1, it, False)),
        vdecl=" ".join(vdecl), vload="\n          ".join(vload), tail_load="\n            ".join(tail_load),
        lane_load="\n            ".join(lane_load),
        step_u=step.format(acc="_acc[_u % {}][_k]".format(accs) if accs else "_acc[_u][_k]"),
        step_0=step.format(acc="_acc[0][_k]"), store=store, accs=accs or "_U",
    )
    return fold_t.substitute(fields)


def tile_pass(rdef, tile_t, body_t, group, mvec, rows, vec, ond, it, block) -> str:
    """The row-tile pass (`_ROW_TILE`): rows of `group` lanes x `mvec` 16-byte vectors, `rows`
    rows a group with every load issued first; one reduced dim, outputs written directly."""
    vdecl, vload, lane_load = [], [], []
    for p in rdef._arrays:
        vt = "cuarray::vec<{}, {}>".format(_dtypes.ctype(p.dtype), vec)
        ct = compute_ctype(p.compute)
        # An array broadcast along the row (reduced stride 0) reads its one element.
        vdecl.append("{vt} _v{n}[_R][_M];".format(vt=vt, n=p.name))
        vload.append("_v{n}[_r][_m] = _rs{n}_0 ? *(const {vt}*)((const char*){n}_ptr + _ob_{n} + _jvu * {b}) : {vt}();"
                     .format(vt=vt, n=p.name, b=vec * p.dtype.itemsize))
        lane_load.append("const {ct} {n} = _rs{n}_0 ? cuarray::cast<{ct}>(_v{n}[_r][_m].v[_k]) : cuarray::cast<{ct}>("
                         "*(const {st}*)((const char*){n}_ptr + _ob_{n}));".format(
                             ct=ct, n=p.name, st=_dtypes.ctype(p.dtype)))
    step = rdef.step
    if step is None:
        step = "{acc} = _reduce({acc}, (%s));" % rdef.map_expr.replace("{", "{{").replace("}", "}}")
    store = "{t}& {n} = *({t}*)((char*){n}_ptr + _ob_{n});\n          const _acc_t a = _t;\n          {pm};".format(
        t=_dtypes.ctype(rdef.out.dtype), n=rdef.out.name, pm=rdef.post_map)
    fields = dict(
        index_t=it, group=group, vec=vec, identity=rdef.identity,
        out_indexer="\n        ".join(out_indexer(rdef, ond, it, True)), vdecl="\n      ".join(vdecl),
        vload="\n          ".join(vload), lane_load="\n            ".join(lane_load),
        step_0=step.format(acc="_acc[0]"), store=store,
    )
    full = body_t.substitute(fields, store_cond="_lane == 0").rstrip("\n")
    tail = body_t.substitute(fields, store_cond="_lane == 0 && _o < _n_out").rstrip("\n")
    return tile_t.substitute(block=block, index_t=it, group=group, mvec=mvec, rows=rows, body_full=full,
                             body_tail=tail)
