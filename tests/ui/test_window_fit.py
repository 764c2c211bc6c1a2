"""The window fits the screen it opens on (issue 11, item 8): a first launch takes at most 90 % of the free
area, a remembered geometry from a larger or another screen is pulled back onto this one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect

from explorer.ui.shell.window_fit import clamped, first_size, fit_to_screen

SCREENS = {  # free area (a taskbar takes some) of the screens the app is used on
    "laptop-1280x720": QRect(0, 0, 1280, 690),
    "laptop-1366x768": QRect(0, 0, 1366, 738),
    "desktop-1920x1080": QRect(0, 0, 1920, 1040),
    "second-screen": QRect(1920, 0, 1366, 768),
}


@pytest.mark.parametrize("name", SCREENS)
def test_a_first_launch_takes_at_most_90_percent(name):
    area = SCREENS[name]
    w, h = first_size(area)
    assert w <= 0.9 * area.width() and h <= 0.9 * area.height()
    assert (w, h) == (min(1400, int(0.9 * area.width())), min(900, int(0.9 * area.height())))


def test_a_large_screen_keeps_the_designed_size():
    assert first_size(QRect(0, 0, 2560, 1400)) == (1400, 900)


@pytest.mark.parametrize("name", SCREENS)
@pytest.mark.parametrize(
    "remembered", [QRect(0, 0, 1400, 900), QRect(3000, 2000, 1400, 900), QRect(-500, -300, 2560, 1440)]
)
def test_a_remembered_geometry_is_pulled_onto_the_screen(name, remembered):
    area = SCREENS[name]
    got = clamped(remembered, area)
    assert area.contains(got)
    assert got.width() == min(remembered.width(), area.width()) and got.height() == min(
        remembered.height(), area.height()
    )


def test_a_window_that_fits_is_left_where_it_was():
    area = SCREENS["desktop-1920x1080"]
    assert clamped(QRect(100, 50, 1400, 900), area) == QRect(100, 50, 1400, 900)


def test_the_real_window_is_placed_on_the_screen(qtbot):
    """With a screen larger than the panels' minimum (the offscreen screen is too small for them)."""
    from PySide6.QtWidgets import QMainWindow, QWidget

    w = QMainWindow()
    w.setCentralWidget(QWidget())
    qtbot.addWidget(w)
    area = QRect(0, 0, 1920, 1040)
    assert fit_to_screen(w, restored=False, available=area)
    assert (w.width(), w.height()) == (1400, 900) and area.contains(w.geometry())
    w.setGeometry(5000, 4000, 3000, 2000)  # remembered from a larger second screen
    fit_to_screen(w, restored=True, available=area)
    assert area.contains(w.geometry())
    assert not fit_to_screen(w, restored=False, size=(2500, 1000), available=area)  # --size larger than the screen
    assert w.width() == 1920 and area.contains(w.geometry())


@pytest.mark.parametrize(
    "name, maximised", [("laptop-1280x720", True), ("laptop-1366x768", True), ("desktop-1920x1080", False)]
)
def test_a_first_launch_on_a_small_screen_is_maximised(qtbot, name, maximised):
    """Issue 38: at 90 % of a 1280×720 screen the map had 39 % of it; a small screen's every pixel is the map's."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMainWindow, QWidget

    w = QMainWindow()
    w.setCentralWidget(QWidget())
    qtbot.addWidget(w)
    fit_to_screen(w, restored=False, available=SCREENS[name])
    assert bool(w.windowState() & Qt.WindowState.WindowMaximized) is maximised
