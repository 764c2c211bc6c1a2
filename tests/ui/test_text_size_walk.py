"""View → Text size walks every widget of the application; a widget it has already passed may delete others
on the way (a panel that rebuilds its children when its font or its text size changes). Touching a deleted
widget through the list taken before raised "already deleted" here, and crashed a test process under load
where the deleted widget was one Qt had made (a garbage collection in the middle of the walk is the likely
way; the walk now runs without one).

Run in a child process, so that a crash fails this test instead of taking the test runner down with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import shiboken6
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QWidget
from explorer.ui.preferences import text_size

app = QApplication([])
doomed = [QScrollArea() for _ in range(30)]  # each has children Qt made itself (viewport, scroll bars)
for area in doomed:
    area.setWidget(QLabel("inside"))
calls = []
armed = []

class Rebuilder(QWidget):
    def text_size_changed(self, old_px, new_px, scale):
        calls.append("rebuilder")
        while doomed:
            shiboken6.delete(doomed.pop())  # deleted at once, children and all

class Resizer(QLabel):  # a size of its own; when its font changes it rebuilds, deleting the doomed panels
    def changeEvent(self, event):
        if event.type() == event.Type.FontChange and armed:
            while doomed:
                shiboken6.delete(doomed.pop())
        super().changeEvent(event)

class Figure(QWidget):
    def text_size_changed(self, old_px, new_px, scale):
        calls.append("figure")

rebuilders = [Rebuilder() for _ in range(3)]
resizers = [Resizer("r") for _ in range(3)]
for r in resizers:
    f = QFont(r.font()); f.setPixelSize(14); r.setFont(f)
figures = [Figure() for _ in range(20)]
titled = QLabel("title")
font = QFont(titled.font())
font.setPixelSize(20)
titled.setFont(font)  # a size of its own: scaled by the same ratio
armed.append(True)
text_size.apply(1.5, remember=False)
assert titled.font().pixelSize() == 30, titled.font().pixelSize()
assert calls.count("figure") == 20, calls
print("ok", calls.count("rebuilder"))
"""


def test_the_walk_skips_widgets_deleted_on_the_way(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0 and done.stdout.startswith("ok"), (done.returncode, done.stdout, done.stderr[-3000:])
