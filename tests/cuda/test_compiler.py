"""NVRTC compilation and the kernel caches, on a CPU (explicit arch, no device)."""

import hashlib
import os
import stat
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from cuarray.cuda import _kernel_cache as kc
from cuarray.cuda import compiler as c
from cuarray.cuda import module as m

ARCH = "sm_90"
SAXPY = textwrap.dedent("""
    extern "C" __global__ void fill(float* x, float a, long long n) {
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
        if (i < n) x[i] = i * a;
    }
""")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kernels"
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(d))
    monkeypatch.setattr(kc, "_unwritable", set())
    return d


@pytest.fixture
def nvrtc_calls(monkeypatch):
    calls = []
    real = c._nvrtc_compile

    def counting(*args):
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(c, "_nvrtc_compile", counting)
    return calls


def test_compile_cubin_is_elf():
    cubin, mapping = c.compile_cubin(SAXPY, arch=ARCH)
    assert cubin[:4] == b"\x7fELF" and len(cubin) > 100
    assert mapping == {}


def test_name_expressions_map_templates():
    src = "template <typename T> __global__ void scale(T* x, T a) { x[threadIdx.x] *= a; }"
    _, mapping = c.compile_cubin(src, arch=ARCH, name_expressions=("scale<float>", "scale<double>"))
    assert set(mapping) == {"scale<float>", "scale<double>"}
    assert mapping["scale<float>"].startswith(b"_Z")


def test_includes_fp16_and_cuda_std():
    src = textwrap.dedent("""
        #include <cuda_fp16.h>
        #include <cuda/std/cstdint>
        extern "C" __global__ void h(__half* x, cuda::std::int32_t n) {
            if (threadIdx.x < n) x[threadIdx.x] = __float2half(1.5f);
        }
    """)
    cubin, _ = c.compile_cubin(src, arch=ARCH)
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("opts", [
    ("-use_fast_math", "-DSCALE=2", "-D", "OTHER", "--std=c++20", "-lineinfo"),
    ("--use_fast_math", "--define-macro=SCALE=2", "-UNOTHING", "-ftz=true", "-maxrregcount=32"),
    ("-DSCALE=2", "-Xptxas=-v"),  # a flag ProgramOptions has no field for passes through
])
def test_options(opts):
    src = '#ifndef SCALE\n#error SCALE missing\n#endif\nextern "C" __global__ void k(float* x) { x[0] = SCALE; }'
    cubin, _ = c.compile_cubin(src, arch=ARCH, options=opts)
    assert cubin[:4] == b"\x7fELF"


def test_parse_options():
    fields, extra = c._parse_options(["-DA=1", "-D", "B", "-I/inc", "--std=c++20", "-ftz=false", "--foo"])
    assert fields["define_macro"] == [("A", "1"), "B"]
    assert fields["include_path"] == ["/inc"]
    assert fields["std"] == "c++20" and fields["ftz"] is False
    assert extra == ["--foo"]
    assert c._parse_options([])[0]["std"] == "c++17"
    with pytest.raises(ValueError, match="arch="):
        c._parse_options(["-arch=sm_80"])


def test_syntax_error_shows_log_and_numbered_source():
    src = 'extern "C" __global__ void bad(float* x) {\n    x[0] = 1 +;\n}\n'
    with pytest.raises(c.CompileError) as info:
        c.compile_cubin(src, arch=ARCH, name="bad")
    err = info.value
    msg = str(err)
    assert "expected an expression" in msg and "expected an expression" in err.log
    assert "bad(2)" in msg
    assert "2 |     x[0] = 1 +;" in msg
    assert err.source == src and err.options == ()


def test_error_separates_user_source_and_maps_lines():
    user = "float t = in0 *;\nout0 = t;"
    src = ('extern "C" __global__ void cuarray_op(const float* a, float* b) {\n'
           "    float in0 = a[threadIdx.x]; float out0;\n" + user + "\n    b[threadIdx.x] = out0;\n}\n")
    with pytest.raises(c.CompileError) as info:
        c.compile_cubin(src, arch=ARCH, user_source=user, name="cuarray_op")
    msg = str(info.value)
    assert "cuarray_op(3) [your line 1]" in msg
    gen, _, mine = msg.partition("Your source:")
    assert "Generated source:" in gen and "1 | extern" in gen
    assert "1 | float t = in0 *;" in mine and "2 | out0 = t;" in mine


