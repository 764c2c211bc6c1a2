"""Names and descriptions a screen reader can say, for every control of the window, set in one place.

Qt names a button by its text and a field by the label whose buddy it is; most of the window's spin boxes,
fields, plots and tables had neither (one widget of hundreds had a name). ``name_controls`` walks a window
and, for each control Qt cannot name:

1. makes the label just before it (same form row, grid row or box) its buddy: Qt then names the control by
   the label, in the interface language, and Alt+the label's underlined letter focuses it;
2. else names it from the table ``NAMES`` (a view's attribute → a translated name), else from the first
   phrase of its tooltip.

A control without a tooltip gets a description saying which panel it is in. Names and descriptions taken
from texts are made again after a language change (``install`` watches the window). The map's cell is named
by ``explorer/ui/views/map/map_access.py``; tests/ui/test_accessible.py and tests/e2e/test_atspi.py check the result.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QGraphicsView,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLayout,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QWidget,
)

from explorer.ui.access import keyboard_order
from explorer.ui.access.keyboard_order import is_internal  # noqa: F401 - also this module's word for it

CONTROLS = (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QAbstractSlider,
    QLineEdit,
    QTextEdit,
    QPlainTextEdit,
    QAbstractItemView,
    QGraphicsView,
    QTabBar,
)
AUTO = "a11y_auto"  # a name or description this module made (made again after a language change)


def _names() -> dict[tuple[str, str], str]:
    """(class of the widget's owner, the owner's attribute) → name, for controls with no label or tooltip."""
    return {
        ("LossCurve", "plot"): QCoreApplication.translate("Accessible", "Training loss curve"),
        ("AttributionTab", "plot_widget"): QCoreApplication.translate("Accessible", "Attribution bars"),
        ("LensTab", "plot_widget"): QCoreApplication.translate("Accessible", "Logit lens bars"),
        ("LensTab", "grid"): QCoreApplication.translate("Accessible", "Logit lens table"),
        ("TensorListView", "tree"): QCoreApplication.translate("Accessible", "Every tensor of the trace"),
        ("CompareTab", "list"): QCoreApplication.translate("Accessible", "Tokens that changed most"),
        ("CompareTab", "table"): QCoreApplication.translate("Accessible", "Before and after"),
        ("GenerationDetails", "k_table"): QCoreApplication.translate("Accessible", "Cached keys"),
        ("GenerationDetails", "v_table"): QCoreApplication.translate("Accessible", "Cached values"),
        ("GenerationDetails", "top_table"): QCoreApplication.translate("Accessible", "Next-token choices"),
        ("QMainWindow", "tab bar"): QCoreApplication.translate("Accessible", "Panels in this place"),
        ("TokenEditor", ""): QCoreApplication.translate("Accessible", "Edit the token"),
        ("ChipCanvas", ""): QCoreApplication.translate(
            "Accessible", "The tokens of the text: arrow keys choose one, Delete removes it"
        ),
    }


def controls(root: QWidget) -> list[QWidget]:
    """Every control under ``root``: the kinds above, and any other widget Tab stops at (a map, the chips)."""
    return [
        w
        for w in root.findChildren(QWidget)
        if (isinstance(w, CONTROLS) or w.focusPolicy() & Qt.FocusPolicy.TabFocus) and not is_internal(w)
    ]


def spoken(w: QWidget, which=QAccessible.Text.Name) -> str:
    iface = QAccessible.queryAccessibleInterface(w)
    return (iface.text(which) if iface is not None else "").strip()


def _layout_of(w: QWidget) -> QLayout | None:
    def search(layout: QLayout | None) -> QLayout | None:
        if layout is None:
            return None
        if layout.indexOf(w) >= 0:
            return layout
        for k in range(layout.count()):
            found = search(layout.itemAt(k).layout())
            if found is not None:
                return found
        return None

    parent = w.parentWidget()
    return search(parent.layout()) if parent is not None else None


def label_before(w: QWidget) -> QLabel | None:
    """The label written just before ``w``: its form row's label, the cell to its left, or the box item before."""
    layout = _layout_of(w)
    label = None
    if isinstance(layout, QFormLayout):
        label = layout.labelForField(w)
    elif isinstance(layout, QGridLayout):
        row, col, _rs, _cs = layout.getItemPosition(layout.indexOf(w))
        item = layout.itemAtPosition(row, col - 1) if col > 0 else None
        label = item.widget() if item is not None else None
    elif layout is not None:
        k = layout.indexOf(w)
        item = layout.itemAt(k - 1) if k > 0 else None
        label = item.widget() if item is not None else None
    if isinstance(label, QLabel) and label.text().strip() and label.buddy() is None and not label.pixmap():
        return label
    return None


def _owner_key(w: QWidget) -> tuple[str, str]:
    parent = w.parentWidget()
    while parent is not None:
        for attr, value in vars(parent).items():
            if value is w:
                return type(parent).__name__, attr
        parent = parent.parentWidget()
    return type(w).__name__, ""


