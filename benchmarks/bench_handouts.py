"""lesson_pdf_s / figure_png_s: hand-outs from the command line (issue 24), each a fresh process as a teacher
runs it. ``lesson_pdf_s``: `attention-explorer lesson export builtin -o lesson.pdf` (14 steps, 16 pages),
launch to exit. ``figure_png_s``: `attention-explorer figure "This is a pen ." --stage weights -o f.png`
(160 mm at 300 dpi) minus the floor this machine sets in the same run: a fresh Python process that only
imports torch and Qt's painting module, which every such command needs before its first line of work. Runs
and floor processes alternate (median of each), so that a change in the machine's load hits both; each
process's own CPU time is in the details (on a shared machine the wall time is mostly waiting).

    python benchmarks/bench_handouts.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import emit, figure, median

FLOOR = "import torch, PySide6.QtGui"


def _env() -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its bytecode caches
    return env


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(*argv: str, cwd: Path, cpu: list | None = None) -> float:
    t0, c0 = time.perf_counter(), _cpu()
    subprocess.run(
        [sys.executable, "-m", "explorer", *argv], env=_env(), cwd=cwd, check=True, capture_output=True, timeout=600
    )
    if cpu is not None:
        cpu.append(_cpu() - c0)  # what the process itself used: a busy machine stretches the wall time, not this
    return time.perf_counter() - t0


def _floor(cpu: list | None = None) -> float:
    t0, c0 = time.perf_counter(), _cpu()
    subprocess.run([sys.executable, "-c", FLOOR], env=_env(), check=True, capture_output=True, timeout=300)
    if cpu is not None:
        cpu.append(_cpu() - c0)
    return time.perf_counter() - t0


def main(runs: int = 5) -> None:
    lesson, fig, floor = [], [], []
    cpu: dict[str, list] = {"lesson": [], "figure": [], "floor": []}
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        _run("lesson", "export", "builtin", "-o", "warm.pdf", cwd=where)  # bytecode caches, OS file cache
        _floor()
        for _ in range(runs):
            lesson.append(_run("lesson", "export", "builtin", "-o", "lesson.pdf", cwd=where, cpu=cpu["lesson"]))
            fig.append(
                _run("figure", "This is a pen .", "--stage", "weights", "-o", "f.png", cwd=where, cpu=cpu["figure"])
            )
            floor.append(_floor(cpu["floor"]))
    lp, fp, fl = median(lesson), median(fig), median(floor)
    detail = dict(
        runs=runs,
        lesson_s=round(lp, 3),
        figure_s=round(fp, 3),
        floor_torch_qt_s=round(fl, 3),
        load=os.getloadavg()[0],
        **{f"{k}_cpu_s": round(median(v), 3) for k, v in cpu.items()},
    )
    emit(
        {
            "lesson_pdf_s": figure(lp, "s", "< 3 s", lp < 3.0, **detail),
            "figure_png_s": figure(fp - fl, "s", "≤ 0.5 s", fp - fl <= 0.5, **detail),
        }
    )


if __name__ == "__main__":
    main()
