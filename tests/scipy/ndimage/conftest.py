"""Shared by the ndimage and signal tests that run without a device: `host_lib` builds a C++ test
driver against a folder of CUDA templates (CUARRAY_DEVICE empty) with g++ into a ctypes library."""

import ctypes
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def host_lib(tmp_path_factory):
    """build(name, source, include_dir) -> ctypes.CDLL of `source` compiled with -I include_dir."""
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    built = {}

    def build(name, source, include_dir):
        key = (name, source, str(include_dir))
        if key not in built:
            d = tmp_path_factory.mktemp(name)
            (d / "driver.cpp").write_text(source)
            so = d / "lib{}.so".format(name)
            subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I", str(include_dir), str(d / "driver.cpp"), "-o",
                            str(so)], check=True)
            built[key] = ctypes.CDLL(str(so))
        return built[key]

    return build
