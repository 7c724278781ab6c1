"""The test run's NVRTC cache (tests/nvrtc_cache.py): a hit only for the same source, names,
options and header contents; compile errors are not kept."""

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
