"""ndimage's kept constant tables (`_tables.constant_table`) without a device: one upload a distinct
(bytes, dtype, shape, device), the upload waited for once before it is shared, large tables not kept,
none dropped when full. Uploads, the stream and the device id are stand-ins."""

import numpy as np
import pytest

from cuarray.scipy.ndimage import _tables


class _Stream:
    def __init__(self, log):
        self.log = log

    def synchronize(self):
        self.log.append("sync")


@pytest.fixture
def uploads(monkeypatch):
    log = []
    dev = [0]
    monkeypatch.setattr(_tables, "from_host", lambda a: log.append(("up", a.tobytes(), a.dtype.str)) or object())
    monkeypatch.setattr(_tables._stream, "get_current_stream", lambda: _Stream(log))
    monkeypatch.setattr(_tables._device, "get_device_id", lambda: dev[0])
    monkeypatch.setattr(_tables, "_tables", {})
    return log, dev


def test_one_upload_per_distinct_table_waited_for_once(uploads):
    log, dev = uploads
    w = np.array([0.25, 0.5, 0.25])
    a = _tables.constant_table(w)
    assert _tables.constant_table(w.copy()) is a  # equal bytes: the same table
    assert _tables.constant_table(w[::-1][::-1]) is a
    assert log == [("up", w.tobytes(), "<f8"), "sync"]
    b = _tables.constant_table(w.astype(np.float32))  # another dtype
    c = _tables.constant_table(w.reshape(3, 1))  # another shape
    dev[0] = 1
    d = _tables.constant_table(w)  # another device
    assert len({id(a), id(b), id(c), id(d)}) == 4
    assert log.count("sync") == 4


def test_large_tables_are_uploaded_each_call(uploads):
    log, _ = uploads
    big = np.arange(_tables._BYTES_MAX // 8 + 1, dtype=np.float64)
    _tables.constant_table(big)
    _tables.constant_table(big)
    assert [e for e in log if e != "sync"] == [("up", big.tobytes(), "<f8")] * 2
    assert "sync" not in log  # an ordinary per-call upload: stream-ordered, no wait


def test_full_cache_uploads_per_call_and_frees_nothing(uploads, monkeypatch):
    """Past _KEEP tables a new one is uploaded each call (stream-ordered, no wait) and none kept is
    dropped: a kernel on another stream may still read a kept table, and a freed block is ordered
    only on the stream that allocated it."""
    log, _ = uploads
    monkeypatch.setattr(_tables, "_KEEP", 4)
    kept = [_tables.constant_table(np.array([i], np.int64)) for i in range(4)]
    assert log.count("sync") == 4
    for _ in range(2):
        _tables.constant_table(np.array([99], np.int64))
    assert log.count("sync") == 4 and len(_tables._tables) == 4
    assert [_tables.constant_table(np.array([i], np.int64)) for i in range(4)] == kept
    _tables.clear()
    assert not _tables._tables
