"""CUARRAY_TEST_GPUS: an xdist run spreads its workers over a machine's GPUs, one GPU per worker."""

import importlib.util
import pathlib

# The root conftest by its path: `import conftest` finds whichever conftest module pytest loaded first.
_SPEC = importlib.util.spec_from_file_location("root_conftest", pathlib.Path(__file__).with_name("conftest.py"))
_CONFTEST = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_CONFTEST)
visible_gpu = _CONFTEST.visible_gpu


def test_workers_take_gpus_in_turn():
    assert [visible_gpu("gw{}".format(k), 2) for k in range(5)] == [0, 1, 0, 1, 0]
    assert [visible_gpu("gw{}".format(k), 3) for k in range(4)] == [0, 1, 2, 0]


def test_no_spreading_without_workers_or_gpus():
    assert visible_gpu("", 2) is None          # the controller, or a run without xdist
    assert visible_gpu("gw3", 1) is None        # one GPU: nothing to choose
    assert visible_gpu("gw3", 0) is None        # not asked
    assert visible_gpu("master", 2) is None
