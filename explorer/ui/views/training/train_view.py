"""The Train panel: train the shown configuration on a corpus or task, watch the loss fall, and scrub
through the checkpoints while every other view shows the weights of the step chosen.

Left: what to train on and for how long, Start and Cancel. Right: progress, speed and time left, the loss
curve (training and held-out), the checkpoint timeline, the induction-head readout, and the run's folder.
The training itself runs on a background thread (explorer.ui.background.train_controller); this view only draws it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from explorer.errors import ConfigError
from explorer.train.runs import eta_seconds, format_duration, read_log
from explorer.train.settings import default_recipe
from explorer.ui.background.train_controller import TrainController
from explorer.ui.preferences import settings
from explorer.ui.views.base import View, scrolling_body
from explorer.ui.views.training.checkpoint_timeline import CheckpointTimeline, shown_run
from explorer.ui.views.training.induction_readout import InductionReadout, shown_corpus
from explorer.ui.views.training.loss_curve import LossCurve
from explorer.ui.words.plain_text import plain_tip
from explorer.vocab import CORPORA

FILE_ITEM = "\x00file"  # the combo entry that asks for a text file


def _spin(lo: int, hi: int, value: int) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setValue(value)
    s.setAccelerated(True)
    s.setGroupSeparatorShown(True)
    return s


class TrainView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.controller = TrainController(state, self)
        self._curve_run: Path | None = None  # the run whose curve is drawn
        self._source = None  # the model source last followed (a new one suggests its corpus)
        self._last = None  # the newest TrainProgress of the live run
        self._build()
        self._connect()
        self.retranslate()
        self._set_running(False)
        self._follow_source()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        outer = QHBoxLayout(scrolling_body(self))
        outer.setContentsMargins(6, 4, 6, 4)
        outer.addWidget(self._build_settings())
        outer.addLayout(self._build_progress(), 1)

    def _build_settings(self) -> QWidget:
        """The left column: corpus, steps, batch, learning rate, checkpoint interval, Start and Cancel."""
        self.corpus = QComboBox()
        for name in CORPORA:
            self.corpus.addItem(name, name)
        self.corpus.addItem("", FILE_ITEM)
        self.corpus.setCurrentIndex(self.corpus.findData("copy"))
        self.steps = _spin(1, 1_000_000, 1)
        self.batch = _spin(1, 4096, 1)
        self.lr = QDoubleSpinBox()
        self.lr.setDecimals(5)
        self.lr.setRange(0.00001, 1.0)
        self.lr.setSingleStep(0.0005)
        self.every = _spin(1, 1_000_000, 1)
        self._use_recipe("copy")
        self.continue_weights = QCheckBox()
        self.start = QPushButton()
        self.cancel = QPushButton()
        self.form_labels = [QLabel() for _ in range(5)]
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        for label, field in zip(self.form_labels, (self.corpus, self.steps, self.batch, self.lr, self.every)):
            form.addRow(label, field)
        form.addRow(self.continue_weights)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start)
        buttons.addWidget(self.cancel)
        left = QWidget()
        left.setMaximumWidth(300)
        col = QVBoxLayout(left)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(form)
        col.addLayout(buttons)
        self.message = QLabel()
        self.message.setWordWrap(True)
        col.addWidget(self.message)
        col.addStretch(1)
        return left

    def _build_progress(self) -> QVBoxLayout:
        """The right column: progress, the loss curve, the checkpoints, the induction readout, the run folder."""
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.stats = QLabel()
        self.stats.setWordWrap(True)  # two lines in a narrow dock rather than a cut-off one
        self.stats.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the dock
        self.curve = LossCurve()
        self.timeline = CheckpointTimeline(self.state)
        self.induction = InductionReadout(self.state)
        self.run_label = QLabel()
        self.run_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.open_folder = QPushButton()
        top = QHBoxLayout()
        top.addWidget(self.progress)
        top.addWidget(self.stats, 1)
        run_row = QHBoxLayout()
        run_row.addWidget(self.run_label, 1)
        run_row.addWidget(self.open_folder)
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.addLayout(top)
        right.addWidget(self.curve, 1)
        right.addWidget(self.timeline)
        right.addWidget(self.induction)
        right.addLayout(run_row)
        return right

    def _connect(self) -> None:
        c = self.controller
        self.corpus.activated.connect(self._corpus_chosen)
        self.start.clicked.connect(self.start_training)
        self.cancel.clicked.connect(c.cancel)
        self.open_folder.clicked.connect(self._open_folder)
        c.runningChanged.connect(self._set_running)
        c.prepared.connect(self._on_prepared)
        c.progressed.connect(self._on_progress)
        c.finished.connect(self._on_finished)
        c.failed.connect(self._on_failed)
        c.message.connect(self.message.setText)
        self.timeline.stepShown.connect(self.curve.mark)
        self.state.requestChanged.connect(lambda _r: self._follow_source())
        self.state.requestReverted.connect(lambda _r: self._follow_source())

    def retranslate(self) -> None:
        for label, text in zip(
            self.form_labels,
            (
                self.tr("Train on"),
                self.tr("Steps"),
                self.tr("Batch size"),
                self.tr("Learning rate"),
                self.tr("Checkpoint every"),
            ),
        ):
            label.setText(text)
        self.corpus.setItemText(self.corpus.findData(FILE_ITEM), self.tr("Text file…"))
        self.corpus.setToolTip(
            self.tr(
                "What the model learns from: simple English or Japanese sentences, a task whose right "
                "attention pattern is known (copy, reverse, sort, induction), or a UTF-8 text file of yours"
            )
        )
        self.steps.setToolTip(self.tr("How many optimisation steps (each on one batch)"))
        self.batch.setToolTip(self.tr("Rows (sentences or task sequences) per step"))
        self.lr.setToolTip(self.tr("Peak learning rate of AdamW (warm-up, then a cosine down to a tenth of it)"))
        self.every.setSuffix(self.tr(" steps"))
        self.every.setToolTip(
            self.tr(
                "Save a checkpoint (and measure the held-out loss) every N steps; the views switch to each "
                "new checkpoint, and the timeline can go back to any of them"
            )
        )
        self.continue_weights.setText(self.tr("Start from the shown weights"))
        self.continue_weights.setToolTip(
            self.tr(
                "Continue training the weights on screen (only when they use this corpus's "
                "vocabulary); off: start from random weights"
            )
        )
        self.start.setText(self.tr("Start"))
        self.start.setToolTip(
            self.tr("Train the configuration in the Model panel (its sizes) on the chosen corpus, in the background")
        )
        self.cancel.setText(self.tr("Cancel"))
        self.cancel.setToolTip(self.tr("Stop after the current step; every checkpoint written so far stays"))
        self.progress.setToolTip(self.tr("Steps done"))
        self.open_folder.setText(self.tr("Open folder"))
        self.open_folder.setToolTip(self.tr("Show the run's folder (checkpoints and log.jsonl) in the file manager"))
        self.curve.retranslate(self.tr("step"), self.tr("loss (nats/token)"), self.tr("training"), self.tr("held-out"))
        self.timeline.retranslate()
        self.induction.retranslate()
        self._show_stats()
        self._show_run()

    # ------------------------------------------------------------------ starting
    def _use_recipe(self, corpus: str) -> None:
        """The corpus's default recipe (explorer.train.settings.default_recipe, the train command's too)."""
        recipe = default_recipe(corpus)
        self.steps.setValue(recipe["steps"])
        self.batch.setValue(recipe["batch_size"])
        self.lr.setValue(recipe["lr"])
        self.every.setValue(recipe["checkpoint_every"])

    def _corpus_chosen(self, index: int) -> None:
        if self.corpus.itemData(index) != FILE_ITEM:
            self._use_recipe(self.corpus.itemData(index))
            return
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Train on a text file"),
            settings.get("last_dir", str(Path.home())),
            self.tr("Text files (*.txt *.md *.csv);;All files (*)"),
        )
        if not path:
            self.corpus.setCurrentIndex(self.corpus.findData("copy"))
            return
        self.choose_file(path)

    def choose_file(self, path: str) -> None:
        self._use_recipe(path)
        settings.put("last_dir", str(Path(path).parent))
        i = self.corpus.findData(path)
        if i < 0:
            i = self.corpus.findData(FILE_ITEM)
            self.corpus.insertItem(i, Path(path).name, path)
            self.corpus.setItemData(i, path, Qt.ItemDataRole.ToolTipRole)
        self.corpus.setCurrentIndex(i)

    def train_settings(self):
        from explorer.train.loop import TrainSettings  # torch is loaded by the trace worker long before

        every = self.every.value()
        return TrainSettings(
            steps=self.steps.value(),
            batch_size=self.batch.value(),
            lr=self.lr.value(),
            checkpoint_every=every,
            eval_every=every,  # one held-out point per checkpoint: the curve and the timeline line up
            seed=self.state.source.seed or 0,
            device=self.state.options.device,
        )

    def start_training(self) -> bool:
        corpus = self.corpus.currentData()
        if corpus == FILE_ITEM:
            return False
        try:
            train_settings = self.train_settings()
        except ConfigError as exc:
            self._on_failed(str(exc))
            return False
        self.message.setText("")
        self._last = None
        self.curve.clear()
        return self.controller.start(corpus, train_settings, self.continue_weights.isChecked())

    # ------------------------------------------------------------------ following the run
    def _set_running(self, running: bool) -> None:
        self.start.setEnabled(not running)
        self.cancel.setEnabled(running)
        for w in (self.corpus, self.steps, self.batch, self.lr, self.every, self.continue_weights):
            w.setEnabled(not running)

    def _on_prepared(self, info) -> None:
        self._curve_run = info.run_dir
        self.progress.setRange(0, self.steps.value())
        self.progress.setValue(0)
        self.curve.set_total(self.steps.value())  # the curve grows from left to right
        self._show_run()

    def _on_progress(self, points) -> None:
        self.curve.add(points)
        self._last = points[-1]
        self.progress.setRange(0, self._last.total_steps)
        self.progress.setValue(self._last.step)
        self._show_stats()
        if not self.open_folder.isEnabled():
            self._show_run()  # the folder exists once the first checkpoint is written

    def _on_finished(self, result) -> None:
        self.progress.setValue(result.steps)
        self._show_stats(done=True)

    def _on_failed(self, message: str) -> None:
        self.message.setText(self.tr("Not trained: {message}").format(message=message))

    def _show_stats(self, done: bool = False) -> None:
        p = self._last
        if p is None:
            self.stats.setText(self.tr("Not training. Choose what to train on and press Start."))
            return
        parts = [self.tr("step {step} / {total}").format(step=f"{p.step:,}", total=f"{p.total_steps:,}")]
        if p.loss is not None:
            parts.append(self.tr("loss {loss:.3f}").format(loss=p.loss))
        heldout = p.heldout_loss if p.heldout_loss is not None else self.curve.last_heldout()
        if heldout is not None:
            parts.append(self.tr("held-out {loss:.3f}").format(loss=heldout))
        parts.append(self.tr("{tps} tokens/s").format(tps=f"{p.tokens_per_s:,.0f}"))
        parts.append(self.tr("{elapsed} elapsed").format(elapsed=format_duration(p.elapsed_s)))
        if not done and self.controller.running:
            parts.append(
                self.tr("about {eta} left").format(eta=format_duration(eta_seconds(p.step, p.total_steps, p.elapsed_s)))
            )
        self.stats.setText("  ·  ".join(parts))
        self.stats.setToolTip(plain_tip(self.stats.text()))

    def _show_run(self) -> None:
        run = self._curve_run
        self.open_folder.setEnabled(run is not None and run.is_dir())
        if run is None:
            self.run_label.setText(self.tr("Runs are saved in your data folder."))
            self.run_label.setToolTip("")
        else:
            self.run_label.setText(self.tr("Run: {name}").format(name=run.name))
            self.run_label.setToolTip(plain_tip(str(run)))

    def _follow_source(self) -> None:
        """A checkpoint of another run is shown (opened, or picked in the timeline): draw that run's curve."""
        if self.controller.running:
            return
        if self.state.source != self._source:
            self._source = self.state.source
            corpus = shown_corpus(self.state)  # the induction preset suggests the induction task, and so on
            if corpus in CORPORA:
                self.corpus.setCurrentIndex(self.corpus.findData(corpus))
        run, _ckpt = shown_run(self.state)
        if run is None or run == self._curve_run:
            self._show_run()
            return
        self._curve_run = run
        self._last = None
        self.curve.set_log(read_log(run))
        self._show_stats()
        self._show_run()

    def _open_folder(self) -> None:
        if self._curve_run is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._curve_run)))

    # ------------------------------------------------------------------ window closing
    def shutdown(self) -> None:
        self.controller.shutdown()
