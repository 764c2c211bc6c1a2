"""The map first in every state (issue 38): whatever layout was restored, whatever the text size and the
screen, the central map keeps at least ``MAP_FLOOR`` of the window's height, and the panels that leave it
less give way, smaller first and, when even their smallest is too large, back to their strip.

Prepared at 1920×1080 (125 % text, Next token and Generate open) and reopened at 1280×720, the restored
panels kept their pixel sizes and the map was 30×30 px; at 200 % text the pipeline grew and kept its height
back at 100 % (a 240 px empty band). The saved layout is therefore checked against the window it meets, on
the first show, after every text-size change and when the window changes size: the pipeline takes the
height its boxes need for the window's width, then the bottom panels (they take the map's height) and the
side panels (its width) shrink or close until the map has its room. The left column (the text and the model)
only shrinks: it is what the class's sentence is typed into.

At 200 % text on a laptop no panel is left to give way and the map still kept 25–35 % of the height: the
lines around it then give their room one after the other (``make_line_room``) and take it back when the map
keeps its floor with them. The check runs again when a new map's labels take other room, and in Focus, where
what the normal view gave stays given (Focus is never the smaller map).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

MAP_FLOOR = 0.42  # the map's cells at least this share of the window's height (issue 38 asks 40 %)
SMALLEST_PANEL = 110  # a panel given less than this (px, across its edge) is closed to its strip instead
_OVERHEAD = (110, 70)  # axes, colour bar and margins around the cells, before the map was ever laid out

Left, Right, Bottom = (
    Qt.DockWidgetArea.LeftDockWidgetArea,
    Qt.DockWidgetArea.RightDockWidgetArea,
    Qt.DockWidgetArea.BottomDockWidgetArea,
)
VERTICAL, HORIZONTAL = Qt.Orientation.Vertical, Qt.Orientation.Horizontal


def settle_layout(window) -> None:
    """The window's layouts applied now (they are otherwise applied a turn of the event loop later)."""
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    window.layout().activate()
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def pipeline_height(window) -> int:
    """The height the pipeline's boxes and caption need at the window's width (its size hint is for a
    narrower width: its wrapped caption asked for a 75 px empty band at 1280×720)."""
    dock = window.docks["flow"]
    widget = dock.widget()
    layout = widget.layout() if widget is not None else None
    width = dock.width() or window.width()
    if layout is not None and layout.hasHeightForWidth():
        return layout.totalHeightForWidth(width)
    return widget.sizeHint().height() if widget is not None else dock.height()


def fit_pipeline(window) -> None:
    dock = window.docks.get("flow")
    if dock is None or dock.isHidden() or dock.isFloating():
        return
    height = pipeline_height(window)
    if height > 0 and abs(dock.height() - height) > 1:
        window.resizeDocks([dock], [height], VERTICAL)


def map_room(window) -> tuple[float, float] | None:
    """The width and height the central map's cells could take now, or None when no map is shown."""
    large = window.views["tensor"].large
    if not large.isVisible():
        return None
    graphics, vb = large.graphics, large.plot.getViewBox()
    if vb.width() > 1 and vb.height() > 1:  # what the axes, the colour bar and the margins took last time
        across = graphics.width() - vb.width() - large.hug.spare[0]
        down = graphics.height() - vb.height() - large.hug.spare[1]
    else:
        across, down = _OVERHEAD
    return graphics.width() - across, graphics.height() - down


def _open_in(window, area) -> list:
    return [
        d for d in window.docks.values() if not d.isHidden() and not d.isFloating() and window.dockWidgetArea(d) == area
    ]


def make_room(window, keep=frozenset()) -> None:
    """The pipeline at its height, then the panels that take the map's room smaller or closed, until the
    map's cells can take ``MAP_FLOOR`` of the window's height (or nothing more can give way). Panels named in
    ``keep`` (just opened by the user) are made smaller, never closed."""
    if not window.isVisible():
        return
    fit_pipeline(window)
    settle_layout(window)
    if window.focus_mode.active:  # no panel is open to give way: only the lines around the map, and what the
        make_line_room(window, take_back=False)  # normal view gave stays given (Focus is never the smaller)
        return
    need = MAP_FLOOR * window.height()
    for area in (Bottom, Right, Left):  # the bottom panels take the map's height, the side columns its width
        for closing in (False, True):  # smaller first; closed when even that leaves the map short
            docks, room = _open_in(window, area), map_room(window)
            if not docks or room is None:
                break
            across, down = room
            short = need - (down if area == Bottom else across)
            if short <= 0 or (area != Bottom and across >= down):  # a side column only where the width limits
                break
            front = next((d for d in docks if d.widget() is not None and d.widget().isVisible()), docks[0])
            size = front.height() if area == Bottom else front.width()
            if closing:
                if area == Left or any(d.objectName().removeprefix("dock.") in keep for d in docks):
                    break  # the text being read stays open (narrower); a panel just asked for too
                for dock in docks:  # back to its strip, one click away
                    dock.hide()
            elif size - short >= SMALLEST_PANEL:
                window.resizeDocks([front], [round(size - short)], VERTICAL if area == Bottom else HORIZONTAL)
            settle_layout(window)
    make_line_room(window)


def _line_givers(window) -> list:
    """What gives its lines to the map when no panel is left to give way, in the order it gives them: the
    view's title and shape line (Focus repeats the pipeline's line there), the map's title, then the
    pipeline's stage line and caption (one line each, cut, the whole in their tooltips), then the hover line
    under the map (one line, then none). Each is ``(give, given)``."""
    large, tensor = window.views["tensor"].large, window.views["tensor"]
    flow = window.views.get("flow") if "flow" in window.docks else None
    givers = [
        (lambda on: tensor.show_caption(not on), lambda: not tensor.caption_wanted),  # Focus's repeat of the line
        (lambda on: large.show_title(not on), lambda: not large.title_wanted),
    ]
    if flow is not None:
        pipeline = (flow.detail, flow.caption)
        givers.append((lambda on: _fold(pipeline, on), lambda: flow.caption.folded))
    givers.append((lambda on: _fold((tensor.explanation,), on), lambda: tensor.explanation.folded))
    # and then the hover line's one line: what it says is the hover's tooltip too
    givers.append((lambda on: tensor.show_hover_line(not on), lambda: not tensor.hover_line_wanted))
    return givers


def _fold(labels, on: bool) -> None:
    for label in labels:
        label.set_folded(on)


def make_line_room(window, take_back: bool = True) -> None:
    """When no panel is left to give way and the map is still short (200 % text on a laptop), the lines
    around it give way one after the other (``_line_givers``); they come back, the last given first, as soon
    as the map keeps its floor with them."""
    if map_room(window) is None:
        return
    givers = _line_givers(window)
    if not _enough(window):
        for give, given in givers:
            if not given():
                give(True)
                _settle_lines(window)
                if _enough(window):
                    break
        return
    for give, given in reversed(givers if take_back else ()):
        if given():
            give(False)
            _settle_lines(window)
            if not _enough(window):  # it needed that room after all
                give(True)
                _settle_lines(window)
                return


def _enough(window) -> bool:
    room = map_room(window)
    # the height is what lines above and below the map give; a map short of width gains nothing from them
    return room is None or room[1] >= MAP_FLOOR * window.height() or room[1] > room[0]


def _settle_lines(window) -> None:
    settle_layout(window)
    fit_pipeline(window)  # the pipeline's height follows its lines
    settle_layout(window)
