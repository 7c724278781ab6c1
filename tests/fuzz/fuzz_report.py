"""The fuzzer's counts and summary: per function (row), per kind of input (fuzz_traits), per kind of
mismatch, and the differences docs/differences.md lists (fuzz_allowances), so that a gap (a row
NumPy never answered, a kind of input a function never met) is visible next to the totals.

A run's `Stats` travel as JSON (`to_json`/`merge`): each GPU chunk records its own as a user
property, and the terminal summary adds them up (tests/fuzz/conftest.py)."""

from __future__ import annotations

import collections
import dataclasses
import json

import fuzz_traits

# per row: calls, NumPy answered, NumPy raised, agreed, mismatches, listed, not compared
_ROW_FIELDS = ("calls", "numpy_ok", "numpy_raised", "agreed", "mismatches", "listed", "skipped")


def mismatch_kind(what: str) -> str:
    """What kind of difference a mismatch's text names."""
    w = what.lstrip("[0123456789] ")
    if w.startswith("expected a result, got"):
        return "extra-error"
    if w.startswith("expected ") and w.endswith("got a result"):
        return "missing-error"
    if w.startswith("exception:"):
        return "error-class"
    if w.startswith("dtype:"):
        return "dtype"
    if w.startswith("shape:"):
        return "shape"
    if w.startswith("result structure") or w.startswith("expected None") or "got None" in w[:40]:
        return "structure"
    return "value"


@dataclasses.dataclass
class Stats:
    calls: int = 0
    agreed: int = 0
    unsupported: int = 0
    device: int = 0
    memory: int = 0
    seconds: float = 0.0
    mismatches: list = dataclasses.field(default_factory=list)
    listed: list = dataclasses.field(default_factory=list)
    rows: dict = dataclasses.field(default_factory=dict)        # row key -> [the _ROW_FIELDS counts]
    row_kinds: dict = dataclasses.field(default_factory=dict)   # row key -> {kind: calls}
    kinds: dict = dataclasses.field(default_factory=dict)       # kind -> [calls, mismatches]
    mismatch_kinds: dict = dataclasses.field(default_factory=dict)
    listed_by: dict = dataclasses.field(default_factory=dict)   # allowance id -> count

    def record(self, row, args, kwargs, tags, ref, result):
        """One case: its row, host arguments, generator tags, NumPy's outcome and the result."""
        counts = self.rows.setdefault(row.key, [0] * len(_ROW_FIELDS))
        counts[0] += 1
        counts[1 if ref[0] == "ok" else 2] += 1
        kinds = fuzz_traits.case_kinds(args, kwargs, tags)
        rk = self.row_kinds.setdefault(row.key, {})
        bad = result is not None and not isinstance(result, str) and not hasattr(result, "allowance")
        for k in kinds:
            rk[k] = rk.get(k, 0) + 1
            c = self.kinds.setdefault(k, [0, 0])
            c[0] += 1
            c[1] += bad
        if result is None:
            counts[3] += 1
        elif isinstance(result, str):
            counts[6] += 1
        elif hasattr(result, "allowance"):
            counts[5] += 1
            self.listed_by[result.allowance] = self.listed_by.get(result.allowance, 0) + 1
        else:
            counts[4] += 1
            mk = mismatch_kind(result.what)
            self.mismatch_kinds[mk] = self.mismatch_kinds.get(mk, 0) + 1

    def add(self, result):
        self.calls += 1
        if result is None:
            self.agreed += 1
        elif result == "unsupported":
            self.unsupported += 1
        elif result == "device":
            self.device += 1
        elif result == "memory":
            self.memory += 1
        elif hasattr(result, "allowance"):
            self.listed.append(result)
        else:
            self.mismatches.append(result)

    def summary(self) -> str:
        rate = self.calls / self.seconds if self.seconds else 0.0
        return ("fuzz: {} calls in {:.1f} s ({:.1f} calls/s): {} agreed, {} mismatches, {} listed (deliberate: "
                "docs/differences.md), {} unsupported (NotImplementedError), {} reached the device (host-only "
                "path), {} out of device memory (a request of 1 GiB or more)".format(
                    self.calls, self.seconds, rate, self.agreed, len(self.mismatches), len(self.listed),
                    self.unsupported, self.device, self.memory))

    # -- JSON: the GPU chunks' counts, added up by the terminal summary --------------------------

    def to_json(self) -> str:
        return json.dumps({"calls": self.calls, "seconds": self.seconds, "agreed": self.agreed,
                           "mismatches": len(self.mismatches), "listed": len(self.listed), "rows": self.rows,
                           "row_kinds": self.row_kinds, "kinds": self.kinds, "mismatch_kinds": self.mismatch_kinds,
                           "listed_by": self.listed_by})


