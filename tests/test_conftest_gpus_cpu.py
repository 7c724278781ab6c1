"""CUARRAY_TEST_GPUS: an xdist run spreads its workers over a machine's GPUs, one GPU per worker; the
host libraries' thread pools are shared out among the workers."""

import os
import subprocess
import sys

import importlib.util
import pathlib

# The root conftest by its path: `import conftest` finds whichever conftest module pytest loaded first.
_SPEC = importlib.util.spec_from_file_location("root_conftest", pathlib.Path(__file__).with_name("conftest.py"))
_CONFTEST = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_CONFTEST)
visible_gpu = _CONFTEST.visible_gpu
share_thread_pools = _CONFTEST.share_thread_pools


def test_workers_take_gpus_in_turn():
    assert [visible_gpu("gw{}".format(k), 2) for k in range(5)] == [0, 1, 0, 1, 0]
    assert [visible_gpu("gw{}".format(k), 3) for k in range(4)] == [0, 1, 2, 0]


def test_no_spreading_without_workers_or_gpus():
    assert visible_gpu("", 2) is None          # the controller, or a run without xdist
    assert visible_gpu("gw3", 1) is None        # one GPU: nothing to choose
    assert visible_gpu("gw3", 0) is None        # not asked
    assert visible_gpu("master", 2) is None


def test_thread_pools_are_shared_out_among_workers():
    env = {}
    share_thread_pools(16, 16, env)
    assert env == {v: "1" for v in _CONFTEST.THREAD_POOLS}
    env = {"OMP_NUM_THREADS": "3"}  # the user's own setting stays
    share_thread_pools(4, 32, env)
    assert env == {"OPENBLAS_NUM_THREADS": "8", "OMP_NUM_THREADS": "3", "MKL_NUM_THREADS": "8"}
    for n in (None, 0, 1, "auto"):  # no xdist, or one process: nothing set
        env = {}
        share_thread_pools(n, 16, env)
        assert env == {}


def test_xdist_workers_start_with_their_share(tmp_path):
    """The controller sets the variables before xdist starts its workers, so a worker's NumPy
    loads OpenBLAS with them."""
    (tmp_path / "test_env.py").write_text(
        "import os\n\ndef test_env():\n    assert os.environ['OPENBLAS_NUM_THREADS'] == str(max(1, (os.cpu_count() or 1) // 2))\n")
    env = {k: v for k, v in os.environ.items() if k not in _CONFTEST.THREAD_POOLS}
    conftest = pathlib.Path(__file__).with_name("conftest.py")
    (tmp_path / "conftest.py").write_text(conftest.read_text())
    (tmp_path / "nvrtc_cache.py").write_text(pathlib.Path(__file__).with_name("nvrtc_cache.py").read_text())
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", str(tmp_path)],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
