"""Offline: the window never opens a network connection (sockets blocked as in tests/cli/test_offline.py):
it starts, shows its first trace, opens a model folder, trains a few steps, exports a snapshot and an image,
reopens the snapshot and switches language, all with every network connection refused and recorded."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from untrusted import tiny_gpt2  # noqa: E402


@pytest.fixture
def offline(monkeypatch, tmp_path):
    attempts: list[str] = []

    def refuse(what):
        def blocked(*args, **kwargs):
            attempts.append(what)
            raise OSError(f"network access is blocked in this test ({what})")

        return blocked

    real_connect = socket.socket.connect

    def connect(self, *args, **kwargs):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return refuse("connect")(self, *args, **kwargs)
        return real_connect(self, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("explorer.ui.background.train_controller.runs_root", lambda: tmp_path / "runs")
    return attempts


def test_the_window_works_with_sockets_blocked(offline, qtbot, open_window, tmp_path):
    from explorer.ui.bridge.state import AppState
    from explorer.ui.menus import file_ops

    state = AppState()
    window = open_window(state)
    try:
        folder = tiny_gpt2(tmp_path / "gpt2")
        window.loading.open(str(folder))
        qtbot.waitUntil(lambda: state.trace.config.family == "gpt2", timeout=30_000)
        assert file_ops.write_snapshot_with_progress(window, state.trace, str(tmp_path / "s.npz")) is not None
        assert file_ops.save_view_image(window.views["tensor"], tmp_path / "v.png").exists()
        assert file_ops.open_snapshot(window, state, str(tmp_path / "s.npz"))

        with qtbot.waitSignal(state.traceChanged, timeout=30_000):
            state.set_preset("classroom")
        state.set_sizes(embed_dim=8, key_dim=4, heads=2, layers=1, ffn_dim=16)
        qtbot.waitUntil(lambda: state.trace.config.E == 8, timeout=30_000)
        panel = window.views["train"]
        panel.corpus.setCurrentIndex(panel.corpus.findData("copy"))
        panel.steps.setValue(3)
        panel.batch.setValue(4)
        with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
            assert panel.start_training()
        window.actions_.set_language("ja")
        window.actions_.set_language("en")
    finally:
        window.close()
    assert offline == []
