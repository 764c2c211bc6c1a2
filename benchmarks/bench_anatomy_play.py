"""anatomy_play_max_stall_ms: the longest time the window's event loop was blocked while “How is this made?”
plays a weight's anatomy at 1× (one step every 1.5 s) on a 256-token trace of a GPT-2-shaped model (random
weights, the sizes option: E = 768, D = 64, H = 12, L = 12, F = 3072, learned positions, biases), issue 39.
The window is the app's own (offscreen); the stepper opens on a weight of head 0, layer 0 (a D = 64 sum and a
softmax over up to 256 visible keys, both shortened to their largest terms) and plays from the start to the
number, for three cells in turn. A 2 ms timer ticks on the GUI thread; the longest gap between its ticks while
playing is a play's stall, and the figure is the median of the three (each a maximum, so one swings with
whatever else the machine did in its worst moment; all three in the detail). Beside them: the same meter while
the stepper opens (the steps computed off the GUI thread, the panel shown, its table filled), and while the
window sits idle for a second before (the machine's floor).

    python benchmarks/bench_anatomy_play.py
"""

from __future__ import annotations

import os
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, median  # noqa: E402
from gui_probe import StallMeter, main_window, wait_until  # noqa: E402

TOKENS = 256
CELLS = ((200, 100), (255, 254), (128, 3))  # (query, key) of the weights map, one play each
TARGET = "≤ 50 ms"
GPT2_SIZES = dict(embed_dim=768, key_dim=64, heads=12, layers=12, ffn_dim=3072, positions="learned", bias=True)


def _text(tokenizer, tokens: int) -> str:
    """Plain English that the model's tokenizer turns into exactly ``tokens`` tokens."""
    words = ("the teacher shows how every token of a sentence attends to the tokens before it . " * 60).split()
    for count in range(len(words), 0, -1):
        text = " ".join(words[:count])
        if len(tokenizer.encode(text).ids) == tokens:
            return text
    raise SystemExit(f"no prefix of the text has exactly {tokens} tokens")


def _metered(app, done, timeout_s: float) -> tuple[float, int, float]:
    """Run the event loop until ``done()`` with the stall meter on: (longest gap ms, ticks, seconds)."""
    meter = StallMeter()
    t0 = time.perf_counter()
    meter.start()
    wait_until(app, done, timeout_s)
    meter.stop()
    return meter.max_gap_ms, len(meter.gaps), time.perf_counter() - t0


def _play(app, window, view, cell: tuple[int, int]) -> dict:
    """Open the stepper on weight ``cell`` of head 0, layer 0 and play it at 1× from the start to the number."""
    assert view.ask_anatomy(cell), "the weights map has no cell to explain"
    stepper = window.views["anatomy"].stepper
    ready = lambda: stepper.ask.cell.query == cell[0] and len(stepper.steps) > 0  # noqa: E731
    open_ms, _, open_s = _metered(app, lambda: ready() and stepper.table.rowCount() == len(stepper.steps), 120)
    until = time.perf_counter() + 1.0
    wait_until(app, lambda: time.perf_counter() > until)
    stepper.speed.setCurrentIndex(stepper.speed.findData(1.0))
    total = len(stepper.steps)
    stepper.go_to(0)
    stepper.play()
    play_ms, ticks, play_s = _metered(app, lambda: stepper.position >= total and not stepper.timer.isActive(), 300)
    assert stepper.position == total, "the stepper did not play to the end"
    return {
        "cell": list(cell),
        "steps": total,
        "play_max_stall_ms": round(play_ms, 1),
        "play_s": round(play_s, 1),
        "ticks": ticks,
        "open_max_stall_ms": round(open_ms, 1),
        "open_s": round(open_s, 2),
    }


def main() -> None:
    from explorer.session.open import open_source
    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.shell.app import create_application

    app = create_application()
    from explorer.ui.preferences import settings

    settings.set_folder(tempfile.mkdtemp())  # never the user's own settings
    source = ModelSource("preset", "classroom", seed=0).with_sizes(**GPT2_SIZES)
    text = _text(open_source(source).tokenizer, TOKENS)
    state = AppState(text="This is a pen .")
    window = main_window(state)
    window.resize(1366, 768)
    window.show()
    window.start()
    wait_until(app, lambda: state.trace is not None, 120)
    state.set_source(source)
    state.set_text(text)
    wait_until(app, lambda: state.trace is not None and state.trace.C == TOKENS and state.trace.config.E == 768, 600)
    state.select(stage="weights", layer=0, head=0)
    until = time.perf_counter() + 2.0  # the map drawn and the window settled
    wait_until(app, lambda: time.perf_counter() > until)
    idle_until = time.perf_counter() + 1.0
    idle_ms, _, _ = _metered(app, lambda: time.perf_counter() > idle_until, 5)

    view = window.centralWidget()
    plays = [_play(app, window, view, cell) for cell in CELLS]
    window.close()
    stalls = [p["play_max_stall_ms"] for p in plays]
    stall = median(stalls)
    emit(
        {
            "anatomy_play_max_stall_ms": figure(
                stall,
                "ms",
                TARGET,
                stall <= 50,
                tokens=TOKENS,
                stalls_ms=stalls,
                plays=plays,
                idle_max_stall_ms=round(idle_ms, 1),
                load=os.getloadavg()[0],
            )
        }
    )


if __name__ == "__main__":
    main()
