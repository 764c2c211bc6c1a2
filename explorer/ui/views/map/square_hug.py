"""A square map's axes next to its cells (issue 38).

pyqtgraph lays a plot out to fill its widget, and a square map (its aspect locked) then sits in the middle of
a wider or taller view box with the axes at the box's edges: 290 px between the row labels and the first
cell at 1280×720, 470–530 px in Focus and on slides. A reader following a row across that gap loses it.
Here the plot is given exactly the square its cells take: the room left over goes to the layout's margins,
half on each side, so the axes, their labels and the colour bar stay against the cells at any size.

The margins are set before the layout pass that needs them (when the widget is resized, when an axis
reserves other room, when the colour bar's numbers widen it), so a new map is still laid out and painted
once (issue 28).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt


class SquareHug(QObject):
    """Keeps the view box of a square map square, by moving the spare width or height into the margins of
    the ``GraphicsLayout`` that holds the plot."""

    def __init__(self, graphics, plot) -> None:
        super().__init__(graphics)
        self.graphics, self.plot = graphics, plot
        self.layout = graphics.ci  # the GraphicsLayout that holds the plot
        self.view_box = plot.getViewBox()
        self.base = tuple(self.layout.layout.getContentsMargins())  # pyqtgraph's own margins, kept around ours
        self.spare = (0, 0)  # the width and height now given to the margins
        self.square = False
        graphics.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        # a hidden widget (or one being destroyed) is fitted when shown: Qt sends the resize it missed then
        if watched is self.graphics and event.type() == QEvent.Type.Resize and self.graphics.isVisible():
            frame = 2 * self.graphics.frameWidth()  # the viewport is resized after this event: not measured from it
            self.fit(event.size() - QSize(frame, frame))  # before pyqtgraph lays the plot out for the new size
        return False

    def set_square(self, square: bool) -> None:
        if square != self.square:
            self.square = square
            self.fit()

    def natural(self, outer=None) -> tuple[float, float]:
        """The view box's size with no room given away: the layout's ``outer`` size (default: its present one)
        less its margins and the least room the plot's other parts ask for (axes, colour bar). Read from what
        the parts ask for, never from the view box's last size: a rule fed by the box it sizes moved the
        margins back and forth."""
        outer = outer if outer is not None else self.layout.geometry().size()
        least = Qt.SizeHint.MinimumSize
        plot, box = self.plot.layout.effectiveSizeHint(least), self.view_box.effectiveSizeHint(least)
        ml, mt, mr, mb = self.base
        return (
            outer.width() - ml - mr - (plot.width() - box.width()),
            outer.height() - mt - mb - (plot.height() - box.height()),
        )

    def fit(self, outer=None) -> None:
        """The spare room for the layout's ``outer`` size (default: its present one)."""
        if self.square:
            width, height = self.natural(outer)
            side = max(0.0, min(width, height))
            spare = (max(0, int(width - side)), max(0, int(height - side)))
        else:
            spare = (0, 0)
        if spare == self.spare:
            return
        self.spare = spare
        left, top, right, bottom = self.base
        across, down = spare
        self.layout.setContentsMargins(
            left + across // 2, top + down // 2, right + across - across // 2, bottom + down - down // 2
        )

    def axis_reserved(self) -> None:
        """An axis took other room: the margins follow in the same layout pass."""
        self.fit()
