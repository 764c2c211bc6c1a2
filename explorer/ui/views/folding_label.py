"""A wrapping label that can fold to one line (issue 38): at 200 % text on a laptop the pipeline's stage line
took three lines, its caption two and the hover line under the map two, and the map kept 31 % of the window's
height. Folded, the label keeps to one line, its end cut with "…", and the whole text is its tooltip; the map
takes the lines back (explorer/ui/shell/map_room.py folds labels only while the map is short of its floor).

A rich text keeps its markup folded: ``set_rich`` names the part that may be cut (the pipeline's formula),
and the longest beginning of it that fits is shown with the rest of the text around it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel

from explorer.ui.words.plain_text import plain_tip

ELLIPSIS = "…"


class FoldingLabel(QLabel):
    """A word-wrapping ``QLabel`` that ``set_folded(True)`` keeps to one line (the whole text in the tooltip)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.folded = False
        self._full = ""
        self._build: Callable[[str], str] | None = None  # a rich text made from its part that may be cut
        self._part = ""
        self._tip = ""  # the tooltip the label has unfolded (its own, if any)
        self._shown_for = -1  # the width the folded text was cut for
        self._unfolded_least = 0  # the least height the owner asked for, given back when unfolded

    # ------------------------------------------------------------------ what the owner sets
    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full, self._build = text, None
        self._show()

    def set_rich(self, build: Callable[[str], str], part: str) -> None:
        """A rich text ``build(part)`` whose ``part`` (plain text, escaped by ``build``) may be cut when folded."""
        self._build, self._part = build, part
        self._full = build(part)
        self._show()

    def text(self) -> str:  # the whole text the owner set; QLabel.text(label) is what is shown
        return self._full

    def full_text(self) -> str:
        return self._full

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name
        self._tip = tip
        super().setToolTip(tip if not self.folded else self._folded_tip())

    def setMinimumHeight(self, height: int) -> None:  # noqa: N802 - Qt's name
        self._unfolded_least = height
        super().setMinimumHeight(height if not self.folded else 0)

    def set_folded(self, folded: bool) -> None:
        if folded == self.folded:
            return
        self.folded = folded
        self.setWordWrap(not folded)
        super().setMinimumHeight(0 if folded else self._unfolded_least)
        self._shown_for = -1
        self._show()
        self.updateGeometry()

    # ------------------------------------------------------------------ showing
    def _show(self) -> None:
        if not self.folded:
            super().setText(self._full)
            super().setToolTip(self._tip)
            return
        width = self.contentsRect().width()
        self._shown_for = width
        super().setText(self._fitted(width))
        super().setToolTip(self._folded_tip())

    def _folded_tip(self) -> str:
        """The whole text where the label shows only its beginning (nothing when it is shown whole)."""
        if not self._full or super().text() == self._full:
            return self._tip
        return self._full.replace("\n", "<br>") if self._rich() else plain_tip(self._full)

    def _rich(self) -> bool:
        return self._build is not None or self.textFormat() == Qt.TextFormat.RichText

    def _fitted(self, width: int) -> str:
        """The text on one line of ``width`` pixels: whole if it fits, else its longest beginning and "…"."""
        if self._build is None:
            one_line = " · ".join(line for line in self._full.split("\n") if line.strip())
            return self.fontMetrics().elidedText(one_line, Qt.TextElideMode.ElideRight, max(1, width))
        if self._rich_width(self._full) <= width:
            return self._full
        lo, hi = 0, len(self._part)  # the longest beginning of the part that fits: a binary search
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._rich_width(self._build(self._part[:mid].rstrip() + ELLIPSIS)) <= width:
                lo = mid
            else:
                hi = mid - 1
        return self._build(self._part[:lo].rstrip() + ELLIPSIS)

    def _rich_width(self, html: str) -> float:
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(html)
        return doc.idealWidth()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.folded and self.contentsRect().width() != self._shown_for:
            self._show()  # cut again for the new width

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if self.folded and event.type() == event.Type.FontChange:
            self._shown_for = -1
            self._show()

    # ------------------------------------------------------------------ size
    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        return QSize(0, hint.height()) if self.folded else hint  # a folded line never widens its window

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        return QSize(min(hint.width(), 200), hint.height()) if self.folded else hint
