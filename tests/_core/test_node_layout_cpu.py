"""One layout for lazy mode's fields: `nodecore.LAYOUTS` against the C sources (`_core/_native/`),
the pure-Python fallbacks and the built module.

The C code indexes each struct's run of object fields (the TF_/SF_ enums, `Trace.__init__`'s values,
the GC loops), and Python reads the same fields by name through the C members, or through the
fallback's slots: a field added, removed or reordered on one side only reads one field as another.
Every place that spells a layout is read here: the struct's members, its index enum, its member
table (Python name -> struct field), its field count, the names it interns for the by-name path.
The record classes C reads by name (`elementwise_run.c`: the step's and ndarray's fields) are
checked against the Python classes' field names.
"""

from __future__ import annotations

import ctypes
import pathlib
import re

import pytest

from cuarray._core import nodecore
from cuarray._core.fusion import graph, lazy_array, lazy_mode, trace

NATIVE = pathlib.Path(nodecore.__file__).parent / "_native"
LAYOUTS, C_ONLY = nodecore.LAYOUTS, nodecore.C_ONLY
# Where each layout's field count and index enum are spelt in C
COUNTS = {"NodeFields": ("nodes.c", "N_FIELDS"), "TraceFields": ("nodes.c", "TRACE_FIELDS"),
          "StateFields": ("live.c", "STATE_FIELDS"), "LazyBlock": ("lazy_block.c", "N_BLOCK_FIELDS")}
ENUMS = {"TraceFields": "TF_", "StateFields": "SF_"}


def _text(name: str) -> str:
    """A C file's text without its comments."""
    text = (NATIVE / name).read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


@pytest.fixture(scope="module")
def sources() -> str:
    return "\n".join(_text(p.name) for p in sorted(NATIVE.glob("*.[ch]")))


def c_field(name: str) -> str:
    return name.lstrip("_")


