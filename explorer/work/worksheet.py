"""A worksheet's trace as work off the GUI thread: the current text on the note's toy model (seed-toy), which
the window then writes as a worksheet and its key (explorer/ui/printing/worksheet_export.py)."""

from __future__ import annotations

import threading

from explorer.trace import Trace
from explorer.work.report import Report, Work


def worksheet_work(text: str, seed: int | None) -> Work:
    """The trace explorer.handouts.worksheet.worksheet_trace makes of ``text`` (``seed``: seed-toy's own when None)."""

    def work(_report: Report, _cancel: threading.Event) -> Trace:
        from explorer.handouts.worksheet import worksheet_trace

        return worksheet_trace(text, seed)

    return work
