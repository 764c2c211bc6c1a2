"""Export all stages as work off the GUI thread (issue 37): the loop writes in order and reports each figure;
all of them replace the old ones together, or none does (a cancel, a failure, a folder in a figure's place:
issue 44)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from explorer.errors import Cancelled, ExplorerError
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


def _writer(seen: list, cancel: threading.Event | None = None, fail_at: int | None = None):
    def write(name: str, selection: Selection, into: Path) -> Path:
        seen.append((name, selection.layer, into))
        if cancel is not None and selection.layer == 1:
            cancel.set()  # the user presses Cancel while the second figure is painted
        if fail_at is not None and selection.layer == fail_at:
            raise ExplorerError("cannot write the figure: the disk is full")
        (into / name).write_bytes(f"new {name}".encode())
        return into / name

    return write


def test_every_figure_in_order_with_its_progress(tmp_path):
    seen: list = []
    report = Recorder()
    written = stage_figures_work(FILES, _writer(seen), tmp_path)(report, threading.Event())
    assert [(name, layer) for name, layer, _ in seen] == [(name, sel.layer) for name, sel in FILES]
    assert written == [tmp_path / name for name, _ in FILES]
    assert all((tmp_path / name).read_bytes() == f"new {name}".encode() for name, _ in FILES)
    assert report.steps == [(i + 1, 4, FILES[i][0]) for i in range(4)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(name for name, _ in FILES)  # no staging left


def _old_figures(folder: Path) -> dict[str, bytes]:
    for name, _ in FILES:
        (folder / name).write_bytes(f"old {name}".encode())
    (folder / "mine.txt").write_bytes(b"not a figure")
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_cancel_replaces_none_of_the_figures(tmp_path):
    """Issue 44: all of them or none; a cancel used to keep the figures written so far beside old ones."""
    before = _old_figures(tmp_path)
    cancel = threading.Event()
    with pytest.raises(Cancelled):
        stage_figures_work(FILES, _writer([], cancel), tmp_path)(Recorder(), cancel)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_failed_figure_replaces_none_of_them(tmp_path):
    before = _old_figures(tmp_path)
    with pytest.raises(ExplorerError, match="disk is full"):
        stage_figures_work(FILES, _writer([], fail_at=2), tmp_path)(Recorder(), threading.Event())
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_folder_in_the_place_of_one_figure_refuses_them_all_before_any_is_drawn(tmp_path):
    (tmp_path / FILES[3][0]).mkdir()
    seen: list = []
    with pytest.raises(ExplorerError, match="it is a folder"):
        stage_figures_work(FILES, _writer(seen), tmp_path)(Recorder(), threading.Event())
    assert seen == [] and (tmp_path / FILES[3][0]).is_dir()
