"""Why divide by √D: the variance of the scores and the entropy of softmax's rows, with and without it.

(a) the current trace, selected layer and sentence, all heads, over the keys the mask allows;
(b) a sweep over D = 1 … 512 with random unit-variance q and k: unscaled variance grows like D and the
rows collapse to one-hot; scaled, both stay flat. The current D is marked. Numbers come from
explorer.analysis.scaling.
"""

from __future__ import annotations

import html
import math
from functools import lru_cache

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout

from explorer.analysis import scaling
from explorer.ui.views.base import View, scrolling_body
from explorer.ui.views.plot_bits import SCALED_COLOUR, UNSCALED_COLOUR, pen, set_axis_title


@lru_cache(maxsize=1)
def _sweep() -> scaling.Sweep:
    return scaling.sweep()


def _fmt(x: float) -> str:
    return "—" if not math.isfinite(x) else (f"{x:.3g}" if abs(x) < 1e4 else f"{x:.2e}")


class ScalingView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.stats: scaling.ScoreStats | None = None
        self._key: tuple | None = None
        self._build_trace_group()
        self._build_sweep_group()
        lay = QHBoxLayout(scrolling_body(self))
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.trace_group, 2)
        lay.addWidget(self.sweep_group, 5)
        self.retranslate()
        state.traceChanged.connect(self.when_shown(lambda _t: self._refresh()))
        state.selectionChanged.connect(self.when_shown(lambda _s: self._refresh()))

    def _build_trace_group(self) -> None:
        """(a) this trace: score variance and row entropy, raw and ÷√D."""
        self.trace_group = QGroupBox()
        self.trace_caption = QLabel()
        self.trace_caption.setWordWrap(True)
        grid = QGridLayout()
        self.col_raw, self.col_scaled = QLabel(), QLabel()
        self.row_var, self.row_entropy = QLabel(), QLabel()
        self.cells = {k: QLabel() for k in ("var_raw", "var_scaled", "entropy_raw", "entropy_scaled")}
        for c in self.cells.values():
            c.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            c.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.col_raw, 0, 1)
        grid.addWidget(self.col_scaled, 0, 2)
        grid.addWidget(self.row_var, 1, 0)
        grid.addWidget(self.cells["var_raw"], 1, 1)
        grid.addWidget(self.cells["var_scaled"], 1, 2)
        grid.addWidget(self.row_entropy, 2, 0)
        grid.addWidget(self.cells["entropy_raw"], 2, 1)
        grid.addWidget(self.cells["entropy_scaled"], 2, 2)
        self.trace_note = QLabel()
        self.trace_note.setWordWrap(True)
        a = QVBoxLayout(self.trace_group)
        a.addWidget(self.trace_caption)
        a.addLayout(grid)
        a.addWidget(self.trace_note)
        a.addStretch(1)

    def _build_sweep_group(self) -> None:
        """(b) the sweep over D with random q and k: variance and entropy, the current D marked."""
        self.sweep_group = QGroupBox()
        self.sweep_caption = QLabel()
        self.sweep_caption.setWordWrap(True)
        self.var_plot = pg.PlotWidget()
        self.entropy_plot = pg.PlotWidget()
        sw = _sweep()
        dims = np.array(sw.dims, dtype=float)
        self.var_plot.setLogMode(x=True, y=True)
        self.entropy_plot.setLogMode(x=True, y=False)
        for p in (self.var_plot, self.entropy_plot):
            p.setMouseEnabled(x=False, y=False)
            p.hideButtons()
            p.showGrid(x=True, y=True, alpha=0.25)
            p.setMinimumHeight(140)
        # The legend is a line of text under the plots, not a box inside them: in a narrow panel a box
        # covered the curves and ran out of its plot.
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)  # coloured swatches; the words are escaped
        self.legend.setWordWrap(True)
        sym = dict(symbol="o", symbolSize=5)
        self.var_raw_curve = self.var_plot.plot(
            dims, sw.var_raw, pen=pen(UNSCALED_COLOUR), symbolBrush=UNSCALED_COLOUR, **sym
        )
        self.var_scaled_curve = self.var_plot.plot(
            dims, sw.var_scaled, pen=pen(SCALED_COLOUR), symbolBrush=SCALED_COLOUR, **sym
        )
        self.h_raw_curve = self.entropy_plot.plot(
            dims, sw.entropy_raw, pen=pen(UNSCALED_COLOUR), symbolBrush=UNSCALED_COLOUR, **sym
        )
        self.h_scaled_curve = self.entropy_plot.plot(
            dims, sw.entropy_scaled, pen=pen(SCALED_COLOUR), symbolBrush=SCALED_COLOUR, **sym
        )
        self.uniform_line = pg.InfiniteLine(pos=sw.entropy_uniform, angle=0, pen=pen((128, 128, 128), 1, dashed=True))
        self.entropy_plot.addItem(self.uniform_line)
        self.entropy_plot.setYRange(0, sw.entropy_uniform * 1.08, padding=0)
        # The current D: a vertical line on both plots (log-x plots place items at log10 of the value).
        self.d_lines = [
            pg.InfiniteLine(
                angle=90, pen=pen((128, 128, 128), 1.5), label="", labelOpts=dict(position=where, color=(128, 128, 128))
            )
            for where in (0.92, 0.6)  # clear of the curves and of the dashed line
        ]
        self.var_plot.addItem(self.d_lines[0])
        self.entropy_plot.addItem(self.d_lines[1])
        plots = QHBoxLayout()
        plots.addWidget(self.var_plot)
        plots.addWidget(self.entropy_plot)
        b = QVBoxLayout(self.sweep_group)
        b.addWidget(self.sweep_caption)
        b.addLayout(plots, 1)
        b.addWidget(self.legend)

    def retranslate(self) -> None:
        sw = _sweep()
        self.trace_group.setTitle(self.tr("This trace"))
        self.sweep_group.setTitle(self.tr("As D grows (random q and k)"))
        self.col_raw.setText(self.tr("Q·Kᵀ"))
        self.col_scaled.setText(self.tr("Q·Kᵀ / √D"))
        for w in (self.col_raw, self.col_scaled):
            w.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.row_var.setText(self.tr("variance of the scores"))
        self.row_var.setToolTip(self.tr("How spread out the scores are, over the cells the mask allows"))
        self.row_entropy.setText(self.tr("mean row entropy (nats)"))
        self.row_entropy.setToolTip(self.tr("How evenly softmax spreads each row: 0 = one-hot (all weight on one key)"))
        self.sweep_caption.setText(
            self.tr(
                "{q} random queries against {k} random keys, every entry of variance 1 (fixed seed). Without "
                "÷√D the variance of q·k grows like D and softmax's rows turn one-hot (entropy → 0); with it "
                "both stay flat. Dashed: log {k} = {u:.2f}, the entropy of an even spread."
            ).format(q=sw.queries, k=sw.keys, u=sw.entropy_uniform)
        )
        swatch = lambda colour, text: f"<span style='color: rgb{colour}'>━━ ●</span> {html.escape(text)}"  # noqa: E731
        self.legend.setText(
            "&nbsp;&nbsp;&nbsp;".join(
                (
                    swatch(UNSCALED_COLOUR, self.tr("without ÷√D: Q·Kᵀ")),
                    swatch(SCALED_COLOUR, self.tr("with ÷√D: Q·Kᵀ / √D")),
                )
            )
        )
        set_axis_title(self.var_plot, "bottom", self.tr("D (query/key size)"))
        set_axis_title(self.var_plot, "left", self.tr("variance of the scores"))
        set_axis_title(self.entropy_plot, "bottom", self.tr("D (query/key size)"))
        set_axis_title(self.entropy_plot, "left", self.tr("mean row entropy (nats)"))
        self._key = None
        self._refresh()

    def _refresh(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        if trace is None:
            return
        key = (trace.layer_serial(sel.layer), sel.layer, sel.row)
        if key == self._key:
            return
        self._key = key
        cfg = trace.config
        D = cfg.D
        for line in self.d_lines:
            line.setPos(math.log10(D))
            line.label.setFormat(self.tr("this model: D = {d}").format(d=D).replace("{", "{{").replace("}", "}}"))
        b, layer = sel.row, sel.layer
        n = trace.rows[b].length
        rows = scaling.sample_rows(n)  # long sentences: an even sample of query rows is as telling, and fast
        try:
            scores = np.stack([trace.head_map(layer, "scores", b, h)[rows, :n] for h in range(cfg.H)])  # (H, r, C)
            allowed = trace["mask"][b, rows, :n]  # (r, C)
        except KeyError:
            self.stats = None
            self.trace_caption.setText(self.tr("Layer {l} was not captured in this trace.").format(l=layer))
            for c in self.cells.values():
                c.setText("—")
            return
        st = scaling.score_statistics(scores, allowed, D)
        self.stats = st
        self.trace_caption.setText(
            self.tr(
                "Layer {l}, sentence {b}, all {h} heads, D = {d} (√D = {sq:.2f}), over the keys the mask allows."
            ).format(l=layer, b=b + 1, h=cfg.H, d=D, sq=math.sqrt(D))
        )
        self.cells["var_raw"].setText(_fmt(st.var_raw))
        self.cells["var_scaled"].setText(_fmt(st.var_scaled))
        self.cells["entropy_raw"].setText(_fmt(st.entropy_raw))
        self.cells["entropy_scaled"].setText(_fmt(st.entropy_scaled))
        used = (
            self.tr("This model divides by √D (scaling on).")
            if trace.options.scale
            else self.tr("Scaling is off: this model uses the unscaled column.")
        )
        self.trace_note.setText(
            used
            + " "
            + self.tr("An even spread over the allowed keys would have entropy {u}.").format(u=_fmt(st.entropy_uniform))
        )
