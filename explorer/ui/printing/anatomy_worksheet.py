"""A worksheet whose exercise is one number's anatomy (``worksheet --anatomy``), as PDF: the sheet and its key
(explorer/handouts/anatomy_sheet.py) painted through the worksheet's one safe writer."""

from __future__ import annotations

from pathlib import Path

from explorer.anatomy import Cell
from explorer.handouts.anatomy_exercise import anatomy_exercise
from explorer.handouts.anatomy_pages import cell_line
from explorer.handouts.anatomy_sheet import anatomy_sheet_pages, words_for
from explorer.handouts.text import plain
from explorer.ui.printing.worksheet_export import write_documents


def write_anatomy_worksheet(
    trace, sheet: str | Path, key: str | Path | None, cell: Cell, model: str, seed, language: str = "en"
) -> list[Path]:
    """The sheet (a line for each step's result) and, when asked, its key (every step's result)."""
    exercise = anatomy_exercise(trace, cell, language, words_for(language))
    about = {"text": plain(trace.rows[cell.sentence].text, 200), "model": model, "seed": "—" if seed is None else seed}
    which = cell_line(trace, cell, language)
    documents = [(anatomy_sheet_pages(exercise, about, which, language, key=False), sheet)]
    if key is not None:
        documents.append((anatomy_sheet_pages(exercise, about, which, language, key=True), key))
    return write_documents(documents)  # both or neither
