"""edit_to_repaint_ms_median / _p95: the default preset and default layout, a 12-token sentence; from a text
edit in the Text box to the last view repainted (offscreen), over 40 edits that each change one word.

The event loop runs as in the application (it sleeps between events: gui_probe.wait_until), not spun.

edit_overhead_ratio: that median divided by the median of the bare trace of the same edit with no views: the
same text set on a state of its own, wired to a trace worker of its own as the window wires it, from the
edit until the new trace reaches the state. The two alternate edit by edit in one process, so the machine's
load weighs on both; what the ratio shows above 1 is what the views cost.

Its detail also holds the floor under that ratio for these views: the widgets the last edit repainted are
asked to repaint again with nothing changed (``repaint_alone_ms``, from the request to the last paint, as an
edit is timed), so ``ratio_floor`` = (bare trace + repaint alone) ÷ bare trace is what an edit would cost if
every view took the new trace in no time at all.

    python benchmarks/bench_edit_to_repaint.py
"""

from __future__ import annotations

import os
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import RETIRED, emit, figure, median, p95  # noqa: E402
from gui_probe import PaintRecorder, main_window, wait_until  # noqa: E402

WORDS = ["dog", "cat", "pen", "book", "car", "bird", "apple", "ball"]
QUIET_S = 0.15  # no view painted for this long: the edit is drawn


class BareEdits:
    """An AppState wired to a TraceWorker as the window wires them, with no view at all."""

    def __init__(self, app, text: str) -> None:
        from explorer.ui.background.worker import TraceWorker
        from explorer.ui.bridge.state import AppState

        self.app, self.arrived = app, []
        self.state = AppState(text=text)
        self.worker = TraceWorker()
        self.state.requestToRun.connect(self.worker.submit)
        self.worker.traceReady.connect(lambda _g, t, e: self.state.set_trace(t, e))  # only the newest arrives
        self.state.traceChanged.connect(lambda t: self.arrived.append(time.perf_counter()))
        self.worker.submit(self.state.request)
        wait_until(app, lambda: bool(self.arrived), 60)

    def edit_ms(self, text: str) -> float:
        n = len(self.arrived)
        t0 = time.perf_counter()
        self.state.set_text(text)
        wait_until(self.app, lambda: len(self.arrived) > n, 10)
        return (self.arrived[-1] - t0) * 1000

    def close(self) -> None:
        self.worker.stop()


def main(edits: int = 40) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell.app import create_application

    app = create_application()
    from explorer.ui.preferences import settings

    settings.set_folder(tempfile.mkdtemp())  # never the user's own settings
    state = AppState(text="This is a big red pen and that is a dog .")  # 12 tokens
    window = main_window(state)
    window.show()
    window.start()
    box = window.views["input"].findChild(QPlainTextEdit)
    recorder = PaintRecorder(list(window.views.values()))
    got = []
    state.traceChanged.connect(lambda t: got.append(time.perf_counter()))
    wait_until(app, lambda: bool(got), 60)
    bare = BareEdits(app, state.text)
    latencies, cpu, bare_ms = [], [], []
    for k in range(edits + 3):
        text = f"This is a big red {WORDS[k % len(WORDS)]} and that is a dog ."
        n = len(got)
        settle_until = time.perf_counter() + 0.05
        wait_until(app, lambda until=settle_until: time.perf_counter() > until)
        t0, c0 = time.perf_counter(), time.process_time()
        recorder.painted.clear()
        box.setPlainText(text)  # what typing does, in one step
        wait_until(app, lambda n=n: len(got) > n, 10)
        # then until the views have painted the new trace and gone quiet
        c1 = time.process_time()  # before the quiet wait, whose polling would count
        wait_until(app, lambda: time.perf_counter() - max(recorder.last_paint, got[-1]) > QUIET_S)
        if k >= 3:  # warm-up edits excluded
            latencies.append((max(recorder.last_paint, got[-1]) - t0) * 1000)
            cpu.append((c1 - c0) * 1000)
        settle_until = time.perf_counter() + 0.05
        wait_until(app, lambda until=settle_until: time.perf_counter() > until)
        bare_edit = bare.edit_ms(text)
        if k >= 3:
            bare_ms.append(bare_edit)
    bare.close()
    repainted = [w for w in recorder.painted.values() if hasattr(w, "update")]  # the last edit's widgets
    alone = [_repaint_ms(app, recorder, repainted) for _k in range(edits // 2)]
    window.close()
    med, high = median(latencies), p95(latencies)
    # CPU time of both threads per edit (to the last paint, plus the wait's 1 ms polling): what the edit costs
    # whatever else the machine runs; on a shared machine the wall-clock figures swing with the load.
    detail = dict(edits=edits, tokens=12, cpu_ms_median=round(median(cpu), 1), load=os.getloadavg()[0])
    overhead = med / median(bare_ms)
    emit(
        {
            # retired as a target (issue 43: its floor, measured in the bench, is 2.0): kept as a figure
            "edit_overhead_ratio": figure(
                overhead,
                "ratio",
                RETIRED,
                None,
                edit_to_repaint_ms=round(med, 1),
                bare_trace_ms=round(median(bare_ms), 1),
                repaint_alone_ms=round(median(alone), 1),
                ratio_floor=round((median(bare_ms) + median(alone)) / median(bare_ms), 2),
                widgets_repainted=len(repainted),
                **detail,
            ),
            "edit_to_repaint_ms_median": figure(med, "ms", "≤ 30 ms", med <= 30, **detail),
            "edit_to_repaint_ms_p95": figure(high, "ms", "≤ 50 ms", high <= 50, **detail),
        }
    )


def _repaint_ms(app, recorder, widgets) -> float:
    """The widgets repainted with nothing new to show: from asking to the last paint, timed as an edit is."""
    settle_until = time.perf_counter() + 0.05
    wait_until(app, lambda until=settle_until: time.perf_counter() > until)
    t0 = time.perf_counter()
    for w in widgets:
        w.update()
    wait_until(app, lambda: time.perf_counter() - max(recorder.last_paint, t0) > QUIET_S)
    return max(0.0, recorder.last_paint - t0) * 1000


if __name__ == "__main__":
    main()
