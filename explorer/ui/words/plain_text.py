"""Words that come from outside the app (a lesson, a typed text, a file name, a model's tokens) are shown as
plain text everywhere in the window: never HTML, never a resource load.

Qt decides by itself whether a label's or a tooltip's text is HTML (``Qt::mightBeRichText``): a lesson caption
``<img src="/dev/zero">`` grew the process to 12 GB, a FIFO named there hung it, ``<b>`` rendered and a 760 kB
``<table>`` took 6.9 GB. So:

- **Labels.** ``PlainTextStyle`` (the application's style, installed by explorer.ui.preferences.theme) makes every
QLabel
  whose format is left automatic plain text as the label is polished, before it is first shown: a label
  meant to hold HTML says so (``setTextFormat(Qt.RichText)``) and is given only the app's own words, with
  anything else escaped (flow_view, generation_details). ``plain_label`` makes one plain from the start.
- **Tooltips.** ``plain_tip`` escapes a tooltip that Qt would read as HTML; every tooltip built from such
  words goes through it.
- **Menus.** ``menu_text``: one line, ``&`` doubled (not a mnemonic), cut to a readable length.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QProxyStyle, QWidget

from explorer.util.printable import escaped

MENU_CHARS = 80  # characters of a path or title in a menu entry


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def plain_tip(text: str) -> str:
    """``text`` as a tooltip that shows it letter for letter: HTML-looking text is escaped (and wrapped, so
    that Qt takes the escapes as HTML and shows the characters), anything else is left as it is."""
    if not text or not GuiQt.mightBeRichText(text):
        return text
    return "<p style='white-space:pre-wrap'>" + html.escape(text, quote=False) + "</p>"


def menu_text(text: str) -> str:
    """A file name or title as a menu entry: one line, no mnemonic, at most MENU_CHARS characters."""
    one = escaped(text)
    if len(one) > MENU_CHARS:
        one = "…" + one[-(MENU_CHARS - 1) :]  # a path's end names the file
    return one.replace("&", "&&")


class PlainTextStyle(QProxyStyle):
    """Fusion (or any base style), and every automatic-format QLabel plain text when it is polished."""

    def polish(self, target):  # noqa: D401 - Qt's overloads: QWidget, QApplication, QPalette
        if isinstance(target, QLabel) and target.textFormat() == Qt.TextFormat.AutoText:
            target.setTextFormat(Qt.TextFormat.PlainText)
        return super().polish(target)
