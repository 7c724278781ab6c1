"""The README is true for a new user (no GPU needed): its commands exist, its numbers are the bench
table's, and the no-GPU paths it describes behave as it says (one line, non-zero exit)."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import struct
import subprocess
import sys
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = open(os.path.join(ROOT, "README.md")).read()


def _env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))


def _device_available() -> bool:
    from cuarray.cuda import _backend

    return _backend.is_available()


def _numbers():
    sys.path.insert(0, os.path.join(ROOT, "docs", "tools"))
    try:
        import readme_numbers
    finally:
        sys.path.pop(0)
    return readme_numbers


def _commands() -> list[list[str]]:
    """Every command of the README's bash blocks and inline `python -m ...` / `pip install ...`."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            for part in re.split(r"&&", line.split("#")[0]):
                if part.strip():
                    out.append(shlex.split(part))
    for inline in re.findall(r"`((?:python|pip) [^`]+)`", README):
        out.append(shlex.split(inline))
    return [["python"] + c[1:] if c[0] == "python3" else c for c in out]


def test_readme_bench_numbers_are_the_tables():
    rn = _numbers()
    want = rn.render(rn.load())
    assert rn.readme_block(README) == want, "run `python docs/tools/readme_numbers.py --write`"
    assert "24 rows" in want or re.search(r"\((\d+) rows:", want).group(1) == str(len(rn.load()["rows"]))


def test_readme_quick_row_count_is_the_catalogues():
    rn = _numbers()
    stated = re.findall(r"quick table's (\d+) rows", README)
    assert stated and all(int(n) == rn.quick_rows() for n in stated), (stated, rn.quick_rows())


def test_bench_figure_fits_a_screen():
    with open(os.path.join(ROOT, "docs", "images", "bench-groups.png"), "rb") as f:
        head = f.read(24)
    width, height = struct.unpack(">II", head[16:24])
    assert width <= 1600 and height <= 1000, (width, height)
    assert "](docs/images/bench-groups.png)" in README and "(docs/images/bench-quick.png)" in README


def test_readme_commands_exist():
    from cuarray.bench.__main__ import _parser

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = set(tomllib.load(f)["project"]["optional-dependencies"])
    commands = _commands()
    assert len(commands) >= 8
    seen_modules = set()
    for cmd in commands:
        if cmd[:3] == ["python", "-m", "cuarray.bench"]:
            _parser().parse_args(cmd[3:])  # every option the README uses exists (SystemExit otherwise)
        if cmd[:2] == ["python", "-m"]:
            seen_modules.add(cmd[2])
            if cmd[2] not in ("venv", "build"):
                assert importlib.util.find_spec(cmd[2]) is not None, cmd
        if cmd[:2] == ["pip", "install"]:
            for spec in cmd[2:]:
                for extra in re.findall(r"\[([^\]]+)\]", spec):
                    assert set(extra.split(",")) <= extras, (spec, extras)
        if cmd[:3] == ["python", "-m", "pytest"]:
            for path in (a for a in cmd[3:] if a.startswith("tests")):
                assert os.path.exists(os.path.join(ROOT, path)), path
    assert {"cuarray", "cuarray.bench", "pytest", "venv"} <= seen_modules, seen_modules
    for path in re.findall(r"\b((?:docs|tests|scripts|\.ci)/[\w./-]+\w)", README):
        if path.startswith("docs/_build"):  # what the docs command writes
            continue
        assert os.path.exists(os.path.join(ROOT, path)), path


def test_readme_states_the_install_facts():
    for fact in ("python3 -m venv .venv", "not on the package index", "2.2 GB", "compute capability 7.5",
                 "-rs", "SCIPY_ARRAY_API=1", "Python 3.12", "Python 3.11"):
        assert fact in README, fact
    run = open(os.path.join(ROOT, ".ci", "run")).read()
    assert "python3 -m venv .venv" in run and "SCIPY_ARRAY_API=1" in run and "versions/3.12.1" in run
    # the newest-SciPy run's test paths exist
    newest = run[run.index('SCIPY_ARRAY_API=1 "$newest'):].split("||")[0]
    paths = [p for p in newest.replace("\\\n", " ").split() if p.startswith("tests")]
    assert len(paths) >= 4 and all(os.path.exists(os.path.join(ROOT, p)) for p in paths), paths


def test_quick_start_without_a_gpu_says_why_in_one_line_and_fails():
    if _device_available():
        pytest.skip("a device is present: the quick start runs")
    proc = subprocess.run([sys.executable, "-m", "cuarray.bench", "--quick"], capture_output=True, text=True,
                          env=_env(), cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("error: cuarray cannot run here: NoDeviceError: no CUDA driver found")
    assert lines[1].startswith("hint: run the benchmarks on a machine with an NVIDIA GPU")
    assert 'cuarray.lazy(evaluate="numpy")' in lines[1]
    assert "n/a" not in proc.stdout


def test_readme_example_without_a_gpu_raises_one_clear_line():
    if _device_available():
        pytest.skip("a device is present: the example runs")
    example = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    proc = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, env=_env(),
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("cuarray.cuda.NoDeviceError: no CUDA driver found: this machine has no NVIDIA driver")
    assert "compute capability 7.5" in last and "docs/install.md" in last
    assert "system search" not in proc.stderr  # cuda-pathfinder's wording stays in __context__
    # raised again from the allocation: the user's line, the public call's few frames, the one line
    # (it was 16 frames deep in the pool's slow path and the device lookup)
    assert proc.stderr.count('  File "') <= 7, proc.stderr


def test_the_folder_that_holds_the_checkout_imports_the_installed_package(tmp_path):
    """`git clone` names the checkout `cuarray`; a script started in its parent sees that folder as
    a namespace package `cuarray`. pyproject.toml states the package root, so setuptools' editable
    install adds the checkout to sys.path (a .pth file) instead of an import hook, and a regular
    package anywhere on sys.path wins over a namespace portion found first."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        assert tomllib.load(f)["tool"]["setuptools"]["package-dir"] == {"": "."}
    editable = pytest.importorskip("setuptools.command.editable_wheel")
    packages = ["cuarray"] + ["cuarray." + p for p in ("cuda", "scipy", "scipy.special", "_core")]
    assert editable._simple_layout(packages, {"": "."}, ROOT)  # -> the static .pth strategy
    (tmp_path / "cuarray").mkdir()  # the clone's folder, as the parent folder sees it
    proc = subprocess.run([sys.executable, "-c", "import cuarray; print(cuarray.__file__, callable(cuarray.asarray))"],
                          capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ, PYTHONPATH=ROOT),
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [os.path.join(ROOT, "cuarray", "__init__.py"), "True"]
