"""Fixtures of the fuzz tests: `host_path` runs cuarray's host path with no device (launches
recorded, memory from a fake backing, memsets dropped, a fixed SM count), so that everything
decided before a kernel's result is read (argument checks, dtypes, shapes) is comparable on CPU;
`generation1` re-makes the cases of the fuzzer's first generators; the terminal summary adds up the
GPU fuzzer's counts per function and per kind (fuzz_report)."""

from __future__ import annotations

import os

import pytest

import cuarray

from cuarray.cuda import _memory_base, device


@pytest.fixture
def generation1():
    """Draw with the fuzzer's first generators (fuzz_legacy): the cases fuzz_regressions lists, and
    the tests written on cases of then, are re-made as they were found."""
    import fuzz_values

    with fuzz_values.generation(1):
        yield


@pytest.fixture
def host_path(recorded_launches, monkeypatch):
    if cuarray.is_available():
        # Fake addresses reach the real driver in copies (a read back segfaulted on the GPU machine)
        # and fake launch configs stay in the engines' caches for later GPU tests of the process:
        # there, the GPU fuzzer and the GPU tests check the same things.
        pytest.skip("the host-path tests run where no device is")
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, value, size, stream=None: None)
    # (the gather error record is zeroed with a synchronous memset: no stream to wait for here)
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset", lambda self, value, size, stream=None: None)
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    return recorded_launches


def pytest_terminal_summary(terminalreporter):
    """The GPU fuzzer's counts over its chunks (each records its Stats as the user property
    fuzz_stats): per kind of input, kind of mismatch, listed difference, per function and the gaps
    (fuzz_report.report); the table of every function to $CUARRAY_FUZZ_REPORT when it is set."""
    docs = []
    for key in ("passed", "failed"):
        for rep in terminalreporter.stats.get(key, []):
            props = dict(getattr(rep, "user_properties", ()) or ())
            if getattr(rep, "when", None) == "call" and "fuzz_stats" in props:
                docs.append(props["fuzz_stats"])
    if not docs:
        return
    import fuzz_report  # (tests/fuzz is on sys.path once this conftest is)

    total = fuzz_report.merge(docs)
    for line in fuzz_report.report(total).splitlines():
        terminalreporter.write_line(line)
    path = os.environ.get("CUARRAY_FUZZ_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(fuzz_report.report(total, full=True) + "\n")
        terminalreporter.write_line("fuzz: the table of every function is in {}".format(path))
