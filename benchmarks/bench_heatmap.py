"""heatmap_1024_ms: a 1024×1024 causal attention map set into the app's Heatmap widget and painted
(offscreen), median of repeated runs with fresh data each time."""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import emit, figure, median, p95  # noqa: E402


def main(repeats: int = 30, C: int = 1024) -> None:
    import numpy as np

    from explorer.ui.shell.app import create_application
    from explorer.ui.views.map.heatmap import Heatmap

    app = create_application()
    w = Heatmap()
    w.resize(900, 800)
    w.show()
    app.processEvents()
    rng = np.random.default_rng(0)
    labels = [f"t{i}" for i in range(C)]
    blocked = ~np.tri(C, dtype=bool)
    maps = []
    for _ in range(repeats + 1):
        scores = rng.standard_normal((C, C)).astype(np.float32)
        scores[blocked] = -np.inf
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        maps.append((e / e.sum(axis=1, keepdims=True)).astype(np.float32))
    times = []
    for k, m in enumerate(maps):
        t = time.perf_counter()
        w.set_matrix(m, labels, labels, signed=False, levels=(0.0, 1.0), square=True, blocked=blocked)
        app.processEvents()  # the event loop's own paint, as in the window
        if k:  # the first includes one-off setup
            times.append((time.perf_counter() - t) * 1000)
    value = median(times)
    emit({"heatmap_1024_ms": figure(value, "ms", "≤ 20 ms", value <= 20, p95_ms=round(p95(times), 2), repeats=repeats)})


if __name__ == "__main__":
    main()
    # The figure is printed: leave without the interpreter's teardown of the Qt objects, which crashed (SIGSEGV)
    # once the heatmap gained its accessibility helper, as `gui` leaves (explorer/cli/gui_cmd.py).
    import os
    import sys

    sys.stdout.flush()
    os._exit(0)
