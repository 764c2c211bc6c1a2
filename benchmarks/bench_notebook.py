"""notebook_display_ms / import_explorer_s: Python and notebooks (issue 41).

``notebook_display_ms``: what a notebook waits for after a trace before its picture is there: the display of a
fresh 32-token classroom trace (``explorer.api.display.trace_svg``: pipeline strip, the weights map of layer 0,
head 0, the next-token bars, as one SVG), timed on a new trace each run (nothing drawn or derived before),
median of the runs. ``import_explorer_s``: ``import explorer`` in a fresh Python process, timed inside it
(median of the runs); its detail says whether that import brought torch, numpy or Qt along.

    python benchmarks/bench_notebook.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from common import ROOT, emit, figure, median

TEXT = (
    "The teacher wrote a long sentence on the board , and the students read it twice before they "
    "copied every word into their books . Then they went home ."
)
IMPORT_PROBE = (
    "import json, sys, time\n"
    "t = time.perf_counter()\n"
    "import explorer\n"
    "s = time.perf_counter() - t\n"
    "print(json.dumps({'s': s, 'heavy': sorted({m.split('.')[0] for m in sys.modules} & "
    "{'torch', 'numpy', 'PySide6', 'pyqtgraph'})}))\n"
)


def display_ms(runs: int) -> tuple[list[float], int, int]:
    from explorer.api.display import trace_svg
    from explorer.config import RunOptions
    from explorer.session.open import open_source
    from explorer.session.request import ModelSource
    from explorer.trace import run_trace

    bundle = open_source(ModelSource("preset", "classroom"))
    times, tokens, size = [], 0, 0
    trace_svg(run_trace(bundle, TEXT, RunOptions()))  # the first call imports the drawing modules
    for _ in range(runs):
        trace = run_trace(bundle, TEXT, RunOptions())
        t0 = time.perf_counter()
        svg = trace_svg(trace)
        times.append((time.perf_counter() - t0) * 1000)
        tokens, size = trace.rows[0].length, len(svg.encode("utf-8"))
    return times, tokens, size


def import_s(runs: int) -> tuple[list[float], list[str]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode caches
    times, heavy = [], []
    for k in range(runs + 1):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_PROBE], env=env, cwd=ROOT, capture_output=True, text=True, check=True
        )
        got = json.loads(out.stdout.strip().splitlines()[-1])
        if k:  # the first process writes the bytecode caches
            times.append(got["s"])
            heavy = got["heavy"]
    return times, heavy


def main(runs: int = 15) -> None:
    shown, tokens, size = display_ms(runs)
    imported, heavy = import_s(7)
    d, i = median(shown), median(imported)
    emit(
        {
            "notebook_display_ms": figure(
                d, "ms", "≤ 200 ms", d <= 200, runs=runs, tokens=tokens, svg_bytes=size, slowest_ms=round(max(shown), 1)
            ),
            "import_explorer_s": figure(
                i,
                "s",
                "≤ 0.2 s, no torch or Qt",
                i <= 0.2 and not {"torch", "PySide6"} & set(heavy),
                runs=len(imported),
                imports=heavy or "none of torch, numpy, PySide6, pyqtgraph",
            ),
        }
    )


if __name__ == "__main__":
    main()
