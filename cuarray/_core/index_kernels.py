"""Kernels of advanced indexing: gather, scatter (plain, last-write-wins, ufunc.at), boolean-mask
compaction, nonzero, and a private prefix sum used until `_core.scan` provides one.

Gather and scatter run through the elementwise engine (`Definition`), looping over the result of
the index (``x[idx].shape``) in C order with the flat index `i`; every operand is a raw pointer
whose byte offset the operation computes from the result coordinates:

    source offset = sum over result dims d of c_d * ss_d           (ss_d = 0 on broadcast dims)
                  + sum over index arrays k of wrap(idx_k[...]) * as_k

Elements are moved as unsigned integers of their size (complex128 as complex<double>), so one
kernel serves every dtype of a size. An index outside [-n, n) is not dereferenced: the kernel
records it in the device's error buffer (`device_errors.check_index_errors` raises it) and writes 0.
"""

from __future__ import annotations

import numpy

from . import dtypes as _dtypes
from .elementwise import Definition, KernelParam, compute_ctype
from ..cuda import caches as _caches

_I64 = numpy.dtype(numpy.int64)
_U64 = numpy.dtype(numpy.uint64)
_MOVE = {1: numpy.dtype(numpy.uint8), 2: numpy.dtype(numpy.uint16), 4: numpy.dtype(numpy.uint32),
         8: numpy.dtype(numpy.uint64), 16: numpy.dtype(numpy.complex128)}

_defs: dict = {}
_caches.register("indexing definitions", _defs)


def move_dtype(dtype) -> numpy.dtype:
    """The dtype elements of `dtype` are moved as (same size, no conversion)."""
    return _MOVE[dtype.itemsize]


def _coords(r: int) -> list[str]:
    lines = ["long long _r = (long long)i;"]
    for d in range(r - 1, 0, -1):
        lines.append("const long long _c{d} = _r % _rd{d}; _r /= _rd{d};".format(d=d))
    if r:
        lines.append("const long long _c0 = _r;")
    return lines


def _dot(r: int, stride: str) -> str:
    if r == 0:
        return "0"
    return " + ".join("_c{d} * {s}{d}".format(d=d, s=stride) for d in range(r))


def _index_terms(r: int, idx_dtypes, win: bool) -> list[str]:
    lines = ["long long _so = {};".format(_dot(r, "_ss")), "bool _bad = false;"]
    if win:
        lines.append("long long _wp = 0;")
    for k, dt in enumerate(idx_dtypes):
        it = _dtypes.ctype(dt)
        lines.append(
            "{{ const long long _raw = (long long)*(const {it}*)((const char*)_ix{k} + ({off}));\n"
            "      const long long _v = _raw < 0 ? _raw + _n{k} : _raw;\n"
            "      if ((unsigned long long)_v >= (unsigned long long)_n{k}) {{ cuarray::index_error(_err, _raw, _ax{k}, _n{k}); _bad = true; }}\n"
            "      else {{ _so += _v * _as{k};{w} }} }}".format(
                it=it, k=k, off=_dot(r, "_is{}_".format(k)), w=" _wp += _v * _wm{};".format(k) if win else ""))
    return lines


def _params_common(r, idx_dtypes, win):
    ps = []
    for k, dt in enumerate(idx_dtypes):
        ps.append(KernelParam("_ix{}".format(k), "raw", dt))
    ps.append(KernelParam("_err", "raw", _U64))
    for d in range(1, r):
        ps.append(KernelParam("_rd{}".format(d), "scalar", _I64))
    for d in range(r):
        ps.append(KernelParam("_ss{}".format(d), "scalar", _I64))
    for k in range(len(idx_dtypes)):
        for d in range(r):
            ps.append(KernelParam("_is{}_{}".format(k, d), "scalar", _I64))
        ps += [KernelParam("_n{}".format(k), "scalar", _I64), KernelParam("_as{}".format(k), "scalar", _I64),
               KernelParam("_ax{}".format(k), "scalar", _I64)]
        if win:
            ps.append(KernelParam("_wm{}".format(k), "scalar", _I64))
    return ps


_INCLUDE = '#include "cuarray/indexing.cuh"'


def gather_def(itemsize: int, r: int, idx_dtypes) -> Definition:
    key = ("gather", itemsize, r, tuple(d.char for d in idx_dtypes))
    d = _defs.get(key)
    if d is None:
        mt = _MOVE[itemsize]
        ct = compute_ctype(mt)
        params = [KernelParam("_src", "raw", mt)] + _params_common(r, idx_dtypes, False)
        params.append(KernelParam("out0", "out", mt))
        op = "\n    ".join(_coords(r) + _index_terms(r, idx_dtypes, False) + [
            "typedef {ct} _mt; out0 = _bad ? _mt() : *(const _mt*)((const char*)_src + _so);".format(ct=ct)])
        name = "cuarray_gather_{}B_{}d_{}".format(itemsize, r, "_".join(dt.name for dt in idx_dtypes) or "none")
        d = _defs[key] = Definition(name, params, op, preamble=_INCLUDE)
    return d


