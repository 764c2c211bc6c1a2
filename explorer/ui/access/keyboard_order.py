"""The window for the keyboard alone: Tab visits the pipeline at the top, then the map in the centre (what a
class looks at: after the left column's two dozen controls, 30 presses never reached it, issue 38), then the
other panels in the order they stand on screen (the left column top to bottom, the panels under the map, the
right column, the status bar), each panel's controls in their own order, and no control keeps Tab to itself.

Qt's Tab order is the order widgets were made in: the map came after the bottom panels and the right
column after the output table, and a table took every Tab for its own cells (2,048 stops in the Next token
table). ``arrange`` fixes both for whatever the window holds now; ``explorer/ui/access/accessible.py`` calls it when
panels are built and when the window is shown. tests/ui/test_keyboard.py walks the chain.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QHeaderView,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QScrollArea,
    QScrollBar,
    QStatusBar,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

TOP, CENTRE, LEFT, BOTTOM, RIGHT, STATUS = range(6)  # the order Tab visits them
ROW = 20  # px: controls whose middles are this close stand in one row, read left to right


def takes_tab(w: QWidget) -> bool:
    return bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


def chain(window: QWidget) -> list[QWidget]:
    """The window's focus chain as Qt has it, from the window round to the window."""
    out, w = [], window.nextInFocusChain()
    while w is not None and w is not window and len(out) < 20_000:
        out.append(w)
        w = w.nextInFocusChain()
    return out


_AREAS = {
    Qt.DockWidgetArea.TopDockWidgetArea: TOP,
    Qt.DockWidgetArea.LeftDockWidgetArea: LEFT,
    Qt.DockWidgetArea.BottomDockWidgetArea: BOTTOM,
    Qt.DockWidgetArea.RightDockWidgetArea: RIGHT,
}
AFTER_PANELS = 10_000  # a dock area's tab bar comes after the panels it switches between


def _region_of_point(at: QPoint, c) -> int:
    if at.y() < c.top():
        return TOP
    if at.x() < c.left():
        return LEFT
    if at.x() > c.right():
        return RIGHT
    if at.y() > c.bottom():
        return BOTTOM
    return CENTRE


