"""Which run B is (issue 40 item 1): the bar at the top of the Compare view. Another sentence on the same
model (the current text to start from, editable), another model (a preset, or a path or name as File → Open
model takes), the model's random-weight twin (any model's: a preset's, a checkpoint's, a real model's), another
checkpoint of the shown training run (a chooser of its steps), or the current run with its interventions. It
turns the choice into run A's and run B's trace requests; the view computes them off the GUI thread."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from explorer.interventions.spec import Interventions
from explorer.session import ModelSource, TraceRequest
from explorer.train.runs import list_checkpoints, run_dir_of
from explorer.weights.presets import PRESETS

SENTENCE, MODEL, TWIN, CHECKPOINT, INTERVENED = "sentence", "model", "twin", "checkpoint", "intervened"
KINDS = (SENTENCE, MODEL, TWIN, CHECKPOINT, INTERVENED)


def run_checkpoints(source: ModelSource) -> list[tuple[int, str]]:
    """The complete checkpoints (step, folder) of the training run the model belongs to, if it is one's."""
    run = run_dir_of(source.name) if source.kind == "path" else None
    return [(step, str(path)) for step, path in list_checkpoints(run)] if run is not None else []


class CompareBar(QWidget):
    asked = Signal()  # Compare pressed (or Enter in the box)

    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.label = QLabel()
        self.kind = QComboBox()
        for key in KINDS:
            self.kind.addItem("", key)
        self.value = QLineEdit()
        self.value.returnPressed.connect(self.asked)
        self.steps = QComboBox()  # another checkpoint of this run: its steps (the current one not offered first)
        self.steps.setVisible(False)
        self.go = QPushButton()
        self.go.clicked.connect(self.asked)
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self._texts: dict[str, str] = {}  # what was typed for each kind, kept while switching
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        lay.addWidget(self.kind)
        lay.addWidget(self.value, 1)
        lay.addWidget(self.steps, 1)
        lay.addWidget(self.go)
        self._last_kind = SENTENCE
        state.requestChanged.connect(lambda _r: self._fill_steps() if self.chosen() == CHECKPOINT else None)
        self.retranslate()

    def chosen(self) -> str:
        return self.kind.currentData()

    def choose(self, kind: str, value: str | None = None) -> None:
        self.kind.setCurrentIndex(KINDS.index(kind))
        if value is not None:
            self.value.setText(value)

    def start(self) -> None:
        """Opened from File → Compare…: run B's sentence starts as the current text."""
        if self.chosen() == SENTENCE and not self.value.text():
            self.value.setText(self.state.text)

    def _kind_changed(self) -> None:
        self._texts[self._last_kind] = self.value.text()
        self._last_kind = kind = self.chosen()
        other = next((name for name in PRESETS if name != self.state.source.name), "")
        default = {SENTENCE: self.state.text, MODEL: other}.get(kind, "")
        self.value.setText(self._texts.get(kind, default))
        self.value.setEnabled(kind in (SENTENCE, MODEL))
        self.value.setVisible(kind != CHECKPOINT)
        self.steps.setVisible(kind == CHECKPOINT)
        if kind == CHECKPOINT:
            self._fill_steps()
        self._placeholder()

    def requests(self) -> tuple[TraceRequest, TraceRequest] | str:
        """Run A (the current run) and run B as chosen, or why the choice cannot be run (in words)."""
        current = self.state.request
        plain = dataclasses.replace(current, interventions=Interventions())
        kind, value = self.chosen(), self.value.text().strip()
        if kind == SENTENCE:
            if not value:
                return self.tr("Type run B's sentence first.")
            return current, dataclasses.replace(current, text=value)
        if kind == MODEL:
            if not value:
                return self.tr("Name run B's model: a preset, or a model's folder, file or name.")
            source = ModelSource("preset", value) if value in PRESETS else ModelSource("path", value)
            return current, dataclasses.replace(current, source=source)
        if kind == TWIN:
            if current.source.kind not in ("preset", "path"):
                return self.tr("The random-weight twin is made for a model: open one first.")
            return plain, dataclasses.replace(plain, source=dataclasses.replace(current.source, random_weights=True))
        if kind == CHECKPOINT:
            if self.steps.currentData() is None:
                return self.tr("The current model is not a checkpoint of a training run with another checkpoint.")
            return plain, dataclasses.replace(plain, source=ModelSource("path", self.steps.currentData()))
        if current.interventions.empty:
            return self.tr("The current run has no interventions: add one in the Interventions panel.")
        return plain, current

    def _fill_steps(self) -> None:
        """The run's checkpoints, re-read on each choice (a running training adds some); another step than
        the shown one is chosen first."""
        self.steps.clear()
        shown = self.state.source.name
        for step, folder in run_checkpoints(self.state.source):
            self.steps.addItem(self.tr("step {step}").format(step=step), folder)
        others = [i for i in range(self.steps.count()) if self.steps.itemData(i) != shown]
        if others:
            self.steps.setCurrentIndex(others[-1])
        self.steps.setToolTip(self.tr("Another checkpoint of the shown model's training run"))

    def _placeholder(self) -> None:
        words = {
            SENTENCE: self.tr("Run B's sentence"),
            MODEL: self.tr("A preset, or a model's folder, file or name (e.g. smollm2)"),
            TWIN: self.tr("The same model with random weights"),
            CHECKPOINT: "",
            INTERVENED: self.tr("The current run with its interventions"),
        }
        self.value.setPlaceholderText(words[self.chosen()])

    def retranslate(self) -> None:
        self.label.setText(self.tr("Run B:"))
        names = {
            SENTENCE: self.tr("Another sentence"),
            MODEL: self.tr("Another model"),
            TWIN: self.tr("Random-weight twin"),
            CHECKPOINT: self.tr("Another checkpoint of this run"),
            INTERVENED: self.tr("With the interventions"),
        }
        for i, key in enumerate(KINDS):
            self.kind.setItemText(i, names[key])
        self.go.setText(self.tr("Compare"))
        self.go.setToolTip(self.tr("Compute run A (the current run) and run B, then compare them"))
        self._placeholder()
