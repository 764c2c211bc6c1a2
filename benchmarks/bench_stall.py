"""max_stall_ms: the longest time the window's event loop was blocked while the worker computed a
1024-token trace of a GPT-2-small-shaped model (random weights). A 2 ms timer ticks on the GUI thread;
the longest gap between ticks, from the request until the trace arrives, is the stall."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, gpt2_small_bundle, random_text  # noqa: E402
from gui_probe import StallMeter  # noqa: E402


def main(context: int = 1024) -> None:
    from PySide6.QtCore import QSettings

    from explorer.ui.app import create_application
    from explorer.ui.main_window import MainWindow
    from explorer.ui.state import AppState, ModelSource

    app = create_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    with tempfile.TemporaryDirectory() as tmp:
        _, bundle = gpt2_small_bundle(Path(tmp))
    text, _ = random_text(context)
    state = AppState(text="This is a pen .")
    window = MainWindow(state, restore_layout=False)
    window.show()
    arrived = []
    window.worker.traceReady.connect(lambda g, t, e: arrived.append(time.perf_counter()))
    window.start()
    while not arrived:
        app.processEvents()
    source = ModelSource("path", "bench:gpt2-small")
    window.worker.put_bundle(source, bundle)
    n = len(arrived)
    state.set_source(source)  # the model on screen first (a short sentence), drawn and settled
    while len(arrived) == n:
        app.processEvents()
    for _ in range(200):
        app.processEvents()
        time.sleep(0.005)
    finals = []
    state.traceChanged.connect(lambda t: finals.append(time.perf_counter()) if t.C == context and not t.partial else None)
    meter = StallMeter()
    meter.start()
    t0 = time.perf_counter()
    state.set_text(text)
    while not finals:  # until the full 1024-token trace is on screen (any partial trace drawn meanwhile counts)
        app.processEvents()
        time.sleep(0.0005)
    meter.stop()
    compute_s = finals[-1] - t0
    stall = meter.max_gap_ms
    window.close()
    emit({"max_stall_ms": figure(stall, "ms", "≤ 50 ms", stall <= 50, context=context, compute_s=round(compute_s, 2),
                                 ticks=len(meter.gaps))})


if __name__ == "__main__":
    main()