def merge(docs) -> dict:
    """The sum of several `Stats.to_json()` texts (chunks of one run)."""
    tot = {"calls": 0, "seconds": 0.0, "agreed": 0, "mismatches": 0, "listed": 0, "rows": {}, "row_kinds": {},
           "kinds": {}, "mismatch_kinds": collections.Counter(), "listed_by": collections.Counter(), "chunks": 0}
    for text in docs:
        d = json.loads(text)
        tot["chunks"] += 1
        for k in ("calls", "agreed", "mismatches", "listed"):
            tot[k] += d[k]
        tot["seconds"] = max(tot["seconds"], d["seconds"])
        for key, counts in d["rows"].items():
            mine = tot["rows"].setdefault(key, [0] * len(_ROW_FIELDS))
            for i, c in enumerate(counts):
                mine[i] += c
        for key, kinds in d["row_kinds"].items():
            mine = tot["row_kinds"].setdefault(key, {})
            for k, c in kinds.items():
                mine[k] = mine.get(k, 0) + c
        for k, (c, m) in d["kinds"].items():
            mine = tot["kinds"].setdefault(k, [0, 0])
            mine[0] += c
            mine[1] += m
        tot["mismatch_kinds"].update(d["mismatch_kinds"])
        tot["listed_by"].update(d["listed_by"])
    return tot


def report(d, full=False) -> str:
    """The counts of `merge`'s dict (or one Stats' JSON) as text: totals, per kind of input, per
    kind of mismatch, the listed differences, per function (those with a mismatch or a listed
    difference; every one with `full`), and the gaps: rows NumPy never answered, and rows with a
    float argument that never met NaN, inf, -0.0, a subnormal or a huge value."""
    if isinstance(d, str):
        d = merge([d])
    lines = ["fuzz summary: {} calls in {} chunk(s) ({:.0f} s the longest), {} agreed, {} mismatches, {} listed "
             "(docs/differences.md)".format(d["calls"], d.get("chunks", 1), d["seconds"], d["agreed"],
                                            d["mismatches"], d["listed"])]
    lines.append("fuzz kinds of input (calls, mismatches): " + ", ".join(
        "{} {}/{}".format(k, *d["kinds"].get(k, [0, 0])) for k in fuzz_traits.ALL_KINDS))
    lines.append("fuzz kinds of mismatch: " + (", ".join("{} {}".format(k, c) for k, c in sorted(
        dict(d["mismatch_kinds"]).items())) or "none"))
    lines.append("fuzz listed differences: " + (", ".join("{} {}".format(k, c) for k, c in sorted(
        dict(d["listed_by"]).items())) or "none"))
    head = "fuzz per function: " + " ".join(_ROW_FIELDS) + " | kinds met (calls)"
    body = []
    for key in sorted(d["rows"]):
        c = d["rows"][key]
        if full or c[4] or c[5]:
            kinds = d["row_kinds"].get(key, {})
            body.append("  {}: {} | {}".format(key, " ".join(map(str, c)), ", ".join(
                "{} {}".format(k, kinds[k]) for k in fuzz_traits.ALL_KINDS if k in kinds)))
    lines += [head] + (body or ["  (no mismatch and nothing listed)"])
    never_ok = sorted(k for k, c in d["rows"].items() if c[0] >= 20 and not c[1])
    lines.append("fuzz gaps: {} row(s) NumPy never answered (of 20 calls or more){}".format(
        len(never_ok), ": " + ", ".join(never_ok) if never_ok else ""))
    special = ("nan", "inf", "-0.0", "subnormal", "huge")
    for k in special:
        rows = sorted(key for key, kinds in d["row_kinds"].items()
                      if d["rows"][key][0] >= 50 and _has_float(kinds) and not kinds.get(k))
        lines.append("fuzz gaps: {} row(s) with float input never given {}{}".format(
            len(rows), k, ": " + ", ".join(rows[:40]) + (" ..." if len(rows) > 40 else "") if rows else ""))
    return "\n".join(lines)


def _has_float(kinds):
    return bool(kinds.get("float") or kinds.get("complex"))