def test_missing_header_dir_says_how_to_fix(monkeypatch):
    monkeypatch.setattr(c, "_header_dirs", lambda: {"cccl": None, "cudart": None})
    monkeypatch.setattr(c, "_include_dirs", [])
    src = '#include <cuda_fp16.h>\nextern "C" __global__ void k(__half* x) {}'
    with pytest.raises(c.CompileError) as info:
        c.compile_cubin(src, arch=ARCH)
    msg = str(info.value)
    assert "cuda_fp16.h" in msg and "pip install cuarray[cu13]" in msg and "'cudart'" in msg
    # a kernel that includes nothing still compiles without any header dir
    assert c.compile_cubin(SAXPY, arch=ARCH)[0][:4] == b"\x7fELF"


def test_show_source(capsys, monkeypatch):
    monkeypatch.setattr(c, "_show_source", None)
    monkeypatch.setenv("CUARRAY_SHOW_SOURCE", "1")
    c.compile_cubin(SAXPY, arch=ARCH, name="shown")
    err = capsys.readouterr().err
    assert "compiling shown for sm_90" in err and "x[i] = i * a" in err
    c.set_show_source(False)
    c.compile_cubin(SAXPY, arch=ARCH)
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- disk cache

def _entry(cache_dir):
    files = [p for p in cache_dir.iterdir() if p.suffix == ".cukernel"]
    assert len(files) == 1
    return files[0]


def test_disk_cache_miss_then_hit(cache_dir, nvrtc_calls):
    first = c._load_or_compile_cubin(SAXPY, ARCH, (), ("fill",))
    assert len(nvrtc_calls) == 1
    second = c._load_or_compile_cubin(SAXPY, ARCH, (), ("fill",))
    assert len(nvrtc_calls) == 1
    assert first == second and first[1] == {"fill": b"fill"}
    assert _entry(cache_dir).name == c._cache_key(SAXPY, (), ("fill",), ARCH) + ".cukernel"
    # anything in the key changes the entry
    c._load_or_compile_cubin(SAXPY, ARCH, ("-DX=1",), ("fill",))
    c._load_or_compile_cubin(SAXPY, "sm_80", (), ("fill",))
    assert len(nvrtc_calls) == 3


def test_cache_dir_is_private(cache_dir):
    c._load_or_compile_cubin(SAXPY, ARCH)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    assert not [p for p in cache_dir.iterdir() if p.suffix == ".tmp"]


def test_cache_dir_default(monkeypatch, tmp_path):
    monkeypatch.delenv("CUARRAY_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert c.get_cache_dir() == os.path.join(str(tmp_path), "cuarray", "kernels")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert c.get_cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "cuarray", "kernels")


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "magic", "version"])
def test_corrupt_entry_is_deleted_and_rebuilt(cache_dir, nvrtc_calls, damage):
    good = c._load_or_compile_cubin(SAXPY, ARCH)
    path = _entry(cache_dir)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) - 10]
    elif damage == "empty":
        data = b""
    elif damage == "magic":
        data[:8] = b"NOTOURS!"
    else:
        data[8] = 99
    path.write_bytes(bytes(data))
    key = path.name[: -len(".cukernel")]
    assert kc.load(key) is None
    assert not path.exists()  # discarded, never loaded
    path.write_bytes(bytes(data))
    assert c._load_or_compile_cubin(SAXPY, ARCH) == good
    assert len(nvrtc_calls) == 2
    assert kc.decode(path.read_bytes(), key) == good  # rebuilt entry is valid


def test_encode_decode_round_trip():
    key = "ab" * 32
    mapping = {"f<float>": b"_Z1fIfEvv", "g": b"g"}
    blob = kc.encode(key, b"\x7fELFcubin", mapping)
    assert kc.decode(blob, key) == (b"\x7fELFcubin", mapping)
    assert kc.decode(blob, "cd" * 32) is None  # an entry filed under another key
    assert kc.decode(blob + b"x", key) is None


def test_unwritable_location_warns_once(tmp_path, monkeypatch, nvrtc_calls):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(blocker / "kernels"))
    monkeypatch.setattr(kc, "_unwritable", set())
    with pytest.warns(c.CacheWarning) as record:
        a = c._load_or_compile_cubin(SAXPY, ARCH)
        b = c._load_or_compile_cubin(SAXPY + "\n// other", ARCH)
    assert len(record) == 1 and "CUARRAY_CACHE_DIR" in str(record[0].message)
    assert a[0][:4] == b[0][:4] == b"\x7fELF"
    assert len(nvrtc_calls) == 2


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_dir_warns_once(tmp_path, monkeypatch):
    d = tmp_path / "ro"
    d.mkdir(mode=0o500)
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(d))
    monkeypatch.setattr(kc, "_unwritable", set())
    try:
        with pytest.warns(c.CacheWarning) as record:
            c._load_or_compile_cubin(SAXPY, ARCH)
            c._load_or_compile_cubin(SAXPY, ARCH)
        assert len(record) == 1
    finally:
        d.chmod(0o700)


