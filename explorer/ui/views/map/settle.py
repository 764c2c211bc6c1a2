"""A pyqtgraph view's new content laid out and placed before Qt paints it, so that it is painted once.

pyqtgraph defers two things to later turns of the event loop: the QGraphicsLayouts lay out their items when
their posted LayoutRequest arrives, and each ViewBox fits its view to its range in ``prepareForPaint``, at
the start of the next paint. Each moves items after the window has painted them: the scene marks them
dirty again and repaints the window. Measured on a 1024-token trace: the big map painted three times and
the head grid twice, 6–8 ms of repaints after the first. Settled when the content is set, the first paint
is the last.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsWidget


def settle(view: pg.GraphicsView) -> None:
    """Lay out ``view``'s items and fit its ViewBoxes now (cheap when nothing is pending)."""
    top = view.centralWidget
    if isinstance(top, QGraphicsWidget):
        _lay_out(top)
    view.scene().prepareForPaint()  # every ViewBox: auto-range and view transform, as a paint would


def _lay_out(widget: QGraphicsWidget) -> None:
    """Top-down: a parent's layout sizes its children before their own layouts place what is inside them."""
    layout = QGraphicsWidget.layout(widget)  # pyqtgraph's items hide the method under an attribute
    if layout is not None:
        layout.activate()
    for child in widget.childItems():
        if isinstance(child, QGraphicsWidget):
            _lay_out(child)
