"""Attribution tab: at the chosen position, each head's, each FFN's and the embedding's direct contribution to
one token's logit (the final norm's scale frozen at its value in this run), as bars, and one line with the
sum, the constant and the model's own logit. The target is the predicted token unless another is typed.

The numbers are explorer.interventions.lens.explain_logit's, computed on a background thread."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from explorer.analysis.token_text import visible
from explorer.ui.preferences.palette_choice import signed_colours
from explorer.ui.views.interventions.common import JobTab, bar_plot, live_model
from explorer.ui.views.plot_bits import set_axis_title
from explorer.work.interventions import attribution_work

# The bars' colours are the chosen palette's positive and negative (explorer/present/palettes.py): apart for
# every colour vision (tests/core/test_palettes_cvd.py).


def short_name(component: str) -> str:
    """``layers.1.attn.head.2`` → ``L1 H2``; ``layers.1.ffn`` → ``L1 FFN``; ``embed`` stays."""
    parts = component.split(".")
    if parts[0] != "layers":
        return component
    return f"L{parts[1]} H{parts[4]}" if parts[2] == "attn" else f"L{parts[1]} FFN"


class AttributionTab(JobTab):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.target_label = QLabel()
        self.target = QLineEdit()
        self.apply_button = QPushButton()
        row = QHBoxLayout()
        row.addWidget(self.target_label)
        row.addWidget(self.target, 1)
        row.addWidget(self.apply_button)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.sum_label = QLabel()
        self.sum_label.setWordWrap(True)
        # Horizontal bars: one row per component, so every name stays readable.
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7)
        self.plot_widget, self.plot, self.plot_title = bar_plot(200, self.bars)
        self.plot.addLine(x=0, pen=pg.mkPen((128, 128, 128), width=1))
        self.plot.invertY(True)  # the first component (the embedding) on top
        lay = QVBoxLayout(self)
        lay.addWidget(self.hint)
        lay.addLayout(row)
        lay.addWidget(self.status)
        lay.addWidget(self.sum_label)
        lay.addWidget(self.plot_title)
        lay.addWidget(self.plot_widget)
        lay.addStretch(1)
        self.result = None  # the LogitExplanation drawn
        self._for = None  # (trace, row, position, target text) it was computed for
        self._asked = None
        self.wire_job()
        self.apply_button.clicked.connect(lambda: self._compute())
        self.target.returnPressed.connect(lambda: self._compute())
        self.retranslate()

    def retranslate(self) -> None:
        self.hint.setText(
            self.tr(
                "Direct attribution: what each head, each FFN and the embedding add to one token's logit through the "
                "residual stream, with the final norm's scale frozen at its value in this run. The parts and the "
                "constant terms (biases, the norm's shift) add up to the logit."
            )
        )
        self.target_label.setText(self.tr("Target token:"))
        self.target.setPlaceholderText(self.tr("the predicted token (or type one, or #ID)"))
        self.apply_button.setText(self.tr("Explain"))
        set_axis_title(self.plot, "bottom", self.tr("contribution to the logit"))
        set_axis_title(self.plot, "left", self.tr("component (L = layer, H = head)"))
        self._draw()

    def _position(self, trace) -> int:
        sel = self.state.selection
        return sel.token if sel.token is not None else trace.rows[sel.row].length - 1

    def _compute(self) -> None:
        trace = self.state.trace
        if trace is None:
            return
        key = (trace, self.state.selection.row, self._position(trace), self.target.text())
        if self.result is not None and self._for == key:
            return
        model = live_model(self)
        if model is None:
            self.result = None
            self.status.setText(
                self.tr("Attribution needs the model that made this trace (a snapshot shows only what it holds).")
            )
            self._draw()
            return
        self.status.setText(self.tr("Computing…"))
        self._asked = key
        self.slot.submit(attribution_work(*model, trace, key[2], key[3] or None, key[1]))

    def _done(self, explanation) -> None:
        self.result, self._for = explanation, self._asked
        self.status.setText("")
        self._draw()

    def _failed(self, message: str) -> None:
        self.result, self._for = None, None
        self.status.setText(message)
        self._draw()

    def palette_changed(self) -> None:
        self._draw()

    def _draw(self) -> None:
        e = self.result
        if e is None:
            self.bars.setOpts(x0=[], y=[], width=[], brushes=[])
            self.sum_label.setText("")
            self.plot_title.setText("")
            return
        heights = e.values
        positive, negative = signed_colours()
        self.bars.setOpts(
            x0=np.zeros(len(heights)),
            y=np.arange(len(heights)),
            width=heights,
            height=0.7,
            brushes=[pg.mkBrush(positive if v >= 0 else negative) for v in heights],
        )
        names = [short_name(c) for c in e.components]
        step = max(1, len(names) // 40)  # every k-th label when there are many components (GPT-2: 157)
        self.plot.getAxis("left").setTicks([[(i, n) for i, n in enumerate(names) if i % step == 0]])
        self.plot.setYRange(-0.6, len(names) - 0.4, padding=0)
        self.plot.enableAutoRange(axis="x")
        self.plot_widget.setFixedHeight(min(max(18 * len(names) + 70, 200), 720))
        self.plot_title.setText(
            self.tr("Logit of “{t}” after position {i}").format(t=visible(e.target_label), i=e.position)
        )
        self.sum_label.setText(
            self.tr("sum of the parts {s} + constant {c} = {total}; the model's logit = {logit}").format(
                s=f"{e.parts:.4f}", c=f"{e.constant:.4f}", total=f"{e.total:.4f}", logit=f"{e.logit:.4f}"
            )
        )
