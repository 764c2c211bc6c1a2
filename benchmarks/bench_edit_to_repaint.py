"""edit_to_repaint_ms_median / _p95: the default preset, a 12-token sentence; from a text edit in the Text
box to the last view repainted (offscreen), over 40 edits that each change one word."""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, median, p95  # noqa: E402
from gui_probe import PaintRecorder  # noqa: E402

WORDS = ["dog", "cat", "pen", "book", "car", "bird", "apple", "ball"]


def main(edits: int = 40) -> None:
    from PySide6.QtCore import QSettings

    from explorer.ui.app import create_application
    from explorer.ui.main_window import MainWindow
    from explorer.ui.state import AppState

    app = create_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp/attention-explorer-bench-settings")
    state = AppState(text="This is a big red pen and that is a dog .")  # 12 tokens
    window = MainWindow(state, restore_layout=False)
    window.show()
    window.start()
    box = window.views["input"].findChild(__import__("PySide6.QtWidgets", fromlist=["QPlainTextEdit"]).QPlainTextEdit)
    recorder = PaintRecorder(list(window.views.values()))
    got = []
    state.traceChanged.connect(lambda t: got.append(time.perf_counter()))
    deadline = time.perf_counter() + 60
    while not got and time.perf_counter() < deadline:
        app.processEvents()
    latencies = []
    for k in range(edits + 3):
        text = f"This is a big red {WORDS[k % len(WORDS)]} and that is a dog ."
        n = len(got)
        for _ in range(20):
            app.processEvents()
        t0 = time.perf_counter()
        box.setPlainText(text)  # what typing does, in one step
        while len(got) == n and time.perf_counter() - t0 < 10:
            app.processEvents()
        # then until the views have painted the new trace and gone quiet
        last = t0
        quiet_since = time.perf_counter()
        while time.perf_counter() - quiet_since < 0.15:
            app.processEvents()
            if recorder.last_paint > last:
                last = recorder.last_paint
                quiet_since = time.perf_counter()
        if k >= 3:  # warm-up edits excluded
            latencies.append((last - t0) * 1000)
    window.close()
    med, high = median(latencies), p95(latencies)
    emit({
        "edit_to_repaint_ms_median": figure(med, "ms", "≤ 30 ms", med <= 30, edits=edits, tokens=12),
        "edit_to_repaint_ms_p95": figure(high, "ms", "≤ 60 ms", high <= 60, edits=edits, tokens=12),
    })


if __name__ == "__main__":
    main()
