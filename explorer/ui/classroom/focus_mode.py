"""Focus (F11, and its button beside the menus): only the pipeline, the map and its caption.

For the moment in a lesson when every eye should be on one map: the panels, their strips, the stage and head
controls, the grid of heads and the hover line step aside, and the map takes the whole window. The same key
(or button) brings back exactly what was there before. It is not a saved layout: a window closed in Focus
saves the layout it had around it. Whether Focus is on is the Session's (``SessionState.focus``); what it hid
is this window's.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class FocusMode(QObject):
    toggled = Signal(bool)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self._hidden: list = []  # what Focus hid, to show again (and only that)

    @property
    def active(self) -> bool:
        return self.w.state.focus

    def set_active(self, on: bool) -> None:
        if on == self.active:
            return
        self.w.state.set_focus(on)
        if on:
            self._enter()
        else:
            self._leave()
        check = getattr(self.w, "keep_map_first", None)
        if check is not None:  # the lines around the map give their room or take it back (map_room.py); the
            # panels Focus brings back come back as they were, none closed
            check([name for name, dock in self.w.docks.items() if not dock.isHidden()])
        self.toggled.emit(on)

    def toggle(self) -> None:
        self.set_active(not self.active)

    def _enter(self) -> None:
        w = self.w
        parts = [d for name, d in w.docks.items() if name != "flow"] + list(w.strips.values())
        lessons = getattr(w, "lessons", None)
        if lessons is not None:
            parts.append(lessons.toolbar)
        self._hidden = [p for p in parts if not p.isHidden()]
        for p in self._hidden:
            p.hide()
        w.docks["flow"].show()
        w.views["tensor"].set_focused(True)

    def _leave(self) -> None:
        self.w.views["tensor"].set_focused(False)
        for p in self._hidden:
            p.show()
        self._hidden = []
