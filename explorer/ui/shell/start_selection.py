"""``gui --layer/--head/--row/--token/--key`` (and the Python API's ``show()``): the selection the window opens
at, made through the state as a click would once a trace is there to select in.

A snapshot is shown before the event loop starts, so its selection is made at once (the command has already
refused what the snapshot cannot show). A live model's first trace comes later: the selection waits for it,
and a value that trace cannot show is one ``note:`` line and left out, never a traceback. A layer the first
trace did not capture is traced when selected; ``done`` says when the window shows what was asked, so that a
``--screenshot`` pictures that and not the first layer.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.session.selecting import unshowable


class StartSelection(QObject):
    done = Signal()  # the window shows the asked selection (or all of it that the trace can show)

    def __init__(self, state, asked: dict[str, int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state, self.asked = state, dict(asked)
        self.layer: int | None = None  # the layer selected, awaited until a trace holds it
        self._waiting = self._finished = False

    def apply_now(self) -> None:
        """Select in the trace on screen (a snapshot's)."""
        self._select(self.state.trace)
        self._finish()

    def apply_after_first_trace(self) -> None:
        self.state.traceChanged.connect(self._first_trace)

    def _first_trace(self, _trace) -> None:
        self.state.traceChanged.disconnect(self._first_trace)
        # After every view has drawn the first trace, as a user's click comes after it.
        QTimer.singleShot(0, self._select_in_first_trace)

    def _select_in_first_trace(self) -> None:
        if self.state.trace is None:  # gone again (another model asked for meanwhile): nothing to select in
            self._finish()
            return
        self._select(self.state.trace)
        if self.layer is None or self._layer_shown():
            self._finish()
            return
        self._waiting = True
        self.state.traceChanged.connect(self._until_layer_shown)
        self.state.errorRaised.connect(self._give_up)

    def _select(self, trace) -> None:
        asked = dict(self.asked)
        for name, problem in unshowable(trace, asked):
            print(f"note: {problem}; --{name} left out", file=sys.stderr)
            asked.pop(name)
        if asked:
            self.state.select(**asked)
        self.layer = asked.get("layer")

    def _layer_shown(self) -> bool:
        trace = self.state.trace
        return trace is not None and self.layer in trace.layers and self.state.selection.layer == self.layer

    def _until_layer_shown(self, _trace) -> None:
        if self._layer_shown():
            self._finish()

    def _give_up(self, *_args) -> None:
        self._finish()  # the trace of that layer failed: what is on screen is what there is

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        if self._waiting:
            self.state.traceChanged.disconnect(self._until_layer_shown)
            self.state.errorRaised.disconnect(self._give_up)
        self.done.emit()


def select_at_start(window, state, asked: dict[str, int], shown: bool) -> StartSelection | None:
    """Make ``asked`` the selection: now when a trace is ``shown`` (a snapshot), else after the first trace.
    None when nothing was asked."""
    if not asked:
        return None
    selection = StartSelection(state, asked, window)
    if shown:
        selection.apply_now()
    else:
        selection.apply_after_first_trace()
    return selection
