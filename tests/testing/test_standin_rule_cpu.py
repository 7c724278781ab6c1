"""The NumPy stand-ins come in one style that patches nothing (issue 49): a test runs a private
copy of a cuarray module with NumPy routines (`cuarray.testing.fake_device.host_modules`) rather
than setting a cuarray module's attribute to a NumPy stand-in. Counted: a `setattr` (pytest's
`monkeypatch.setattr` included), a stand-in helper's keywords (``stand_in(monkeypatch, module,
name=value)``) or an assignment ``module.name = value`` on a name the file imports from `cuarray`,
whose value uses NumPy (``np.x``, fake_device's host-backed arrays ``from_np``/``new_c``, or a
function, class or lambda of the file that does, or a name a loop takes from a table that does).
Fakes of the driver, the clock or the environment use no NumPy and are not counted, nor is
patching a test's own private copy. The allow-list of files not moved yet is empty, and stays so."""

import ast
import pathlib

_TESTS = pathlib.Path(__file__).resolve().parent.parent

ALLOWED: set = set()  # every file moved
ALLOWED_MAX = 0


def _cuarray_modules(tree) -> set:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "cuarray":
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] == "cuarray")
    return names


def _uses_numpy(node, numpy_functions) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and (n.id in ("np", "numpy") or n.id in numpy_functions):
            return True
    return False


# fake_device's host-backed arrays: NumPy memory behind a cuarray array (a stand-in for an allocation)
_HOST_ARRAYS = {"from_np", "to_np", "new_c", "host_view"}


def _host_array_makers(tree) -> set:
    """The file's names for fake_device's host-backed array functions."""
    return {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and n.module == "cuarray.testing.fake_device" for a in n.names if a.name in _HOST_ARRAYS}


def _numpy_functions(tree) -> set:
    """The file's functions, classes (a stand-in class: its methods use NumPy), names bound to
    lambdas and names a loop takes from a table (``for name, fn in (("take", np.take), ...)``) that
    use NumPy."""
    found, changed = _host_array_makers(tree), True
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    defs += [ast.FunctionDef(name=t.id, body=[n.value]) for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and isinstance(n.value, ast.Lambda) for t in n.targets if isinstance(t, ast.Name)]
    defs += [ast.FunctionDef(name=t.id, body=[n.iter]) for n in ast.walk(tree) if isinstance(n, ast.For)
             for t in ast.walk(n.target) if isinstance(t, ast.Name)]
    while changed:
        changed = False
        for d in defs:
            if d.name not in found and any(_uses_numpy(b, found) for b in d.body):
                found.add(d.name)
                changed = True
    return found


def _root(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _sites(tree) -> list:
    """(line, target, value) of every attribute set in the file."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if fname == "setattr" and len(n.args) >= 3:
                out.append((n.lineno, n.args[0], n.args[2]))
            elif fname == "stand_in" and len(n.args) >= 2:
                out += [(n.lineno, n.args[1], k.value) for k in n.keywords]
        elif isinstance(n, ast.Assign):
            out += [(n.lineno, t.value, n.value) for t in n.targets if isinstance(t, ast.Attribute)]
    return out


def _patching_files() -> dict:
    found = {}
    for path in sorted(_TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text())
        modules, numpy_functions = _cuarray_modules(tree), _numpy_functions(tree)
        lines = [line for line, target, value in _sites(tree)
                 if _root(target) in modules and _uses_numpy(value, numpy_functions)]
        if lines:
            found[path.relative_to(_TESTS).as_posix()] = sorted(lines)
    return found


def test_numpy_standins_patch_no_cuarray_module():
    found = _patching_files()
    new = sorted(k for k in found if k not in ALLOWED)
    assert not new, "NumPy stand-ins set on cuarray modules (use fake_device.host_modules): {}".format(
        ["{} {}".format(k, found[k]) for k in new])
    stale = sorted(ALLOWED - set(found))
    assert not stale, "these now follow the rule: delete them from the allow-list: {}".format(stale)
    assert len(ALLOWED) <= ALLOWED_MAX, "the allow-list only shrinks"


def test_the_rule_sees_a_patch_and_not_a_copy():
    patched = ast.parse("import numpy as np\nfrom cuarray.scipy.signal import _convolve as c\n"
                        "def f(m):\n    m.setattr(c, '_fft', np.fft)\n")
    fake = ast.parse("import numpy as np\nfrom cuarray.cuda import device\n"
                     "def f(m):\n    m.setattr(device, '_n', lambda: 2)\n")
    copied = ast.parse("import numpy as np\nfrom cuarray.testing.fake_device import host_module\n"
                       "from cuarray.scipy.signal import _convolve as c\nh = host_module(c, {'_fft': np.fft})\n")
    looped = ast.parse("import numpy as np\nfrom cuarray.scipy.signal import _convolve as c\n"
                       "def f(m):\n    for name, fn in (('_fft', np.fft), ('_pad', np.pad)):\n"
                       "        m.setattr(c, name, fn)\n")
    a_class = ast.parse("import numpy as np\nfrom cuarray.scipy.signal import _convolve as c\n"
                        "class Host:\n    def get(self):\n        return np.ones(2)\n"
                        "def f(m):\n    m.setattr(c, 'ndarray', Host)\n")
    host_array = ast.parse("from cuarray.testing.fake_device import from_np\n"
                           "from cuarray.scipy.ndimage import _filter_kernels as fk\n"
                           "def f(m):\n    m.setattr(fk, 'constant_table', from_np)\n")
    hits = [[s for s in _sites(t) if _root(s[1]) in _cuarray_modules(t) and _uses_numpy(s[2], _numpy_functions(t))]
            for t in (patched, fake, copied, looped, a_class, host_array)]
    assert [len(h) for h in hits] == [1, 0, 0, 1, 1, 1]
