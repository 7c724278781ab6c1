"""Kernel families (cuarray/cuda/kernel_family.py) without a device: every family's declarations
against its template's ``__global__`` signatures (a drift between the two fails here), packing by
the declaration (the bytes each launch hands the driver, against the hand-built tuples the
launches passed before the families), and the family's errors."""

from __future__ import annotations

import importlib
import pathlib

import numpy as np
import pytest

from cuarray.cuda import kernel_family as kf

PKG = pathlib.Path(__file__).resolve().parents[2] / "cuarray"


def _family_modules() -> list:
    out = []
    for path in sorted(PKG.rglob("*.py")):
        if path.name == "kernel_family.py" or "KernelFamily(" not in path.read_text():
            continue
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.append(".".join(parts))
    return out


MODULES = _family_modules()


def _all_families() -> list:
    for m in MODULES:
        importlib.import_module(m)
    return list(kf.families())


def test_every_family_module_found():
    fams = _all_families()
    assert len(MODULES) >= 1 and len(fams) >= len(MODULES)
    names = [f.name for f in fams]
    assert len(names) == len(set(names)), "two families share a module name"


@pytest.mark.parametrize("module", MODULES)
def test_declarations_match_templates(module):
    """Each declared kernel is a __global__ function of the family's source with the same template
    parameter count, parameter C types (``__restrict__`` and spacing aside) and names, in order;
    and each __global__ function of the source is declared."""
    mod = importlib.import_module(module)
    held = list(vars(mod).values())
    held += [v for d in held if isinstance(d, dict) for v in d.values()]
    fams = [f for f in kf.families() if any(f is h for h in held)]
    assert fams, module
    for fam in fams:
        found = kf.template_signatures(fam.source())
        for name, (tparams, params, _) in fam.decls.items():
            assert name in found, "{}: {} is not a kernel of its template".format(fam.name, name)
            want = [(len(t), tuple(p)) for t, p in found[name]]
            got = (len(tparams), tuple((p.ctype, p.name) for p in params))
            assert got in want, "{}: {} declared as {}, the template has {}".format(fam.name, name, got, want)
        undeclared = sorted(set(found) - set(fam.decls) - set(getattr(fam, "undeclared", ())))
        assert not undeclared, "{}: kernels of the template not declared: {}".format(fam.name, undeclared)


def _old_bytes(args, params) -> list:
    """What the driver reads for each argument: a Python int as an 8-byte pointer (cuda.core's rule,
    and cuda/_native/launch.c's), a NumPy scalar its bytes; for a value parameter only the
    parameter's own width (the first bytes: little-endian)."""
    out = []
    for a, p in zip(args, params):
        b = int(a).to_bytes(8, "little", signed=int(a) < 0) if type(a) is int else a.tobytes()
        width = 8 if p.pointer else kf.CTYPES[p.base].itemsize if p.base in kf.CTYPES else len(b)
        out.append(b[:width])
    return out


def _new_bytes(packed) -> list:
    return [int(a).to_bytes(8, "little") if type(a) is int else a.tobytes() for a in packed]


def test_edt_packing_is_byte_identical():
    from cuarray.scipy.ndimage import _edt

    k = _edt.EDT.packer("edt_first_pass")
    old = (123456, 654321, 0, 777, np.int32(3), np.int32(0), np.int64(20), np.int64(30), np.int64(1),
           np.int64(30), np.float64(2.25), np.int64(600), np.int32(True), 888)
    new = k.pack((123456, 654321, 0, 777, 3, 0, 20, 30, 1, 30, 1.5 ** 2, 600, True, 888))
    assert [type(a) for a in new] == [type(a) for a in old]
    assert _new_bytes(new) == _old_bytes(old, k.params)
    k = _edt.EDT.packer("edt_init<float>")
    assert k.alignments[:2] == (4, 8)


