"""Every GPU test that skips without a device says so in one form, "no CUDA device: <why>" (the
gpu marker's reason in conftest.py, and the files' own marks), as the README quotes it: `-rs` then
groups them, and a reader learns the one reason once."""

from __future__ import annotations

import pathlib
import re

TESTS = pathlib.Path(__file__).resolve().parent
# A skip reason that speaks of a CUDA device (string literals only; formatted tails allowed).
_REASON = re.compile(r"""(?:reason=|pytest\.skip\()\s*(["'])([^"']*CUDA device[^"']*)\1""")


def test_device_skip_reasons_have_one_form():
    bad = []
    for path in sorted(TESTS.rglob("*.py")):
        for m in _REASON.finditer(path.read_text()):
            if not m.group(2).startswith("no CUDA device: "):
                bad.append("{}: {!r}".format(path.relative_to(TESTS), m.group(2)))
    assert bad == []


def test_the_check_sees_another_form(tmp_path):
    text = "pytestmark = pytest.mark.skipif(x, reason=" + chr(34) + "needs a CUDA device" + chr(34) + ")\n"
    assert [m.group(2) for m in _REASON.finditer(text)] == ["needs a CUDA device"]
