"""View → Text size: every text of the window and of its figures larger or smaller (Ctrl+= / Ctrl+−, Ctrl+0
back to 100 %), remembered in the settings.

The application font is scaled; widgets that inherit it follow by themselves. Widgets that set a font size
of their own (titles, captions, the figures' labels) are scaled by the same ratio here, and each figure
with a ``text_size_changed(old_px, new_px, scale)`` method (the heatmaps: tick and axis labels, colour bar,
cell numbers) sets its text from the new size. Presentation mode keeps its own sizes, which start from the
application font too, so it grows with the choice.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontInfo
from PySide6.QtWidgets import QApplication

from explorer import vocab
from explorer.ui.preferences import settings

SETTING = "text_scale"
STEPS = vocab.TEXT_SCALES  # Ctrl+= / Ctrl+− walk them (explorer/session/rules_preferences.py next_text_scale)
DEFAULT = vocab.DEFAULT_TEXT_SCALE
_SIZE_RESOLVED = 0x2  # QFont.ResolveProperties.SizeResolved: the widget chose its own size

_base: QFont | None = None  # the application font at 100 %
_scale = DEFAULT


def scale() -> float:
    return _scale


def base_px() -> int:
    return QFontInfo(QApplication.font()).pixelSize() or 12


def restore(value: float | None = None) -> float:
    """At start: the size asked for (``gui --text-size``), else the remembered one, else 100 %."""
    if value is None:
        try:
            value = float(settings.get(SETTING, DEFAULT))
        except (TypeError, ValueError):  # an old or damaged setting
            value = DEFAULT
    return apply(value, remember=False)


def apply(value: float, remember: bool = True) -> float:
    """Scale every text to ``value`` × its size at 100 % (clamped to the steps' range)."""
    global _base, _scale
    app = QApplication.instance()
    value = min(max(float(value), STEPS[0]), STEPS[-1])
    if _base is None:
        _base = QFont(app.font())
    if remember:
        settings.put(SETTING, value)
    if abs(value - _scale) < 1e-9 and app.font().pointSizeF() == _point_size(value):
        return _scale
    ratio, old_px = value / _scale, base_px()
    _scale = value
    font = QFont(_base)
    if _base.pointSizeF() > 0:
        font.setPointSizeF(_point_size(value))
    else:
        font.setPixelSize(max(1, round(_base.pixelSize() * value)))
    app.setFont(font)
    new_px = base_px()
    with _no_collection():
        _walk(QApplication.allWidgets(), lambda w: _own_size(w, ratio))
        _walk(QApplication.allWidgets(), lambda w: _figure_texts(w, old_px, new_px, value))
    return _scale


def _own_size(widget, ratio: float) -> bool:
    if widget.testAttribute(Qt.WidgetAttribute.WA_SetFont) and widget.font().resolveMask() & _SIZE_RESOLVED:
        widget.setFont(_scaled(widget.font(), ratio))
        return True
    return False


def _figure_texts(widget, old_px: int, new_px: int, value: float) -> bool:
    changed = getattr(widget, "text_size_changed", None)
    if callable(changed):
        changed(old_px, new_px, value)
        return True
    return False


def _walk(widgets: list, act: Callable[[object], bool]) -> None:
    """``act`` on each of ``widgets`` that still exists when its turn comes (``act`` returns True when it
    changed something). Setting one widget's font, or a figure's text sizes, can delete another (a panel
    that rebuilds its children); touching a deleted widget through the list taken before crashed the
    process (once, under load, in the suite). The widgets that exist are listed again after each change."""
    alive: set[int] | None = None  # C++ addresses of the widgets that exist, since the last change
    changed = False
    for widget in widgets:
        if changed:
            alive = {shiboken6.getCppPointer(w)[0] for w in QApplication.allWidgets()}
            changed = False
        if alive is not None:
            try:
                if not shiboken6.isValid(widget) or shiboken6.getCppPointer(widget)[0] not in alive:
                    continue
            except RuntimeError:  # shiboken knows it was deleted
                continue
        changed = act(widget)


@contextmanager
def _no_collection() -> Iterator[None]:
    """No garbage collection meanwhile: collecting a cycle that holds a panel would delete its widgets while
    they are being walked."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _point_size(value: float) -> float:
    return (_base.pointSizeF() if _base is not None else 9.0) * value


def _scaled(font: QFont, ratio: float) -> QFont:
    out = QFont(font)
    if font.pixelSize() > 0:
        out.setPixelSize(max(1, round(font.pixelSize() * ratio)))
    else:
        out.setPointSizeF(max(1.0, font.pointSizeF() * ratio))
    return out
