"""CI: check an installed cuarray wheel (run from outside the checkout, in a fresh venv).

`.ci/run` builds the sdist and the abi3 wheel with ``python -m build``, installs the wheel (plus
NVRTC and the CUDA headers, no GPU) into a new venv and runs this file with the wheel's path.
It checks what a package index would serve: the wheel is abi3 and carries the CUDA templates and
the three C cores; the installed cuarray imports from site-packages, uses the native cores
(``python -m cuarray info`` says so), and compiles a generated kernel with NVRTC for sm_90.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tarfile
import zipfile


def check_archives(wheel: str, sdist: str) -> None:
    # (abi3, tagged with the building interpreter's version: setup.py's ABI3_TAG)
    tag = "-cp3{}-abi3-".format(max(11, sys.version_info[1]))
    assert tag in pathlib.Path(wheel).name, (tag, wheel)
    names = zipfile.ZipFile(wheel).namelist()
    repo = pathlib.Path(__file__).resolve().parent.parent
    templates = sorted(str(p.relative_to(repo)) for p in (repo / "cuarray").rglob("templates/**/*.cu*"))
    missing = [t for t in templates if t not in names]
    assert templates and not missing, "templates missing from the wheel: {}".format(missing)
    for core in ("cuda/_poolcore", "cuda/_launchcore", "_core/_nodecore"):
        assert "cuarray/{}.abi3.so".format(core) in names, core + " not in the wheel"
    src = tarfile.open(sdist).getnames()
    for needed in ("setup.py", "cuarray/cuda/_native/launch.c", "cuarray/cuda/_native/poolcore.h",
                   "cuarray/_core/_native/nodes.c", "cuarray/_core/_native/lazyops.c",
                   "cuarray/_core/_native/lazycalls.c", "cuarray/_core/_native/lazyops.h",
                   "cuarray/_core/_native/live.c", "cuarray/_core/_native/ufunccall.c",
                   "cuarray/_core/_native/nodecore.h", "cuarray/_core/templates/elementwise.cu"):
        assert any(n.endswith("/" + needed) for n in src), needed + " not in the sdist"
    print("archives: {} files in the wheel ({} templates, 3 C cores), sdist has the C sources".format(
        len(names), len(templates)))


def check_install() -> None:
    import numpy

    import cuarray
    from cuarray._core.elementwise import Definition, KernelParam
    from cuarray.cuda import compiler, memory

    where = pathlib.Path(cuarray.__file__).resolve()
    assert "site-packages" in where.parts, "cuarray imported from {}, not the installed wheel".format(where)
    assert memory.implementation() == "native", memory.implementation()
    info = subprocess.run([sys.executable, "-m", "cuarray", "info"], capture_output=True, text=True, check=True).stdout
    cores = info[info.index("cuarray cores:"):].splitlines()[1:4]
    print("\n".join(cores))
    assert all(" native" in line for line in cores), cores
    f4 = numpy.dtype("float32")
    d = Definition("cuarray_add_float32_float32",
                   [KernelParam("in0", "in", f4), KernelParam("in1", "in", f4), KernelParam("out0", "out", f4)],
                   "out0 = in0 + in1")
    name, src = d.source("vec", 1, numpy.int32)
    cubin, _ = compiler.compile_cubin(src, arch="sm_90")
    assert cubin[:4] == b"\x7fELF"
    print("cuarray {} from {}: {} compiled for sm_90 ({} bytes of cubin)".format(
        cuarray.__version__, where.parent, name, len(cubin)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["archives"]:
        check_archives(*sys.argv[2:4])
    else:
        check_install()