def _phrase(text: str) -> str:
    """The first phrase of a tooltip: up to the first colon, dash, bracket or full stop."""
    plain = re.sub(r"<br\s*/?>|</?p>", "\n", text)
    plain = re.sub(r"<[^>]+>", "", plain).strip()
    first = re.split(r"[:;(.—–。：（\n]| - ", plain, maxsplit=1)[0].strip()
    return first or plain


def _panel(w: QWidget) -> str:
    parent = w.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent.windowTitle() if parent is not None else ""


def _guessed(w: QWidget, name: str, buddied: set) -> bool:
    """Whether Qt's name is a guess, not a name: a combo box's current item (on Linux a combo box is named
    by its value, its label by a relation), or the title of the group box the control sits in (every spin
    box of "Sizes" was called "Sizes")."""
    if w.accessibleName() or w in buddied:
        return False
    if isinstance(w, QComboBox):
        return True
    parent = w.parentWidget()
    return isinstance(parent, QGroupBox) and name == parent.title().replace("&", "")


def name_control(w: QWidget, names: dict, buddied: set) -> None:
    auto = w.property(AUTO) or ()
    if "name" in auto:
        w.setAccessibleName("")
    if "description" in auto:
        w.setAccessibleDescription("")
    made = []
    if not isinstance(w, (QAbstractButton, QTabBar)) and not w.accessibleName() and w not in buddied:
        label = label_before(w)
        if label is not None:
            label.setBuddy(w)
            buddied.add(w)
    name = spoken(w)
    if not name or _guessed(w, name, buddied):
        key = _owner_key(w) if not isinstance(w, QTabBar) else ("QMainWindow", "tab bar")
        text = names.get(key) or names.get((type(w).__name__, ""))
        text = text or _phrase(w.toolTip()) or getattr(w, "placeholderText", lambda: "")() or _panel(w)
        if text:
            w.setAccessibleName(text)
            made.append("name")
    if not spoken(w, QAccessible.Text.Description):
        panel = _panel(w)
        if panel:
            w.setAccessibleDescription(
                QCoreApplication.translate("Accessible", "In the {panel} panel").format(panel=panel)
            )
        else:
            w.setAccessibleDescription(QCoreApplication.translate("Accessible", "In the central view"))
        made.append("description")
    w.setProperty(AUTO, made)


def name_controls(root: QWidget) -> int:
    """Name and describe every control under ``root`` that Qt cannot name; returns how many were looked at."""
    names = _names()
    buddied = {label.buddy() for label in root.findChildren(QLabel) if label.buddy() is not None}
    found = controls(root)
    for w in found:
        name_control(w, names, buddied)
    _name_overflow_buttons(root)
    return len(found)


def _name_overflow_buttons(root: QWidget) -> None:
    """The » buttons a toolbar or the menu bar shows when it is too narrow (Qt names them nothing)."""
    for button in root.findChildren(QToolButton):
        kind = button.objectName()
        if kind in ("qt_toolbar_ext_button", "qt_menubar_ext_button"):
            if kind == "qt_toolbar_ext_button":
                button.setAccessibleName(QCoreApplication.translate("Accessible", "More tools"))
            else:
                button.setAccessibleName(QCoreApplication.translate("Accessible", "More menus"))
            button.setAccessibleDescription(
                QCoreApplication.translate("Accessible", "The entries that do not fit the window's width")
            )


NAMING_DELAY_MS = 40


class _Watcher(QObject):
    """Names the window's controls again when a panel is built late or the language changes."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self._timer = QTimer(self)  # a child: gone with the window
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(lambda: self._run())  # looked up when it fires (tests replace it)
        window.installEventFilter(self)
        for dock in window.findChildren(QDockWidget):
            dock.installEventFilter(self)

    def schedule(self, delay_ms: int = 0) -> None:
        """The pass at the next turn of the event loop, or after ``delay_ms`` (whichever asked is sooner)."""
        if not self._timer.isActive() or self._timer.remainingTime() > delay_ms:
            self._timer.start(delay_ms)

    def _run(self) -> None:
        self._timer.stop()
        name_controls(self.window)
        if isinstance(self.window, QMainWindow):
            keyboard_order.arrange(self.window)
        for tabs in self.window.findChildren(QTabWidget):  # a page shown by its tab joins the Tab order
            if not tabs.property("access_watched"):
                tabs.setProperty("access_watched", True)
                tabs.currentChanged.connect(lambda _i: self.schedule())

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ChildAdded and not isinstance(event.child(), QWidget):
            return False  # the style's animations are added as children on every busy change: no new control
        if kind == QEvent.Type.Show:  # a panel opening: apart from its layout and first paint, not in the same
            self.schedule(
                NAMING_DELAY_MS
            )  # turn of the event loop (together: the Model view's opening stall, 45–49 ms)
        elif kind in (QEvent.Type.LanguageChange, QEvent.Type.ChildAdded):
            self.schedule()
        return False


def install(window: QWidget) -> None:
    """Name the window's controls now, and again when panels are built later or the language changes."""
    name_controls(window)
    if isinstance(window, QMainWindow):
        keyboard_order.arrange(window)
        window.focus_helper = keyboard_order.FocusHelper(window)
    window.accessible_watcher = _Watcher(window)
