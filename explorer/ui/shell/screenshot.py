"""``gui --screenshot``: wait until the window shows a trace (or a generation is done), until two pictures of
it in a row agree (its views drawn, its layout settled), save the last as PNG, and quit.

The wait was a fixed 400 ms after the first trace: too long on a quiet machine (the panels behind the strip
began to be built meanwhile, for a picture that does not show them) and no promise on a busy one.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from explorer.errors import ExplorerError
from explorer.ui.background.render_queue import render_queue
from explorer.ui.printing.qt_output import save_image
from explorer.util.printable import one_line, shown

# How long the window may take to come to rest after its first trace; one that never rests (an animation)
# is taken as it is then.
SETTLE_S = 3.0
LOOK_EVERY_MS = 20


class Screenshot:
    def __init__(self, app: QApplication, window, path: Path, size: tuple[int, int] | None) -> None:
        self.app, self.window, self.path, self.size = app, window, path, size
        self.code = 1
        self._image = None
        self._deadline = 0.0

    def start(self) -> None:
        """Begin looking (a second trace or a second ``ready`` while looking: the looking sees it)."""
        if not self._deadline:
            self._deadline = time.monotonic() + SETTLE_S
            self._look()

    def _look(self) -> None:
        target, picture = self._picture_now()
        image = picture.toImage()
        if image != self._image and time.monotonic() < self._deadline:
            self._image = image
            QTimer.singleShot(LOOK_EVERY_MS, self._look)
        else:
            self._save(target, picture)

    def _picture_now(self):
        from explorer.ui.views.base import View

        # A panel raised before the window was shown can report an empty visible region offscreen and keep its
        # redraw back: every visible view draws the current trace before the picture is taken.
        for view in self.window.findChildren(View):
            view.flush_deferred()
        render_queue().flush()  # every view drawn, a long input's too
        self.app.processEvents()
        # The map's room is checked a moment after the first trace (MainWindow.keep_map_first); done now, the first
        # picture is the settled one and the second agrees with it (a third look, 0.1 s, waited for it before).
        settle = getattr(self.window, "settle_now", None)
        if settle is not None and settle():
            self.app.processEvents()
        target = self.app.activeWindow() if self.app.activeWindow() is not None else self.window
        return target, target.grab()

    def _save(self, target, picture) -> None:
        if self.size is not None and target is self.window and (picture.width(), picture.height()) != self.size:
            # A display that scales (device pixel ratio 2) grabs twice the pixels: the PNG is the size asked for.
            picture = picture.scaled(
                *self.size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        try:
            # The one safe writer (explorer.ui.printing.qt_output): beside the target, synced, renamed; a link is
            # replaced, not written through; a name that is not UTF-8 is written as named; on failure (a full disk) the
            # old picture stays whole and nothing says "wrote".
            save_image(picture, self.path)
        except ExplorerError as exc:
            print(f"error: {one_line(str(exc))}", file=sys.stderr)
            self.code = exc.exit_code
        else:
            print(f"wrote {shown(str(self.path))}")
            self.code = 0
        close_then_quit(self.app, self.window)

    def give_up(self, message: str, code: int = 2) -> None:  # 2: the user's to fix, as the command's other errors
        print(f"error: {one_line(message)}", file=sys.stderr)
        self.code = code
        close_then_quit(self.app, self.window)


def screenshot_when_ready(
    app: QApplication, window, state, path: Path, already_shown: bool, size: tuple[int, int] | None = None, ready=None
) -> int:
    """Run the event loop until the picture is written (or the wait failed); the exit code."""
    shot = Screenshot(app, window, path, size)
    if ready is not None:
        ready.connect(lambda *_a: QTimer.singleShot(0, shot.start))
        state.errorRaised.connect(shot.give_up)
    elif already_shown:
        QTimer.singleShot(0, shot.start)
    else:
        state.traceChanged.connect(lambda _t: QTimer.singleShot(0, shot.start))
        state.errorRaised.connect(shot.give_up)
    QTimer.singleShot(timeout_ms(), lambda: shot.give_up("timed out waiting for the first trace", 1))
    app.exec()
    return shot.code


def timeout_ms(default: int = 120_000) -> int:
    """ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS (the command checked it); anything unusable is the default."""
    raw = os.environ.get("ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS", "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) <= 9 else default


def close_then_quit(app: QApplication, window) -> None:
    """Close the window while the event loop still runs, as a user's close does: its jobs (a generation, a
    sweep) stop and their threads' last signals are delivered. Closed after the loop had ended, a window that
    had generated crashed in Qt's teardown one run in three (exit 139, after the picture was written)."""
    window.close()
    QTimer.singleShot(0, app.quit)
