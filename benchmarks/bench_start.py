"""start_window_over_floor_s / start_first_trace_over_floor_s: launching `attention-explorer gui` (a fresh
process, offscreen) until its window is shown and until the first trace is painted, each minus the floor this
machine sets: a fresh Python process that only imports the libraries the app cannot start without, timed the
same way (from launch to the imports done). The floor for the window is PySide6.QtWidgets, pyqtgraph and
numpy; for the first trace, those and torch. Launches and floor processes alternate (median of each), so that
a change in the machine's load hits both. Python may write its bytecode caches (an installed app has them;
with PYTHONDONTWRITEBYTECODE set, every launch compiled the app's 100 modules again: 0.3 s).

start_process_vs_floor_ratio: `attention-explorer gui --screenshot` as a whole process (launch → first
trace painted → picture written → exit) divided by a fresh process that imports PySide6.QtWidgets,
pyqtgraph, numpy and torch and exits, both timed from launch to exit, alternating, medians of 7 (as many as the
launches: the floor alone moves by 10 % from one run to the next).

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


def _process(argv: list[str], **env) -> float:
    """Seconds from launching ``argv`` to its exit."""
    t0 = time.perf_counter()
    subprocess.run(argv, env=_env(**env), check=True, capture_output=True, timeout=600)
    return time.perf_counter() - t0


def _floor(imports: str) -> float:
    """Seconds from launching a fresh interpreter to ``imports`` done."""
    t0 = time.time()
    out = subprocess.run(
        [sys.executable, "-c", f"{imports}; import time; print(repr(time.time()))"],
        env=_env(),
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
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
        screenshot, floor = [], []
        for k in range(launches):  # as many as the launches: the floor alone moves by 10 % from run to run
            shot = Path(tmp) / f"shot{k}.png"
            screenshot.append(
                _process(
                    [str(exe), "gui", "--size", "1366x768", "--screenshot", str(shot)],
                    QT_QPA_PLATFORM="offscreen",
                    XDG_CONFIG_HOME=str(Path(tmp) / "cfg"),
                )
            )
            assert shot.stat().st_size > 0
            floor.append(_process([sys.executable, "-c", FLOORS["all"]]))
    w, t, fq, fa = median(shown), median(traced), median(floor_qt), median(floor_all)
    whole = median(screenshot) / median(floor)
    detail = dict(
        launches=launches,
        window_s=round(w, 3),
        first_trace_s=round(t, 3),
        floor_qt_s=round(fq, 3),
        floor_qt_torch_s=round(fa, 3),
        load=os.getloadavg()[0],
    )
    emit(
        {
            "start_process_vs_floor_ratio": figure(
                whole,
                "ratio",
                "≤ 1.1",
                whole <= 1.1,
                screenshot_process_s=round(median(screenshot), 3),
                import_floor_process_s=round(median(floor), 3),
                runs=len(floor),
                load=os.getloadavg()[0],
            ),
            "start_window_over_floor_s": figure(w - fq, "s", "≤ 0.3 s", w - fq <= 0.3, **detail),
            "start_first_trace_over_floor_s": figure(t - fa, "s", "≤ 0.6 s", t - fa <= 0.6, **detail),
        }
    )


if __name__ == "__main__":
    main()
