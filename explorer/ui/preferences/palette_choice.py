"""View → Colours: the palette every map, colour bar and bar chart draws with (explorer/present/palettes.py
holds the palettes and the one choice), remembered in the settings. A change recolours every open figure at
once: each widget that draws with the palette has a ``palette_changed()`` method, called here.

Bar charts and outlines take their colours from the functions below, read when they paint, never stored."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from explorer.present import palettes
from explorer.ui.preferences import settings

SETTING = "palette"


def labels() -> dict[str, str]:
    """Each palette's name in the menu, translated."""
    return {
        "standard": QCoreApplication.translate("Palettes", "Standard (viridis, blue–white–red)"),
        "cividis": QCoreApplication.translate("Palettes", "Colour-blind safe (cividis, blue–white–yellow)"),
        "high-contrast": QCoreApplication.translate("Palettes", "High contrast (inferno, dark blue–white–dark red)"),
        "greyscale": QCoreApplication.translate("Palettes", "Greyscale (for printing)"),
    }


def restore(key: str | None = None) -> str:
    """At start: the palette named (``gui --palette``), else the remembered one, else the default."""
    return palettes.set_current(key or str(settings.get(SETTING, palettes.DEFAULT))).key


def apply(key: str, remember: bool = True) -> str:
    """Make ``key`` the palette of every figure, now and at the next start."""
    key = palettes.set_current(key).key
    if remember:
        settings.put(SETTING, key)
    recolour_open_figures()
    return key


def recolour_open_figures() -> None:
    for widget in QApplication.allWidgets():
        changed = getattr(widget, "palette_changed", None)
        if callable(changed):
            changed()


def colour(rgb) -> QColor:
    return QColor(*rgb)


def bar_colour() -> QColor:
    return colour(palettes.current().bar)


def signed_colours() -> tuple[QColor, QColor]:
    """(positive, negative) bars of signed quantities."""
    p = palettes.current()
    return colour(p.positive), colour(p.negative)


def accent_colour() -> QColor:
    return colour(palettes.current().accent)
