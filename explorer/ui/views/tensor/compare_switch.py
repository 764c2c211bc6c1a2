"""Baseline / Intervened / Difference: which run the central view draws while interventions are active.

Three exclusive buttons and a line that says what Difference means. It holds only the choice; the view asks
``mode()`` and redraws on ``modeChanged`` (explorer.present.before_after computes what is drawn).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from explorer.present.before_after import MODES, NEED_BASELINE, comparable
from explorer.ui.words.plain_text import plain_tip

SHOWN = ("baseline", "intervened", "difference")  # the buttons' order, left to right: before, after, change


class CompareSwitch(QWidget):
    modeChanged = Signal(str)  # one of explorer.present.before_after.MODES

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.buttons = {m: QPushButton() for m in SHOWN}
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        for m in SHOWN:
            b = self.buttons[m]
            b.setCheckable(True)
            self.group.addButton(b)
            lay.addWidget(b)
            b.toggled.connect(lambda on, m=m: on and self.modeChanged.emit(m))
        self.note = QLabel()
        # The reason never widens the control bar (and so the window): cut short, whole in its tooltip.
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.note, 1)
        self.buttons["intervened"].setChecked(True)
        self.retranslate()

    def mode(self) -> str:
        return next((m for m in MODES if self.buttons[m].isChecked()), "intervened")

    def set_mode(self, mode: str) -> None:
        self.buttons[mode].setChecked(True)

    def choose(self, baseline, name: str | None, same_tokens: bool = False) -> str:
        """The run to draw for tensor ``name``: the chosen one where ``baseline`` (None: no interventions, the
        switch hidden) has that tensor, else the intervened run, with Baseline and Difference disabled."""
        self.setVisible(baseline is not None)
        if baseline is None:
            return "intervened"
        ok = comparable(baseline, name)
        why = (
            self.tr("both runs read the same tokens")
            if same_tokens
            else self.tr("the snapshot keeps only the baseline's logits and probabilities")
        )
        self.set_available(ok, why)
        return self.mode() if ok else "intervened"

    def prefix(self, mode: str) -> str:
        """Said before a map's title: which run it shows (nothing for the intervened run, the default)."""
        return {"baseline": self.tr("Baseline: "), "difference": self.tr("Intervened − baseline: ")}.get(mode, "")

    def set_available(self, available: bool, why: str = "") -> None:
        """Baseline and Difference need the baseline's tensor of the stage shown (a snapshot keeps only the
        output's): without it they are disabled and ``why`` says so."""
        for m in NEED_BASELINE:
            self.buttons[m].setEnabled(available)
        self.note.setText("" if available else why)
        self.note.setToolTip(plain_tip(self.note.text()))

    def present(self, text_px: int) -> None:
        """Presentation mode: the switch stays above the figure (the control bar is hidden), its type at least
        as large as the figure's."""
        font = self.font()
        font.setPixelSize(max(text_px, QFontInfo(font).pixelSize()))
        self.setFont(font)

    def retranslate(self) -> None:
        self.label.setText(self.tr("Show:"))
        self.buttons["baseline"].setText(self.tr("Baseline"))
        self.buttons["baseline"].setToolTip(self.tr("The same input without interventions"))
        self.buttons["intervened"].setText(self.tr("Intervened"))
        self.buttons["intervened"].setToolTip(
            self.tr("The run with the interventions listed in the Interventions panel")
        )
        self.buttons["difference"].setText(self.tr("Difference"))
        self.buttons["difference"].setToolTip(
            self.tr(
                "Intervened − baseline, cell by cell: red where the intervention raised a value, blue where it lowered "
                "it, white where nothing changed"
            )
        )
