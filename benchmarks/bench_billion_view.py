"""billion_model_view_fill_s: the Model view of the Llama-3.2-1B-shaped model (16 layers × 32 heads: 512 maps;
benchmarks/billion_model.py, random weights built in memory) on a text of BENCH_BILLION_VIEW_TOKENS tokens
(2,048, issue 43's length: a lazy trace, each layer streamed from q and k), from opening the view (View →
Model view) until every layer's maps are in, and the longest time the window's event loop was blocked
meanwhile (detail: max_stall_ms, and the same window's longest gap while idle just before). The model is
built and the text traced first (the window's own trace, with its policy for a deep model): the figure is
the view's own work.

    python benchmarks/bench_billion_view.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import emit, figure  # noqa: E402
from gui_probe import StallMeter, main_window, wait_until  # noqa: E402

TOKENS = int(os.environ.get("BENCH_BILLION_VIEW_TOKENS", 2048))
TARGET = "≤ 10 s"


def main() -> None:
    import billion_model
    from PySide6.QtCore import QSettings

    from explorer.config import RunOptions, estimate_memory
    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.shell.app import create_application

    os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = "64"  # the model is built first; the trace's budget is set below
    bundle = billion_model.ours()
    peak = estimate_memory(bundle.config, 1, max(TOKENS, 1024), RunOptions(lazy_pairwise=True)).peak_bytes
    os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = f"{peak / 1024**3 + 1:.1f}"  # as a user raises it
    app = create_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    source = ModelSource("path", os.path.join(tempfile.gettempdir(), "llama-3.2-1b-shaped"))
    text, _ = billion_model.ids_text(TOKENS, bundle.config.V)
    state = AppState(text=text, source=source)
    window = main_window(state)
    window.persist = False
    window.runner.models.put(source, bundle)  # the model already built: the figure is the view, not the load
    window.resize(1400, 900)
    window.show()
    traces = []
    state.traceChanged.connect(lambda t: traces.append(t) if not t.partial else None)
    window.start()
    wait_until(app, lambda: bool(traces), 900)
    settle = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > settle)
    idle = StallMeter()
    idle.start()
    until = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > until)
    idle.stop()

    view = window.views["model_view"]
    meter = StallMeter()
    meter.start()
    t0 = time.perf_counter()
    window.actions_.model_view.trigger()
    filled = []  # the maps in the grid when it was complete (a later refresh may empty it again)

    def complete() -> bool:
        if view._shape[0] > 0 and view.complete:
            filled.append(view.mosaic.filled())
        return bool(filled)

    wait_until(app, complete, 900)
    fill = time.perf_counter() - t0
    meter.stop()
    L, H = view._shape
    trace = traces[-1]
    detail = dict(
        tokens=trace.C,
        layers=L,
        heads=H,
        maps=filled[0],
        from_the_trace=len(trace.map_layers) == L,
        captured_layers=list(trace.layers),
        lazy=trace.options.lazy_pairwise,
        max_stall_ms=round(meter.max_gap_ms, 1),
        idle_max_stall_ms=round(idle.max_gap_ms, 1),
    )
    window.close()
    emit({"billion_model_view_fill_s": figure(fill, "s", TARGET, fill <= 10 and detail["maps"] == L * H, **detail)})


if __name__ == "__main__":
    main()
