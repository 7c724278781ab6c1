"""Where cuarray's first call of each library family goes, in fresh processes (run on the GPU machine).

For each family of `cuarray.bench.cases.first_use` (warm kernel cache), prints:
- the median of --runs fresh processes: context + upload, and the call alone;
- the Python modules imported during the call (``-X importtime`` lines after the upload), top 12
  by cumulative time;
- the call's top 15 functions by cumulative time under cProfile (one process).

    python scripts/perf/first_call_probe.py [--runs 3] [--families first-matmul,first-random]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from cuarray.bench.cases.first_use import FAMILIES, child_env, child_source  # noqa: E402

_MARK = "import sys; sys.stderr.write('@@CALL\\n'); sys.stderr.flush()"
_PROFILE = ("import cProfile, pstats, io\n_prof = cProfile.Profile()\n", "_prof.enable()", "_prof.disable()",
            "_s = io.StringIO(); pstats.Stats(_prof, stream=_s).sort_stats('cumulative').print_stats(15)\n"
            "sys.stderr.write(_s.getvalue())")


def _source(family: str, mode: str, region: str = "call") -> str:
    """The bench child with a marker before the call ("imports"), or cProfile around the upload or
    the call ("profile")."""
    src = child_source("cuarray", family)
    lines = src.split("\n")
    start, end = ("t1", "t2") if region == "upload" else ("t2", "t3")
    i = lines.index(start + " = time.perf_counter()")
    if mode == "imports":
        lines.insert(lines.index("t2 = time.perf_counter()"), _MARK)
        lines.insert(lines.index("t1 = time.perf_counter()"), _MARK.replace("@@CALL", "@@UPLOAD"))
    elif mode == "profile":
        lines.insert(i + 1, _PROFILE[1])
        j = lines.index(end + " = time.perf_counter()")
        lines.insert(j + 1, _PROFILE[2])
        lines.insert(0, "import sys\n" + _PROFILE[0])
        lines.append(_PROFILE[3])
    return "\n".join(lines)


def _run(code: str, cache: str, flags=()):
    proc = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True,
                          env=child_env("cuarray", cache), timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--families", default=",".join(FAMILIES + ("first-add",)))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="first-call-probe-") as cache:
        for fam in args.families.split(","):
            _run(child_source("cuarray", fam), cache)  # warm the kernel cache
            outs = [_run(child_source("cuarray", fam), cache)[0] for _ in range(args.runs)]
            print("== {}: upload {:.1f} ms, call {:.1f} ms (median of {})".format(
                fam, 1e3 * statistics.median(o["upload_s"] for o in outs),
                1e3 * statistics.median(o["call_s"] for o in outs), args.runs))
            _, err = _run(_source(fam, "imports"), cache, ("-X", "importtime"))
            upload, call = err.split("@@UPLOAD", 1)[-1].split("@@CALL", 1)
            for what, text in (("upload", upload), ("call", call)):
                rows = []
                for line in text.splitlines():
                    parts = line.split("|")
                    if len(parts) == 3 and parts[1].strip().isdigit():
                        rows.append((int(parts[1]), parts[2].rstrip()))
                top = sum(c for c, n in rows if n.startswith(" ") and not n.startswith("  "))
                print("  imports during the {}: {} modules, {:.1f} ms at top level".format(what, len(rows), top / 1e3))
                for cum, name in sorted(rows, reverse=True)[:10]:
                    print("   {:>8.1f} ms {}".format(cum / 1e3, name))
            for region in (("upload", "call") if fam == "first-matmul" else ("call",)):
                _, err = _run(_source(fam, "profile", region), cache)
                print("  cProfile of the {}:".format(region))
                print("\n".join("  " + x for x in err.strip().splitlines()[-22:]))


if __name__ == "__main__":
    main()
