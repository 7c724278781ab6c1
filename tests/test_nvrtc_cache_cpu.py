"""The test run's NVRTC cache (tests/nvrtc_cache.py): a hit only for the same source, names,
options and header contents; compile errors are not kept."""

import ast
import os
import pathlib
import re

import pytest

import nvrtc_cache

pytest.importorskip("cuda.bindings.nvrtc")


class Opts:
    name = "prog"

    def __init__(self, *args):
        self.args = [a.encode() for a in args]

    def as_bytes(self, backend):
        assert backend == "nvrtc"
        return self.args


class Obj:
    def __init__(self, code):
        self.code, self.symbol_mapping = code, {"k": b"_Z1kv"}


def test_hits_only_for_the_same_input(tmp_path):
    inc_a, inc_b = tmp_path / "a" / "include", tmp_path / "b" / "include"
    for inc in (inc_a, inc_b):  # the same headers under two paths (the two venvs)
        inc.mkdir(parents=True)
        (inc / "h.cuh").write_text("#define X 1\n")
    calls = []

    def real(source, opts, names):
        calls.append(source)
        if "error" in source:
            raise RuntimeError("NVRTC_ERROR_COMPILATION")
        return Obj(("cubin of " + source).encode())

    fn = nvrtc_cache.cached(real, str(tmp_path / "cache"))
    first = fn("src", Opts("-arch=sm_90", "--include-path={}".format(inc_a)), ("k",))
    again = fn("src", Opts("-arch=sm_90", "--include-path={}".format(inc_b)), ("k",))
    assert calls == ["src"] and again.code == first.code == b"cubin of src" and again.symbol_mapping == {"k": b"_Z1kv"}
    fn("src2", Opts("-arch=sm_90", "--include-path={}".format(inc_a)), ("k",))  # another source
    fn("src", Opts("-arch=sm_90", "--define-macro=Y", "--include-path={}".format(inc_a)), ("k",))  # options
    fn("src", Opts("-arch=sm_90", "--include-path={}".format(inc_a)), ("k", "j"))  # names
    assert calls == ["src", "src2", "src", "src"]
    (inc_b / "h.cuh").write_text("#define X 2\n")  # a header's contents
    nvrtc_cache.dir_digest.cache_clear()
    fn("src", Opts("-arch=sm_90", "--include-path={}".format(inc_b)), ("k",))
    assert calls[-1] == "src" and len(calls) == 5
    for _ in range(2):  # errors are raised each time, never kept
        with pytest.raises(RuntimeError):
            fn("error", Opts("-arch=sm_90"), ("k",))
    assert calls[-2:] == ["error", "error"]


# -- the `nvrtc_fast` marker (tests/conftest.py) --------------------------------------------------

# What a test carrying the marker may not look at: code quality depends on the optimisation level
# (a kernel's attributes read from the cubin by number too: 0x11 its local memory, 0x2F its registers).
QUALITY = re.compile(r"spill|regist|num_regs|local_size|local memory|lmem|stack|launch_bounds|occupancy"
                     r"|kernel_attributes|0x11|0x2[fF]")


def test_fast_options_add_the_flag_to_a_copy():
    from cuarray.cuda import compiler

    opts = compiler._program_options(("-DX=1",), "sm_90", "p")
    out = nvrtc_cache.fast_options(opts)
    assert out.as_bytes("nvrtc")[-1] == nvrtc_cache.FAST.encode()
    assert nvrtc_cache.FAST.encode() not in opts.as_bytes("nvrtc")  # (the caller's options unchanged)
    assert out.as_bytes("nvrtc")[:-1] == opts.as_bytes("nvrtc")


@pytest.mark.nvrtc_fast
def test_a_marked_test_compiles_fast():
    from cuarray.cuda import compiler

    if os.environ.get("CUARRAY_TEST_NVRTC_FAST") == "0":
        assert compiler._nvrtc_compile.__name__ != "fast_compile"  # (switched off: the production options)
        return
    assert compiler._nvrtc_compile.__name__ == "fast_compile"
    cubin, _ = compiler.compile_cubin('extern "C" __global__ void k(float *x) { x[0] = 1; }', arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def test_an_unmarked_test_compiles_at_the_production_options():
    from cuarray.cuda import compiler

    assert compiler._nvrtc_compile.__name__ != "fast_compile"


def _marked_tests():
    """(path, function name, its source and that of the module's functions it calls) of every test
    function carrying `nvrtc_fast` (as a decorator, or a module's `pytestmark`)."""
    root = pathlib.Path(__file__).parent
    for path in sorted(root.rglob("test_*.py")):
        text = path.read_text()
        if "nvrtc_fast" not in text:
            continue
        tree = ast.parse(text)
        funcs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        whole = "pytestmark" in text and any("nvrtc_fast" in ast.get_source_segment(text, n) for n in tree.body
                                                if isinstance(n, ast.Assign) and "pytestmark" in ast.dump(n))
        for name, f in funcs.items():
            marked = whole or any("nvrtc_fast" in ast.get_source_segment(text, d) for d in f.decorator_list)
            if marked and name.startswith("test_"):
                body = ast.get_source_segment(text, f)
                called = set(re.findall(r"\b(\w+)\(", body)) & set(funcs)
                helpers = "".join(ast.get_source_segment(text, funcs[c]) for c in called)
                yield path.relative_to(root), name, body + helpers


def test_marked_tests_only_ask_that_kernels_compile():
    """The marker goes only on tests whose name says they compile, and whose code (with the module's
    functions it calls) asserts nothing the optimisation level changes: registers, spills, stack,
    local memory, launch bounds, occupancy."""
    marked = list(_marked_tests())
    assert len(marked) >= 10, marked  # (the heavy compile checks carry it)
    bad = [(str(p), n) for p, n, src in marked if "compile" not in n or QUALITY.search(src.split("\n", 1)[1])]
    assert not bad, bad
