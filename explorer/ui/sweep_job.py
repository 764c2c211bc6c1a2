"""The activation-patching sweep (explorer.interventions.sweep) on a background thread: torch loads and runs
here, never in the GUI's; progress is reported per cell and Cancel sets an event the sweep checks between
cells. A panel draws ``succeeded``'s SweepResult.recovered as a heatmap (not built yet: see issue 15)."""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QThread, Signal

from explorer.errors import Cancelled, ExplorerError


class SweepJob(QThread):
    progressed = Signal(int, int)  # cells done, cells in all
    succeeded = Signal(object)  # explorer.interventions.sweep.SweepResult
    cancelled = Signal()
    failed = Signal(str)  # one-line message

    def __init__(self, bundle, clean: str, corrupted: str, kind: str = "resid", options=None, parent=None) -> None:
        super().__init__(parent)
        self.bundle, self.clean, self.corrupted, self.kind, self.options = bundle, clean, corrupted, kind, options
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:  # noqa: D401 - QThread entry point
        try:
            from explorer.interventions.sweep import patching_sweep

            result = patching_sweep(
                self.bundle, self.clean, self.corrupted, self.kind, options=self.options,
                progress=lambda done, total: self.progressed.emit(done, total), cancel=self._cancel,
            )
        except Cancelled:
            self.cancelled.emit()
        except ExplorerError as exc:
            self.failed.emit(str(exc))
        except BaseException as exc:  # noqa: BLE001 - a bug: one line here, details on stderr
            traceback.print_exc()
            self.failed.emit(f"internal error ({type(exc).__name__}: {exc}); please report it")
        else:
            self.succeeded.emit(result)
