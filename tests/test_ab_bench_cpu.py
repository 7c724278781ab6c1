"""scripts/ab_bench.py: two trees' bench rounds compared against the same tree's noise."""

import importlib.util
import json
import pathlib

_PATH = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "ab_bench.py"
_SPEC = importlib.util.spec_from_file_location("ab_bench", _PATH)
ab = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ab)


def test_a_row_moves_only_past_its_own_noise_and_the_floor():
    old = [{"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, {"a": 1.02, "b": 1.0, "c": 1.3, "d": 1.01}]
    new = [{"a": 1.5, "b": 1.01, "c": 1.2, "d": 0.5}, {"a": 1.52, "b": 1.0, "c": 1.25, "d": 0.51}]
    c = ab.compare_times(old, new)
    assert c["rows"] == 4
    # a: 1.5x slower, far past its 2% spread; b: within the floor; c: inside its own 30% spread;
    # d: twice as fast
    assert [m[0] for m in c["slower"]] == ["a"]
    assert [m[0] for m in c["faster"]] == ["d"]


def test_compare_reads_the_bench_json_and_fails_on_a_slower_row(tmp_path, capsys):
    def write(name, t):
        rows = [{"case": "ew", "label": "add", "libs": {"cuarray": {"time_s": t}}},
                {"case": "ew", "label": "mul", "libs": {"cuarray": {"time_s": None, "error": "x"}}}]
        (tmp_path / name).write_text(json.dumps({"rows": rows}))

    for name, t in (("old1.json", 1e-5), ("old2.json", 1.01e-5), ("new1.json", 2e-5), ("new2.json", 2.02e-5)):
        write(name, t)
    assert ab.main(["compare", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "1 rows in every round" in out and "ew add" in out
    write("new1.json", 1.005e-5)
    write("new2.json", 1e-5)
    assert ab.main(["compare", str(tmp_path)]) == 0
