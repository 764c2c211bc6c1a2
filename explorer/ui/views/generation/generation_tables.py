"""The Generate panel's tables: the K or V cache of one key/value head (the rows written at the step
highlighted) and the chosen token with its alternatives (the chosen one bold). They show numbers cut by
explorer.generation.frames; nothing is computed here."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from explorer.analysis.token_text import visible

MAX_TABLE_COLUMNS = 64  # cache columns shown (D of a real model's head is 64 or 128)


class _Table(QTableWidget):
    """A table that keeps its newest row in view when it is resized (presentation mode lays the tables out
    after they are filled: scrolled before that, the new row ended below the fold)."""

    keep_in_view: int | None = None

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.keep_in_view is not None and self.item(self.keep_in_view, 0) is not None:
            self.scrollToItem(self.item(self.keep_in_view, 0))


def make_table() -> QTableWidget:
    t = _Table()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # to contents: too wide for D = 64
    t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    fit_columns(t)
    return t


def fit_columns(table: QTableWidget) -> None:
    """Columns as wide as a number in the table's font (presentation mode enlarges it)."""
    table.horizontalHeader().setDefaultSectionSize(table.fontMetrics().horizontalAdvance("-0.00") + 14)


def _mark(table: QTableWidget) -> QBrush:
    return QBrush(QColor(table.palette().color(QPalette.ColorRole.Highlight)).lighter(160))


def fill_cache(table: QTableWidget, rows, labels, new: range) -> None:
    """``rows`` (positions, D): one row per cached position, labelled "i token"; the ``new`` rows marked."""
    n, d = rows.shape
    shown = min(d, MAX_TABLE_COLUMNS)
    table.setUpdatesEnabled(False)
    table.clear()
    table.setRowCount(n)
    table.setColumnCount(shown)
    table.setHorizontalHeaderLabels([str(j) for j in range(shown)])
    table.setVerticalHeaderLabels([f"{i} {labels[i]}" for i in range(n)])
    mark = _mark(table)
    for i in range(n):
        for j in range(shown):
            item = QTableWidgetItem(f"{rows[i, j]:.2f}")
            if i in new:
                item.setBackground(mark)
            table.setItem(i, j, item)
    table.setUpdatesEnabled(True)
    table.keep_in_view = new[-1] if n else None
    if n:
        table.resizeRowsToContents()
        table.scrollToItem(table.item(new[-1], 0))


def empty(table: QTableWidget) -> None:
    table.clear()
    table.setRowCount(0)
    table.setColumnCount(0)


def fill_top(table: QTableWidget, step, headers: list[str]) -> None:
    """The step's most likely tokens with their probabilities; the chosen one bold and marked (added at the
    end when it was sampled from outside the top few)."""
    table.setColumnCount(2)
    table.setRowCount(len(step.top))
    table.setHorizontalHeaderLabels(headers)
    rows = [(tid, tok, p) for tid, tok, p in step.top]
    if step.token_id not in [tid for tid, _, _ in rows]:
        rows.append((step.token_id, step.token, step.prob))
        table.setRowCount(len(rows))
    bold = QFont(table.font())  # the table's own font: presentation mode's size stays
    bold.setBold(True)
    for r, (tid, tok, p) in enumerate(rows):
        a, b = QTableWidgetItem(visible(tok)), QTableWidgetItem(f"{p:.3f}")
        if tid == step.token_id:
            for item in (a, b):
                item.setFont(bold)
                item.setBackground(_mark(table))
        table.setItem(r, 0, a)
        table.setItem(r, 1, b)
    # as wide as its two columns: beside the cache tables a splitter squeezed it until "probability" was cut
    table.resizeColumnsToContents()
    frame = 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width()
    table.setMinimumWidth(table.horizontalHeader().length() + table.verticalHeader().sizeHint().width() + frame)
