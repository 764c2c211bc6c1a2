"""The window on the screen it opens on: a first launch fits in 90 % of the available area, a remembered
geometry is pulled back onto the current screen, a size asked for on the command line is kept within it.

The window opened at 1400×900 whatever the screen and overflowed a 1366×768 laptop (issue 11). On a small
screen (a laptop or projector of at most 1366×768) every pixel is the map's: the window opens maximised there,
at 90 % the map had only 39 % of a 1280×720 screen (issue 38).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

DEFAULT_SIZE = (1400, 900)  # what the panels were laid out for; smaller screens get less
SCREEN_SHARE = 0.9  # a first launch leaves a margin around the window (panels, taskbar, a second look)
SMALL_SCREEN = (1366, 768)  # a screen at most this large: the window opens maximised


def small_screen(available: QRect) -> bool:
    """A laptop or projector screen (its free area; a taskbar takes some of it)."""
    return available.width() <= SMALL_SCREEN[0] and available.height() <= SMALL_SCREEN[1]


def first_size(available: QRect) -> tuple[int, int]:
    """The size of a first launch on a screen whose free area is ``available``."""
    return (
        min(DEFAULT_SIZE[0], int(available.width() * SCREEN_SHARE)),
        min(DEFAULT_SIZE[1], int(available.height() * SCREEN_SHARE)),
    )


def clamped(rect: QRect, available: QRect) -> QRect:
    """``rect`` no larger than ``available`` and moved inside it (a window remembered from a larger or a
    second screen, or a --size larger than this one)."""
    w, h = min(rect.width(), available.width()), min(rect.height(), available.height())
    x = min(max(rect.x(), available.x()), available.x() + available.width() - w)
    y = min(max(rect.y(), available.y()), available.y() + available.height() - h)
    return QRect(x, y, w, h)


def available_area(window: QWidget) -> QRect:
    screen = QGuiApplication.screenAt(window.geometry().center()) or window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(
    window: QWidget, restored: bool, size: tuple[int, int] | None = None, available: QRect | None = None
) -> bool:
    """Size and place ``window`` for the screen (``available``: its free area; default: the screen the
    window is on). Returns False when ``size`` had to be made smaller to fit."""
    area = available if available is not None else available_area(window)
    if size is not None:
        want = QRect(window.x(), window.y(), *size)
    elif restored:
        want = window.geometry()
    else:
        w, h = first_size(area)
        want = QRect(area.x() + (area.width() - w) // 2, area.y() + (area.height() - h) // 2, w, h)
    fitted = clamped(want, area)
    window.resize(fitted.size())
    window.move(fitted.topLeft())
    if size is None and small_screen(area) and (not restored or fitted.size() != want.size()):
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    return fitted.size() == want.size()
