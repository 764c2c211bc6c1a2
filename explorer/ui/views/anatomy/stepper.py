"""The stepper: one number of the trace built step by step on a board, under the teacher's hand (issue 39).

It renders the core's steps (explorer.anatomy: op, operands, result, running), computed off the GUI thread
(explorer/work/anatomy.py on a JobSlot of its own). Nothing plays unless asked: → (or Space) one step,
← back, Home the start, End the number itself, the scrub bar anywhere, ▶ plays at the chosen speed. With
"what comes next?" each step first shows what it reads and waits for → before its result. Every step is
said to a screen reader (the board's accessible name) and listed in the table below the board.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import QTableWidgetItem, QWidget

from explorer.anatomy import Step
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.anatomy import stepper_build
from explorer.ui.views.anatomy.ask import AnatomyAsk
from explorer.ui.views.anatomy.step_text import spoken, step_text
from explorer.work.anatomy import anatomy_work

BEAT_MS = 1500  # one step at 1×: the time to say it aloud


class Stepper(QWidget):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.ask: AnatomyAsk | None = None
        self.steps: list[Step] = []
        self.position = 0  # 0: the start (nothing built yet); k: step k of the steps (1-based)
        self.revealed = True  # the step's result is shown (False: "what comes next?")
        self.failure = ""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.slot = JobSlot(self)  # a newer ask wins; an older one's steps are dropped
        self.slot.succeeded.connect(self._computed)
        self.slot.failed.connect(self._failed)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        stepper_build.build(self)
        b = self.buttons
        b["first"].clicked.connect(lambda: self.go_to(0))
        b["back"].clicked.connect(self.back)
        b["next"].clicked.connect(self.forward)
        b["last"].clicked.connect(lambda: self.go_to(len(self.steps)))
        b["play"].toggled.connect(self._play)
        self.speed.currentIndexChanged.connect(lambda _i: self._play(self.timer.isActive()))
        self.scrub.valueChanged.connect(self._scrubbed)
        self.table.cellClicked.connect(lambda row, _c: self.go_to(row + 1))
        self.presenting = False  # on a slide: the slide's type size, not the window's
        stepper_build.scale_fonts(self, stepper_build.base_px(self))
        self.retranslate()

    # ------------------------------------------------------------------ what is shown
    def explain(self, ask: AnatomyAsk, trace) -> None:
        """Build ``ask``'s cell from the start, on ``trace``."""
        self.ask, self.position, self.revealed = ask, 0, True
        self._compute(trace)

    def retrace(self, trace) -> None:
        """A new trace: the same cell again, at the same step, where it still exists (a cell of a trace of its
        own, a generation's, stays on it)."""
        if self.ask is not None and trace is not None and self.ask.trace is None and self.ask.work is None:
            self._compute(trace)

    def _compute(self, trace) -> None:
        self.pause()
        self.steps, self.failure = [], ""
        self.slot.submit(self.ask.work if self.ask.work is not None else anatomy_work(trace, self.ask.cell))
        self.render()

    def _computed(self, result) -> None:
        cell, steps = result
        if self.ask is None or cell != self.ask.cell:
            return
        self.steps = steps
        self.position = min(self.position, len(steps))
        self._fill_table()
        self.render()

    def _failed(self, message: str, _error=None) -> None:
        self.failure = message
        self.render()

    @property
    def language(self) -> str:
        return getattr(self.state, "language", "en")

    @property
    def shown(self) -> str:
        return self.ask.shown if self.ask is not None else ""

    # ------------------------------------------------------------------ the teacher's hand
    def go_to(self, k: int, fresh: bool = False) -> None:
        """Show step ``k`` (0: the start); ``fresh``: reached by going forward, so "what comes next?" holds
        its result back."""
        self.position = max(0, min(len(self.steps), k))
        self.revealed = not (fresh and self.ask_next.isChecked() and self.position > 0)
        self.render()

    def forward(self) -> None:
        """The result of the step shown, if held back; else the next step."""
        if not self.revealed:
            self.revealed = True
            self.render()
        elif self.position < len(self.steps):
            self.go_to(self.position + 1, fresh=True)

    def back(self) -> None:
        self.go_to(self.position - 1)

    def play(self) -> None:
        self.buttons["play"].setChecked(True)

    def pause(self) -> None:
        self.buttons["play"].setChecked(False)

    def _play(self, on: bool) -> None:
        if on and self.steps and self.position >= len(self.steps):
            self.position = 0  # played from the end: again from the start
        self.timer.stop()
        if on:
            self.timer.start(round(BEAT_MS / float(self.speed.currentData())))
        self._render_controls()

    def _tick(self) -> None:
        if self.revealed and self.position >= len(self.steps):
            self.pause()
        else:
            self.forward()

    def _scrubbed(self, value: int) -> None:
        if value != self.position:
            self.go_to(value)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier):
            return super().keyPressEvent(event)
        moves = {
            Qt.Key.Key_Right: self.forward,
            Qt.Key.Key_Space: self.forward,
            Qt.Key.Key_Left: self.back,
            Qt.Key.Key_Home: lambda: self.go_to(0),
            Qt.Key.Key_End: lambda: self.go_to(len(self.steps)),
            Qt.Key.Key_P: lambda: self.buttons["play"].toggle(),
        }
        if event.key() in moves:
            moves[event.key()]()
        else:
            super().keyPressEvent(event)

    # ------------------------------------------------------------------ drawing
    def current(self) -> Step | None:
        return self.steps[self.position - 1] if 0 < self.position <= len(self.steps) else None

    def render(self) -> None:
        lines, step = self.lines, self.current()
        lines["heading"].setText(self._heading())
        total = len(self.steps)
        if step is None:
            lines["counter"].setText(self._start_counter(total))
            for key in ("label", "operands", "result", "running"):
                lines[key].setText("")
        else:
            t = step_text(step, self.language, self.shown)
            lines["counter"].setText(self.tr("Step {n} of {total}").format(n=self.position, total=total))
            lines["label"].setText(t.label)
            lines["operands"].setText(t.operands)
            lines["result"].setText(f"→ {t.result}" if self.revealed else self.tr("→ what comes next?"))
            lines["running"].setText(t.running if self.revealed else "")
        self._render_controls()
        if self.position and self.table.rowCount() >= self.position:
            self.table.selectRow(self.position - 1)
        self._announce()

    def _heading(self) -> str:
        if self.ask is None:
            return self.tr("How is this made? Choose a cell of the map and press Ctrl+H.")
        return self.tr("How is this made? {where}").format(where=self.ask.where)

    def _start_counter(self, total: int) -> str:
        if self.failure:
            return self.failure
        if self.ask is None:
            return ""
        if not self.steps:
            return self.tr("Working out the steps…")
        return self.tr("{total} steps: → builds the number one step at a time, ▶ plays them").format(total=total)

    def _render_controls(self) -> None:
        total = len(self.steps)
        self.scrub.blockSignals(True)
        self.scrub.setRange(0, total)
        self.scrub.setValue(self.position)
        self.scrub.blockSignals(False)
        self.buttons["play"].setText(self.tr("Pause") if self.timer.isActive() else self.tr("Play"))
        for key, on in (
            ("first", self.position > 0),
            ("back", self.position > 0),
            ("next", self.position < total or not self.revealed),
            ("last", self.position < total),
            ("play", total > 0),
        ):
            self.buttons[key].setEnabled(on)

    def _announce(self) -> None:
        step = self.current()
        if step is None:
            text = " ".join(t for t in (self._heading(), self.lines["counter"].text()) if t)
        else:
            text = spoken(step, self.position, len(self.steps), self.language, self.shown, self.revealed)
        if self.accessibleName() != text:
            self.setAccessibleName(text)  # Qt tells assistive technology that the name changed

    def _fill_table(self) -> None:
        self.table.setRowCount(len(self.steps))
        for row, step in enumerate(self.steps):
            t = step_text(step, self.language, self.shown)
            for col, text in enumerate((t.label, t.operands, t.result, t.running)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()

    # ------------------------------------------------------------------ words
    def retranslate(self) -> None:
        tips = {
            "first": self.tr("Back to the start (Home)"),
            "back": self.tr("One step back (←)"),
            "play": self.tr("Play the steps one after another at the chosen speed, or pause (P)"),
            "next": self.tr("The next step, or the result held back (→ or Space)"),
            "last": self.tr("The number itself, the last step (End)"),
        }
        for key, tip in tips.items():
            self.buttons[key].setToolTip(tip)
        play = self.buttons["play"]
        play.setMinimumWidth(
            max(play.fontMetrics().horizontalAdvance(w) for w in (self.tr("Play"), self.tr("Pause"))) + 16
        )
        self.speed.setToolTip(self.tr("Playing speed: steps per beat of 1.5 seconds"))
        self.scrub.setToolTip(self.tr("Scrub through the steps"))
        self.ask_next.setText(self.tr("Ask “what comes next?”"))
        self.ask_next.setToolTip(self.tr("Each step first shows what it reads, and its result only at the next →"))
        self.table.setToolTip(self.tr("Every step: what is done, what it reads, what it gives, the sum so far"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("Step"), self.tr("Reads"), self.tr("Gives"), self.tr("Sum so far")]
        )
        self.setAccessibleDescription(
            self.tr("→ or Space: the next step; ←: back; Home: the start; End: the number; P: play or pause")
        )
        if self.steps:
            self._fill_table()
        self.render()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange and not self.presenting:  # View → Text size
            stepper_build.scale_fonts(self, stepper_build.base_px(self))
        super().changeEvent(event)

    def present(self, px: int) -> None:
        """On a slide: every line from ``px`` pixels up, "what comes next?" on, the table left to the window."""
        self.presenting = True
        stepper_build.scale_fonts(self, px)
        controls = QFont(self.font())
        controls.setPixelSize(max(1, round(px * 0.8)))  # the buttons too, for a teacher at the projector
        for w in (self.controls, self.ask_next):
            w.setFont(controls)
        self.table.hide()
        self.ask_next.setChecked(True)