def test_template_types_resolve():
    fam = kf.KernelFamily("test_family_resolve", lambda: "", kernels=(
        "f<T, I, int OP>(const T* x, T* out, I n, T v, int op)",))
    try:
        k = fam.packer("f<double, long long, 3>")
        packed = k.pack((1, 2, 5, 1.5, 1))
        assert [type(a) for a in packed] == [int, int, np.int64, np.float64, np.int32]
        k = fam.packer("f<float, int, 0>")
        assert [type(a) for a in k.pack((1, 2, 5, 1.5, 1))] == [int, int, np.int32, np.float32, np.int32]
        assert k.alignments == (4, 4, 0, 0, 0)
        with pytest.raises(TypeError, match="f<float, int, 0> takes 5 arguments"):
            k.pack((1, 2))
        with pytest.raises(KeyError, match="declares no kernel 'g'"):
            fam.packer("g<float>")
        with pytest.raises(TypeError, match="template arguments"):
            fam.packer("f<float>")
    finally:
        kf._families.remove(fam)


def test_signature_parser():
    src = """
    // __global__ void commented_out(int a)
    template <typename T, int N>
    __global__ void __launch_bounds__(256) k1(const T* __restrict__ a, T * b, long long n) { }
    extern "C" __global__ void k2(unsigned long long* bits, double w[]) {}
    """
    sigs = kf.template_signatures(src)
    assert set(sigs) == {"k1", "k2"}
    assert sigs["k1"] == [(("T", "N"), (("const T*", "a"), ("T*", "b"), ("long long", "n")))]
    assert sigs["k2"] == [((), (("unsigned long long*", "bits"), ("double*", "w")))]


def test_recorder_gives_placeholders(recorded_launches):
    from cuarray.scipy.ndimage import _edt

    ks = _edt.EDT.get(*_edt._specs(np.dtype(np.float32)))
    assert [k.kernel for k in ks] == list(_edt.names(np.dtype(np.float32)))
    ks[2].launch(4, 128, 11, 22, 33)  # edt_sqrt<double>(f, out, total)
    stream, cfg, kernel, *args = recorded_launches[-1]
    assert kernel == "cuarray_ndimage::edt_sqrt<double>" and cfg == ("cfg", 4, 128, 0)
    assert args == [11, 22, 33] and [type(a) for a in args] == [int, int, np.int64]


def _same(k, new_args, old):
    """Packing `new_args` by kernel k's declaration gives the bytes the old hand-built tuple gave."""
    new = k.pack(new_args)
    assert _new_bytes(new) == _old_bytes(old, k.params), k.name
    return new


def test_filter1d_packing_with_template_types():
    from cuarray.scipy.ndimage import _filter_kernels as fk

    for in_dt, a, idx64 in ((np.dtype("f4"), np.dtype("f4"), False), (np.dtype("u1"), np.dtype("f8"), True)):
        k = fk.FILTERS.packer(fk.filter1d_name(in_dt, in_dt, "correlate", idx64))
        it = np.int64 if idx64 else np.int32
        cval = fk._scalar(fk.acc_dtype(in_dt, in_dt, "correlate"), 1.5)
        old = (10, 20, 30, np.int32(5), it(100), it(7), it(700), it(2), np.int32(4), cval)
        new = _same(k, (10, 20, 30, 5, 100, 7, 700, 2, 4, cval), old)
        assert [type(v) for v in new] == [type(v) for v in old]


def test_lfilter_rows_default_template_argument():
    from cuarray.scipy.signal import _lfilter

    f8 = np.dtype("f8")
    for win in (32, 64):
        k = _lfilter.IIR.packer(_lfilter.rows_kernel_name(f8, f8, 8, win))
        old = (1, 2, 3, np.int64(100), np.int64(1536), np.int64(2), np.int64(200), np.int64(128), 0, 0)
        _same(k, (1, 2, 3, 100, 1536, 2, 200, 128, 0, 0), old)


def test_random_and_permutation_packing():
    from cuarray.random import _kernels as rk

    draw = (np.uint32(7), np.uint32(8), np.uint32(9))
    k = rk._FAMILIES["core"].packer(rk.fill_name("normal", "float"))
    old = (11, np.int64(1000), *draw, 0, 0, 0, np.float64(0.5), np.float64(2.0), np.float64(0.0))
    _same(k, (11, 1000, *draw, 0, 0, 0, 0.5, 2.0, 0.0), old)
    k = rk._FAMILIES["core"].packer(rk.integers_name("long long", True))
    old = (11, np.int64(10), *draw, 0, 0, np.uint64(-3 % 2**64), np.uint64(2**40))
    _same(k, (11, 10, *draw, 0, 0, -3 % 2**64, 2**40), old)
    k = rk._FAMILIES["permutation"].packer(rk._PERM_NAMES[1])
    old = (11, np.int64(50), np.int64(5), np.int32(True), np.uint64(10), np.int32(3), np.uint64(3), np.uint64(7), *draw)
    _same(k, (11, 50, 5, True, 10, 3, 3, 7, *draw), old)


