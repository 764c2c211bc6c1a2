"""File → Worksheet…'s choice (issue 39): the exercises of the current text on the note's toy model, or one
number's anatomy as an exercise with its key (what ``worksheet --anatomy`` writes), on the window's own trace.
The anatomy is offered for the cell the stepper shows, else the one chosen on the central map; the teacher may
type another (STAGE:LAYER:HEAD:QUERY[:COLUMN], as the command line takes it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QRadioButton, QVBoxLayout, QWidget

from explorer.anatomy import Cell
from explorer.errors import ExplorerError


@dataclass(frozen=True)
class Offered:
    """The anatomy the dialog offers: a cell and the trace it is in (the window's, or a generation's prompt)."""

    cell: Cell
    trace: object


def offered(parent: QWidget, state) -> Offered | None:
    """The stepper's cell, else the central map's chosen cell; None when no cell is chosen."""
    ask = getattr(state, "anatomy_ask", None)
    if ask is not None and ask.work is None:  # (a decode row is in no trace a sheet could read)
        trace = ask.trace if ask.trace is not None else state.trace
        return Offered(ask.cell, trace) if trace is not None else None
    view = parent.views.get("tensor") if hasattr(parent, "views") else None
    chosen = getattr(view, "chosen_cell", None)
    if chosen is None or state.trace is None:
        return None
    from explorer.ui.views.tensor.tensor_anatomy import anatomy_ask

    asked = anatomy_ask(view, *chosen)
    return Offered(asked.cell, state.trace) if asked is not None else None


def cell_spec(cell: Cell) -> str:
    """The cell as ``worksheet --anatomy`` takes it: weights:0:1:3:2, ffn:0:0:2:n3, qkv:0:0:2:k1."""
    parts = [cell.stage, str(cell.layer), str(cell.head), str(cell.query)]
    if cell.neuron is not None:
        parts.append(f"n{cell.neuron}")
    elif cell.key is not None:
        parts.append(str(cell.key))
    elif cell.dim is not None:
        parts.append(f"{cell.part if cell.part in ('k', 'v') else ''}{cell.dim}")
    return ":".join(parts)


class WorksheetDialog(QDialog):
    """Which worksheet: the text's exercises, or the offered number's anatomy (editable)."""

    def __init__(self, parent: QWidget | None, offer: Offered, language: str = "en") -> None:
        super().__init__(parent)
        self.offer, self.language = offer, language
        self.setWindowTitle(QCoreApplication.translate("WorksheetDialog", "Worksheet"))
        self.exercises = QRadioButton(
            QCoreApplication.translate("WorksheetDialog", "Exercises with this text's numbers (seed-toy)")
        )
        self.anatomy = QRadioButton(
            QCoreApplication.translate("WorksheetDialog", "How one number is made, step by step, with its key:")
        )
        self.cell = QLineEdit(cell_spec(offer.cell))
        self.cell.setToolTip(
            QCoreApplication.translate(
                "WorksheetDialog", "STAGE:LAYER:HEAD:QUERY[:COLUMN], as worksheet --anatomy takes it"
            )
        )
        self.which = QLabel()
        self.which.setWordWrap(True)
        # room for two lines from the start: a longer line (a reason) wraps inside it, never over the cell
        self.which.setMinimumHeight(2 * self.which.fontMetrics().lineSpacing() + 4)
        self.setMinimumWidth(30 * self.fontMetrics().height())
        self.cell.textChanged.connect(lambda _t: self._said())
        self.anatomy.toggled.connect(self.cell.setEnabled)
        self.exercises.toggled.connect(lambda _on: self._said())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        for w in (self.exercises, self.anatomy, self.cell, self.which, self.buttons):
            lay.addWidget(w)
        # a cell is chosen: the teacher came for it, unless it cannot be done by hand (a large model)
        (self.anatomy if self.checked()[0] is not None else self.exercises).setChecked(True)
        self._said()

    def checked(self) -> tuple[Cell | None, str]:
        """(the typed cell in the offered cell's sentence, "") or (None, why it cannot be an exercise here)."""
        from explorer.anatomy.cell import check
        from explorer.handouts.anatomy_exercise import parse_cell
        from explorer.handouts.worksheet import check_small

        try:
            cell = replace(parse_cell(self.cell.text().strip()), sentence=self.offer.cell.sentence)
            check(self.offer.trace, cell)
            check_small(self.offer.trace, cell.sentence)  # by hand: the note's toy sizes
        except ExplorerError as exc:
            return None, str(exc)
        return cell, ""

    def _said(self) -> None:
        """The line under the cell: which number it is, in words, or why it is none."""
        from explorer.handouts.anatomy_pages import cell_line

        cell, why = self.checked()
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(cell is not None or self.exercises.isChecked())
        self.which.setText(
            cell_line(self.offer.trace, cell, self.language)
            if cell is not None
            else QCoreApplication.translate("WorksheetDialog", "Not an exercise here: {why}").format(why=why)
        )

    def choice(self) -> Cell | None:
        """The anatomy's cell, or None for the text's exercises."""
        return self.checked()[0] if self.anatomy.isChecked() else None


def write_anatomy(state, trace, cell: Cell, sheet: Path, key: Path) -> list[Path]:
    """The anatomy's sheet and key, on ``trace``, in the window's language (raises ExplorerError)."""
    from explorer.ui.printing.anatomy_worksheet import write_anatomy_worksheet
    from explorer.weights.presets import PRESETS, get_preset

    source = state.source
    model = getattr(trace, "model_name", None) or source.name
    seed = getattr(source, "seed", None)
    if seed is None and source.kind == "preset" and source.name in PRESETS:
        seed = get_preset(source.name).seed  # the preset's own seed, which the sheet names so a class can redo it
    return write_anatomy_worksheet(trace, sheet, key, cell, model, seed, state.language)
