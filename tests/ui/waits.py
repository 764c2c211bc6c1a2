"""Waiting for the window without fixed sleeps: deliver what is already queued, or wait until a condition
holds. A fixed qtbot.wait(N) is either too short on a busy machine or wasted time on a quiet one."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QWidget


def drain() -> None:
    """Deliver every event already posted (layout requests, deferred deletes, zero-time timers) and run every
    view's queued redraw, until nothing more is queued."""
    from explorer.ui.background.render_queue import render_queue

    for _ in range(5):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
        if render_queue().pending():
            render_queue().flush()
    QApplication.sendPostedEvents()
    QApplication.processEvents()


def _geometry(widgets: list[QWidget]) -> list:
    seen = []
    for top in widgets:
        for w in (top, *top.findChildren(QWidget)):
            seen.append((id(w), w.isVisible(), w.geometry().getRect()))
    return seen


def wait_laid_out(qtbot, widgets: list[QWidget] | None = None, timeout: int = 10_000) -> None:
    """Wait until the widgets (every top-level one when None) stop changing place, size or visibility: two
    looks in a row, with the queued events delivered between them, see the same geometry."""
    last: list = [None]

    def still() -> bool:
        drain()
        now = _geometry(
            widgets if widgets is not None else [w for w in QApplication.topLevelWidgets() if w.isVisible()]
        )
        same, last[0] = now == last[0], now
        return same

    qtbot.waitUntil(still, timeout=timeout)
