"""The "Selected token" dock: what one query token does in the selected head.

Its query vector q_i, the keys k_j it is compared with, its attention weights a_ij (its row of the map) as
bars, the values v_j, and the weighted sum it receives, Σ_j a_ij v_j = Rⁱ_i. Every number is read from the
trace (explorer.present.matrices.focus). Clicking a key (a bar or a row of K) selects it everywhere.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from explorer.present import matrices
from explorer.present.explain import fmt, sub
from explorer.present.token_parts import token_label
from explorer.ui.views.base import View
from explorer.ui.views.map.heatmap import Heatmap, TokenAxis, highlight_colour

VECTOR_HEIGHT = 64  # a one-row heatmap (q_i, the received sum)
MATRIX_HEIGHT = 120
BAR_TEXT_LIMIT = 16


class SelectionView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.focus: matrices.Focus | None = None
        self._head_key: tuple | None = None  # what the keys and values show now
        self._token_key: tuple | None = None  # what q and the received sum show now
        self._build()
        state.traceChanged.connect(self.when_shown(lambda _t: self._refresh()))
        state.selectionChanged.connect(self.when_shown(lambda _s: self._refresh()))
        self.retranslate()

    def _build(self) -> None:
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.captions = {k: QLabel() for k in ("q", "keys", "weights", "values", "received")}
        for c in self.captions.values():
            c.setWordWrap(True)
        # small side figures: rows and dimensions labelled as far as they fit (the map labels every token)
        self.q, self.keys, self.values, self.received = (
            Heatmap(colour_bar=False, index_columns=True, label_all=0) for _ in range(4)
        )
        for w in (self.q, self.received):
            w.setFixedHeight(VECTOR_HEIGHT)
        self.keys.cellClicked.connect(lambda j, _d: self.state.select(key=j))
        self.values.cellClicked.connect(lambda j, _d: self.state.select(key=j))

        self._build_bars()

        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignTop)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.heading)
        lay.addWidget(self.empty)
        # keys and values side by side: the whole story (q, k, a, v, Σ a·v) fits a 1400×900 window unscrolled
        pair = QHBoxLayout()
        for key, widget in (("keys", self.keys), ("values", self.values)):
            box = QVBoxLayout()
            box.addWidget(self.captions[key])
            box.addWidget(widget)
            box.addStretch(1)
            pair.addLayout(box, 1)
        for key, widget in (("q", self.q), ("pair", pair), ("weights", self.bars_plot), ("received", self.received)):
            if key == "pair":
                lay.addLayout(widget)
                continue
            lay.addWidget(self.captions[key])
            lay.addWidget(widget)
        lay.addStretch(1)
        self.body = body
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setMinimumWidth(260)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def _build_bars(self) -> None:
        """The query's attention weights as bars over the keys, the picked key's bar in the highlight colour."""
        self.bar_axis = TokenAxis("bottom")
        self.bars_plot = pg.PlotWidget(axisItems={"bottom": self.bar_axis})
        self.bars_plot.setMenuEnabled(False)
        self.bars_plot.hideButtons()
        self.bars_plot.setMouseEnabled(x=False, y=False)
        self.bars_plot.setFixedHeight(MATRIX_HEIGHT)
        # One brush for every bar (pyqtgraph then draws them in one call; a brush per bar drew 2,048 keys
        # one by one, 15 ms a paint) and the picked key as a bar of its own on top.
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8)
        self.picked_bar = pg.BarGraphItem(x=[], height=[], width=0.8)
        self.bars_plot.addItem(self.bars)
        self.bars_plot.addItem(self.picked_bar)
        self.bar_texts: list[pg.TextItem] = []
        self.bars_plot.scene().sigMouseClicked.connect(self._bar_clicked)

    def retranslate(self) -> None:
        self.captions["q"].setText(self.tr("Its query vector qᵢ: what this token is looking for"))
        self.captions["keys"].setText(
            self.tr(
                "The keys kⱼ it is compared with (one row per token): score = qᵢ·kⱼ / √D. Click a row to "
                "select that key."
            )
        )
        self.captions["weights"].setText(
            self.tr("Its attention weights aᵢⱼ = softmax over keys (its row of the map; they sum to 1)")
        )
        self.captions["values"].setText(self.tr("The values vⱼ it draws from"))
        self.captions["received"].setText(self.tr("What it receives: Σⱼ aᵢⱼ·vⱼ (its row of the head's output Rⁱ)"))
        self.bars_plot.setToolTip(
            self.tr("Attention weights of the selected query over every key; click a bar to select that key")
        )
        self.q.setToolTip(self.tr("The selected token's query vector in this head"))
        self.keys.setToolTip(self.tr("Key vectors of every token in this head"))
        self.values.setToolTip(self.tr("Value vectors of every token in this head"))
        self.received.setToolTip(self.tr("The weighted sum of values the selected token receives"))
        self.empty.setText(self.tr("Click a token (a chip, or a row of a map) to follow it through the selected head."))
        self._refresh()

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        if trace is None:
            self._set_empty(True)
            return
        n = trace.rows[sel.row].length
        token = sel.token if sel.token is not None else n - 1  # until a token is picked, follow the last one
        try:
            f = matrices.focus(trace, sel.layer, sel.head, sel.row, token)
        except KeyError:  # this trace did not keep q, k or v for the layer
            self.focus = None
            self._set_empty(True)
            return
        self.focus = f
        self._set_empty(False)
        # "they sum to 1" is false for a query that may see no key (a painted mask, a prefix): say so
        blocked = "mask" in trace.stored_names() and not bool(trace["mask"][sel.row, token].any())
        if blocked:
            self.captions["weights"].setText(
                self.tr(
                    "Its attention weights aᵢⱼ: every key of this token is blocked, so there is nothing to "
                    "draw from and its weights are all 0"
                )
            )
        else:
            self.captions["weights"].setText(
                self.tr("Its attention weights aᵢⱼ = softmax over keys (its row of the map; they sum to 1)")
            )
        word = token_label(trace, sel.row, token)
        heading = self.tr("Query token {i} “{word}” — layer {layer}, head {head}").format(
            i=token, word=word, layer=sel.layer, head=sel.head
        )
        if sel.token is None:
            heading += "\n" + self.tr("(no token selected: showing the last one; click a token to choose)")
        if f.rotated:
            heading += "\n" + self.tr("q and k are shown after the rotary position embedding (RoPE)")
        self.heading.setText(heading)

        # Scales per head, not per token: moving along the sentence keeps colours comparable, and the keys
        # and values (which do not depend on the token) are drawn only when the head changes.
        head_key = (trace.layer_serial(sel.layer), sel.layer, sel.head, sel.row)
        qk_levels = matrices.levels([f.queries, f.keys], True)
        v_levels = matrices.levels(f.values, True)  # Σ_j a_ij v_j stays inside the values' range
        dims_q = [str(d) for d in range(f.q.shape[0])]
        dims_v = [str(d) for d in range(f.values.shape[1])]
        if head_key != self._head_key:
            self._head_key = head_key
            self.keys.set_matrix(f.keys, f.labels, dims_q, True, qk_levels)
            self.values.set_matrix(f.values, f.labels, dims_v, True, v_levels)
            # one row per token, readable but never taller than needed
            height = max(MATRIX_HEIGHT // 2, min(MATRIX_HEIGHT + 60, 40 + 18 * f.keys.shape[0]))
            for w in (self.keys, self.values):
                w.setFixedHeight(height)
        if (head_key, token) != self._token_key:
            self._token_key = (head_key, token)
            self.q.set_matrix(f.q[None, :], [f"q{sub(token)}"], dims_q, True, qk_levels)
            self.received.set_matrix(f.received[None, :], [f"R{sub(token)}"], dims_v, True, v_levels)
        self.keys.set_highlight(sel.key, None)
        self.values.set_highlight(sel.key, None)
        self._draw_bars(f, sel.key)

    def _draw_bars(self, f: matrices.Focus, key: int | None) -> None:
        n = f.weights.shape[0]
        palette = self.palette()
        base = pg.mkBrush(palette.color(QPalette.ColorRole.Mid))
        picked = pg.mkBrush(highlight_colour())
        heights = np.asarray(f.weights, dtype=np.float64)
        # no outline: with many keys the outlines would paint the bars black
        self.bars.setOpts(x=np.arange(n) + 0.5, height=heights, width=0.8, brush=base, pen=pg.mkPen(None))
        shown = key is not None and 0 <= key < n
        self.picked_bar.setOpts(
            x=[key + 0.5] if shown else [],
            height=heights[[key]] if shown else [],
            width=0.8,
            brush=picked,
            pen=pg.mkPen(None),
        )
        self.bar_axis.set_labels(f.labels)
        self.bars_plot.setXRange(0, n, padding=0.02)
        top = float(np.nanmax(f.weights)) if n else 1.0
        self.bars_plot.setYRange(0, max(top, 1e-6) * 1.18, padding=0)
        # the weights printed on the bars while they fit (the toy sizes, a classroom sentence)
        wanted = n if n <= BAR_TEXT_LIMIT else 0
        while len(self.bar_texts) < wanted:
            t = pg.TextItem(anchor=(0.5, 1.0), color=palette.color(QPalette.ColorRole.WindowText))
            self.bars_plot.addItem(t)
            self.bar_texts.append(t)
        for j, t in enumerate(self.bar_texts):
            t.setVisible(j < wanted)
            if j < wanted:
                t.setText(fmt(f.weights[j]))
                t.setPos(j + 0.5, float(f.weights[j]))

    def bar_heights(self) -> np.ndarray:
        return np.asarray(self.bars.opts["height"])

    def _set_empty(self, empty: bool) -> None:
        self.empty.setVisible(empty)
        for w in (self.q, self.keys, self.bars_plot, self.values, self.received, *self.captions.values()):
            w.setVisible(not empty)
        if empty:
            self.heading.setText("")

    def _bar_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.focus is None:
            return
        vb = self.bars_plot.getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        j = int(math.floor(vb.mapSceneToView(event.scenePos()).x()))
        if 0 <= j < self.focus.weights.shape[0]:
            self.state.select(key=j)
