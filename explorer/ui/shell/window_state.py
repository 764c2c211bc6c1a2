"""The window's saved geometry and panel layout: written on close, read back at the next start, whatever
screen the window then meets and whatever the settings file holds.

Prepared at a 1920×1080 desk and taught on a 1280×720 projector, the next start crashed (issue 22): every
value read here is checked, one that cannot be used is dropped with a note (on stderr and in the status
bar), and the window is then fitted to the screen it is on (window_fit). A layout saved by another version
of the window (other panels, other strips) is refused by its version number, not half applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray

from explorer.ui.preferences import settings

# saveState's version: 2 is the map-first window of issue 22 (strips, no pipeline title bar, tool bar in the
# menu bar). A layout of another version is not restored: the default layout for the screen is used.
LAYOUT_VERSION = 2
GEOMETRY_KEY, LAYOUT_KEY = "window/geometry", "window/state"
MAX_BYTES = 64 * 1024  # a real layout is a few kB; anything larger is not one


@dataclass
class Restored:
    geometry: bool = False  # a saved geometry was applied (it still has to fit the screen)
    layout: bool = False  # the saved panel layout was applied
    notes: list[str] = field(default_factory=list)  # in English (stderr); the status bar translates them


def _saved(key: str) -> tuple[QByteArray | None, bool]:
    """(the saved bytes, whether something unusable was there)."""
    try:
        value = settings.get(key)
    except Exception:  # noqa: BLE001 - a settings file damaged in any way is "nothing usable saved"
        return None, True
    if value is None:
        return None, False
    if isinstance(value, QByteArray) and 0 < value.size() <= MAX_BYTES:
        return value, False
    return None, True


def restore(window) -> Restored:
    """Apply the saved geometry and panel layout to ``window`` where they can be used; note the rest."""
    done = Restored()
    geometry, bad = _saved(GEOMETRY_KEY)
    if geometry is not None and window.restoreGeometry(geometry):
        done.geometry = True
    elif bad or geometry is not None:
        done.notes.append(
            QT_TRANSLATE_NOOP(
                "WindowState", "the saved window position could not be used; the window fits the screen instead"
            )
        )
    layout, bad = _saved(LAYOUT_KEY)
    if layout is not None and window.restoreState(layout, LAYOUT_VERSION):
        done.layout = True
    elif bad or layout is not None:
        done.notes.append(
            QT_TRANSLATE_NOOP(
                "WindowState", "the saved panel layout is from another version or damaged; the default layout is used"
            )
        )
    return done


def save(window) -> None:
    settings.put(GEOMETRY_KEY, window.saveGeometry())
    settings.put(LAYOUT_KEY, window.saveState(LAYOUT_VERSION))
