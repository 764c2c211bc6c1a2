"""The Generate panel's controls: Generate, Step, Play, Stop, the number of new tokens, sampling, the cache
switch, Save/Open, and the step slider with its "Step t / T" label. The panel connects them; nothing here
runs or draws a generation."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)


class GenerateControls(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run_button, self.step_button = QPushButton(), QPushButton()
        self.play_button, self.stop_button = QPushButton(), QPushButton()
        self.save_button, self.open_button = QPushButton(), QPushButton()
        self.count_label, self.count = QLabel(), QSpinBox()
        self.count.setRange(1, 256)
        self.count.setValue(12)
        self.use_cache = QCheckBox()
        self.use_cache.setChecked(True)
        self._sampling_row()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.step_label = QLabel()

        row1 = QHBoxLayout()  # two short rows: one long row widened the window at 1280 px
        for w in (
            self.run_button,
            self.step_button,
            self.play_button,
            self.stop_button,
            self.count_label,
            self.count,
            self.use_cache,
        ):
            row1.addWidget(w)
        row1.addStretch(1)
        row2 = QHBoxLayout()
        for w in (
            self.greedy,
            self.temp_label,
            self.temperature,
            self.topk_label,
            self.top_k,
            self.topp_label,
            self.top_p,
            self.seed_label,
            self.seed,
        ):
            row2.addWidget(w)
        row2.addStretch(1)
        row3 = QHBoxLayout()
        row3.addWidget(self.step_label)
        row3.addWidget(self.slider, 1)
        row3.addWidget(self.save_button)  # here, not on the first row: that one is full in a 700 px dock
        row3.addWidget(self.open_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for row in (row1, row2, row3):
            lay.addLayout(row)
        self.retranslate()

    def _sampling_row(self) -> None:
        self.greedy = QCheckBox()
        self.greedy.setChecked(True)
        self.temp_label, self.temperature = QLabel(), QDoubleSpinBox()
        self.temperature.setRange(0.05, 10.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(1.0)
        self.topk_label, self.top_k = QLabel(), QSpinBox()
        self.top_k.setRange(0, 100_000)  # 0: all tokens
        self.topp_label, self.top_p = QLabel(), QDoubleSpinBox()
        self.top_p.setRange(0.01, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setValue(1.0)
        self.seed_label, self.seed = QLabel(), QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.greedy.toggled.connect(self._sampling_enabled)
        self._sampling_enabled(True)

    def _sampling_enabled(self, greedy: bool) -> None:
        for w in (self.temperature, self.top_k, self.top_p, self.seed):
            w.setEnabled(not greedy)

    def sampling(self) -> dict:
        """The sampling rule chosen, as explorer.generation.sampling.Sampling's keywords."""
        if self.greedy.isChecked():
            return {"greedy": True}
        return {
            "greedy": False,
            "temperature": float(self.temperature.value()),
            "top_k": self.top_k.value() or None,
            "top_p": float(self.top_p.value()),
            "seed": int(self.seed.value()),
        }

    def retranslate(self) -> None:
        self.run_button.setText(self.tr("Generate"))
        self.run_button.setToolTip(self.tr("Continue the first sentence of the text, token by token"))
        self.step_button.setText(self.tr("Step"))
        self.play_button.setText(self.tr("Play"))
        self.stop_button.setText(self.tr("Stop"))
        self.count_label.setText(self.tr("New tokens"))
        self.greedy.setText(self.tr("Greedy"))
        self.temp_label.setText(self.tr("Temperature"))
        self.topk_label.setText(self.tr("Top-k"))
        self.top_k.setSpecialValueText(self.tr("all"))
        self.topp_label.setText(self.tr("Top-p"))
        self.seed_label.setText(self.tr("Seed"))
        self.use_cache.setText(self.tr("KV cache"))
        self.use_cache.setToolTip(self.tr("Off: every step recomputes the whole text, to compare the cost"))
        self.save_button.setText(self.tr("Save…"))
        self.save_button.setToolTip(
            self.tr("Write this generation as one snapshot (prefill maps, each step's rows, the KV cache)")
        )
        self.open_button.setText(self.tr("Open…"))
        self.open_button.setToolTip(self.tr("Show a saved generation (read-only: nothing is recomputed)"))

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
