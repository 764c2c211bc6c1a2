"""A number's anatomy as work off the GUI thread: a (C, C) map of a lazy trace is derived when first read,
and a softmax over a large vocabulary reads a whole row, so the stepper never computes on the GUI thread."""

from __future__ import annotations

import threading

from explorer.anatomy import Cell, Step, anatomy
from explorer.trace import Trace
from explorer.work.report import Report, Work


def anatomy_work(trace: Trace, cell: Cell) -> Work:
    """The steps of ``cell`` (explorer.anatomy.anatomy, long sums shortened), with the cell they explain."""

    def work(_report: Report, _cancel: threading.Event) -> tuple[Cell, list[Step]]:
        return cell, anatomy(trace, cell)

    return work
