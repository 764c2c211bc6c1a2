"""What one step of a generation looks like: the text so far (the new token marked), the cost line, the
attention map so far (optional: presentation mode has it in its central view), the K and V cache of the
selected head's key/value head, and the chosen token with its alternatives.

The Generate panel and presentation mode both show one of these; ``set_text_px`` makes every text in it
(tables, headers, lists, the cost line, the map's labels) at least that many pixels high, which is how
presentation mode reaches 20 px on a 1080-line projector.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication, QHeaderView, QLabel, QSplitter, QTableWidget, QVBoxLayout, QWidget

from explorer.analysis.token_text import visible
from explorer.generation import frames
from explorer.ui.views.generation import generation_tables as tables
from explorer.ui.views.generation.generation_cost import cost_lines
from explorer.ui.views.generation.generation_map import GenerationMap, selected_head


class GenerationDetails(QWidget):
    def __init__(self, with_map: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_label = QLabel()  # the prompt and the tokens so far, the newest one marked
        self.text_label.setWordWrap(True)
        self.text_label.setTextFormat(Qt.TextFormat.RichText)
        self.cost_label = QLabel()
        self.cost_label.setWordWrap(True)
        self.cost_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.map = GenerationMap() if with_map else None
        self.k_title, self.v_title, self.top_title = QLabel(), QLabel(), QLabel()
        for title in (self.k_title, self.v_title, self.top_title):
            title.setWordWrap(True)
        self.k_table, self.v_table, self.top_table = tables.make_table(), tables.make_table(), tables.make_table()
        self.top_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )  # two short columns
        self.split = QSplitter(Qt.Orientation.Horizontal)
        if self.map is not None:
            self.split.addWidget(self.map)
        self.split.addWidget(self._box(self.k_title, self.k_table, self.v_title, self.v_table))
        self.split.addWidget(self._box(self.top_title, self.top_table))
        for i, stretch in enumerate((5, 4, 1) if self.map is not None else (4, 1)):
            self.split.setStretchFactor(i, stretch)  # the map is the largest figure
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.text_label)
        lay.addWidget(self.cost_label)
        lay.addWidget(self.split, 1)
        self.retranslate()

    @staticmethod
    def _box(*widgets) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            lay.addWidget(w, 1 if isinstance(w, QTableWidget) else 0)
        return box

    def retranslate(self) -> None:
        self.top_title.setText(self.tr("Chosen token and alternatives"))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:  # presentation mode's copy has no panel to tell it
            self.retranslate()
        super().changeEvent(event)

    def set_text_px(self, px: int) -> None:
        """Every text here ``px`` pixels high or more (presentation mode)."""
        font = QFont(QApplication.font())
        font.setPixelSize(px)
        self.setFont(font)
        for table in (self.k_table, self.v_table, self.top_table):
            for header in (table.horizontalHeader(), table.verticalHeader()):
                header.setFont(font)
            tables.fit_columns(table)
        if self.map is not None:
            self.map.set_text_px(px, (px, round(px * 1.6)), px)

    def clear(self) -> None:
        self.text_label.setText(
            self.tr("Press Generate (or Step, or Play) to continue the first sentence of the text.")
        )
        self.cost_label.clear()

    def show_step(self, generation, selection, t: int) -> None:
        """Draw step ``t`` (0-based) for the selection's layer and head."""
        layer, head, kv_head = selected_head(generation, selection)
        self._show_text(generation, t)
        if self.map is not None:
            self.map.show_step(generation, layer, head, t)
        labels = [visible(s) for s in frames.labels(generation, t)]
        for which, title, table in (("k", self.k_title, self.k_table), ("v", self.v_title, self.v_table)):
            rows = frames.cache_table(generation, layer, kv_head, t, which)
            if rows is None:
                title.setText(self.tr("No cache: every step recomputed the keys and values of the whole text"))
                tables.empty(table)
                continue
            what = self.tr("K cache") if which == "k" else self.tr("V cache")
            title.setText(
                self.tr("{what}, layer {l}, key/value head {g}: {n} rows × {d} (new rows highlighted)").format(
                    what=what, l=layer, g=kv_head, n=rows.shape[0], d=rows.shape[1]
                )
            )
            tables.fill_cache(table, rows, labels, frames.new_rows(generation, t))
        tables.fill_top(self.top_table, generation.steps[t], [self.tr("token"), self.tr("probability")])
        self.cost_label.setText("\n".join(cost_lines(generation, t)))

    def _show_text(self, g, t: int) -> None:
        sep = " " if g.trace.tokenizer_kind == "word" else ""
        done = sep.join(escape(visible(s.token)) for s in g.steps[:t])
        new = escape(visible(g.steps[t].token))
        colour = self.palette().color(QPalette.ColorRole.Highlight).name()
        self.text_label.setText(
            f"{escape(g.prompt)}{sep}<span style='color:gray'>{done}</span>{sep}<b style='color:{colour}'>{new}</b>"
        )