def test_clear_disk_cache(cache_dir):
    c._load_or_compile_cubin(SAXPY, ARCH)
    (cache_dir / "unrelated.txt").write_text("keep me")
    c.clear_disk_cache()
    assert [p.name for p in cache_dir.iterdir()] == ["unrelated.txt"]


def test_registered_header_dirs_are_in_the_key(tmp_path, monkeypatch, cache_dir, nvrtc_calls):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "scale.cuh").write_text("#define CUARRAY_SCALE 2.0f\n")
    monkeypatch.setattr(c, "_include_dirs", list(c._include_dirs))
    src = '#include "scale.cuh"\nextern "C" __global__ void k(float* x) { x[0] = CUARRAY_SCALE; }'
    key0 = c._cache_key(src, (), (), ARCH)
    c.add_include_dir(str(templates))
    c.add_include_dir(str(templates))  # once
    assert c._include_dirs.count(os.path.abspath(templates)) == 1
    key1 = c._cache_key(src, (), (), ARCH)
    assert key1 != key0
    assert c._load_or_compile_cubin(src, ARCH)[0][:4] == b"\x7fELF"  # the dir is on the include path
    (templates / "scale.cuh").write_text("#define CUARRAY_SCALE 3.0f\n")
    c._headers_digest.cache_clear()  # the digest is taken once per process
    key2 = c._cache_key(src, (), (), ARCH)
    assert key1 != key2
    (templates / "sub").mkdir()
    (templates / "sub" / "new.cuh").write_text("// any file may be included\n")
    c._headers_digest.cache_clear()
    assert c._cache_key(src, (), (), ARCH) not in (key1, key2)
    c._headers_digest.cache_clear()
    with pytest.raises(ValueError, match="not a directory"):
        c.add_include_dir(str(tmp_path / "missing"))


def test_the_engine_registers_its_headers():
    import cuarray._core  # noqa: F401  (registers on import)

    assert any(d.endswith(os.path.join("_core", "templates")) for d in c._include_dirs)


_WORKER = textwrap.dedent("""
    import hashlib, os, sys, time
    from cuarray.cuda import compiler as c
    go = sys.argv[1]
    while not os.path.exists(go):
        time.sleep(0.001)
    cubin, mapping = c._load_or_compile_cubin(sys.argv[2], "sm_90", (), ("fill",))
    print(hashlib.sha256(cubin).hexdigest(), mapping)
""")


def test_concurrent_writers(tmp_path, cache_dir):
    go = tmp_path / "go"
    src = SAXPY + "\n// concurrent\n"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(c.__file__))))
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, CUARRAY_CACHE_DIR=str(cache_dir), PYTHONPATH=path)
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, str(go), src], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    go.write_text("")  # release all four at once
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert "CacheWarning" not in err
        outs.append(out.strip())
    assert len(set(outs)) == 1
    entry = _entry(cache_dir)
    key = c._cache_key(src, (), ("fill",), ARCH)
    cubin, mapping = kc.decode(entry.read_bytes(), key)
    assert outs[0] == "{} {}".format(hashlib.sha256(cubin).hexdigest(), mapping)
    assert not [p for p in cache_dir.iterdir() if p.suffix == ".tmp"]


# --------------------------------------------------------------------------- argument conversion

class _CAI:
    __cuda_array_interface__ = {"data": (0xABC000, False), "shape": (4,), "typestr": "<f4", "version": 3}


class _FakeNdarray:
    class data:
        ptr = 0xDEF000


def test_convert_args_types():
    out = m.convert_args((True, 3, 2.5, 1j, np.float32(1.5), np.int32(7), _CAI(), _FakeNdarray()))
    assert type(out[0]) is np.bool_ and type(out[1]) is np.int64
    assert type(out[2]) is np.float64 and type(out[3]) is np.complex128
    assert type(out[4]) is np.float32 and type(out[5]) is np.int32
    assert out[6] == 0xABC000 and out[7] == 0xDEF000 and type(out[6]) is int


def test_convert_args_rejects_with_position():
    with pytest.raises(TypeError, match="argument 1 of kernel 'f'.*ndarray"):
        m.convert_args((1, np.zeros(3)), "f")
    with pytest.raises(TypeError, match="argument 0 of kernel 'f'.*str"):
        m.convert_args(("x",), "f")
    with pytest.raises(OverflowError, match="argument 0"):
        m.convert_args((2**70,), "f")
    with pytest.raises(TypeError, match="tuple"):
        m.convert_args(np.float32(1), "f")


