"""Activation patching from the window (issue 15 item 2): take one activation (any patchable public name, at
chosen positions and heads) from the run of another sentence of the same length. The patch joins the
session's interventions like an ablation or a cut: listed in the Compare tab, removable, in snapshots.

The form only spells the patch as the command line does (NAME@POSITIONS#HEADS) and lets the core's parser
check it; the worker runs it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from explorer.errors import ConfigError
from explorer.interventions.spec import parse_patch, patchable
from explorer.ui.views.base import View


class PatchForm(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)  # the app's own words in bold (explorer.ui.words.plain_text)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.name = QComboBox()
        self.positions = QLineEdit()
        self.heads = QLineEdit()
        self.source = QLineEdit()
        self.name.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.name.setMinimumContentsLength(14)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.labels = [QLabel() for _ in range(4)]
        for label, w in zip(self.labels, (self.name, self.positions, self.heads, self.source)):
            self.form.addRow(label, w)
        self.add_button = QPushButton()
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addStretch(1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        lay.addLayout(self.form)
        lay.addLayout(row)
        lay.addWidget(self.message)
        self._added = False  # the last request came from this form: its error is shown here too
        self.add_button.clicked.connect(self.add)
        self.source.returnPressed.connect(self.add)
        state.traceChanged.connect(self._names)
        state.errorRaised.connect(self._error)
        self.retranslate()
        self._names(state.trace)

    def retranslate(self) -> None:
        self.title.setText("<b>" + self.tr("Patch from another sentence") + "</b>")
        self.hint.setText(
            self.tr(
                "Run this sentence with one activation taken from the run of another sentence with as many tokens. "
                "All patches read from one sentence: a patch added with a new sentence makes it the source of "
                "every patch."
            )
        )
        texts = (self.tr("Activation:"), self.tr("Positions:"), self.tr("Heads:"), self.tr("From the sentence:"))
        for row, text in enumerate(texts):
            self.labels[row].setText(text)
        self.positions.setPlaceholderText(self.tr("all (or e.g. 1,3-4)"))
        self.heads.setPlaceholderText(self.tr("all (or e.g. 0,2); for names with heads"))
        self.source.setPlaceholderText(self.tr("another sentence with the same number of tokens"))
        self.add_button.setText(self.tr("Add patch"))

    def _names(self, trace) -> None:
        """The patchable public names this trace holds, in the model's order (the logits too when the trace
        derives them from final.out: a run that patches them computes them in its forward pass)."""
        if trace is None:
            return
        current = self.name.currentText()
        wanted = [n for n in trace.stored_names() if patchable(n)]
        if "logits" not in wanted and "logits" in trace and patchable("logits"):
            wanted.append("logits")  # last: the model's order
        if wanted != [self.name.itemText(i) for i in range(self.name.count())]:
            self.name.clear()
            self.name.addItems(wanted)
            if current in wanted:
                self.name.setCurrentText(current)
        self.add_button.setEnabled(bool(wanted) and not self.state.read_only)
        if self._added and trace.interventions:
            self.message.setText(self.tr("Patched: compare in the Compare tab."))
        self._added = False

    def spelled(self) -> str:
        """The patch as the command line spells it: NAME[@POSITIONS][#HEADS]."""
        text = self.name.currentText()
        positions, heads = self.positions.text().replace(" ", ""), self.heads.text().replace(" ", "")
        if positions:
            text += "@" + positions
        if heads:
            text += "#" + heads
        return text

    def add(self) -> None:
        source = self.source.text().strip()
        if not source:
            self.message.setText(self.tr("Type the sentence to take the activation from."))
            return
        try:
            specs = parse_patch(self.spelled())
        except ConfigError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText(self.tr("Running with the patch…"))
        self._added = True
        for spec in specs:
            self.state.add_intervention(spec, patch_from=source)

    def _error(self, message: str) -> None:
        if self._added:
            self.message.setText(
                self.tr("Not applied: {message}. Remove the patch in the Compare tab.").format(message=message)
            )
            self._added = False
