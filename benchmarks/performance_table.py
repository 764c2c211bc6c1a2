"""Write benchmarks/results.json as a table into docs/performance.md, between <!-- bench:start --> and
<!-- bench:end --> (the README only summarises it and links there)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = {
    "trace_vs_peer_ratio": "full trace vs transformers (GPT-2 small shape, C=256)",
    "trace_vs_peer_ratio_1024": "full trace vs transformers (GPT-2 small shape, C=1024)",
    "trace_vs_peer_ratio_busy": "full trace vs transformers, C=256, one CPU-bound process running beside both",
    "real_full_trace_vs_peer": (
        "SmolLM2-135M, 8192 tokens, every layer traced (maps on demand): request → logits vs transformers' SDPA forward"
    ),
    "decode_vs_peer_ratio": (
        "one cached decode step with attention rows vs transformers' cached step (GPT-2 small shape, C=1024)"
    ),
    "edit_overhead_ratio": "text edit → last view repainted, over the same edit traced with no views (a figure only)",
    "stall_vs_frame": "longest stall (1024-token trace) over one 1024² map set and painted, same run",
    "start_process_vs_floor_ratio": (
        "gui --screenshot as a whole process over a process importing Qt, pyqtgraph, numpy, torch"
    ),
    "idle_cpu_percent": "CPU of the window left alone for 10 s at 1366×768",
    "edit_to_repaint_ms_median": "text edit → last view repainted, median (12 tokens)",
    "edit_to_repaint_ms_p95": "text edit → last view repainted, p95",
    "max_stall_ms": "longest event-loop stall during a 1024-token GPT-2 trace",
    "max_stall_ms_smollm2_2048": "longest event-loop stall during a 2048-token SmolLM2-135M trace",
    "start_window_over_floor_s": "process start → window shown, minus importing Qt, pyqtgraph, numpy (same run)",
    "start_first_trace_over_floor_s": "process start → first trace painted, minus importing those and torch",
    "long_input_s": "4096 tokens, GPT-2 small shape: request → first head's map shown",
    "long_input_peak_rss_gb": "4096 tokens: peak resident memory",
    "real_full_context_vs_peer": "SmolLM2-135M, 8192 tokens: request → first map vs transformers' SDPA forward",
    "real_full_context_peak_rss_gb": "SmolLM2-135M, 8192 tokens: peak resident memory",
    "long_context_vs_peer": (
        "SmolLM2-135M, 16,384 tokens, every layer's maps as exact tiles: request → logits vs transformers' SDPA forward"
    ),
    "long_context_peak_rss_gb": "SmolLM2-135M, 16,384 tokens: peak resident memory (weights 0.5 GB)",
    "tile_exact_max_err": "20 random 512×512 tiles of that trace vs an eager float32 softmax of the same rows",
    "billion_trace_vs_peer": (
        "Llama-3.2-1B shape (random weights), 2,048 tokens, every layer's maps on demand: request → next-token "
        "distribution vs transformers' SDPA forward"
    ),
    "billion_peak_rss_gb": "that 1B trace: peak resident memory of a fresh process (weights 4.6 GiB)",
    "billion_trace_vs_peer_bfloat16": "the same in bfloat16 (weights made and run in bfloat16 on both sides)",
    "billion_peak_rss_gb_bfloat16": "that bfloat16 trace: peak resident memory of a fresh process (weights 2.3 GiB)",
    "billion_model_view_fill_s": "Model view of the 1B shape (16 × 32 heads), 2,048 tokens: opened → every map in",
    "heatmap_1024_ms": "1024×1024 map set and painted",
    "viewport_paint_ms": "16,384-token map zoomed to exact cells (≤ 512 a side): scroll by one screen → painted",
    "hover_explain_ms": "16,384-token map: hover a cell → its exact value and explanation shown",
    "trace_memory_ratio": "trace resident bytes / array bytes",
    "decode_step_ms_cache": "one decode step with the KV cache, GPT-2 small shape, C=1024",
    "decode_step_ms_no_cache": "the same step recomputing the whole text (no cache)",
    "decode_cache_speedup_1024": "KV cache speed-up at C=1024",
    "model_view_fill_s": "Model view of SmolLM2-135M (30 × 9 heads), 64 tokens: opened → every map in",
    "model_view_max_stall_ms": "longest event-loop stall while that Model view opens and fills",
    "anatomy_play_max_stall_ms": (
        "longest event-loop stall while “How is this made?” plays a weight at 1× (GPT-2 shape, 256 tokens)"
    ),
    "lesson_pdf_s": "the built-in lesson (14 steps) as a PDF of slides, from the command line",
    "figure_png_s": "one figure as PNG (160 mm, 300 dpi) from the command line, minus importing torch and Qt",
    "notebook_display_ms": "a notebook's display of a fresh 32-token trace (strip, map, next-token bars) as one SVG",
    "import_explorer_s": "`import explorer` in a fresh process (torch, numpy and Qt not imported)",
}


# Figures kept for their values whose targets were retired (issue 43: edit_overhead_ratio, floor 2.0 measured)
RETIRED = {"edit_overhead_ratio"}


def _met(key: str, fig: dict) -> str:
    if key in RETIRED or fig.get("met") is None:
        return "—"
    return "yes" if fig["met"] else "**no**"


def table(results: dict) -> str:
    rows = ["| figure | measured | target | met | load |", "|---|---|---|---|---|"]
    for key, label in LABELS.items():
        fig = results["figures"].get(key)
        if fig is None:
            rows.append(f"| {label} (`{key}`) | not measured | | | |")
            continue
        if fig.get("skipped"):
            rows.append(f"| {label} (`{key}`) | skipped: {fig['skipped']} | {fig['target']} | | |")
            continue
        value = fig["value"]
        if fig["unit"] == "ratio":
            shown = f"{value:.3f}"  # 1.001 is not "1": a ratio is read against its target to the third decimal
        else:
            shown = (f"{value:.3g}" if isinstance(value, float) else str(value)) + f" {fig['unit']}"
        load = fig.get("detail", {}).get("load_1min", fig.get("detail", {}).get("load"))
        load = f"{load:.1f}" if isinstance(load, (int, float)) else ""
        target = "retired" if key in RETIRED else fig["target"]
        rows.append(f"| {label} (`{key}`) | {shown} | {target} | {_met(key, fig)} | {load} |")
    rows.append("")
    rows.append(
        f"Measured {results.get('date', '')} on {results.get('machine', '')}; load: the 1-minute load average "
        "when the figure was measured (2 cores: above 2, other work competed for them)."
    )
    others: dict[str, list[str]] = {}  # figures measured on another day or machine say so
    for key in LABELS:
        measured = (results["figures"].get(key) or {}).get("detail", {}).get("measured")
        if measured:
            others.setdefault(measured, []).append(f"`{key}`")
    for measured, keys in others.items():
        rows.append(f"{', '.join(keys)}: measured {measured}.")
    return "\n".join(rows)


START, END = "<!-- bench:start -->", "<!-- bench:end -->"
PAGE = ROOT / "docs" / "performance.md"


def write_table(page: Path, results: dict) -> bool:
    """Replace what lies between the markers of ``page`` with the table; False (page untouched) without them."""
    text = page.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return False
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + START + "\n" + table(results) + "\n" + END + tail, encoding="utf-8")
    return True


def main() -> int:
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    if not write_table(PAGE, results):
        print(f"{PAGE.relative_to(ROOT)} has no bench markers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
