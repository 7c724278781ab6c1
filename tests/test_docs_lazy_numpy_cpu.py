"""docs/lazy-numpy.md runs as written: its first two code blocks (the function, its NumPy test)
on a CPU; the third (device arrays) in tests/_core/test_lazy_numpy_gpu.py."""

import os
import re

_DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "lazy-numpy.md")


def doc_blocks():
    with open(_DOC) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


def test_the_page_runs_on_numpy_data_and_prints_shapes_first(capsys):
    blocks = doc_blocks()
    assert len(blocks) == 3
    env = {}
    exec(compile(blocks[0] + blocks[1], _DOC, "exec"), env)
    out = capsys.readouterr().out
    assert "delta_o (256, 10) delta_h (256, 128) grad_W (64, 128) float32" in out
