"""Every stage's figure written to a folder, as work off the GUI thread (File → Export all stages).

The painting itself needs Qt (explorer/ui/printing/figure_export.py); the window hands that writer in, so this
module stays plain Python and the loop (order, progress, cancel between figures) is the same for any writer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from explorer.session.request import Selection
from explorer.work.report import Report, Work

# write(file name, selection) -> the path written
FigureWriter = Callable[[str, Selection], Path]


def stage_figures_work(files: Sequence[tuple[str, Selection]], write: FigureWriter) -> Work:
    """Write ``files`` in their order; a cancel stops between two figures and keeps those already written."""

    def work(report: Report, cancel: threading.Event) -> list[Path]:
        written: list[Path] = []
        for done, (name, selection) in enumerate(files, start=1):
            if cancel.is_set():
                break
            written.append(write(name, selection))
            report.progress(done, len(files), name)
        return written

    return work
