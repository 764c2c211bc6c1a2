"""start_window_s / start_first_trace_s: from launching `attention-explorer gui` (a fresh process) to its
window shown, and to the first trace painted. Median of 5 launches, offscreen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import emit, figure, median


def main(launches: int = 5) -> None:
    exe = Path(sys.executable).with_name("attention-explorer")
    shown, traced = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(launches + 1):
            out = Path(tmp) / f"t{k}.json"
            env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ATTENTION_EXPLORER_TIMINGS": str(out),
                   "XDG_CONFIG_HOME": str(Path(tmp) / "cfg")}
            t0 = time.time()
            subprocess.run([str(exe), "gui"], env=env, check=True, capture_output=True, timeout=300)
            marks = json.loads(out.read_text())
            if k:  # the first launch warms the OS file cache
                shown.append(marks["window_shown"] - t0)
                traced.append(marks["first_trace_painted"] - t0)
    w, t = median(shown), median(traced)
    emit({
        "start_window_s": figure(w, "s", "≤ 1.0 s", w <= 1.0, launches=launches),
        "start_first_trace_s": figure(t, "s", "≤ 3.0 s", t <= 3.0, launches=launches),
    })


if __name__ == "__main__":
    main()
