"""Every stage's figure written to a folder, all of them or none, as work off the GUI thread (File → Export all stages).

The painting itself needs Qt (explorer/ui/printing/figure_export.py); the window hands that writer in, so this
module stays plain Python and the loop (order, progress, cancel between figures) is the same for any writer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from explorer.errors import Cancelled, ExplorerError
from explorer.session.request import Selection
from explorer.util.atomic_many import atomic_files_in
from explorer.work.report import Report, Work

# write(file name, selection, folder to write it in) -> the path written
FigureWriter = Callable[[str, Selection, Path], Path]


def stage_figures_work(files: Sequence[tuple[str, Selection]], write: FigureWriter, folder: Path) -> Work:
    """Write ``files`` into ``folder`` in their order, all replaced together when the last is written
    (explorer/util/atomic_many.py): a failure or a cancel between two figures replaces none of them, and a
    folder or a device in the place of one refuses them all before any is painted."""

    def work(report: Report, cancel: threading.Event) -> list[Path]:
        with atomic_files_in(folder, [name for name, _ in files], ExplorerError) as staging:
            for done, (name, selection) in enumerate(files, start=1):
                if cancel.is_set():
                    raise Cancelled("the export of every stage was cancelled; no figure was replaced")
                write(name, selection, staging)
                report.progress(done, len(files), name)
        return [folder / name for name, _ in files]

    return work
