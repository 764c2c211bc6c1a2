"""The window's one error policy for work off the GUI thread: what a job (and the trace queue) says when the
work raised. Every ending is one line; a thread never dies silently."""

from __future__ import annotations

import traceback

from PySide6.QtCore import QCoreApplication

from explorer.errors import Cancelled, ExplorerError


def failure(exc: BaseException, memory_hint: str = "text") -> str | None:
    """The one line a failed job shows, or None for a cancellation. An ExplorerError says what to do; out of
    memory says what to make smaller; anything else is a bug, or a library's Rust panic (PanicException is a
    BaseException): one line here, the details on stderr."""
    if isinstance(exc, Cancelled):
        return None
    if isinstance(exc, ExplorerError):
        return str(exc)
    if isinstance(exc, MemoryError):
        if memory_hint == "batch":
            return QCoreApplication.translate("Jobs", "out of memory: make the model or the batch smaller")
        return QCoreApplication.translate("Jobs", "out of memory: make the model or the text smaller")
    traceback.print_exception(exc)
    return QCoreApplication.translate("Jobs", "internal error ({kind}: {message}); please report it").format(
        kind=type(exc).__name__, message=exc
    )