def test_convert_args_checks_count_and_width():
    sizes = (8, 4, 8)
    m.convert_args((_CAI(), np.float32(1), 5), "f", sizes)
    with pytest.raises(TypeError, match="kernel 'f' takes 3 arguments, 2 given"):
        m.convert_args((_CAI(), np.float32(1)), "f", sizes)
    # Python scalars take the parameter's width (issue 54): 1.0 for a float, 5 for an int
    args = m.convert_args((_CAI(), 1.0, 5), "f", sizes)
    assert type(args[1]) is np.float32 and args[1] == 1
    with pytest.raises(TypeError, match="argument 1 of kernel 'f' is a 2-byte parameter.*Python float"):
        m.convert_args((_CAI(), 1.0, 5), "f", (8, 2, 8))


def test_missing_nvrtc_says_how_to_fix(monkeypatch):
    class DynamicLibNotFoundError(RuntimeError):
        pass

    def no_nvrtc(*args):
        raise DynamicLibNotFoundError("libnvrtc.so.13 not found")

    monkeypatch.setattr(c, "_nvrtc_compile", no_nvrtc)
    with pytest.raises(RuntimeError, match=r"NVRTC.*pip install cuarray\[cu13\]"):
        c.compile_cubin(SAXPY, arch=ARCH)


@pytest.mark.skipif(c._backend.is_available(), reason="checks the no-device path")
def test_compile_module_without_device_still_fills_disk_cache(cache_dir):
    with pytest.raises(c._backend.NoDeviceError):
        c.compile_module(SAXPY + "\n// no device\n", arch=ARCH)
    assert _entry(cache_dir).stat().st_size > 100


def test_nvrtc_of_a_wheel_is_named_without_loading_it():
    # The cache key names NVRTC's library file; on a warm cache the first operation never compiles,
    # so locating that file must not load the 140 MB library (25-40 ms, docs/perf-notes.md).
    if c._nvrtc_wheel_file() is None:
        pytest.skip("no NVIDIA NVRTC wheel in site-packages")
    code = textwrap.dedent("""
        import json, os
        from cuarray.cuda import compiler
        tid = compiler._toolchain_id()
        with open("/proc/self/maps") as f:
            loaded = "libnvrtc.so" in f.read()
        from cuda.pathfinder import load_nvidia_dynamic_lib
        print(json.dumps([loaded, tid.splitlines()[0], compiler._nvrtc_wheel_file(),
                          os.path.realpath(load_nvidia_dynamic_lib("nvrtc").abs_path)]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    import json

    loaded, first, ours, pathfinders = json.loads(out.stdout.strip().splitlines()[-1])
    assert not loaded
    assert first.startswith("libnvrtc " + ours + " ")
    assert os.path.realpath(ours) == pathfinders  # the file cuda.pathfinder loads when compiling



def test_headers_digest_is_kept_in_the_disk_cache(tmp_path, cache_dir, monkeypatch):
    # A header directory's content digest is stored under its files' stamps: a later process reads
    # it instead of hashing every file; a changed file (or one too new to trust) is hashed again.
    d = tmp_path / "hdrs"
    d.mkdir()
    f = d / "a.cuh"
    f.write_text("#define A 1\n")
    old = 1_600_000_000_000_000_000
    os.utime(f, ns=(old, old))
    monkeypatch.setattr(c, "_headers_digest", c._headers_digest.__wrapped__)  # no per-process memo
    digest = c._headers_digest(str(d))
    content = hashlib.sha256(b"a.cuh\0" + hashlib.sha256(f.read_bytes()).hexdigest().encode()).hexdigest()
    assert digest == content
    memos = lambda: [p for p in cache_dir.iterdir() if p.suffix == kc.SMALL_SUFFIX]  # noqa: E731
    assert len(memos()) == 1
    calls = []
    real = c._file_digest
    monkeypatch.setattr(c, "_file_digest", lambda p: calls.append(p) or real(p))
    assert c._headers_digest(str(d)) == digest and calls == []  # read back, not hashed
    f.write_text("#define A 2\n")  # same size, a new stamp
    assert c._headers_digest(str(d)) != digest and len(calls) == 1
    assert len(memos()) == 1  # too new to keep
    assert c._headers_digest(str(d)) != digest and len(calls) == 2
    c.clear_disk_cache()
    assert memos() == []


def test_headers_digest_in_an_unwritable_cache_gives_no_warning(tmp_path, monkeypatch):
    # The digest's entry only saves time: failing to write it must not raise the CacheWarning a
    # read-only cache of complete kernels never gave before.
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(blocker / "kernels"))
    monkeypatch.setattr(kc, "_unwritable", set())
    d = tmp_path / "hdrs"
    d.mkdir()
    f = d / "a.cuh"
    f.write_text("#define A 1\n")
    os.utime(f, ns=(1_600_000_000_000_000_000,) * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(c._headers_digest.__wrapped__(str(d))) == 64
    assert kc._unwritable == set()
