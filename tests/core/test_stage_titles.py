"""One table of stage titles (explorer/present/stage_titles.py): every stage has its short title and its
heading there, and no other module of explorer/ writes a stage's title as a string of its own (a second table,
or one title copied into a view, would let the wordings drift apart again)."""

from __future__ import annotations

import ast
from pathlib import Path

from explorer.handouts.words import ENGLISH
from explorer.present.stage_titles import STAGE_TITLES, title
from explorer.present.stages import STAGE_KEYS

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "explorer" / "present" / "stage_titles.py"

# The same words, meant as something else than a stage's title.
NOT_TITLES = {
    ("explorer/ui/views/controls_view.py", "Mask"): "the label of the mask chooser among the controls",
    ("explorer/handouts/worksheet_page.py", "Scaling by √D"): "a worksheet exercise's title",
    ("explorer/handouts/worksheet_page.py", "The mask"): "a worksheet exercise's title",
    ("explorer/ui/printing/worksheet_export.py", "Scaling by √D"): "a worksheet exercise's title, translated",
    ("explorer/ui/printing/worksheet_export.py", "The mask"): "a worksheet exercise's title, translated",
}


def _title_literals() -> list[tuple[str, int, str]]:
    texts = {t for entry in STAGE_TITLES.values() for t in (entry.title, entry.heading)}
    found = []
    for path in sorted((ROOT / "explorer").rglob("*.py")):
        if path == TABLE or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in texts:
                found.append((rel, node.lineno, node.value))
    return found


def test_every_stage_has_a_title_and_a_heading():
    assert tuple(STAGE_TITLES) == STAGE_KEYS
    for key, entry in STAGE_TITLES.items():
        assert entry.title.strip() and entry.heading.strip(), key
    assert title("weights") == "Attention weights (softmax)" and title("no such stage") == "no such stage"


def test_no_other_module_writes_a_stage_title():
    stray = [(rel, line, text) for rel, line, text in _title_literals() if (rel, text) not in NOT_TITLES]
    assert stray == [], "stage titles belong in explorer/present/stage_titles.py only"


def test_the_allowed_coincidences_are_still_there():
    """The allow-list names only words that still exist (a stale entry would hide a new copy)."""
    found = {(rel, text) for rel, _line, text in _title_literals()}
    assert set(NOT_TITLES) <= found


def test_print_names_stages_from_the_table():
    assert ENGLISH.stage_titles == {key: entry.title for key, entry in STAGE_TITLES.items()}
