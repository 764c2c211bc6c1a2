"""An edit that keeps every shape (one word for another of the same length in tokens) must not make the main
window lay itself out again: that relayout repainted the dock tabs and labels and cost a few milliseconds of
every keystroke (issue 18). Three causes are covered: the pipeline refitting its diagram, the stage combo
getting its texts again, and spin boxes getting their (same) ranges again."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject

from tests.ui.waits import drain, wait_laid_out


class LayoutRequests(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_a_same_shape_edit_does_not_relayout_the_window(window, state, qtbot):
    # Settle on the new length first (6 tokens); the first edits after the start also build panels kept back
    # until then (their plots lay out once).
    for word in ("red", "blue"):
        state.set_text(f"This is a {word} pen .")
        qtbot.waitUntil(
            lambda w=word: state.trace is not None and state.trace.rows[0].tokens[3] == " " + w, timeout=20_000
        )
        wait_laid_out(qtbot, [window])  # the panels built on the first edits have laid out
    # A trace slower than BUSY_AFTER_MS (a loaded test machine) shows the busy bar, a legitimate relayout of
    # the status bar: not what is counted here.
    window.statusBar()._show_busy.setInterval(600_000)
    requests = LayoutRequests()
    window.installEventFilter(requests)
    try:
        for word in ("big", "old", "new"):
            state.set_text(f"This is a {word} pen .")
            qtbot.waitUntil(lambda w=word: state.trace.rows[0].tokens[3] == " " + w, timeout=20_000)
            drain()  # the posted layout requests are delivered
    finally:
        window.removeEventFilter(requests)
    assert requests.count == 0
    state.set_text("This is a pen")  # a shape changes (4 tokens, was 6): the window may lay out again, and is right
    qtbot.waitUntil(lambda: state.trace.rows[0].length == 4, timeout=20_000)
    assert window.views["flow"].boxes["qkv"].shape_text.startswith("(4,")
