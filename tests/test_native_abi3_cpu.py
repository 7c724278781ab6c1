"""cuarray's C extensions as abi3 builds (`cuarray/cuda/_native/limited_api.h`, setup.py).

- Python.h reaches every extension through limited_api.h alone, so its workaround and the limited
  API's version hold for all three.
- The three modules built with a newer CPython's headers (3.12's, where the machine has them: pyenv's
  3.12.1 on CI) run on this interpreter where they may be installed on it. Before limited_api.h,
  3.12.1's headers gave modules whose `Py_RETURN_NONE` took no reference (CPython gh-134989): on 3.11
  None's count fell to zero and the interpreter aborted in none_dealloc (after ~4000 calls).
- setup.py tags the wheel with the building interpreter's version, never an older one.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NATIVE = {
    "_launchcore": ["cuarray/cuda/_native/launch.c"],
    "_poolcore": ["cuarray/cuda/_native/" + f for f in ("bins.c", "dev.c", "block.c", "async.c", "pool_malloc.c",
                                                        "current_stream.c")],
    "_nodecore": ["cuarray/_core/_native/" + f for f in (
        "nodes.c", "lazyops.c", "lazycalls.c", "live.c", "ufunccall.c", "steady.c", "threadlocal.c",
        "records.c", "elementwise_run.c", "lazy_block.c", "leaf_class.c")],
}
HEADER = "cuarray/cuda/_native/limited_api.h"


def _native_files():
    return sorted(glob.glob(os.path.join(ROOT, "cuarray", "**", "_native", "*.[ch]"), recursive=True))


def test_setup_builds_these_sources():
    """The sources compiled below are setup.py's, every one of them."""
    setup = open(os.path.join(ROOT, "setup.py")).read()
    for name, sources in NATIVE.items():
        assert '"cuarray.{}.{}"'.format("cuda" if name != "_nodecore" else "_core", name) in setup
        for s in sources:
            assert '"{}"'.format(s.rsplit("/", 1)[1]) in setup or '"{}"'.format(s) in setup, s
    listed = {os.path.join(ROOT, s) for sources in NATIVE.values() for s in sources}
    assert {f for f in _native_files() if f.endswith(".c")} == listed


def test_python_h_only_through_limited_api_h():
    includes = {}
    for f in _native_files():
        text = open(f).read()
        rel = os.path.relpath(f, ROOT)
        includes[rel] = re.findall(r'#include\s+"([^"]+)"', text)
        if rel == HEADER:
            continue
        assert "<Python.h>" not in text, "{} includes Python.h itself: include limited_api.h".format(rel)
        assert not re.search(r"#\s*define\s+Py_LIMITED_API", text), rel

    def reaches(rel, seen=()):
        if rel == HEADER:
            return True
        return any(reaches(os.path.normpath(os.path.join(os.path.dirname(rel), inc)), seen + (rel,))
                   for inc in includes.get(rel, ()) if inc not in seen)

    for rel in includes:
        if rel.endswith(".c"):
            assert reaches(rel), "{} does not include limited_api.h (directly or through its header)".format(rel)


def test_wheel_tag_is_the_building_interpreters():
    setup = open(os.path.join(ROOT, "setup.py")).read()
    assert '"py_limited_api": ABI3_TAG' in setup
    tag = re.search(r'^ABI3_TAG = (.+?)  #', setup, re.M).group(1)
    assert eval(tag, {"sys": sys, "max": max}) == "cp3{}".format(max(11, sys.version_info[1]))


def _newer_include():
    """A CPython 3.12+ include folder with Python.h (pyenv's versions), or None."""
    roots = [os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")]
    for root in roots:
        for inc in sorted(glob.glob(os.path.join(root, "versions", "3.1[2-9]*", "include", "python3.1[2-9]"))):
            if os.path.exists(os.path.join(inc, "Python.h")):
                return inc
    return None


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the case is a module built by a newer CPython run on 3.11")
def test_modules_built_with_newer_headers_run_here(tmp_path):
    inc, cc = _newer_include(), shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if inc is None or cc is None:
        pytest.skip("no C compiler, or no CPython 3.12+ headers (pyenv) on this machine")
    built = {}
    for name, sources in NATIVE.items():
        out = str(tmp_path / (name + ".abi3.so"))
        cmd = [cc, "-O0", "-shared", "-fPIC", "-I" + inc, "-o", out] + [os.path.join(ROOT, s) for s in sources]
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        built[name] = out
    # Each module loaded by itself (its init imports nothing of cuarray) and a function of each that
    # returns None, True or False called far more often than None, True and False are referenced.
    script = """
import importlib.util, sys
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m
launch, pool, nodes = (load(n, p) for n, p in {built!r}.items())
n = 3 * max(sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False))
for _ in range(n):
    assert launch.clear() is None
    assert pool.set_free_hook(None) is None
    assert nodes.memos_cleared() is None
    assert nodes.bind_binary("no such operator", None, None) is False
print("ok", n)
""".format(built=built)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ok"), (r.returncode, r.stdout, r.stderr[-3000:])