def test_opaque_value_passes_as_given_and_engine_families():
    from cuarray._core import batched_copy, mask_compact
    from cuarray._statistics import quantile_select as qs

    hist = qs.QSELECT.packer(qs.kernel_names(np.dtype("f4"))[0])
    new = hist.pack((1, 5, 3, 2, 8, np.uint32(0xFF00), 4))
    assert type(new[5]) is np.uint32 and new[1] == np.int64(5) and type(new[2]) is np.int32
    k = batched_copy.BATCHED_COPY.packer("cuarray_batched_copy<uint4, unsigned>")
    _same(k, (1, 33, 4, 9, 4096 // 16), (1, 33, np.int32(4), 9, np.uint32(4096 // 16)))
    counts, coords = (mask_compact.MASK_COMPACT.packer(n) for n in mask_compact.coords_kernel_names(3, 8))
    _same(counts, (1, 99, np.int32(1), 2), (1, np.int64(99), np.int32(1), 2))
    dims = [np.int64(4), np.int64(5)] + [np.int64(1)] * 5
    _same(coords, (1, 99, np.int32(1), 2, 3, 10, 1, 4, 5, 1, 1, 1, 1, 1),
          (1, np.int64(99), np.int32(1), 2, 3, np.int64(10), np.int64(1), *dims))


def test_sort_packing_is_byte_identical():
    """The sort engine's launches (cuarray/_core/sort.py), packed by SORT's declarations, against the
    tuples the hand-packed launches built: 32- and 64-bit offsets, keys-only and pairs."""
    from cuarray._core import sort as S

    for oct_, ot in (("unsigned int", np.uint32), ("unsigned long long", np.uint64)):
        hist, plan, sweep, finish, iota = (S.SORT.packer(n) for n in S.radix_kernel_names(
            "cuarray::radix_float<unsigned int>", "int", oct_, 384, 18, "long long"))
        n = 2**31 + 5 if ot is np.uint64 else 1000
        new = _same(hist, (11, 22, n, 0, 32), (11, 22, ot(n), np.int32(0), np.int32(32)))
        assert type(new[2]) is ot
        _same(plan, (11, 4, n, 33, 1, 2, 3, 4, 5, 6), (11, np.int32(4), ot(n), 33, 1, 2, 3, 4, 5, 6))
        _same(plan, (11, 4, n, 33, 1, 2, 3, 0, 0, 0), (11, np.int32(4), ot(n), 33, 1, 2, 3, 0, 0, 0))
        old = (33, np.int32(2), 44, 55, 0, 66, ot(2**28), np.int32(1000), np.int32(16), np.int32(8))
        new = _same(sweep, (33, 2, 44, 55, 0, 66, 2**28, 1000, 16, 8), old)
        assert [type(a) for a in new] == [type(a) for a in old]
        _same(finish, (33, n, 77, 0), (33, np.int64(n), 77, 0))
        _same(iota, (77, n, 0), (77, np.int64(n), np.int64(0)))
    k = S.SORT.packer(S.block_kernel_name("long long", "int", 256, 16, 8))
    _same(k, (1, 0, 3, 300, 300), (1, 0, 3, np.int32(300), np.int64(300)))
    gather, take, rowid, rowpos = (S.SORT.packer(n) for n in S.helper_kernel_names("unsigned long long", "long long"))
    _same(gather, (1, 2, 3, 99), (1, 2, 3, np.int64(99)))
    _same(take, (1, 2, 3, 99, 9), (1, 2, 3, np.int64(99), np.int64(9)))
    _same(rowid, (1, 2, 99, 9), (1, 2, np.int64(99), np.int64(9)))
    _same(rowpos, (1, 2, 99, 9), (1, 2, np.int64(99), np.int64(9)))
    k = S.SORT.packer(S.key_word_kernel_name("cuarray::complex<double>", 2))
    _same(k, (1, 2, 99), (1, 2, np.int64(99)))


@pytest.mark.parametrize("dt,shape,arg", [("f4", (3000,), False), ("f4", (20000,), True), ("i8", (4, 100), True),
                                          ("u1", (3, 9000), False), ("D", (50,), True), ("f8", (9000,), False)], ids=str)
def test_sort_launches_by_declaration(recorded_launches, monkeypatch, dt, shape, arg):
    """A sort on the fake device: every launch is a SORT kernel with its declared argument count and
    each value argument the NumPy type its C type names (device-wide, block and segmented paths).
    The scratch's memset and the SM count (driver calls the recorder does not fake) are stood in for."""
    from cuarray._core import sort as S
    from cuarray._core.ndarray import ndarray
    from cuarray.cuda import _memory_base

    from cuarray.cuda import device

    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, value, size, stream=None: None)
    monkeypatch.setitem(device._SM_COUNT, device.get_device_id(), 132)  # an H100's (grids are capped by it)

    x = ndarray(shape, np.dtype(dt))
    (S.argsort if arg else S.sort)(x, axis=-1)
    names = [c[2] for c in recorded_launches if isinstance(c[2], str)]
    assert names and all(n.startswith("cuarray_") for n in names)
    assert any("onesweep" in n for n in names) == (shape[-1] > 8192)  # longer than any block tile
    assert any("row_ids" in n for n in names) == (len(shape) == 2 and shape[-1] > 8192)
    for _, _, kernel, *args in recorded_launches:
        if not isinstance(kernel, str):  # an elementwise copy (a placeholder tuple)
            continue
        k = S.SORT.packer(kernel)
        assert len(args) == len(k.params), kernel
        for a, p, c in zip(args, k.params, k._convs):
            assert type(a) is (int if p.pointer else c), (kernel, p)


def test_generated_sources_share_the_one_cache(monkeypatch):
    """The engine's generated kernels (elementwise, reduction, scan) compile through
    `kernel_family.generated`: the source is built on a miss only, and the kernel is kept in the
    families' cache under (key, device); a Definition's own look-up sits in front of it."""
    from cuarray._core import elementwise, scan
    from cuarray.cuda import device

    loads = []
    monkeypatch.setattr(kf, "_cache", {})
    monkeypatch.setattr(kf, "load_generated", lambda src, kname, options=(), user_source=None:
                        loads.append((kname, options, user_source)) or ("kernel", kname))
    monkeypatch.setattr(device, "get_device_id", lambda: 0)
    built = []

    def build():
        built.append(1)
        return "k1", "extern \"C\" __global__ void k1() {}"

    assert kf.generated(("test", 1), build, options=("-O3",)) == ("kernel", "k1")
    assert kf.generated(("test", 1), build, options=("-O3",)) == ("kernel", "k1")
    assert built == [1] and loads == [("k1", ("-O3",), None)] and ("generated", ("test", 1), 0) in kf._cache
    d = elementwise.Definition("family_generated_copy", [elementwise.KernelParam("x", "in", np.dtype("f4")),
                                                         elementwise.KernelParam("y", "out", np.dtype("f4"))],
                               "y = x", options=("-DX=1",))
    k = d._kernel("flat", 1, np.int32)
    assert k == ("kernel", d.source("flat", 1, np.int32)[0]) and loads[-1][1] == ("-DX=1",)
    assert d._kernel("flat", 1, np.int32) is k and len(loads) == 2
    d2 = elementwise.Definition("family_generated_copy", d.params, "y = x", options=("-DX=1",))
    assert d2._kernel("flat", 1, np.int32) is k and len(loads) == 2  # the same key: the shared entry
    s = scan.ScanOp("family_generated_sum", np.dtype("f4"), np.dtype("f4"), np.dtype("f4"), "out0 = in0 + in1")
    ks = s.kernel("serial")  # (a Kernel of the scan skeleton over the generated kernel)
    assert ks.kernel[0] == "kernel" and ks.name == "scan:serial" and len(loads) == 3
    assert s.kernel("serial") is ks and len(loads) == 3
    assert ("generated", ("scan", s.key, ("serial", 0, 0, False, False)), 0) in kf._cache