def scatter_def(itemsize: int, r: int, idx_dtypes, mode: str, scalar_value: bool) -> Definition:
    """mode: 'plain' (any writer wins), 'claim' (atomicMax of the writer's position into the
    winner buffer), 'write' (only the claimed last writer writes)."""
    key = ("scatter", itemsize, r, tuple(d.char for d in idx_dtypes), mode, scalar_value)
    d = _defs.get(key)
    if d is None:
        mt = _MOVE[itemsize]
        ct = compute_ctype(mt)
        win = mode != "plain"
        params = [KernelParam("_dst", "raw", mt)]
        if mode != "claim":
            params.append(KernelParam("_val", "scalar" if scalar_value else "raw", mt))
        if win:
            params.append(KernelParam("_win", "raw", _I64))
        params += _params_common(r, idx_dtypes, win)
        if mode != "claim" and not scalar_value:
            params += [KernelParam("_vs{}".format(dd), "scalar", _I64) for dd in range(r)]
        if win:
            params += [KernelParam("_bm{}".format(dd), "scalar", _I64) for dd in range(r)]
        lines = _coords(r) + _index_terms(r, idx_dtypes, win)
        if win:
            lines.append("const long long _bp = {};".format(_dot(r, "_bm")))
        val = "_val" if scalar_value else "*(const {ct}*)((const char*)_val + ({off}))".format(ct=ct, off=_dot(r, "_vs"))
        store = "*({ct}*)((char*)_dst + _so) = {val};".format(ct=ct, val=val)
        if mode == "plain":
            lines.append("if (!_bad) {}".format(store))
        elif mode == "claim":
            lines.append("if (!_bad) atomicMax(&_win[_wp], _bp);")
        else:
            lines.append("if (!_bad && _win[_wp] == _bp) {}".format(store))
        name = "cuarray_scatter_{}_{}B_{}d_{}{}".format(mode, itemsize, r, "_".join(dt.name for dt in idx_dtypes) or "none",
                                                        "_scalar" if scalar_value else "")
        d = _defs[key] = Definition(name, params, "\n    ".join(lines), preamble=_INCLUDE)
    return d


# Native atomics: (op key, C type) -> statement on `_p` (T*) and `_b` (value of T).
_NATIVE = {
    ("add", "float"), ("add", "double"), ("add", "int"), ("add", "unsigned int"),
    ("add", "long long"), ("add", "unsigned long long"),
    ("min", "int"), ("min", "unsigned int"), ("min", "long long"), ("min", "unsigned long long"),
    ("max", "int"), ("max", "unsigned int"), ("max", "long long"), ("max", "unsigned long long"),
}


def at_def(a_dtype, b_dtype, loop_in, loop_out, op: str, native: str | None, r: int, idx_dtypes,
           unary: bool, preamble: str) -> Definition:
    """ufunc.at: a[idx] = op(a[idx], b) with an atomic update per element (repeats accumulate)."""
    key = ("at", a_dtype.char, None if unary else b_dtype.char, tuple(x.char for x in loop_in),
           loop_out.char, op, native, r, tuple(x.char for x in idx_dtypes))
    d = _defs.get(key)
    if d is None:
        at = _dtypes.ctype(a_dtype)
        params = [KernelParam("_dst", "raw", a_dtype)]
        if not unary:
            params.append(KernelParam("_val", "raw", b_dtype))
        params += _params_common(r, idx_dtypes, False)
        if not unary:
            params += [KernelParam("_vs{}".format(dd), "scalar", _I64) for dd in range(r)]
        lines = _coords(r) + _index_terms(r, idx_dtypes, False)
        body = ["{} * _p = ({}*)((char*)_dst + _so);".format(at, at)]
        c0 = compute_ctype(loop_in[0])
        cout = compute_ctype(loop_out)
        if not unary:
            c1 = compute_ctype(loop_in[1])
            body.append("const {c1} in1 = cuarray::cast<{c1}>(*(const {bt}*)((const char*)_val + ({off})));".format(
                c1=c1, bt=_dtypes.ctype(b_dtype), off=_dot(r, "_vs")))
        if native is not None:
            nat_op, ct = native
            fn = {"add": "atomicAdd", "min": "atomicMin", "max": "atomicMax"}[nat_op]
            if ct == "long long" and nat_op == "add":
                body.append("atomicAdd((unsigned long long*)_p, (unsigned long long)in1);")
            else:
                body.append("{}(_p, ({})in1);".format(fn, ct))
        else:
            body.append(
                "cuarray::atomic_apply(_p, [&]({at} _old) -> {at} {{ const {c0} in0 = cuarray::cast<{c0}>(_old); "
                "{cout} out0; {op}; return cuarray::cast<{at}>(out0); }});".format(at=at, c0=c0, cout=cout, op=op))
        lines.append("if (!_bad) {{ {} }}".format(" ".join(body)))
        inc = [_INCLUDE]
        name = "cuarray_at_{}_{}B_{}d".format(a_dtype.name, len(key[-1]), r)
        d = _defs[key] = Definition(name, params, "\n    ".join(lines), preamble="\n".join(inc) + "\n" + preamble)
    return d


