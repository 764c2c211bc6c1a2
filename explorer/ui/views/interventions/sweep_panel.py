"""The patching sweep (issue 15 item 6): for a clean sentence (the current one) and a corrupted one of the same
length, patch each (layer, position) of the residual stream, or each (layer, head), from the clean run into
the corrupted run, and draw how much of the clean prediction comes back as a diverging heatmap.

explorer.interventions.sweep computes it on a background job (explorer.work.interventions.sweep_work), with
progress per cell and Cancel."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from explorer import vocab
from explorer.analysis.token_text import visible
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.base import View
from explorer.ui.views.interventions.common import live_model
from explorer.ui.views.map.heatmap import Heatmap
from explorer.work.interventions import sweep_work

KINDS = vocab.SWEEP_KINDS  # the kind combo's order


def first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else ""


class SweepPanel(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)  # the app's own words in bold (explorer.ui.words.plain_text)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.clean = QLineEdit()
        self.corrupted = QLineEdit()
        self.kind = QComboBox()
        for _ in KINDS:
            self.kind.addItem("")
        # A narrow dock: the combo may elide its text, and long rows put the field under its label.
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kind.setMinimumContentsLength(12)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.labels = [QLabel() for _ in range(3)]
        for label, w in zip(self.labels, (self.clean, self.corrupted, self.kind)):
            self.form.addRow(label, w)
        self.run_button, self.cancel_button = QPushButton(), QPushButton()
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.map = Heatmap()
        self.map.setMinimumHeight(260)
        self.map.setVisible(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in (self.title, self.hint):
            lay.addWidget(w)
        lay.addLayout(self.form)
        lay.addLayout(buttons)
        lay.addWidget(self.message)
        lay.addWidget(self.map, 1)
        self.slot = JobSlot(self)  # one sweep at a time
        self.slot.progressed.connect(self._progressed)
        self.slot.succeeded.connect(self._done)
        self.slot.cancelled.connect(self._cancelled)
        self.slot.failed.connect(self.message.setText)
        self.slot.busyChanged.connect(self._buttons)
        self.result = None  # the SweepResult drawn
        self._text = None
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        state.traceChanged.connect(lambda _t: self._follow_text())
        self.retranslate()
        self._follow_text()
        self._buttons()

    def retranslate(self) -> None:
        self.title.setText("<b>" + self.tr("Patching sweep") + "</b>")
        self.hint.setText(
            self.tr(
                "Run the corrupted sentence once per cell with one activation taken from the clean sentence's run, "
                "and see how much of the clean prediction comes back: 1 = all of it, 0 = nothing, below 0 = further "
                "away. Both sentences need the same number of tokens."
            )
        )
        for row, text in enumerate((self.tr("Clean (this sentence):"), self.tr("Corrupted:"), self.tr("Patch each:"))):
            self.labels[row].setText(text)
        self.corrupted.setPlaceholderText(self.tr("a sentence with as many tokens, e.g. one word changed"))
        self.kind.setItemText(0, self.tr("residual stream (layer × position)"))
        self.kind.setItemText(1, self.tr("attention head (layer × head)"))
        self.run_button.setText(self.tr("Run sweep"))
        self.cancel_button.setText(self.tr("Cancel"))
        self._draw()

    def _follow_text(self) -> None:
        """The clean sentence follows the input box (a sentence edited here stays until the input changes)."""
        text = first_line(self.state.text)
        if text != self._text:
            self._text = text
            self.clean.setText(text)

    @property
    def job(self):
        """The running sweep's job, or None."""
        return self.slot.job

    def _buttons(self, _busy: bool = False) -> None:
        running = self.slot.busy
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        if self.slot.busy:
            return
        model = live_model(self)
        if model is None:
            self.message.setText(
                self.tr("The sweep needs the model that made this trace (a snapshot shows only what it holds).")
            )
            return
        clean, corrupted = self.clean.text().strip(), self.corrupted.text().strip()
        if not clean or not corrupted:
            self.message.setText(self.tr("Type both sentences: the clean one and the corrupted one."))
            return
        work = sweep_work(*model, clean, corrupted, KINDS[max(0, self.kind.currentIndex())], self.state.options)
        self.progress.setRange(0, 0)
        self.message.setText(self.tr("Running the sweep…"))
        self.slot.submit(work)

    def cancel(self) -> None:
        self.slot.cancel()

    def shutdown(self) -> None:
        self.slot.shutdown()

    def _cancelled(self) -> None:
        self.message.setText(self.tr("Sweep cancelled."))

    def _progressed(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.message.setText(self.tr("Patched {d} of {t} cells…").format(d=done, t=total))

    def _done(self, result) -> None:
        self.result = result
        self._draw()
        QTimer.singleShot(0, self._reveal)

    def _reveal(self) -> None:
        """Scroll the finished map into view (in a short dock it lies below the form)."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is not None and self.map.isVisible() and parent.widget() is not None:
            parent.verticalScrollBar().setValue(self.map.mapTo(parent.widget(), QPoint(0, 0)).y())

    # ------------------------------------------------------------------ draw
    def _labels(self, r) -> tuple[list[str], list[str], str, str]:
        if r.kind == "resid":
            # Short row names: a narrow dock elides long ones. "embed" is the stream before layer 0.
            rows = ["embed"] + [f"L{l}" for l in range(len(r.rows) - 1)]
            cols = [f"{i} {visible(t)}" for i, t in enumerate(r.columns)]
            return (
                rows,
                cols,
                self.tr("stream patched: after layer L (embed: before layer 0)"),
                self.tr("position (token)"),
            )
        rows = [f"L{l}" for l in range(len(r.rows))]
        cols = [f"H{h}" for h in range(len(r.columns))]
        return rows, cols, self.tr("layer"), self.tr("head")

    def _draw(self) -> None:
        r = self.result
        self.map.setVisible(r is not None)
        if r is None:
            return
        rows, cols, left, bottom = self._labels(r)
        top = max(1.0, float(np.abs(r.recovered).max()))
        self.shown = r.recovered
        # Row 0 at the top: the matrix is drawn as given, rows top to bottom.
        # rows are layers; columns are the sentence's tokens only in a stream sweep (heads otherwise)
        self.map.set_token_axes(False, r.kind == "resid")
        self.map.set_matrix(r.recovered.astype(np.float32), rows, cols, True, (-top, top))
        vocab = self.state.trace.vocab if self.state.trace is not None else None
        target = visible(vocab[r.target]) if vocab is not None and r.target < len(vocab) else f"#{r.target}"
        self.map.set_axis_titles(
            left,
            bottom,
            self.tr("share of the clean logit of “{t}” recovered at position {i}").format(t=target, i=r.position),
        )
        self.message.setText(
            self.tr("Clean logit {c}, corrupted logit {k}: 1 = the clean logit, 0 = the corrupted one.").format(
                c=f"{r.clean_logit:.3f}", k=f"{r.corrupted_logit:.3f}"
            )
        )
