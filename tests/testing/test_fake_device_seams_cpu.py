"""The fake device stands in through the runtime's seams (`cuarray.cuda.backend`, and the older
single-purpose ones), never by swapping a cuarray module's or class's attributes: no
`monkeypatch.setattr`, no `setattr(...)` on cuarray, no assignment into a cuarray module, class or
object held by one, anywhere in `cuarray/testing/`. And what a backend replaces comes back whole
when it is deselected, with nothing added to a launch."""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest

import cuarray
from cuarray._core import device_errors, elementwise, reduction
from cuarray._core.fusion import replay
from cuarray.cuda import backend, device, kernel_family, launch
from cuarray.testing import fake_device

TESTING = pathlib.Path(cuarray.__file__).resolve().parent / "testing"

# What cuarray/testing/ still writes into cuarray, by "file: target", each with why. May only shrink
# (an entry no longer found fails the test: delete it).
ALLOWED = {
    # a stand-in for `Device` as a context manager on a device with no context (the device-switch
    # tests): the calling thread's current device, which `Device.use` itself sets after making
    # the device's context current, the one step a machine without a driver cannot take
    "fake_device.py: _device._tls.device_id",
}


def _cuarray_names(tree, package: str) -> set:
    """The local names the file binds to cuarray's modules, classes and objects by import."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name.split(".")[0] == "cuarray")
        elif isinstance(node, ast.ImportFrom):
            if node.level or (node.module or "").split(".")[0] == "cuarray":
                names.update(a.asname or a.name for a in node.names)
    for node in ast.walk(tree):  # local aliases (`m = launch`)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in names:
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _root(node):
    """The Name an attribute/subscript chain starts from, and the chain as text."""
    parts = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        parts.append("." + node.attr if isinstance(node, ast.Attribute) else "[...]")
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, node.id + "".join(reversed(parts))
    return None, None


def writes_into_cuarray(source: str, package: str = "cuarray.testing") -> list:
    """Every patch of cuarray in `source`: a `.setattr`/`.delattr`/`.setitem`/`.delitem` call (a
    MonkeyPatch's), `setattr`/`delattr` on a cuarray name, and an assignment or `del` whose target
    is an attribute or item of a cuarray name (`launch._raw = f`, `reduction._slabs[0] = s`)."""
    tree = ast.parse(source)
    names = _cuarray_names(tree, package)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("setattr", "delattr", "setitem", "delitem"):
                out.append("{}({}, ...)".format(ast.unparse(f), ", ".join(ast.unparse(a) for a in node.args[:2])))
            elif isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and node.args:
                root, text = _root(node.args[0]) if not isinstance(node.args[0], ast.Name) else \
                    (node.args[0].id, node.args[0].id)
                if root in names:
                    out.append("{}({}, ...)".format(f.id, text))
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for tt in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(tt, (ast.Attribute, ast.Subscript)):
                    root, text = _root(tt)
                    if root in names:
                        out.append(text)
    return out


def test_testing_writes_nothing_into_cuarray():
    found = set()
    for path in sorted(TESTING.rglob("*.py")):
        found.update("{}: {}".format(path.name, w) for w in writes_into_cuarray(path.read_text()))
    assert found - ALLOWED == set(), "cuarray/testing/ patches cuarray (select a backend, or add a seam)"
    assert ALLOWED - found == set(), "no longer found: delete from ALLOWED"


def test_the_check_sees_each_kind_of_patch():
    src = ("from ..cuda import launch, stream\nfrom .._core import reduction\nimport cuarray\n"
           "def f(monkeypatch, mp):\n"
           "    monkeypatch.setattr(launch, '_raw', None)\n"
           "    mp.setitem(launch._configs, 1, 2)\n"
           "    setattr(launch, '_hook', None)\n"
           "    reduction._counter_slabs[0] = [1, 2]\n"
           "    stream.Stream.null._cs = 'x'\n"
           "    m = launch\n    m.launch_config = len\n"
           "    cuarray.cuda.launch._hook += 1\n"
           "    del launch._configs\n"
           "    self.x = 1\n    local = {}\n    local[0] = 1\n")
    assert len(writes_into_cuarray(src)) == 8


def _replaced():
    """What the recorder replaces, as the runtime reads it."""
    return (launch._configs, launch._hook, launch.launch_config, kernel_family._cache, kernel_family.load_kernels,
            device_errors._buffers, device_errors._pending, elementwise.Definition._kernel,
            (replay.GRAPH_LAUNCH, replay.MIN_SAVED), reduction._counter_slabs, device._tls.active_context,
            _settings())


def test_recording_selects_a_backend_and_gives_everything_back():
    before = _replaced()
    hook = lambda raw, stream, config, kernel, args: raw(stream, config, kernel, *args)  # noqa: E731
    with fake_device.recording(forget=False) as calls:
        b = backend.selected()
        assert b is not backend.CUDA and launch._configs is b.table("launch configs")
        assert (replay.GRAPH_LAUNCH, replay.MIN_SAVED) == fake_device.FAKE_REPLAY_COSTS
        assert device._tls.active_context == device.get_device_id()  # no driver call on a launch
        a = cuarray.empty(1000, np.float32)
        cuarray.multiply(a, 2.0, out=a)
        launch.set_launch_hook(hook)  # a hook set here goes with the recorder
        assert calls and calls[0][1][0] == "cfg" and "multiply" in calls[0][2][0] and calls[0][2][1] == "vec"
    after = _replaced()
    assert backend.selected() is backend.CUDA
    for was, now in zip(before, after):
        assert now is was or now == was, (was, now)
    assert launch.enqueue is launch._first_enqueue  # the next real launch picks its path again


def test_a_hook_set_before_recording_is_back_after_it():
    seen = []
    prev = launch.set_launch_hook(lambda raw, stream, config, kernel, args: seen.append(kernel))
    try:
        with fake_device.recording(forget=False) as calls:
            a = cuarray.empty(10, np.float32)
            cuarray.multiply(a, 2.0, out=a)
            assert launch.get_launch_hook() is None and calls and not seen
        assert launch.get_launch_hook() is not None
    finally:
        launch.set_launch_hook(prev)


def test_a_launch_under_a_backend_is_its_raw_launch_itself():
    # (the seam binds at selection: `launch.enqueue` is the backend's function, no frame between)
    calls = []
    with backend.use(fake_device.recorder_backend(calls)) as b:
        assert launch.enqueue is b.launch
        launch.enqueue("s", "c", "k", 1)
    assert calls == [("s", "c", "k", 1)]


def test_a_module_imported_under_a_backend_takes_it():
    seen = []
    b = backend.Backend("probe")
    with backend.use(b):
        backend.on_select(lambda prev, new: seen.append((prev.name, new.name)))
        assert seen == [("cuda", "probe")]
    assert seen == [("cuda", "probe"), ("probe", "cuda")]
    backend._selectors.pop()  # (the probe's selector only)


def test_select_takes_a_backend():
    with pytest.raises(TypeError, match="Backend"):
        backend.select(object())


def _settings():
    from cuarray.cuda import _backend, _observe, memory
    return _backend._core_override, device._simulated, _observe.get_observer(), memory._chosen


def test_the_settings_a_backend_sets_are_put_back_as_they_were():
    from cuarray.cuda import memory
    before = _settings()
    obs = fake_device.FakeCompiles()
    alloc = memory.MemoryPool(backing=fake_device.FakeBacking()).malloc
    outer = backend.Backend("outer", core=fake_device.FakeCore, properties=fake_device.PROPERTIES,
                            observer=obs, allocator=alloc)
    mine = (fake_device.FakeCore, fake_device.PROPERTIES, obs, alloc)
    with backend.use(outer):
        assert _settings() == mine
        with backend.use(backend.Backend("sets none")):  # the outer's stay
            assert _settings() == mine
        with fake_device.recording(forget=False):  # its own allocator; the outer's device and observer
            assert _settings()[:3] == mine[:3] and _settings()[3] != alloc
        with fake_device.recording_fake_compiles() as calls:  # its own observer, the outer's after it
            assert _settings()[2] is not obs and isinstance(_settings()[2], fake_device.FakeCompiles)
            a = cuarray.empty(100, np.float32)
            cuarray.multiply(a, 2.0, out=a)
            assert len(calls) == 1
        assert _settings() == mine
    assert _settings() == before
