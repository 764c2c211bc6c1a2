"""The default layout for the window's size, and opening or closing a panel from its strip.

The map is what the class looks at (issue 22): at 1280×720, 1366×768, 1400×900 and 1920×1080 the central
map's cells take at least 45 % of the window's height. So the window starts with the pipeline (compact,
without a title bar), the Text and Model panels on the left, the map in the middle, and everything else
closed to its strip: the bottom panels always, the right-hand panels below ``RIGHT_OPEN_FROM`` pixels of
width. Each closed panel is one click away on its strip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QWidget

from explorer.ui.shell.panel_strip import PanelStrip

Left, Right, Bottom = (
    Qt.DockWidgetArea.LeftDockWidgetArea,
    Qt.DockWidgetArea.RightDockWidgetArea,
    Qt.DockWidgetArea.BottomDockWidgetArea,
)
RIGHT_OPEN_FROM = 1600  # narrower windows start with the right-hand panels on their strip
BOTTOM_SHARE = 0.36  # an opened bottom panel takes this share of the window's height
DESIGN_WIDTH = 1400  # the side panels' widths in the registry are for this width
_STRIP_AREAS = {
    Left: Qt.ToolBarArea.LeftToolBarArea,
    Right: Qt.ToolBarArea.RightToolBarArea,
    Bottom: None,
}  # bottom: status bar
_NAMES = {Left: "left", Right: "right", Bottom: "bottom"}


def build_strips(window, specs) -> dict[str, PanelStrip]:
    """One strip per side that has panels, each button opening (or closing) its panel."""
    strips = {}
    for area, tool_area in _STRIP_AREAS.items():
        docks = [window.docks[s.object_name] for s in specs if s.area == area]
        if docks:
            strips[_NAMES[area]] = PanelStrip(window, _NAMES[area], tool_area, docks, window.open_panel)
    return strips


def default_open(window, specs) -> set[str]:
    """The panels open in the default layout at the window's present size."""
    wide = window.width() >= RIGHT_OPEN_FROM
    shown = set()
    for s in specs:
        if s.area is None or s.tabify_with is not None:
            continue
        if s.area == Bottom or (s.area == Right and not wide):
            continue
        shown.add(s.object_name)
    return shown


def apply_default_layout(window, specs, keep=()) -> None:
    """Which panels are open, and how large, for the window as it is now; ``keep``: panels asked for."""
    shown = default_open(window, specs) | set(keep)
    for s in specs:
        if s.area is not None:
            window.docks[s.object_name].setVisible(s.object_name in shown)
    for s in specs:  # the first panel of each tab group in front, then those asked for
        if s.object_name in shown and s.tabify_with is None:
            window.docks[s.object_name].raise_()
    for name in keep:
        window.docks[name].raise_()
    size_open_panels(window, specs)


def size_open_panels(window, specs) -> None:
    """Side columns at their registry width scaled to the window (never wider than designed), the pipeline
    at the height its boxes need, an open bottom panel at ``BOTTOM_SHARE`` of the height."""
    sx = min(1.0, window.width() / DESIGN_WIDTH)
    for s in specs:
        dock = window.docks.get(s.object_name)
        if dock is None or dock.isHidden() or s.area is None:
            continue
        if s.area in (Left, Right) and s.size:
            window.resizeDocks([dock], [round(s.size * sx)], Qt.Orientation.Horizontal)
        if s.area in (Left, Right) and s.height:
            window.resizeDocks([dock], [s.height], Qt.Orientation.Vertical)
        elif s.area == Bottom and s.size:
            window.resizeDocks([dock], [bottom_height(window)], Qt.Orientation.Vertical)
        elif s.area == Qt.DockWidgetArea.TopDockWidgetArea:
            widget = dock.widget()
            window.resizeDocks(
                [dock], [widget.sizeHint().height() if widget else s.size or 100], Qt.Orientation.Vertical
            )


def bottom_height(window) -> int:
    return max(120, round(window.height() * BOTTOM_SHARE))


def in_front(dock) -> bool:
    """Open and not hidden behind another tab of its group."""
    widget: QWidget | None = dock.widget()
    return not dock.isHidden() and widget is not None and widget.isVisible() and not widget.visibleRegion().isEmpty()


def open_panel(window, key: str, toggle: bool = False) -> None:
    """Bring panel ``key`` to the front, opening it at a useful size if it was closed; with ``toggle``, a
    panel already in front is closed instead (its strip button is a switch)."""
    dock = window.docks[key]
    if toggle and in_front(dock):
        dock.hide()
        return
    was_closed = dock.isHidden()
    area = window.dockWidgetArea(dock)
    column_closed = was_closed and not any(
        in_front(d) for d in window.docks.values() if d is not dock and window.dockWidgetArea(d) == area
    )
    dock.show()
    dock.raise_()
    window.views.get(key)  # a panel behind a tab is built when first shown
    if column_closed:  # the side (or the bottom) had no open panel: give it a useful size
        QTimer.singleShot(0, lambda: _size_opened(window, dock, area))


def _size_opened(window, dock, area) -> None:
    if area == Bottom:
        window.resizeDocks([dock], [bottom_height(window)], Qt.Orientation.Vertical)
    elif area in (Left, Right):
        specs = {s.object_name: s for s in window.specs}
        spec = specs.get(dock.objectName().removeprefix("dock."))
        if spec is not None and spec.tabify_with:  # a tab's width is its group's
            spec = specs.get(spec.tabify_with)
        width = spec.size if spec is not None and spec.size else 320
        window.resizeDocks([dock], [round(width * min(1.0, window.width() / DESIGN_WIDTH))], Qt.Orientation.Horizontal)
