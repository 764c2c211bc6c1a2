"""idle_cpu_percent: the window left alone for 10 s at 1366×768 (offscreen) once its first trace is painted
and settled: the CPU time of the whole process (every thread) over those 10 s, as a percentage of one core.
The event loop runs as in the application (QEventLoop.exec, no polling of ours).

    python benchmarks/bench_idle.py [seconds]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure  # noqa: E402
from gui_probe import main_window  # noqa: E402


def _run_loop(ms: int) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main(seconds: float = 10.0) -> None:
    from PySide6.QtCore import QSettings

    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell.app import create_application

    create_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    state = AppState(text="This is a pen .")
    window = main_window(state)
    window.resize(1366, 768)
    window.show()
    got = []
    state.traceChanged.connect(got.append)
    window.start()
    deadline = time.perf_counter() + 120
    while not got and time.perf_counter() < deadline:
        _run_loop(50)
    _run_loop(2000)  # the first paints, deferred panels and the render queue settle
    c0, t0 = time.process_time(), time.perf_counter()
    _run_loop(int(seconds * 1000))
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    window.close()
    percent = 100 * cpu / wall
    emit(
        {
            "idle_cpu_percent": figure(
                percent,
                "%",
                "≤ 1",
                percent <= 1,
                seconds=round(wall, 2),
                cpu_s=round(cpu, 3),
                size="1366x768",
                traced=bool(got),
            )
        }
    )


if __name__ == "__main__":
    main(float(sys.argv[1]) if sys.argv[1:] else 10.0)