def check_def(idx_dtype) -> Definition:
    """Bounds check of an index array alone (for an empty result with a non-empty index)."""
    key = ("check", idx_dtype.char)
    d = _defs.get(key)
    if d is None:
        params = (KernelParam("_ix", "in", idx_dtype, _I64), KernelParam("_err", "raw", _U64),
                  KernelParam("_size", "scalar", _I64), KernelParam("_ax", "scalar", _I64))
        op = ("if ((long long)_ix < -_size || (long long)_ix >= _size) "
              "cuarray::index_error(_err, (long long)_ix, _ax, _size)")
        d = _defs[key] = Definition("cuarray_index_check_{}".format(idx_dtype.name), params, op, preamble=_INCLUDE)
    return d


def compact_def(itemsize: int, r: int, prefix_dtype) -> Definition:
    """x[mask] for a mask over the leading `k` axes of a view V: loop over V in C order;
    element i belongs to mask position m = i / inner and goes to (prefix[m] - 1) * inner + i % inner."""
    return _mask_move_def(itemsize, r, prefix_dtype, scatter=False)


def masked_scatter_def(itemsize: int, r: int, prefix_dtype) -> Definition:
    """x[mask] = v (v of shape (count,) + rest): the compaction's inverse."""
    return _mask_move_def(itemsize, r, prefix_dtype, scatter=True)


def _mask_move_def(itemsize: int, r: int, prefix_dtype, scatter: bool) -> Definition:
    """One kernel for both directions between the masked elements of a strided view (`_view`,
    addressed with byte strides) and a packed buffer (`_packed`, indexed by the mask's prefix sum)."""
    key = ("mscatter" if scatter else "compact", itemsize, r, prefix_dtype.char)
    d = _defs.get(key)
    if d is None:
        mt = _MOVE[itemsize]
        ct = compute_ctype(mt)
        pt = _dtypes.ctype(prefix_dtype)
        view_p = KernelParam("_view", "raw", mt)
        packed_p = KernelParam("_packed", "raw", mt)
        params = [view_p] + [KernelParam("_mask", "raw", numpy.dtype(bool)),
                                                       KernelParam("_pre", "raw", prefix_dtype), packed_p]
        params += [KernelParam("_rd{}".format(dd), "scalar", _I64) for dd in range(1, r)]
        params += [KernelParam("_ss{}".format(dd), "scalar", _I64) for dd in range(r)]
        params.append(KernelParam("_inner", "scalar", _I64))
        elem = "*({c}{ct}*)(({c}char*)_view + ({off}))".format(c="" if scatter else "const ", ct=ct,
                                                               off=_dot(r, "_ss"))
        move = "{} = _packed[_j];".format(elem) if scatter else "_packed[_j] = {};".format(elem)
        lines = ["const long long _m = (long long)i / _inner;",
                 "if (!_mask[_m]) continue;"] + _coords(r) + [
            "const long long _j = (long long)(_pre[_m] - ({})1) * _inner + (long long)i % _inner;".format(pt),
            move]
        name = "cuarray_{}_{}B_{}d_{}".format("mask_scatter" if scatter else "compact", itemsize, r,
                                             prefix_dtype.name)
        d = _defs[key] = Definition(name, params, "\n    ".join(lines))
    return d


def nonzero_def(k: int, prefix_dtype) -> Definition:
    """Coordinates of the true elements of a C-contiguous mask of k dims: for mask position j,
    out[d * sd + p * sp] = coordinate d of j, where p = prefix[j] - 1 (k = 0: nothing to write)."""
    key = ("nonzero", k, prefix_dtype.char)
    d = _defs.get(key)
    if d is None:
        pt = _dtypes.ctype(prefix_dtype)
        params = [KernelParam("_mask", "raw", numpy.dtype(bool)), KernelParam("_pre", "raw", prefix_dtype),
                  KernelParam("_out", "raw", _I64)]
        params += [KernelParam("_rd{}".format(dd), "scalar", _I64) for dd in range(1, k)]
        params += [KernelParam("_sd", "scalar", _I64), KernelParam("_sp", "scalar", _I64)]
        lines = ["if (!_mask[i]) continue;",
                 "const long long _p = (long long)(_pre[i] - ({})1);".format(pt)] + _coords(k)
        lines += ["_out[{d} * _sd + _p * _sp] = _c{d};".format(d=dd) for dd in range(k)]
        d = _defs[key] = Definition("cuarray_nonzero_{}d_{}".format(k, prefix_dtype.name), params,
                                    "\n    ".join(lines))
    return d
