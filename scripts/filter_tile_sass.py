"""Compare the machine code of every separable-filter tile kernel (templates/filter_tile*.cu, variants
0-5) between a git revision's templates and the working tree's: NVRTC for sm_90 (no GPU needed),
`nvdisasm` per kernel, the SASS text (with encodings) and ptxas's register/frame/stack records.

For a change to the tile templates that should not change the kernels (a refactor), this is the
measurement test_variants_0_to_3_unchanged's digest asks for. Run from the repository root:

    python scripts/filter_tile_sass.py --base main [--jobs 2] [--batch 1] [--nvdisasm PATH]

It prints the kernels compared a variant, the identical and the different ones, and exits 1 on a
difference. The kernels: every dtype through correlate, uniform, min and max into its own type, mixed
input/output types, 32- and 64-bit indices on a few, and every R a plan can make (both half-r plans
of variants 0-3, variant 4's strided r of 16, 8 and 4, variant 5's 16 and 8): 1250. --batch 1 (the
default) compiles each kernel alone, as _filter_kernels.TILE.kernel does (~1 s a kernel and
revision); --batch N compiles N kernels a program, as the CPU compile tests do (NVRTC's inlining
sees all of them, so their SASS can differ from the kernel compiled alone). Labels (.L_x_N) are
renumbered a kernel, since their numbers are global to a cubin.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))

from cubin_info import kernel_attributes  # noqa: E402

from cuarray.cuda import compiler  # noqa: E402
from cuarray.scipy.ndimage import _filter_kernels as fk  # noqa: E402
from cuarray.scipy.ndimage import _filter_tile as ft  # noqa: E402

DTYPES = "?bBhHiIqQfd"
MIXED = [("f4", "f8", "correlate"), ("f8", "f4", "correlate"), ("u1", "f4", "correlate"), ("i4", "f8", "uniform"),
         ("i2", "f4", "correlate"), ("f4", "u1", "correlate"), ("f8", "i8", "uniform"), ("u8", "f8", "correlate"),
         ("f4", "?", "correlate")]


def kernel_names() -> list:
    names = set()
    combos = [(c, c, op) for c in DTYPES for op in fk.OPS] + MIXED
    for t, o, op in combos:
        t, o = np.dtype(t), np.dtype(o)
        a = fk.acc_dtype(t, o, op)
        asz = a.itemsize

        def add(kind, r, var, idx64):
            names.add(ft.kernel_name(kind, t, o, a, fk.OPS[op], idx64, r, var))

        for idx64 in (False, True) if t == o and t.char in "fdiB" or (t.char, o.char) == ("B", "f") else (False,):
            for var in (0, 1, 2, 3):
                for r in {ft._r("rows", asz), ft._r("rows", asz) // (2 if asz <= 4 else 1)}:
                    add("rows", r, var, idx64)
                for r in {ft._r("cols", asz), ft._r("cols", asz) // 2}:
                    add("cols", r, var, idx64)
            add("rows", ft._r("rows", asz), 4, idx64)
            for r in ({16, 8, 4} if asz <= 4 else {8, 4}):
                add("cols", r, 4, idx64)
            add("rows", 16 if asz <= 4 else 8, 5, idx64)
    return sorted(names)


def tile_source(rev):
    """_filter_tile.source(filters source) with the tile templates as they are at git `rev` (None:
    the working tree)."""
    if rev is None:
        return ft.source(fk.source())
    root = pathlib.Path(__file__).resolve().parents[1]
    parts = []
    for path in (ft._TEMPLATE, ft._PIPE_TEMPLATE, ft._SHORT_TEMPLATE):
        rel = pathlib.Path(path).resolve().relative_to(root)
        parts.append(subprocess.run(["git", "show", "{}:{}".format(rev, rel)], cwd=root, check=True,
                                    capture_output=True, text=True).stdout)
    return fk.source() + "".join(parts)


def split_sass(text: str) -> dict:
    """{function: SASS} of nvdisasm's output, a .text.<name> section each, white space folded and
    labels renumbered in order of appearance."""
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.(\S+?),", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
        elif re.match(r"\s*\.section\s", line):
            cur = None
        elif cur is not None:
            funcs[cur].append(line)
    out = {}
    for name, lines in funcs.items():
        labels: dict = {}

        def label(m, labels=labels):
            return labels.setdefault(m.group(0), ".L_x_N{}".format(len(labels)))
        out[name] = "\n".join(" ".join(re.sub(r"\.L_x_\d+", label, ln).split()) for ln in lines)
    return out


def machine_code(source: str, names: list, nvdisasm: str) -> dict:
    """{name expression: (SASS, ptxas records)} of the kernels `names` of `source`."""
    cubin, mapping = compiler.compile_cubin(source, arch="sm_90", name_expressions=names)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        sass = split_sass(subprocess.run([nvdisasm, "-c", "-hex", f.name], check=True, capture_output=True,
                                         text=True).stdout)
    attrs = kernel_attributes(cubin)
    res = {}
    for n in names:
        low = mapping[n].decode() if isinstance(mapping[n], bytes) else mapping[n]
        res[n] = (sass[low], attrs.get(low))
    return res


def _compare_batch(args):
    base_src, new_src, names, nvdisasm = args
    a, b = machine_code(base_src, names, nvdisasm), machine_code(new_src, names, nvdisasm)
    return [(n, a[n] == b[n], a[n][0].count("\n") + 1) for n in names]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="git revision of the templates to compare with")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=1, help="kernels a program (1: each alone)")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    args = ap.parse_args()
    base_src, new_src = tile_source(args.base), tile_source(None)
    names = kernel_names()
    batches = [(base_src, new_src, names[i:i + args.batch], args.nvdisasm) for i in range(0, len(names), args.batch)]
    results = []
    with multiprocessing.Pool(args.jobs) as pool:
        for part in pool.imap_unordered(_compare_batch, batches):
            results += part
            if len(results) % 50 < len(part):
                print("{} / {} kernels".format(len(results), len(names)), file=sys.stderr, flush=True)
    by_variant: dict = {}
    different = [n for n, same, _ in results if not same]
    for n, _, _ in results:
        v = int(n.rsplit(",", 1)[1].strip(" >"))
        by_variant[v] = by_variant.get(v, 0) + 1
    for n in sorted(different):
        print("DIFFERENT", n)
    print("{} kernels compared (variants {}), {} SASS lines: {} identical, {} different".format(
        len(results), ", ".join("{}: {}".format(v, c) for v, c in sorted(by_variant.items())),
        sum(lines for _, _, lines in results), len(results) - len(different), len(different)))
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
