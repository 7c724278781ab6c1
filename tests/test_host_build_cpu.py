"""tests/host_build.py: the CPU tests' g++ builds, shared through CUARRAY_TEST_BUILD_CACHE."""

import glob
import os
import tempfile

import host_build  # tests/ is on sys.path
import pytest

SOURCE = '#include "value.h"\nextern "C" int value() { return VALUE; }\n'


@pytest.fixture
def include_dir(tmp_path):
    d = tmp_path / "inc"
    d.mkdir()
    (d / "value.h").write_text("#define VALUE 7\n")
    return d


def test_a_cached_build_is_reused_and_a_changed_header_is_not_stale(tmp_path, include_dir, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(host_build.ENV, str(cache))
    args = ["-O1", "-shared", "-fPIC", "-I", include_dir]
    assert host_build.library_of(SOURCE, args).value() == 7
    (built,) = glob.glob(str(cache / "*.so"))
    stamp = os.stat(built).st_mtime_ns
    assert host_build.library_of(SOURCE, args).value() == 7  # (the same text in another file: a hit)
    assert glob.glob(str(cache / "*.so")) == [built] and os.stat(built).st_mtime_ns == stamp
    # a header the source includes changes: another key, a new build (the cache keeps what g++ read)
    (include_dir / "value.h").write_text("#define VALUE 8\n")
    host_build.nvrtc_cache.dir_digest.cache_clear()
    assert host_build.library_of(SOURCE, args).value() == 8
    assert len(glob.glob(str(cache / "*.so"))) == 2
    assert not glob.glob(str(cache / "*.part*"))


def test_without_the_cache_nothing_is_left_behind(tmp_path, include_dir, monkeypatch):
    monkeypatch.delenv(host_build.ENV, raising=False)
    scratch = tmp_path / "tmp"  # (this test's own temporary directory: other test processes build too)
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    assert host_build.library_of(SOURCE, ["-O1", "-shared", "-fPIC", "-I", include_dir]).value() == 7
    assert not os.listdir(scratch)
