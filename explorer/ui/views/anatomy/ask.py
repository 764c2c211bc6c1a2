"""“How is this made?” asked for one cell: the core's ``Cell`` (explorer.anatomy), the hover's line that names
the cell with its number, and that number as the map prints it (one format per map), which the stepper's last
step shows again, so the board and the map say the same digits. A map that shows another trace than the
window's (the Generate panel's prompt) hands that trace along, or, for a cell no trace holds yet, the work that
traces it and makes the steps."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.anatomy import Cell


@dataclass(frozen=True)
class AnatomyAsk:
    cell: Cell
    where: str  # the hover's first line: "head 1: query 3 “pen” → key 1 “is” = 0.153"
    shown: str  # the cell's number as the map prints it: "0.153"
    trace: object = None  # the trace the cell is in, when not the window's (a generation's prompt)
    work: object = None  # the work that makes the steps, where no trace holds the cell (a decode row, traced again)
