"""Export all stages as work off the GUI thread (issue 37): the loop writes in order, reports each figure,
and a cancel stops between two figures keeping those already written."""

from __future__ import annotations

import threading
from pathlib import Path

from explorer.session.request import Selection
from explorer.work.figures import stage_figures_work


class Recorder:
    def __init__(self) -> None:
        self.steps: list[tuple[int, int, str]] = []

    def progress(self, done: int, total: int, what: str = "") -> None:
        self.steps.append((done, total, what))

    def send(self, value) -> None:  # pragma: no cover - the loop sends no partial result
        raise AssertionError("no partial results expected")


FILES = [(f"{i:02d}-stage.png", Selection(stage="weights", layer=i, head=0)) for i in range(4)]


def test_every_figure_in_order_with_its_progress(tmp_path):
    seen: list[tuple[str, int]] = []

    def write(name: str, selection: Selection) -> Path:
        seen.append((name, selection.layer))
        return tmp_path / name

    report = Recorder()
    written = stage_figures_work(FILES, write)(report, threading.Event())
    assert seen == [(name, sel.layer) for name, sel in FILES]
    assert written == [tmp_path / name for name, _ in FILES]
    assert report.steps == [(i + 1, 4, FILES[i][0]) for i in range(4)]


def test_a_cancel_stops_between_figures_and_keeps_the_written(tmp_path):
    cancel = threading.Event()

    def write(name: str, selection: Selection) -> Path:
        if selection.layer == 1:
            cancel.set()  # the user presses Cancel while the second figure is painted
        return tmp_path / name

    written = stage_figures_work(FILES, write)(Recorder(), cancel)
    assert written == [tmp_path / FILES[0][0], tmp_path / FILES[1][0]]
