"""benchmarks/performance_table.py writes benchmarks/results.json as the table of docs/performance.md, between
its two markers and nowhere else; the page holds what the generator makes of the committed results."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("performance_table", ROOT / "benchmarks" / "performance_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RESULTS = {
    "date": "2026-12-03",
    "machine": "a test machine",
    "figures": {
        "trace_vs_peer_ratio": {"value": 1.0012, "unit": "ratio", "target": "≤ 0.95", "met": False},
        "idle_cpu_percent": {"value": 0.0047, "unit": "%", "target": "≤ 1", "met": True, "detail": {"load": 1.44}},
        "lesson_pdf_s": {"skipped": "no font", "target": "< 3 s"},
    },
}


def test_the_table_says_each_figure_as_measured():
    table = _generator().table(RESULTS)
    assert "| 1.001 | ≤ 0.95 | **no** |" in table  # a ratio to the third decimal: 1.001 is not "1"
    assert "| 0.0047 % | ≤ 1 | yes | 1.4 |" in table
    assert "(`lesson_pdf_s`) | skipped: no font | < 3 s |" in table
    assert "(`decode_vs_peer_ratio`) | not measured |" in table
    assert "Measured 2026-12-03 on a test machine" in table


def test_a_retired_target_is_shown_as_a_figure_neither_met_nor_missed():
    results = {
        "figures": {
            "edit_overhead_ratio": {"value": 3.54, "unit": "ratio", "target": "≤ 1.5", "met": False},  # as once saved
            "trace_vs_peer_ratio_busy": {"value": 0.5, "unit": "ratio", "target": "≤ 0.9", "met": None},
        }
    }
    table = _generator().table(results)
    assert "(`edit_overhead_ratio`) | 3.540 | retired | — |" in table
    assert "(`trace_vs_peer_ratio_busy`) | 0.500 | ≤ 0.9 | — |" in table  # no verdict saved: none shown
    assert "**no**" not in table


def test_only_the_part_between_the_markers_is_replaced(tmp_path):
    gen = _generator()
    page = tmp_path / "performance.md"
    page.write_text(f"# Title\n\nbefore\n\n{gen.START}\nold table\n{gen.END}\n\nafter\n", encoding="utf-8")
    assert gen.write_table(page, RESULTS)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nbefore\n\n" + gen.START + "\n| figure |")
    assert text.endswith(gen.END + "\n\nafter\n") and "old table" not in text


def test_a_page_without_markers_is_left_alone(tmp_path):
    gen = _generator()
    page = tmp_path / "performance.md"
    page.write_text("no markers here\n", encoding="utf-8")
    assert not gen.write_table(page, RESULTS)
    assert page.read_text(encoding="utf-8") == "no markers here\n"


def test_the_page_holds_the_table_of_the_committed_results():
    gen = _generator()
    assert gen.PAGE == ROOT / "docs" / "performance.md"
    text = gen.PAGE.read_text(encoding="utf-8")
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    between = text.split(gen.START, 1)[1].split(gen.END, 1)[0]
    assert between == "\n" + gen.table(results) + "\n", "run `python benchmarks/performance_table.py`"
    assert gen.START not in (ROOT / "README.md").read_text(encoding="utf-8")  # the README only summarises it
