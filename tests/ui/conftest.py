"""GUI test fixtures: isolated settings, and a main window that has shown its first trace."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings




@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, qapp):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield


@pytest.fixture
def state():
    from explorer.ui.state import AppState

    return AppState()


@pytest.fixture
def window(qtbot, state):
    """The real main window on the default preset, after its first trace is on screen."""
    from explorer.ui.main_window import MainWindow

    w = MainWindow(state)
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        w.start()
    yield w
    w.close()
    assert not w.worker.isRunning()
