"""Generate: write token by token and watch the KV cache.

Generate runs the core's generation in a worker thread (GenerateJob); the panel then shows step t, chosen
with Step, Play (one step at a time, for a class), or the slider (scrub back): the attention the selected
layer and head has seen so far (the prefill's C×C map with each decode step's row beneath it), the K and V
cache of that head's key/value head with the rows written at step t highlighted, the chosen token and its
alternatives, and what the step cost with and without the cache (multiply-adds counted from the shapes, and
the measured time) and what the cache holds (and saves, for grouped-query heads). Everything shown is cut
from the generation's arrays by explorer.generation.frames and counted by explorer.generation.cost: this
module computes nothing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QDoubleSpinBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer import names
from explorer.analysis.token_text import visible
from explorer.generation import frames
from explorer.generation.cost import step_cost
from explorer.ui.views.base import View
from explorer.ui.views.heatmap import Heatmap

PLAY_MS = 700  # one step per this many milliseconds while playing
MAX_TABLE_COLUMNS = 64  # cache columns shown (D of a real model's head is 64 or 128)
PRESENT_SCALE = 1.6  # font size × this in presentation size
GROW_TO = 0.5  # of the window's height, for the dock the first time the panel is shown


def _count(n: float) -> str:
    """1234567 → "1.23 M" (multiply-adds, bytes)."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f}"


