"""The Model view: every layer × every head of the model as a grid of small maps, filled in layer by layer
as a background job derives them, with the window's stage, sentence and query token; click a map to open
that head in the central view. A score (entropy, previous token, first token, induction) sorts the heads of
each layer and outlines the most notable ones of the model, so a student finds the previous-token, sink and
induction heads of a real model. Export: PNG or SVG of the grid."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from explorer import names
from explorer.analysis import head_scores
from explorer.errors import ExplorerError
from explorer.present import model_view as mv
from explorer.ui.background.job_runner import runner_of
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views import model_anatomy
from explorer.ui.views.base import View
from explorer.ui.views.head_mosaic import HeadMosaic
from explorer.ui.views.map.heatmap import colour_map
from explorer.work.model_view import InductionSent, LayerSent, ModelViewRequest, model_view_work

BEST_LISTED = 5


def colour_table(signed: bool) -> np.ndarray:
    """(256, 4) uint8: the colour map the other maps use, as a table the job can colour with."""
    return np.ascontiguousarray(colour_map(signed).getLookupTable(0.0, 1.0, 256, alpha=True), dtype=np.uint8)


class ModelView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.slot = JobSlot(self)  # a superseded request's layers, still queued, are dropped by its ticket
        self.slot.sent.connect(self._on_sent)
        self.slot.failed.connect(self._failed)
        self._key: tuple | None = None
        self._layers: dict[int, mv.LayerHeads] = {}
        self._shape = (0, 0)
        self._induction: np.ndarray | None = None
        self._induction_key: tuple | None = None
        self._note = ""
        self.score_label = QLabel()
        self.score = QComboBox()
        for key in ("none", *head_scores.SCORES):
            self.score.addItem("", key)
        self.score.currentIndexChanged.connect(lambda _i: self._apply_scores())
        self.sort = QCheckBox()
        self.sort.toggled.connect(lambda _on: self._apply_scores())
        self.save = QPushButton()
        self.save.clicked.connect(lambda: self.export_figure())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.best = QLabel()
        self.best.setWordWrap(True)
        self.mosaic = HeadMosaic()
        self._after_paint = False  # the maps are asked for after the panel's first paint (showEvent)
        self.mosaic.installEventFilter(self)
        self.mosaic.tip = self._tip
        self.mosaic.headClicked.connect(self._open)
        self.chosen_cell = None  # (layer, head, query, key) clicked: “How is this made?” explains it (issue 39)
        self.mosaic.mapPressed.connect(lambda *point: model_anatomy.pressed(self, *point))
        self.mosaic.mapContextRequested.connect(lambda *point: model_anatomy.context_menu(self, *point))
        # Two short rows: the panel shares the side column's width (a wider minimum would squeeze the map).
        self.score.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.score.setMinimumContentsLength(12)
        top, second = QHBoxLayout(), QHBoxLayout()
        top.addWidget(self.score_label)
        top.addWidget(self.score, 1)
        second.addWidget(self.sort)
        second.addStretch(1)
        second.addWidget(self.save)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addLayout(top)
        outer.addLayout(second)
        outer.addWidget(self.status)
        outer.addWidget(self.best)
        outer.addWidget(self.mosaic, 1)
        self._refresh_shown = self.when_shown(self._refresh)
        state.traceChanged.connect(lambda _t: self._refresh_shown())
        state.selectionChanged.connect(self._on_selection)
        self.retranslate()

    def retranslate(self) -> None:
        words = {
            "none": self.tr("none"),
            "entropy": self.tr("entropy (sharp heads first)"),
            "previous": self.tr("previous token"),
            "first": self.tr("first token (sink)"),
            "induction": self.tr("induction (repeated random tokens)"),
        }
        for i in range(self.score.count()):
            self.score.setItemText(i, words[self.score.itemData(i)])
        self.score_label.setText(self.tr("Score:"))
        self.score.setToolTip(
            self.tr(
                "One number per head: entropy = how spread each query's weights are (0: all on one key); "
                "previous token = weight on the token just before; first token = weight on the first token "
                "(an attention sink); induction = on random tokens written twice, weight on the token after the "
                "same token's first occurrence"
            )
        )
        self.sort.setText(self.tr("Sort each layer"))
        self.sort.setToolTip(
            self.tr("Order each layer's heads by the score, most notable first (each map shows its head number)")
        )
        self.save.setText(self.tr("Save image…"))
        self.save.setToolTip(self.tr("Save the grid as a PNG picture or an SVG drawing"))
        self.mosaic.axis_words = (self.tr("layer"), self.tr("head"))
        self.mosaic.setToolTip("")
        self.mosaic.setAccessibleName(self.tr("Every layer's heads"))
        self.mosaic.setAccessibleDescription(
            self.tr("Arrow keys move between heads; Enter opens the head in the central view")
        )
        self._show_status()
        self._apply_scores()

    # ------------------------------------------------------------------ requests
    def _bundle(self):
        if self.state.read_only:
            return None
        return runner_of(self).models.peek(self.state.source)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        # Built after the trace came, or shown again after the text changed while hidden: the maps are asked
        # for once the panel has painted, so that the worker's Python does not slow its opening down (begun at
        # once, the opening's longest stall was 51–69 ms: the window's thread shared the interpreter with it).
        self._after_paint = True

    def eventFilter(self, obj, event) -> bool:
        if obj is self.mosaic and event.type() == QEvent.Type.Paint and self._after_paint:
            self._after_paint = False
            QTimer.singleShot(0, self, self._refresh)
        return False

    def _refresh(self) -> None:
        trace = self.state.trace
        if trace is None or trace.partial:
            return
        sel = self.state.selection
        stage, row = mv.shown_stage(sel.stage), min(sel.row, trace.B - 1)
        bundle = self._bundle()
        text = "\n".join(r.text for r in trace.rows)
        options = trace.options.replace(layers_to_capture=None, lazy_pairwise=False)
        from_trace = bundle is None or mv.holds_every_layer(trace)
        source = ("trace", trace.serial) if from_trace else ("model", self.state.source, id(bundle), text, options)
        key = (*source, stage, row)
        self._mark(sel, trace)
        if key == self._key:
            return
        self._key = key
        self._layers = {}
        self._shape = (trace.config.layers, trace.config.H)
        self.mosaic.reset(*self._shape)
        self.chosen_cell = None  # new maps: the cell chosen on the old ones is not theirs
        self._note = self._source_note(trace, from_trace, bundle)
        if mv.too_long(trace, row, from_trace):  # every layer's whole maps of a long sentence: gigabytes
            self.slot.drop()
            self.status.setText(
                self.tr("This sentence has {n} tokens: the model view shows sentences of up to {m}.").format(
                    n=trace.rows[row].length, m=mv.MAX_TOKENS
                )
            )
            return
        induction_key = None if bundle is None else (self.state.source, id(bundle), options)
        if induction_key != self._induction_key:
            self._induction_key, self._induction = induction_key, None
        lut = colour_table(names.spec(names.attn(0, stage)).signed)
        request = ModelViewRequest(
            trace,
            bundle,
            text,
            trace.options,
            stage,
            row,
            lut,
            induction=bundle is not None and self._induction is None,
        )
        self.slot.submit(model_view_work(request))
        self._show_status()
        self._apply_scores()

    def _source_note(self, trace, from_trace: bool, bundle) -> str:
        if from_trace and bundle is None and not mv.holds_every_layer(trace):
            return self.tr("this trace holds {k} of the model's {L} layers; open the model to see them all").format(
                k=len(trace.layers), L=trace.config.layers
            )
        if not from_trace and not self.state.interventions.empty:
            return self.tr("the maps are the model's without the interventions")
        return ""

    # ------------------------------------------------------------------ results
    def _on_sent(self, sent) -> None:
        if isinstance(sent, LayerSent):
            self._on_heads(sent.heads)
        elif isinstance(sent, InductionSent):
            self._on_induction(sent.scores)

    def _on_heads(self, heads) -> None:
        self._layers[heads.layer] = heads
        self.mosaic.set_layer(heads.layer, heads.images)
        self._show_status()
        self._apply_scores()

    def _on_induction(self, scores) -> None:
        self._induction = np.asarray(scores)
        self._apply_scores()

    def _failed(self, message: str) -> None:
        self._key = None  # try again on the next change
        self.status.setText(message)

    def palette_changed(self) -> None:
        """View → Colours: the maps are coloured by the job; run it again with the new palette's table."""
        self._key = None
        if self.on_screen():
            self._refresh()

    @property
    def complete(self) -> bool:
        """Every layer's maps are in (for a trace that holds only some layers: every one it holds)."""
        L = self._shape[0]
        trace = self.state.trace
        wanted = L if trace is None or self._key is None or self._key[0] != "trace" else len(trace.map_layers)
        return L > 0 and len(self._layers) >= wanted

    def _show_status(self) -> None:
        L = self._shape[0]
        if not L:
            self.status.setText(self.tr("Every layer's heads appear here once a text is traced."))
            return
        parts = [self._summary()]
        if len(self._layers) < L and not self.complete:
            parts.append(self.tr("{k} of {L} layers in…").format(k=len(self._layers), L=L))
        text = " · ".join(parts) + self.tr(" · colours per layer · click a map to open it")
        self.status.setText(text + (f"\n{self._note}" if self._note else ""))

    def _summary(self) -> str:
        """``30 layers × 9 heads · attention weights · 64 tokens``: the status line's start, the figure's title."""
        L, H = self._shape
        stage = self._key[-2] if self._key else "weights"
        words = {
            "scores": self.tr("scores Q·Kᵀ"),
            "scaled": self.tr("scaled scores"),
            "masked": self.tr("masked scores"),
            "weights": self.tr("attention weights"),
        }
        text = self.tr("{L} layers × {H} heads · {stage}").format(L=L, H=H, stage=words[stage])
        n = next(iter(self._layers.values())).tokens if self._layers else 0
        return text + (" · " + self.tr("{n} tokens").format(n=n) if n else "")

    # ------------------------------------------------------------------ scores
    def _score(self) -> str:
        return self.score.currentData() or "none"

    def _table(self, name: str) -> np.ndarray:
        return mv.score_table(self._layers, name, *self._shape, induction=self._induction)

    def _apply_scores(self) -> None:
        name = self._score()
        L, H = self._shape
        if name == "none" or not L:
            self.mosaic.set_order(None)
            self.mosaic.set_marked(())
            self.best.setText("")
            return
        table = self._table(name)
        self.mosaic.set_order(
            np.stack([head_scores.order(table[l], name) for l in range(L)]) if self.sort.isChecked() else None
        )
        best = head_scores.top_heads(table, name)
        self.mosaic.set_marked((l, h) for l, h, _s in best)
        if not best:
            waiting = name != "induction" or self._induction_key is not None
            self.best.setText(
                self.tr("computing…")
                if waiting
                else self.tr("the induction score runs the model: open a model (a snapshot has none)")
            )
            return
        listed = ", ".join(
            self.tr("layer {l} head {h}: {s:.2f}").format(l=l, h=h, s=s) for l, h, s in best[:BEST_LISTED]
        )
        self.best.setText(self.tr("Outlined, most notable: {list}").format(list=listed))

    def _tip(self, layer: int, head: int) -> str:
        lines = [self.tr("layer {l} · head {h}").format(l=layer, h=head)]
        words = {
            "entropy": self.tr("entropy"),
            "previous": self.tr("previous token"),
            "first": self.tr("first token"),
            "induction": self.tr("induction"),
        }
        values = []
        for key in head_scores.SCORES:
            value = self._table(key)[layer, head] if layer < self._shape[0] else np.nan
            if np.isfinite(value):
                values.append(f"{words[key]} {value:.2f}")
        if values:
            lines.append(" · ".join(values))
        lines.append(self.tr("click (or Enter) to open it in the central view"))
        lines.append(self.tr("Ctrl+H or the context menu: how the cell's number is made"))
        return "\n".join(lines)

    # ------------------------------------------------------------------ selection
    def _on_selection(self, sel) -> None:
        trace = self.state.trace
        if trace is not None:
            self._mark(sel, trace)
        if self._key is not None and (mv.shown_stage(sel.stage), sel.row) != self._key[-2:]:
            self._refresh_shown()

    def _mark(self, sel, trace) -> None:
        self.mosaic.set_selected(sel.layer, sel.head)
        row = min(sel.row, trace.B - 1)
        self.mosaic.set_query(sel.token, trace.rows[row].length)

    def _open(self, layer: int, head: int) -> None:
        self.state.select(layer=layer, head=head, stage=mv.shown_stage(self.state.selection.stage))

    def ask_anatomy(self) -> bool:
        """Ctrl+H while the grid has the focus: the chosen cell's steps (explorer/ui/views/model_anatomy.py)."""
        return model_anatomy.ask(self)

    # ------------------------------------------------------------------ window
    def bring_forward(self) -> None:
        """View → Model view (Ctrl+Shift+M): the panel in front and the grid focused for the arrow keys. The dock
        keeps its size: growing it re-lays out the whole window (measured: the opening stall doubled)."""
        dock = self.parentWidget()
        while dock is not None and not hasattr(dock, "toggleViewAction"):
            dock = dock.parentWidget()
        if dock is not None:
            dock.show()
            dock.raise_()
        self.mosaic.setFocus()

    def export_widget(self):
        return self.mosaic

    def export_figure(self, path: str | None = None, tile_px: int = 64) -> str | None:
        """The grid as PNG (maps of ``tile_px`` pixels) or SVG; asks for a file when ``path`` is None."""
        from explorer.ui.views.model_view_export import ask_path, save_grid

        path = path or ask_path(self)
        if not path:
            return None
        trace = self.state.trace
        title = [trace.model_name or trace.source] if trace is not None else []
        title.append(self._summary())
        if self._score() != "none":
            title.append(self.tr("outlined: {score}").format(score=self.score.currentText()))
        self.mosaic.title = " · ".join(t for t in title if t)
        try:
            return str(save_grid(self.mosaic, path, tile_px))
        except ExplorerError as exc:
            self.status.setText(QCoreApplication.translate("FileOps", "Export view") + f": {exc}")
            return None

    def shutdown(self) -> None:
        self.slot.shutdown()
