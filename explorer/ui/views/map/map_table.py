"""View → As table: the numbers of a map as an accessible table (a QTableView over a model), for a screen
reader and for anyone who wants the numbers rather than the colours. Row and column headers are the map's
token labels; each cell's accessible text says the whole cell ("query 3 pen, key 1 is, weight 0.15, …").

The table follows its map: a new trace, head or stage shows its numbers at once.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QTableView, QVBoxLayout, QWidget

from explorer.present.cell_words import announce_cell, table_text

_NO_PARENT = QModelIndex()  # the root: a table model's rows have no parent


class MatrixModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.data_ = np.zeros((0, 0))
        self.rows: tuple[str, ...] = ()
        self.cols: tuple[str, ...] = ()
        self.texts: list[list[str]] = []
        self.words: dict[str, str] = {}

    def set_matrix(self, data: np.ndarray | None, rows, cols, words: dict[str, str]) -> None:
        self.beginResetModel()
        self.data_ = np.zeros((0, 0)) if data is None else np.asarray(data)
        self.rows, self.cols, self.words = tuple(rows), tuple(cols), words
        self.texts = table_text(self.data_)
        self.endResetModel()

    def rowCount(self, parent=_NO_PARENT) -> int:
        return 0 if parent.isValid() else self.data_.shape[0]

    def columnCount(self, parent=_NO_PARENT) -> int:
        return 0 if parent.isValid() else self.data_.shape[1]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        i, j = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.texts[i][j]
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return announce_cell(self.data_, i, j, self.rows, self.cols, self.words)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return None
        labels = self.cols if orientation == Qt.Orientation.Horizontal else self.rows
        return labels[section] if section < len(labels) else str(section)


class MapTable(QDialog):
    """A window beside the main one with the numbers of ``heatmap``, kept up to date."""

    def __init__(self, heatmap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mapTable")
        self.heatmap = heatmap
        self.model = MatrixModel(self)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAlternatingRowColors(True)
        self.caption.setBuddy(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.caption)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        heatmap.access.changed.connect(self.refresh)
        self.resize(720, 480)
        self.refresh()

    def refresh(self) -> None:
        access = self.heatmap.access
        self.model.set_matrix(access.data, access.row_labels, access.col_labels, access.words())
        title = access.title()
        self.setWindowTitle(self.tr("{title} — as a table").format(title=title))
        self.caption.setText(
            self.tr(
                "The numbers of the map “{title}”: one row per row of the map, one column per "
                "column; Tab moves into the table, the arrow keys from cell to cell."
            ).format(title=title)
        )
        self.table.setAccessibleName(self.tr("Numbers of the map"))
        self.table.setAccessibleDescription(title)


def target_map(window):
    """The map with the keyboard focus, else the central view's large map, else the first map on screen."""
    from explorer.ui.views.map.heatmap import Heatmap

    w = QApplication.focusWidget()
    while w is not None and not isinstance(w, Heatmap):
        w = w.parentWidget()
    if w is not None:
        return w
    central = window.centralWidget()
    large = getattr(central, "large", None)
    if isinstance(large, Heatmap):
        return large
    shown = [m for m in window.findChildren(Heatmap) if m.isVisible()]
    return shown[0] if shown else None


def show_table(window) -> MapTable | None:
    heatmap = target_map(window)
    if heatmap is None:
        return None
    table = MapTable(heatmap, window)
    table.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    table.show()
    table.table.setFocus()
    return table
