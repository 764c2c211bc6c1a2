"""Issue 13: the trace worker never dies silently. A library that raises something that is not an
``Exception`` (the tokenizers library's PanicException is a BaseException) used to end the worker's thread
and leave the window waiting forever; now it is one failed request and the next one is traced.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from explorer.config import RunOptions
from explorer.ui.background import worker as worker_module
from explorer.ui.background.worker import TraceWorker
from explorer.ui.bridge.state import ModelSource, TraceRequest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
import hostile  # noqa: E402


class FakePanic(BaseException):
    """Like pyo3's PanicException: a BaseException, not an Exception."""


@pytest.fixture
def worker(qtbot):
    w = TraceWorker()
    yield w
    w.stop()


def _outcome(qtbot, worker, request):
    got = []
    worker.traceReady.connect(lambda g, t, e: got.append(("trace", t)))
    worker.traceFailed.connect(lambda g, m: got.append(("error", m)))
    worker.submit(request)
    qtbot.waitUntil(lambda: bool(got), timeout=60_000)
    return got[-1]


def test_a_base_exception_is_one_failed_request_and_the_worker_goes_on(qtbot, worker, monkeypatch):
    real = worker_module.build_bundle

    def panics(source, progress=None, cancel=None):
        if source.name == "panics":
            raise FakePanic("called `Result::unwrap()` on an `Err` value")
        return real(source, progress=progress, cancel=cancel)

    monkeypatch.setattr(worker_module, "build_bundle", panics)
    kind, message = _outcome(
        qtbot, worker, TraceRequest(ModelSource("path", "panics"), "This is a pen .", RunOptions())
    )
    assert kind == "error" and "FakePanic" in message and "\n" not in message
    kind, trace = _outcome(  # the worker goes on: the next request is traced
        qtbot, worker, TraceRequest(ModelSource("preset", "seed-toy"), "This is a pen .", RunOptions())
    )
    assert kind == "trace" and trace.B == 1


def test_a_tokenizer_panic_in_the_worker_is_a_one_line_error(qtbot, worker, tmp_path):
    folder = hostile.tiny_llama(tmp_path / "llama", tokenizer_json=hostile.catastrophic_tokenizer_json())
    kind, message = _outcome(
        qtbot, worker, TraceRequest(ModelSource("path", str(folder)), "a" * 3000 + "!", RunOptions())
    )
    assert kind == "error" and "the model's tokenizer failed on this text" in message and "\n" not in message
    kind, trace = _outcome(
        qtbot, worker, TraceRequest(ModelSource("path", str(folder)), "This is a pen .", RunOptions())
    )
    assert kind == "trace"  # the same model still traces other text


def test_hostile_snapshots_opened_from_the_file_menu_keep_the_window_as_it_was(window, qtbot, tmp_path, monkeypatch):
    """File > Open reads with the same checks as `gui --snapshot`: each hostile file is one status-bar line,
    nothing is shown of it, and the trace on screen stays (NaN maps, 0-d arrays and shapes that disagree used
    to be accepted and then fail inside the views)."""
    from PySide6.QtWidgets import QMessageBox

    from explorer.ui.menus import file_ops

    for name in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: (_ for _ in ()).throw(AssertionError("modal box")))
    good = hostile.good_snapshot(tmp_path / "good.npz")
    state = window.state
    before = state.trace
    for case in ("nan-tensor", "zero-d-array", "shape-disagrees", "vocab-million", "short-token-list", "batch-empty"):
        bad = hostile.hostile_snapshot(good, case, tmp_path / f"{case}.npz")
        assert not file_ops.open_snapshot(window, state, str(bad))
        message = window.statusBar().currentMessage()
        assert bad.name in message and "\n" not in message
        assert state.trace is before
    assert file_ops.open_snapshot(window, state, str(good))  # a good one still opens
    assert state.trace is not before and state.trace.read_only
