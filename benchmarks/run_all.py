"""Run every benchmark (each in its own process), merge their JSON into benchmarks/results.json.

    make bench            # or: python benchmarks/run_all.py [name ...]

A benchmark that cannot run here (e.g. it needs a GPU) reports itself skipped with its reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "bench_trace_vs_peer",
    "bench_edit_to_repaint",
    "bench_stall",
    "bench_start",
    "bench_long_input",
    "bench_heatmap",
    "bench_trace_memory",
    "bench_decode",
    "bench_real_full_context",
    "bench_long_context",
    "bench_billion",
    "bench_billion_view",
    "bench_long_map_view",
    "bench_model_view",
    "bench_anatomy_play",
    "bench_idle",
    "bench_handouts",
    "bench_notebook",
]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    from common import machine

    chosen = [s for s in SCRIPTS if not argv or s in argv or s.removeprefix("bench_") in argv]
    path = HERE / "results.json"
    results = json.loads(path.read_text()) if path.exists() else {}
    figures = results.get("figures", {})
    failed = []
    for script in chosen:
        t = time.time()
        proc = subprocess.run([sys.executable, str(HERE / f"{script}.py")], capture_output=True, text=True, cwd=HERE)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        if proc.returncode != 0 or not lines:
            failed.append(script)
            print(f"{script}: FAILED\n{proc.stderr[-2000:]}", file=sys.stderr)
            continue
        got = json.loads(lines[-1])
        figures.update(got)
        for key, fig in got.items():
            print(
                f"{key:32s} {fig['value']!s:>10} {fig['unit']:6s} target {fig['target']:12s} met={fig['met']}  "
                f"({time.time() - t:.0f} s)"
            )
    results = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "figures": figures}
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
