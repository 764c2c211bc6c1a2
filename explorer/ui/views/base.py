"""What every view shares: it is built from the AppState, re-reads its texts on a language change, and
redraws from ``state.trace`` and ``state.selection``. Views never call each other."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QDockWidget, QWidget

from explorer.ui.background.render_queue import is_long, render_queue
from explorer.ui.bridge.state import AppState


class View(QWidget):
    """Subclasses implement ``retranslate()`` (set every user-facing text via ``self.tr``) and connect to
    the state's signals in ``__init__``. ``export_widget()`` is what File → Export view saves."""

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._deferred: dict = {}

    def when_shown(self, slot):
        """Wrap a redraw slot: it runs at once while the view is on screen; while its dock is closed or
        tabbed away (in a shown window) only the latest call is kept and runs when the view appears.
        A hidden panel then costs nothing per edit, which keeps typing-to-repaint fast."""

        def wrapped(*args):
            if not self.window().isVisible() or self.on_screen():
                self.staggered(slot)(*args)
            else:
                self._deferred[slot] = args
                self._watch_dock()

        return wrapped

    def staggered(self, slot):
        """Wrap a redraw slot: for a long input it runs in a later turn of the event loop, one view per turn
        (see render_queue), so the window never freezes for every view's drawing at once."""

        def wrapped(*args):
            if is_long(self.state.trace) and self.window().isVisible():
                render_queue().post(self, slot, lambda: slot(*args))
            else:
                render_queue().cancel(self, slot)  # a short trace overtook a pending long one
                slot(*args)

        return wrapped

    def on_screen(self) -> bool:
        # A dock in a tab that is not current still reports isVisible(); its visible region is empty.
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def _watch_dock(self) -> None:
        if getattr(self, "_dock_watched", False):
            return
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QDockWidget):
            parent = parent.parentWidget()
        if parent is not None:
            parent.visibilityChanged.connect(lambda visible: visible and self._run_deferred())
            self._dock_watched = True

    def flush_deferred(self) -> None:
        """Run the redraws kept back while the view seemed off screen (a screenshot grabs what is visible)."""
        if self.isVisible():
            self._run_deferred()

    def _run_deferred(self) -> None:
        pending, self._deferred = self._deferred, {}
        for slot, args in pending.items():
            slot(*args)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._run_deferred()

    def retranslate(self) -> None:
        """Set every user-facing string again (called on a language switch)."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def export_widget(self) -> QWidget:
        return self


def scrolling_body(view: QWidget) -> QWidget:
    """A body for ``view`` inside a scroll area: the panel can be made shorter than its content (a laptop
    screen, a tab group that shares its height) without raising the window's minimum height."""
    from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout

    body = QWidget()
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(body)
    outer = QVBoxLayout(view)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)
    return body