def _rank(w: QWidget, window: QMainWindow, docks: list[QDockWidget]) -> tuple:
    """(region, panel, row, x): the region of the screen, the panel's place in it (the window's dock order:
    docks behind tabs report stale geometry), then reading order inside the panel."""
    centre = window.centralWidget()
    here = w.mapTo(window, QPoint(0, w.height() // 2)) if w.isVisible() else QPoint(0, 0)
    reading = (here.y() // ROW, here.x())
    parent = w
    while parent is not None and parent is not window:
        if isinstance(parent, QStatusBar):
            return (STATUS, 0, *reading)
        if isinstance(parent, QDockWidget) and parent in docks:
            area = window.dockWidgetArea(parent)
            if parent.isFloating() or area not in _AREAS:
                return (STATUS, docks.index(parent), *reading)
            return (_AREAS[area], docks.index(parent), *reading)
        if parent is centre:
            return (CENTRE, 0, *reading)
        parent = parent.parentWidget()
    c = centre.geometry() if centre is not None else window.rect()
    return (_region_of_point(w.mapTo(window, w.rect().center()), c), AFTER_PANELS, *reading)


def is_internal(w: QWidget) -> bool:
    """Parts of a composite control (a spin box's field, a combo box's list, scroll bars, headers)."""
    if isinstance(w, QTabWidget):
        return True  # its tab bar is the control (Tab stops there, the tabs are named)
    if isinstance(w, (QScrollBar, QHeaderView)) or (w.objectName().startswith("qt_") and not isinstance(w, QTabBar)):
        return True
    if isinstance(w.parentWidget(), QTabBar):  # a tab bar's scroll arrows
        return True
    if isinstance(w.parentWidget(), QAbstractScrollArea) and w.parentWidget().viewport() is w:
        return True  # a view's drawing surface: the view is the control
    parent = w.parentWidget()
    while parent is not None:
        if isinstance(parent, (QAbstractSpinBox, QComboBox)) or type(parent).__name__ == "QComboBoxPrivateContainer":
            return True
        parent = parent.parentWidget()
    return False


def arrange(window: QMainWindow) -> list[QWidget]:
    """Order the window's Tab chain by where things stand; returns the widgets Tab visits, in order."""
    for view in window.findChildren(QAbstractItemView):
        view.setTabKeyNavigation(False)  # arrows move between cells; Tab leaves the table
    for bar in window.findChildren(QTabBar):
        if not any(bar.tabText(i) for i in range(bar.count())):
            bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a dock area's leftover bar: no tab to choose
    for area in window.findChildren(QScrollArea):
        inner = area.widget()
        if inner is not None and any(takes_tab(c) for c in inner.findChildren(QWidget)):
            area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # its controls take focus, and scroll it into view
    # A roving group (the pipeline's boxes) is one stop: only its current member takes Tab, but all of them
    # are ordered, so that whichever becomes current stands in the group's place.
    taking = [w for w in chain(window) if (takes_tab(w) or w.property("rovingTab")) and w.window() is window]
    stops = [w for w in taking if not is_internal(w)]
    # The window's own order of its panels (the registry's); findChildren's changes with every raise_().
    registry = getattr(window, "docks", None)
    docks = list(registry.values()) if isinstance(registry, dict) else window.findChildren(QDockWidget)
    ranked = sorted(enumerate(stops), key=lambda item: (*_rank(item[1], window, docks), item[0]))
    ordered = [w for _, w in ranked]
    full = _with_parts(ordered, [w for w in taking if is_internal(w)])
    for a, b in zip(full, full[1:]):
        QWidget.setTabOrder(a, b)
    return [w for w in ordered if takes_tab(w)]


def _with_parts(ordered: list[QWidget], parts: list[QWidget]) -> list[QWidget]:
    """``ordered`` with each part of a control beside it: a spin box's field after the spin box, a tab widget
    before its tab bar. Left where Qt put them, they made Tab jump back (a tab widget led into its tabs again)."""
    full = list(ordered)
    for part in parts:
        parent = part.parentWidget()
        while parent is not None and parent not in ordered:
            parent = parent.parentWidget()
        if parent is not None:
            full.insert(full.index(parent) + 1, part)
            continue
        inside = next((w for w in full if part.isAncestorOf(w)), None)
        if inside is not None:
            full.insert(full.index(inside), part)
    return full


# Fields whose own frame turns the highlight colour when focused (Fusion); every other control that takes
# focus gets the ring below (Fusion marks a focused button, box or tab only faintly, or not at all, and a
# map, a plot, the pipeline's boxes or the chips not at all).
_STYLED = (QAbstractSpinBox, QLineEdit, QTextEdit, QPlainTextEdit)


class FocusRing(QWidget):
    """A dashed ring in the highlight colour around the control that has the keyboard focus, drawn on top
    of what is around it: focus is always visible, on a map or a plot as on a button. The ring lies just
    outside the control (drawn inside it, its white band covered the edge of a pipeline box's text)."""

    MARGIN = 3  # pixels between the control's edge and the ring's outer edge

    def __init__(self) -> None:
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setObjectName("focusRing")
        self.target: QWidget | None = None
        self.hide()

    def follow(self, target: QWidget | None) -> None:
        if self.target is not None and shiboken6.isValid(self.target):
            self.target.removeEventFilter(self)
            self.target.destroyed.disconnect(self._orphan)
        self.target = target if target is not None and not isinstance(target, _STYLED) else None
        if self.target is None:
            self.hide()
            return
        # Beside the control, on its parent (a window has none: the ring is then drawn inside it).
        self.setParent(self.target.parentWidget() or self.target)
        self.target.installEventFilter(self)
        self.target.destroyed.connect(self._orphan)
        self._place()
        self.show()
        self.raise_()

    def _place(self) -> None:
        t, m = self.target, self.MARGIN
        if self.parentWidget() is t:
            self.setGeometry(t.rect())
        else:  # where the control fills its parent, that side of the ring falls on the control's edge
            self.setGeometry(t.geometry().adjusted(-m, -m, m, m).intersected(self.parentWidget().rect()))
        self.setVisible(t.isVisible())

    def _orphan(self, *_args) -> None:
        """The control is being deleted: the ring leaves it first (or it would be deleted with it)."""
        self.target = None
        self.hide()
        self.setParent(None)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.target and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Move,
            QEvent.Type.Show,
            QEvent.Type.Hide,
        ):
            self._place()
            self.raise_()
        return False

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        colour = self.palette().color(QPalette.ColorRole.Highlight)
        inner = self.parentWidget() is self.target  # a window: the ring inside its edge
        edge = self.rect().adjusted(2, 2, -3, -3) if inner else self.rect().adjusted(1, 1, -2, -2)
        for pen in (QPen(QColor(255, 255, 255), 3), QPen(colour, 2, Qt.PenStyle.DashLine)):
            p.setPen(pen)
            p.drawRect(edge)
        p.end()


class FocusHelper(QObject):
    """Follows the window's keyboard focus: brings a panel behind another's tab to the front when Tab enters
    it (the focused control is always on screen), and puts the ring on the focused control."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.ring = FocusRing()
        QApplication.instance().focusChanged.connect(self.changed)  # disconnected when the window goes

    def changed(self, _old, new) -> None:
        if not shiboken6.isValid(self.ring):  # deleted with a control it sat on (a panel rebuilt)
            self.ring = FocusRing()
        if new is None or new.window() is not self.window or new is self.ring:
            self.ring.follow(None)
            return
        if new.visibleRegion().isEmpty():
            parent = new.parentWidget()
            while parent is not None and not isinstance(parent, QDockWidget):
                parent = parent.parentWidget()
            if parent is not None:
                parent.raise_()
        self.ring.follow(new)