class GenerateView(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.generation = None
        self.step = 0
        self.job = None
        self._live: list = []  # steps reported while the job runs
        self._play = QTimer(self)
        self._play.setInterval(PLAY_MS)
        self._play.timeout.connect(self._advance)

        # --- controls
        self.run_button = QPushButton()
        self.run_button.clicked.connect(lambda: self.generate())
        self.step_button = QPushButton()
        self.step_button.clicked.connect(self.step_once)
        self.play_button = QPushButton()
        self.play_button.clicked.connect(self.play)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.count_label = QLabel()
        self.count = QSpinBox()
        self.count.setRange(1, 256)
        self.count.setValue(12)
        self.greedy = QCheckBox()
        self.greedy.setChecked(True)
        self.temp_label = QLabel()
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.05, 10.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(1.0)
        self.topk_label = QLabel()
        self.top_k = QSpinBox()
        self.top_k.setRange(0, 100_000)  # 0: all tokens
        self.topp_label = QLabel()
        self.top_p = QDoubleSpinBox()
        self.top_p.setRange(0.01, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setValue(1.0)
        self.seed_label = QLabel()
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.use_cache = QCheckBox()
        self.use_cache.setChecked(True)
        self.present = QCheckBox()
        self.present.toggled.connect(self._present)
        self.save_button = QPushButton()
        self.save_button.clicked.connect(lambda: self.save())
        self.open_button = QPushButton()
        self.open_button.clicked.connect(lambda: self.open())
        self.greedy.toggled.connect(self._sampling_enabled)
        self._sampling_enabled(True)
        row1 = QHBoxLayout()  # two short rows: one long row widened the window at 1280 px in large type
        for w in (self.run_button, self.step_button, self.play_button, self.stop_button, self.count_label, self.count,
                  self.use_cache, self.present):
            row1.addWidget(w)
        row1.addStretch(1)
        row1.addWidget(self.save_button)
        row1.addWidget(self.open_button)
        row1b = QHBoxLayout()
        for w in (self.greedy, self.temp_label, self.temperature, self.topk_label, self.top_k, self.topp_label, self.top_p,
                  self.seed_label, self.seed):
            row1b.addWidget(w)
        row1b.addStretch(1)

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self._scrub)
        self.step_label = QLabel()
        row2 = QHBoxLayout()
        row2.addWidget(self.step_label)
        row2.addWidget(self.slider, 1)

        self.text_label = QLabel()  # the prompt and the tokens so far, the newest one marked
        self.text_label.setWordWrap(True)
        self.text_label.setTextFormat(Qt.TextFormat.RichText)
        self.cost_label = QLabel()
        self.cost_label.setWordWrap(True)
        self.cost_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        # --- the pictures
        self.map = Heatmap()
        self.k_title, self.v_title = QLabel(), QLabel()
        self.k_table, self.v_table = self._table(), self._table()
        cache_box = QWidget()
        cl = QVBoxLayout(cache_box)
        cl.setContentsMargins(0, 0, 0, 0)
        for w in (self.k_title, self.k_table, self.v_title, self.v_table):
            cl.addWidget(w, 1 if isinstance(w, QTableWidget) else 0)
        self.top_title = QLabel()
        self.top_table = self._table()
        self.top_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # two short columns
        top_box = QWidget()
        tl = QVBoxLayout(top_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.top_title)
        tl.addWidget(self.top_table, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.map)
        split.addWidget(cache_box)
        split.addWidget(top_box)
        split.setStretchFactor(0, 5)  # the map is the largest figure
        split.setStretchFactor(1, 4)
        split.setStretchFactor(2, 1)

        self.message = QLabel()
        self.message.setWordWrap(True)
        split.setMinimumHeight(260)  # the map and the tables stay readable; the panel scrolls when it is smaller
        body = QWidget()
        lay = _NoHeightForWidth(body)
        lay.addLayout(row1)
        lay.addLayout(row1b)
        lay.addLayout(row2)
        lay.addWidget(self.text_label)
        lay.addWidget(self.cost_label)
        lay.addWidget(self.message)
        lay.addWidget(split, 1)
        scroll = QScrollArea()  # in a low dock, or in large type, scroll instead of growing the window
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        state.selectionChanged.connect(self.when_shown(lambda _s: self._show()))
        self.retranslate()
        self._buttons()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_grown", False):
            self._grown = True
            QTimer.singleShot(0, self._grow_dock)

    def _grow_dock(self) -> None:
        """The first time the panel is shown, give its dock half the window's height: the bottom docks start
        low (about 200 px), too low for the map and the cache tables."""
        if not self.on_screen():  # built behind its tab (or shown for a moment): wait until the user brings it up
            self._grown = False
            return
        dock, window = self.parentWidget(), self.window()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is None or not isinstance(window, QMainWindow) or dock.isFloating():
            return
        wanted = int(window.height() * GROW_TO)
        if dock.height() < wanted:
            window.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)

    @staticmethod
    def _table() -> QTableWidget:
        t = QTableWidget()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # to contents: too wide for D = 64
        t.horizontalHeader().setDefaultSectionSize(t.fontMetrics().horizontalAdvance("-0.00") + 14)
        t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        return t

    # ------------------------------------------------------------------ texts
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
        self.present.setText(self.tr("Large type"))
        self.save_button.setText(self.tr("Save…"))
        self.save_button.setToolTip(self.tr("Write this generation as one snapshot (prefill maps, each step's rows, the KV cache)"))
        self.open_button.setText(self.tr("Open…"))
        self.open_button.setToolTip(self.tr("Show a saved generation (read-only: nothing is recomputed)"))
        self.top_title.setText(self.tr("Chosen token and alternatives"))
        self.map.set_axis_titles(self.tr("query (row)"), self.tr("key (column)"))
        self._show()

    def _sampling_enabled(self, greedy: bool) -> None:
        for w in (self.temperature, self.top_k, self.top_p, self.seed):
            w.setEnabled(not greedy)

    def _present(self, on: bool) -> None:
        font = QFont(self.font())
        base = self.parentWidget().font().pointSizeF() if self.parentWidget() is not None else font.pointSizeF()
        font.setPointSizeF(base * (PRESENT_SCALE if on else 1.0))
        self.setFont(font)
        self._show()

    # ------------------------------------------------------------------ running
    def _prompt(self) -> str:
        lines = [line.strip() for line in self.state.text.splitlines() if line.strip()]
        return lines[0] if lines else ""

    def generate(self, then: str = "last") -> None:
        """Run a generation; then show its ``last`` step, its ``first`` (Step), or ``play`` from the first."""
        if self.job is not None:
            return
        sampling = {"greedy": self.greedy.isChecked()}
        if not self.greedy.isChecked():
            sampling.update(temperature=float(self.temperature.value()), top_k=self.top_k.value() or None,
                            top_p=float(self.top_p.value()), seed=int(self.seed.value()))
        self._live = []
        self.message.setText(self.tr("Generating…"))
        worker = getattr(self.window(), "worker", None)  # the main window's trace worker keeps the models it built
        bundle = worker.cached_bundle(self.state.source) if hasattr(worker, "cached_bundle") else None
        self.job = GenerateJobFactory.make(
            self.state.source, self._prompt(), self.state.options, self.count.value(), sampling, self.use_cache.isChecked(), self, bundle
        )
        self.job.stepped.connect(self._on_step)
        self.job.succeeded.connect(lambda g: self._on_done(g, then))
        self.job.failed.connect(self._on_failed)
        self.job.finished.connect(self._job_finished)
        self._buttons()
        self.job.start()

    def save(self, path: str | None = None) -> None:
        if self.generation is None:
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Save generation"), "generation.npz",
                                                  self.tr("Snapshots (*.npz *.safetensors *.pt)"))
            if not path:
                return
        from explorer.errors import ExplorerError
        from explorer.export.snapshot import write_generation

        try:
            written = write_generation(self.generation, path)
        except ExplorerError as exc:
            self.message.setText(self.tr("Not saved: {message}").format(message=exc))
        except OSError as exc:
            self.message.setText(self.tr("Not saved: {message}").format(message=exc.strerror or exc))
        else:
            self.message.setText(self.tr("Saved {path}").format(path=written))

    def open(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open generation"), "", self.tr("Snapshots (*.npz *.safetensors *.pt)"))
            if not path:
                return
        from explorer.errors import ExplorerError
        from explorer.export.snapshot import read_generation

        try:
            generation = read_generation(path)
        except ExplorerError as exc:
            self.message.setText(self.tr("Not opened: {message}").format(message=exc))
            return
        self.stop()
        self._on_done(generation, "last")
        self.message.setText(self.tr("{path} (read-only)").format(path=path))
        self._buttons()

    def step_once(self) -> None:
        self._play.stop()
        if self.generation is None:
            self.generate("first")
            return
        if self.step < len(self.generation.steps) - 1:
            self.slider.setValue(self.step + 1)

    def play(self) -> None:
        if self.generation is None:
            self.generate("play")
            return
        if self.step >= len(self.generation.steps) - 1:
            self.slider.setValue(0)
        self._play.start()
        self._buttons()

    def stop(self) -> None:
        self._play.stop()
        if self.job is not None:
            self.job.cancel()
        self._buttons()

    def shutdown(self) -> None:
        """The window is closing: stop the job and wait for it."""
        self.stop()
        if self.job is not None:
            self.job.wait(10_000)

    def _advance(self) -> None:
        if self.generation is None or self.step >= len(self.generation.steps) - 1:
            self._play.stop()
            self._buttons()
            return
        self.slider.setValue(self.step + 1)

    def _on_step(self, step) -> None:
        self._live.append(step)
        self.message.setText(self.tr("Generating… {n} tokens: {text}").format(n=len(self._live), text=" ".join(visible(s.token) for s in self._live)))

    def _on_done(self, generation, then: str) -> None:
        self.generation = generation
        notices = list(generation.notices)
        if generation.stopped == "cancelled":
            notices.append(self.tr("stopped after {n} tokens").format(n=len(generation.steps)))
        self.message.setText("; ".join(notices))
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, len(generation.steps) - 1))
        self.slider.setValue(len(generation.steps) - 1 if then == "last" else 0)
        self.slider.blockSignals(False)
        self.step = self.slider.value()
        self._show()
        if then == "play":
            self._play.start()

    def _on_failed(self, message: str) -> None:
        self.message.setText(self.tr("Not generated: {message}").format(message=message))

    def _job_finished(self) -> None:
        self.job = None
        self._buttons()

    def _buttons(self) -> None:
        running = self.job is not None
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running or self._play.isActive())
        self.slider.setEnabled(self.generation is not None)

    def _scrub(self, value: int) -> None:
        self.step = value
        self._show()

    # ------------------------------------------------------------------ drawing
    def _show(self) -> None:
        g = self.generation
        if g is None:
            self.step_label.setText(self.tr("Step –"))
            self.text_label.setText(self.tr("Press Generate (or Step, or Play) to continue the first sentence of the text."))
            self.cost_label.clear()
            return
        t = min(self.step, len(g.steps) - 1)
        if t < 0:
            return
        cfg = g.trace.config
        sel = self.state.selection
        layer = min(max(sel.layer, 0), cfg.layers - 1)
        head = min(max(sel.head, 0), cfg.H - 1)
        kv_head = names.kv_head_of(head, cfg.H, cfg.H_kv)
        step = g.steps[t]
        self.step_label.setText(self.tr("Step {t} / {n}").format(t=t + 1, n=len(g.steps)))
        self._show_text(g, t)
        # the attention so far
        data, blocked = frames.attention_so_far(g, layer, head, t)
        labels = [visible(s) for s in frames.labels(g, t)]
        self.map.set_matrix(data, labels, labels, signed=False, levels=(0.0, 1.0), blocked=blocked)
        self.map.set_highlight(step.query, None)
        self.map.set_axis_titles(
            self.tr("query (row)"), self.tr("key (column)"),
            self.tr("layer {l}, head {h}: the prefill's map and one new row per step").format(l=layer, h=head),
        )
        # the cache
        new = frames.new_rows(g, t)
        for which, title, table in (("k", self.k_title, self.k_table), ("v", self.v_title, self.v_table)):
            rows = frames.cache_table(g, layer, kv_head, t, which)
            if rows is None:
                title.setText(self.tr("No cache: every step recomputed the keys and values of the whole text"))
                table.clear()
                table.setRowCount(0)
                table.setColumnCount(0)
                continue
            what = self.tr("K cache") if which == "k" else self.tr("V cache")
            title.setText(self.tr("{what}, layer {l}, key/value head {g}: {n} rows × {d} (new rows highlighted)").format(
                what=what, l=layer, g=kv_head, n=rows.shape[0], d=rows.shape[1]))
            self._fill(table, rows, labels, new)
        # chosen token and alternatives
        self.top_table.setColumnCount(2)
        self.top_table.setRowCount(len(step.top))
        self.top_table.setHorizontalHeaderLabels([self.tr("token"), self.tr("probability")])
        chosen_shown = False
        for r, (tid, tok, p) in enumerate(step.top):
            a, b = QTableWidgetItem(visible(tok)), QTableWidgetItem(f"{p:.3f}")
            if tid == step.token_id:
                chosen_shown = True
                for item in (a, b):
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                    item.setBackground(QBrush(self.palette().color(QPalette.ColorRole.Highlight).lighter(160)))
            self.top_table.setItem(r, 0, a)
            self.top_table.setItem(r, 1, b)
        if not chosen_shown:  # sampled outside the top few: add it
            r = self.top_table.rowCount()
            self.top_table.setRowCount(r + 1)
            self.top_table.setItem(r, 0, QTableWidgetItem(visible(step.token)))
            self.top_table.setItem(r, 1, QTableWidgetItem(f"{step.prob:.3f}"))
        self._show_cost(g, t)

    def _show_text(self, g, t: int) -> None:
        from html import escape

        sep = " " if g.trace.tokenizer_kind == "word" else ""
        done = sep.join(escape(visible(s.token)) for s in g.steps[:t])
        new = escape(visible(g.steps[t].token))
        colour = self.palette().color(QPalette.ColorRole.Highlight).name()
        self.text_label.setText(
            f"{escape(g.prompt)}{sep}<span style='color:gray'>{done}</span>{sep}<b style='color:{colour}'>{new}</b>"
        )

    def _fill(self, table: QTableWidget, rows, labels, new: range) -> None:
        n, d = rows.shape
        shown = min(d, MAX_TABLE_COLUMNS)
        table.setUpdatesEnabled(False)
        table.clear()
        table.setRowCount(n)
        table.setColumnCount(shown)
        table.setHorizontalHeaderLabels([str(j) for j in range(shown)])
        table.setVerticalHeaderLabels([f"{i} {labels[i]}" for i in range(n)])
        mark = QBrush(QColor(self.palette().color(QPalette.ColorRole.Highlight)).lighter(160))
        for i in range(n):
            for j in range(shown):
                item = QTableWidgetItem(f"{rows[i, j]:.2f}")
                if i in new:
                    item.setBackground(mark)
                table.setItem(i, j, item)
        table.setUpdatesEnabled(True)
        table.scrollToItem(table.item(new[-1], 0)) if n else None

    def _show_cost(self, g, t: int) -> None:
        cfg = g.trace.config
        step = g.steps[t]
        itemsize = 8 if g.trace.options.dtype == "float64" else 4
        cost = step_cost(cfg, step.keys, itemsize)
        how = self.tr("with the cache") if step.cached else (self.tr("the prefill") if t == 0 else self.tr("without the cache"))
        lines = [
            self.tr("Step {t}: the query at position {q} attends to {k} keys. Multiply-adds with the cache {mc}, "
                    "without {mn} (×{r:.0f}). Measured: {ms:.1f} ms ({how}).").format(
                t=t + 1, q=step.query, k=step.keys, mc=_count(cost.macs_cache), mn=_count(cost.macs_no_cache),
                r=cost.saving, ms=step.ms, how=how),
        ]
        if g.use_cache:
            lines.append(self.tr("The cache holds {n} positions × {L} layers × {h} heads × (D + D_v = {dd}): {b}B.").format(
                n=step.keys, L=cfg.layers, h=cfg.H_kv, dd=cfg.D + cfg.D_v, b=_count(cost.cache_bytes)))
            if cfg.H_kv < cfg.H:
                lines.append(self.tr("Grouped-query heads: {h} query heads share {g} key/value heads, so the cache holds "
                                     "{b}B instead of {a}B ({p:.0f} % less).").format(
                    h=cfg.H, g=cfg.H_kv, b=_count(cost.cache_bytes), a=_count(cost.cache_bytes_all_heads),
                    p=100 * (1 - cost.cache_bytes / cost.cache_bytes_all_heads)))
        self.cost_label.setText("\n".join(lines))


class _NoHeightForWidth(QVBoxLayout):
    """A layout that does not report height-for-width: with wrapped labels inside, a resizable QScrollArea
    sizes its widget to the preferred height (the map then hid below the fold) instead of the minimum."""

    def hasHeightForWidth(self) -> bool:
        return False


class GenerateJobFactory:
    """Where the panel gets its worker thread (a test can hand it another)."""

    @staticmethod
    def make(*args):
        from explorer.ui.generate_job import GenerateJob

        return GenerateJob(*args)
