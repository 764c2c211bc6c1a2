"""The note's identities with the real numbers of the selected layer and sentence:

(a) MultiHead(x) = Σᵢ Rⁱ·W_oⁱ beside [R¹ … Rᴴ]·W_o: two C×E heatmaps and their largest difference;
(b) W_v ≈ W_v1·W_v2 at rank r: reconstruction error and parameter counts before and after.

The arithmetic lives in explorer.analysis.identities; this view only slices the trace and formats.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from explorer import names
from explorer.analysis import identities as ident
from explorer.present.token_parts import readable_tokens
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.base import View
from explorer.ui.views.map.map_layers import colour_map
from explorer.ui.views.plot_bits import SCALED_COLOUR, UNSCALED_COLOUR, MatrixPlot, pen, set_axis_title

# Σᵢ Rⁱ·W_oⁱ = concat·W_o is shown for at most this many tokens of a sentence (C×E maps of thousands of
# rows are unreadable, and the products cost the GUI thread seconds).
MAX_IDENTITY_TOKENS = 64

# Up to this size the SVD runs at once (milliseconds); larger ones run in a thread.
SYNC_SVD_SIZE = 256


class IdentitiesView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self._svd = JobSlot(self)  # the large SVDs, off the GUI thread (a superseded one's result is dropped)
        self._svd.succeeded.connect(self._on_rank_computed)
        self._key: tuple | None = None  # (trace id, layer, row) last computed
        self._svd_key: tuple | None = None
        self._lowrank: ident.LowRank | None = None
        self.result: ident.MultiheadIdentity | None = None
        self.rank_error: float | None = None
        self._chosen_rank = 0  # 0: not chosen yet
        self._build_heads_group()
        self._build_rank_group()
        self._build_layout()
        self.retranslate()
        state.traceChanged.connect(self.when_shown(lambda _t: self._refresh()))
        state.selectionChanged.connect(self.when_shown(lambda _s: self._refresh()))

    def _build_heads_group(self) -> None:
        """(a) the multi-head identity: Σᵢ Rⁱ·W_oⁱ beside concat·W_o, the verdict above them."""
        self.heads_group = QGroupBox()
        self.heads_caption = QLabel()
        self.heads_caption.setWordWrap(True)
        self.maps = pg.GraphicsLayoutWidget()
        self.sum_plot = MatrixPlot(self.maps.addPlot(row=0, col=0))
        self.concat_plot = MatrixPlot(self.maps.addPlot(row=0, col=1))
        self.colour_bar = pg.ColorBarItem(colorMap=colour_map(True), interactive=False, width=12)
        self.colour_bar.setImageItem([self.sum_plot.image, self.concat_plot.image])
        self.maps.addItem(self.colour_bar, row=0, col=2)
        self.difference = QLabel()
        self.difference.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.difference.setWordWrap(True)
        a = QVBoxLayout(self.heads_group)
        # The verdict first: a short dock shows it without scrolling, the maps below are its evidence.
        a.addWidget(self.difference)
        a.addWidget(self.heads_caption)
        a.addWidget(self.maps, 1)

    def _build_rank_group(self) -> None:
        """(b) low rank: W_v ≈ W_v1 · W_v2 at a chosen rank, with the singular values kept and dropped."""
        self.rank_group = QGroupBox()
        self.rank_caption = QLabel()
        self.rank_caption.setWordWrap(True)
        self.rank_label = QLabel()
        self.rank_slider = QSlider(Qt.Orientation.Horizontal)
        self.rank_spin = QSpinBox()
        self.rank_slider.valueChanged.connect(self.rank_spin.setValue)
        self.rank_spin.valueChanged.connect(self.rank_slider.setValue)
        self.rank_spin.valueChanged.connect(self._rank_moved)
        self.rank_numbers = QLabel()
        self.rank_numbers.setWordWrap(True)
        self.rank_numbers.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note_example = QLabel()
        self.note_example.setWordWrap(True)
        self.spectrum = pg.PlotWidget()
        self.spectrum.setMouseEnabled(x=False, y=False)
        self.spectrum.hideButtons()
        self.spectrum.setMinimumHeight(110)
        self.kept_curve = self.spectrum.plot(
            [], [], pen=None, symbol="o", symbolSize=5, symbolBrush=SCALED_COLOUR, symbolPen=None
        )
        self.dropped_curve = self.spectrum.plot(
            [], [], pen=None, symbol="o", symbolSize=5, symbolBrush=UNSCALED_COLOUR, symbolPen=None
        )
        self.rank_line = pg.InfiniteLine(angle=90, pen=pen(UNSCALED_COLOUR, 1, dashed=True))
        self.spectrum.addItem(self.rank_line)
        row = QHBoxLayout()
        row.addWidget(self.rank_label)
        row.addWidget(self.rank_slider, 1)
        row.addWidget(self.rank_spin)
        b = QVBoxLayout(self.rank_group)
        b.addLayout(row)
        b.addWidget(self.rank_numbers)
        b.addWidget(self.rank_caption)
        b.addWidget(self.spectrum, 1)
        b.addWidget(self.note_example)

    def _build_layout(self) -> None:
        inner = QWidget()
        lay = QHBoxLayout(inner)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.heads_group, 3)
        lay.addWidget(self.rank_group, 2)
        # Wrapped captions do not count in a layout's minimum height: in a short dock they slid over the
        # plots. Below this height the panel scrolls instead.
        inner.setMinimumHeight(380)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def shutdown(self) -> None:
        """The window is closing: a running SVD is waited for, or kept alive apart from the panel."""
        self._svd.shutdown()

    def closeEvent(self, event) -> None:  # a panel shown alone (a test) closes without the window's shutdown
        self._svd.shutdown()
        super().closeEvent(event)

    def retranslate(self) -> None:
        self.heads_group.setTitle(self.tr("Multi-head: the sum of heads equals the concatenation"))
        self.rank_group.setTitle(self.tr("Low rank: W_v ≈ W_v1 · W_v2"))
        self.rank_label.setText(self.tr("rank r"))
        tip = self.tr("Keep the r largest singular values: W_v1 (E×r) · W_v2 (r×E) is the best rank-r approximation")
        for w in (self.rank_slider, self.rank_spin, self.rank_label):
            w.setToolTip(tip)
        self.maps.setToolTip(
            self.tr("Rows: tokens (query positions). Columns: the E numbers of each token's attention output.")
        )
        self.spectrum.setToolTip(
            self.tr("Singular values of the E×E value matrix, largest first (blue: kept, orange: dropped at rank r)")
        )
        self.sum_plot.plot.setTitle(self.tr("Σᵢ Rⁱ · W_oⁱ  (C×E)"))
        self.concat_plot.plot.setTitle(self.tr("[R¹ … Rᴴ] · W_o  (C×E)"))
        for p in (self.sum_plot.plot, self.concat_plot.plot):
            set_axis_title(p, "bottom", self.tr("embedding dimension (E)"))
        counts = ident.parameter_counts(100, 100, 10)
        self.note_example.setText(
            self.tr("The note's example: E = 100, r = 10: {before} → {after} parameters ({saving}).").format(
                before=f"{counts.before:,}", after=f"{counts.after:,}", saving=f"−{counts.saving:.0%}"
            )
        )
        self._key = self._svd_key = None
        self._refresh()

    def palette_changed(self) -> None:
        """View → Colours: the two maps and their colour bar in the new palette, numbers recoloured."""
        self.colour_bar.setColorMap(colour_map(True))
        self._key = None
        self._refresh()

    # ------------------------------------------------------------------ computing
    def _refresh(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        if trace is None:
            return
        key = (trace.layer_serial(sel.layer), sel.layer, sel.row)
        if key != self._key:
            self._key = key
            self._show_heads(trace, sel.layer, sel.row)
        # Keyed by the weights, not the trace: a new sentence on the same model needs no new SVD (seconds
        # for GPT-2's 768×768 on one core).
        svd_key = (
            sel.layer,
            ident.fingerprint(trace.get(f"params.layers.{sel.layer}.attn.W_v")),
            ident.fingerprint(trace.get(f"params.layers.{sel.layer}.attn.W_o")),
        )
        if svd_key != self._svd_key:
            self._svd_key = svd_key
            self._prepare_rank(trace, sel.layer)

    def _show_heads(self, trace, layer: int, b: int) -> None:
        cfg = trace.config
        heads_n, concat_n = names.attn(layer, "heads"), names.attn(layer, "concat")
        wo_n = f"params.layers.{layer}.attn.W_o"
        self.result = None
        if cfg.unfactored_value or wo_n not in trace:
            self.heads_caption.setText(
                self.tr("This model has no W_o (the note's single head with W_v of size E×E): there is nothing to sum.")
            )
            self.maps.setVisible(False)
            self.difference.setText("")
            return
        if heads_n not in trace or concat_n not in trace:
            self.heads_caption.setText(self.tr("Layer {l} was not captured in this trace.").format(l=layer))
            self.maps.setVisible(False)
            self.difference.setText("")
            return
        row = trace.rows[b]
        n = min(row.length, MAX_IDENTITY_TOKENS)  # the first tokens show it as well as all of them
        heads = trace[heads_n][b, :, :n]  # (H, C, D_v): the note's Rⁱ for this sentence
        concat = trace[concat_n][b, :n]  # (C, H·D_v)
        W_o = trace[wo_n]  # (H·D_v, E)
        result = ident.multihead_identity(heads, concat, W_o)
        self.result = result
        self.maps.setVisible(True)
        self.heads_caption.setText(
            self.tr(
                "Layer {l}, sentence {b}: each head's output Rⁱ (C×{dv}) times its own rows of W_o ({dv}×{e}), "
                "summed over the {h} heads, against the concatenation (C×{hdv}) times the whole W_o "
                "({hdv}×{e})."
            ).format(l=layer, b=b + 1, dv=cfg.D_v, e=cfg.E, h=cfg.H, hdv=cfg.H * cfg.D_v)
        )
        finite = np.abs(result.concat_form[np.isfinite(result.concat_form)])  # NaN, ±∞ (an overflowed run): no scale
        bound = float(max(finite.max(initial=0.0), 1e-12))
        levels = (-bound, bound)  # symmetric: 0 is the middle of the diverging map
        tokens = readable_tokens(tuple(row.tokens))[:n]
        self.sum_plot.set_matrix(result.sum_form, levels, tokens)
        self.concat_plot.set_matrix(result.concat_form, levels, tokens)
        self.colour_bar.setLevels(levels)
        verdict = (
            self.tr("equal (only {dtype} rounding)").format(dtype=trace.options.dtype)
            if result.equal
            else self.tr("NOT equal")
        )
        self.difference.setText(
            self.tr("max |difference| = {d:.2e} → {verdict}").format(d=result.max_abs_difference, verdict=verdict)
        )

    def _prepare_rank(self, trace, layer: int) -> None:
        cfg = trace.config
        wv_n, wo_n = f"params.layers.{layer}.attn.W_v", f"params.layers.{layer}.attn.W_o"
        if wv_n not in trace:
            self._lowrank = None
            self.rank_caption.setText(self.tr("This trace holds no W_v for layer {l}.").format(l=layer))
            self.rank_numbers.setText("")
            return
        W_o = None if cfg.unfactored_value or wo_n not in trace else trace[wo_n]
        M = ident.value_matrix(trace[wv_n], W_o, cfg.H, cfg.H_kv, cfg.D_v)  # (E, E)
        if M.shape[0] <= SYNC_SVD_SIZE:
            self._svd.drop()  # an SVD still running for another model or layer must not land over this one
            self._apply_rank(ident.low_rank(M), cfg, layer, W_o is None)
            return
        # A real model's 768×768 (or larger) SVD takes a second or more: off the GUI thread, so the window
        # keeps responding while it runs; the panel says so meanwhile.
        self._lowrank = None
        self.rank_numbers.setText(self.tr("computing the singular values of the {e}×{e} matrix…").format(e=M.shape[0]))
        unfactored = W_o is None
        # A job of the panel's own slot (explorer/ui/background/jobs.py), never a bare thread holding the panel: that
        # thread dropped the last reference to a closed panel, and a widget destroyed off the GUI thread crashes Qt.
        self._svd.submit(lambda _report, _cancel: (ident.low_rank(M), cfg, layer, unfactored))

    def _on_rank_computed(self, payload) -> None:
        self._apply_rank(*payload)  # only the newest submit's result arrives

    def _apply_rank(self, lowrank, cfg, layer: int, unfactored: bool) -> None:
        self._lowrank = lowrank
        M = lowrank.M
        if unfactored:
            text = self.tr("Layer {l}: W_v is one E×E matrix ({e}×{e}). Factor it through r numbers per token.")
        else:
            text = self.tr(
                "Layer {l}: the model already stores the value path factored, W_v ({e}×{hdv}) · W_o "
                "({hdv}×{e}): the note's W_v1 · W_v2 with r = H·D_v = {hdv}. "
                "Below, their product as one {e}×{e} matrix, cut to rank r."
            )
        self.rank_caption.setText(text.format(l=layer, e=cfg.E, hdv=cfg.H * cfg.D_v))
        E = M.shape[0]
        s = self._lowrank.s
        self.spectrum.setXRange(0.5, len(s) + 0.5, padding=0.02)
        step = max(1, len(s) // 8)
        self.spectrum.getAxis("bottom").setTicks(
            [[(k, str(k)) for k in range(1, len(s) + 1) if k == 1 or k % step == 0]]
        )
        # Keep the rank the user chose; start at E/10 like the note's example (E = 100, r = 10).
        r = min(self._chosen_rank, E) if self._chosen_rank else max(1, E // 10)
        for w in (self.rank_slider, self.rank_spin):
            w.blockSignals(True)
            w.setRange(1, E)
        self.rank_slider.setValue(r)
        self.rank_spin.setValue(r)
        for w in (self.rank_slider, self.rank_spin):
            w.blockSignals(False)
        self._show_rank()

    def _rank_moved(self, r: int) -> None:
        self._chosen_rank = r
        self._show_rank()

    def _show_rank(self) -> None:
        lr = self._lowrank
        if lr is None:
            return
        r = self.rank_spin.value()
        rows, cols = lr.shape
        counts = ident.parameter_counts(rows, cols, r)
        err = self.rank_error = lr.relative_error(r)
        self.rank_numbers.setText(
            self.tr(
                "W_v ({m}×{n}) ≈ W_v1 ({m}×{r}) · W_v2 ({r}×{n})\n"
                "relative error ‖W_v − W_v1·W_v2‖ / ‖W_v‖ = {err:.2e}  (numerical rank {rank})\n"
                "parameters: {before} → {after}  ({saving})"
            ).format(
                m=rows,
                n=cols,
                r=r,
                err=err,
                rank=lr.numerical_rank(),
                before=f"{counts.before:,}",
                after=f"{counts.after:,}",
                saving=f"{-counts.saving:+.0%}",
            )
        )
        s = lr.s
        idx = list(range(1, len(s) + 1))
        self.kept_curve.setData(idx[:r], s[:r])
        self.dropped_curve.setData(idx[r:], s[r:])
        self.rank_line.setPos(r + 0.5)
