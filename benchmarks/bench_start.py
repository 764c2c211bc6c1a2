"""start_window_over_floor_s / start_first_trace_over_floor_s: launching `attention-explorer gui` (a fresh
process, offscreen) until its window is shown and until the first trace is painted, each minus the floor this
machine sets: a fresh Python process that only imports the libraries the app cannot start without, timed the
same way (from launch to the imports done). The floor for the window is PySide6.QtWidgets, pyqtgraph and
numpy; for the first trace, those and torch. Launches and floor processes alternate (median of each), so that
a change in the machine's load hits both. Python may write its bytecode caches (an installed app has them;
with PYTHONDONTWRITEBYTECODE set, every launch compiled the app's 100 modules again: 0.3 s).

    python benchmarks/bench_start.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import emit, figure, median

FLOORS = {
    "qt": "import PySide6.QtWidgets, pyqtgraph, numpy",
    "all": "import PySide6.QtWidgets, pyqtgraph, numpy, torch",
}


def _env(**extra) -> dict:
    env = {**os.environ, **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _floor(imports: str) -> float:
    """Seconds from launching a fresh interpreter to ``imports`` done."""
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", f"{imports}; import time; print(repr(time.time()))"],
                         env=_env(), check=True, capture_output=True, text=True, timeout=300)
    return float(out.stdout.strip().splitlines()[-1]) - t0


def _launch(exe: Path, tmp: Path, k: int) -> tuple[float, float]:
    out = tmp / f"t{k}.json"
    env = _env(QT_QPA_PLATFORM="offscreen", ATTENTION_EXPLORER_TIMINGS=str(out), XDG_CONFIG_HOME=str(tmp / "cfg"))
    t0 = time.time()
    subprocess.run([str(exe), "gui"], env=env, check=True, capture_output=True, timeout=300)
    marks = json.loads(out.read_text())
    return marks["window_shown"] - t0, marks["first_trace_painted"] - t0


def main(launches: int = 7) -> None:
    exe = Path(sys.executable).with_name("attention-explorer")
    shown, traced, floor_qt, floor_all = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        _launch(exe, Path(tmp), 0)  # the first launch warms the OS file cache and writes the bytecode caches
        _floor(FLOORS["all"])
        for k in range(1, launches + 1):
            w, t = _launch(exe, Path(tmp), k)
            shown.append(w)
            traced.append(t)
            floor_qt.append(_floor(FLOORS["qt"]))
            floor_all.append(_floor(FLOORS["all"]))
    w, t, fq, fa = median(shown), median(traced), median(floor_qt), median(floor_all)
    detail = dict(launches=launches, window_s=round(w, 3), first_trace_s=round(t, 3),
                  floor_qt_s=round(fq, 3), floor_qt_torch_s=round(fa, 3), load=os.getloadavg()[0])
    emit({
        "start_window_over_floor_s": figure(w - fq, "s", "≤ 0.3 s", w - fq <= 0.3, **detail),
        "start_first_trace_over_floor_s": figure(t - fa, "s", "≤ 0.6 s", t - fa <= 0.6, **detail),
    })


if __name__ == "__main__":
    main()
