"""Qt for drawing without a window: the commands that write figures, lesson pages and worksheets need fonts
and a painter, never a screen. No widget is built, so no window manager is asked anything (showing
windows offscreen is what printed "This plugin does not support propagateSizeHints()")."""

from __future__ import annotations

import atexit
import gc
import os

from PySide6.QtCore import QCoreApplication


def drawing_application(language: str = "en") -> QCoreApplication:
    """The running application, or a new QGuiApplication on the offscreen platform; ``language`` installed."""
    from PySide6.QtGui import QGuiApplication

    app = QCoreApplication.instance()
    if app is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a figure needs no screen, and none may be there
        app = QGuiApplication(["attention-explorer"])
        # Qt objects an interrupted export left in a traceback's cycles go now, while the application still
        # exists: collected at the interpreter's very end, after it, a font or painter crashed (SIGSEGV).
        atexit.register(gc.collect)
    from explorer.ui.preferences import i18n

    i18n.install_language(language)
    return app