def struct_fields(text: str) -> dict:
    """{struct name: its fields after PyObject_HEAD, in order} of every `typedef struct {...} Name;`."""
    out = {}
    for m in re.finditer(r"typedef\s+struct\s*\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        body = m.group(1)
        if "PyObject_HEAD" not in body:
            continue
        names = []
        for decl in body.split("PyObject_HEAD", 1)[1].split(";"):
            decl = decl.strip()
            if not decl:
                continue
            first, *rest = decl.split(",")
            names += [re.search(r"(\w+)\s*(\[\w*\])?$", d.strip()).group(1) for d in [first] + rest]
        out[m.group(2)] = names
    return out


def member_tables(text: str) -> dict:
    """{struct name: [(Python name, struct field), ...]} of every PyMemberDef table, its macros expanded."""
    macros = {}
    for m in re.finditer(r"#define\s+(\w+)\((\w+)(?:,\s*(\w+))?\)\s*\{#(\w+),\s*\w+,\s*offsetof\((\w+),\s*(\w+)\)", text):
        name, a, b, _, struct, field = m.groups()
        macros[name] = (struct, b is not None)
    out = {}
    for m in re.finditer(r"PyMemberDef\s+\w+\[\]\s*=\s*\{(.*?)\};", text, re.S):
        for e in re.finditer(r"(\w+)\((\w+)(?:,\s*(\w+))?\)|\{\s*\"(\w+)\",\s*\w+,\s*offsetof\((\w+),\s*(\w+)\)",
                             m.group(1)):
            if e.group(1) in macros:
                struct, two = macros[e.group(1)]
                out.setdefault(struct, []).append((e.group(2), e.group(3) if two else e.group(2)))
            elif e.group(4):
                out.setdefault(e.group(5), []).append((e.group(4), e.group(6)))
    return out


def enums(text: str, prefix: str) -> list:
    """The members of the enum whose first member starts with `prefix`."""
    for m in re.finditer(r"enum\s*\{([^}]*)\}", text):
        names = [n.strip().split("=")[0].strip() for n in m.group(1).split(",") if n.strip()]
        if names and names[0].startswith(prefix):
            return names
    raise AssertionError("no enum of {}*".format(prefix))


def test_structs_have_the_declared_fields_in_order(sources):
    found = struct_fields(sources)
    for name, fields in LAYOUTS.items():
        want = [c_field(f) for f in fields] + list(C_ONLY.get(name, ()))
        assert found.get(name) == want, "{}: the C struct has {}, nodecore.LAYOUTS says {}".format(
            name, found.get(name), want)


def test_member_tables_name_each_field_at_its_place(sources):
    tables = member_tables(sources)
    for name, fields in LAYOUTS.items():
        got = tables.get(name)
        want = [(f, c_field(f)) for f in fields]
        assert got == want, "{}: its PyMemberDef table is {}, nodecore.LAYOUTS says {}".format(name, got, want)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_field_counts(name):
    path, macro = COUNTS[name]
    m = re.search(r"#define\s+{}\s+(\d+)".format(macro), _text(path))
    assert m and int(m.group(1)) == len(LAYOUTS[name]), "{} {} is {}, nodecore.LAYOUTS has {} fields".format(
        path, macro, m and m.group(1), len(LAYOUTS[name]))


@pytest.mark.parametrize("name", sorted(ENUMS))
def test_index_enums_follow_the_layout(sources, name):
    prefix = ENUMS[name]
    got = [n[len(prefix):].lower() for n in enums(sources, prefix)]
    assert got == list(LAYOUTS[name][:len(got)]), "{}* is {}, nodecore.LAYOUTS[{!r}] {}".format(
        prefix, got, name, LAYOUTS[name])


def test_by_name_paths_use_the_layouts_names(sources):
    # state_get/state_set's by-name fallback: state_names[SF_X] is "x"
    interned = re.findall(r"state_names\[SF_(\w+)\]\s*=\s*PyUnicode_InternFromString\(\"(\w+)\"\)", sources)
    assert len(interned) == len(LAYOUTS["StateFields"])
    assert all(tag.lower() == text for tag, text in interned), interned
    # trace_get's: trace_names[TF_X] is the interned s_x
    m = re.search(r"trace_names\[\]\s*=\s*\{([^}]*)\}", sources)
    names = [n.strip().lstrip("&")[2:] for n in m.group(1).split(",") if n.strip() != "NULL"]
    assert names == list(LAYOUTS["TraceFields"][:len(names)])
    # Trace.__init__ in C writes each field by its TF_ index, never by a number
    init = re.search(r"static int trace_init\(.*?\n\}", sources, re.S).group(0)
    assert not re.search(r"\bv\[\d+\]", init), "trace_init indexes a field by number"
    assert {f.upper() for f in LAYOUTS["TraceFields"]} == set(re.findall(r"\bv\[TF_(\w+)\]\s*=", init))


def test_python_fallbacks_take_the_layouts():
    assert graph._NodeFields.__slots__ == LAYOUTS["NodeFields"]
    assert trace._TraceFields.__slots__ == LAYOUTS["TraceFields"]
    assert lazy_array._LazyFields.__slots__ == LAYOUTS["LazyFields"]
    assert lazy_mode._StateFields.__slots__ == LAYOUTS["StateFields"]
    # the pure-Python LazyBlock keeps its fields as class defaults (set on the instance as used)
    from cuarray._core.fusion import lazy_block
    src = pathlib.Path(lazy_block.__file__).read_text()
    for f in LAYOUTS["LazyBlock"]:
        assert re.search(r"\b{}\b\s*=".format(f), src), "the Python LazyBlock has no {}".format(f)


def test_records_read_by_name_exist_in_python(sources):
    """elementwise_run.c reads the step's (`planner._Elementwise`, a record class) and ndarray's fields
    by names it finds when configured: its names, in the order of its index enum, are theirs."""
    from cuarray._core.fusion import planner
    from cuarray._core.ndarray import ndarray
    text = _text("elementwise_run.c")
    step = re.findall(r'"(\w+)"', re.search(r"field_names\[F_N\]\s*=\s*\{([^}]*)\}", text).group(1))
    assert [n[2:].lower() for n in enums(text, "F_INS")][:-1] == step
    assert set(step) <= set(planner._Elementwise._fields), set(step) - set(planner._Elementwise._fields)
    arr = re.findall(r"X\((\w+)\)", re.search(r"#define ARRAY_NAMES\(X\)(.*)", text).group(1))
    assert [n[2:].lower() for n in enums(text, "A_SHAPE")][:-1] == [a.lstrip("_") for a in arr]
    assert set(arr) <= set(ndarray.__slots__), set(arr) - set(ndarray.__slots__)


@pytest.mark.skipif(nodecore._nodecore is None, reason="the node core (_nodecore) is not built")
@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_built_module_lays_fields_out_so(name):
    """The built types: their members in order, their size, and each member's offset (a value set
    through the member is found at its place in the struct)."""
    t = getattr(nodecore._nodecore, name)
    fields = LAYOUTS[name]
    assert nodecore.members(t) == fields, "{} built from other sources: members {}".format(name, nodecore.members(t))
    assert t.__basicsize__ == object.__basicsize__ + 8 * (len(fields) + len(C_ONLY.get(name, ())))
    o = t.__new__(t)
    values = [object() for _ in fields]
    for f, v in zip(fields, values):
        setattr(o, f, v)
    for i, v in enumerate(values):
        assert ctypes.c_void_p.from_address(id(o) + object.__basicsize__ + 8 * i).value == id(v), (name, fields[i])
    assert nodecore._layout_matches(nodecore._nodecore)


@pytest.mark.parametrize("case", ["added", "reordered", "removed"])
def test_the_checks_see_a_layout_changed_on_one_side(sources, case):
    """The parsers fail a C side that differs from the table (as a table that differs would)."""
    f = list(LAYOUTS["NodeFields"])
    edited = {"added": f + ["extra"], "reordered": f[1:2] + f[:1] + f[2:], "removed": f[:-1]}[case]
    assert struct_fields(sources)["NodeFields"] != edited
    assert [x for _, x in member_tables(sources)["NodeFields"]] != edited
    h = _text("nodecore.h").replace("*seg, *pos;", {"added": "*seg, *pos, *extra;", "reordered": "*pos, *seg;",
                                                   "removed": "*seg;"}[case])
    assert struct_fields(h)["NodeFields"] != [c_field(x) for x in LAYOUTS["NodeFields"]]
