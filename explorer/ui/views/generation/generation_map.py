"""The generation map: the prompt's C×C attention map with one row per decode step appended beneath it.

A generation of T tokens gives a (C+T−1)×(C+T−1) lower-triangular picture (the last token chosen is never
fed back, so it has no row): the prefill block is framed, each decode step's query row sits under it, the
current step's row is outlined, and the later keys (not written yet) are hatched. Everything is cut from the
generation's arrays by ``explorer.generation.frames``; this module draws and computes nothing.

``GenerationCentre`` is the hook that lets the central tensor view show this map instead of the selected
stage while the window's generation is shown (``state.generation``): its Generation button, its redraws
when the step, the layer or the head change, and its hover line.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsRectItem, QToolButton

from explorer import names
from explorer.analysis.token_text import visible
from explorer.generation import frames
from explorer.ui.views.map.heatmap import Heatmap


def selected_head(generation, selection) -> tuple[int, int, int]:
    """(layer, head, key/value head) of the selection, clamped to the generation's model."""
    cfg = generation.trace.config
    layer = min(max(selection.layer, 0), cfg.layers - 1)
    head = min(max(selection.head, 0), cfg.H - 1)
    return layer, head, names.kv_head_of(head, cfg.H, cfg.H_kv)


class GenerationMap(Heatmap):
    """A Heatmap that draws one step of a generation (``show_step``) with the prefill block framed."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.data = None  # the matrix drawn (rows = queries), kept for the hover line and the tests
        self.prompt_tokens = 0
        self.block = []  # the prefill's frame: a dark outline with a light core, seen on every colour
        for colour, width, z in ((QColor(0, 0, 0), 5, 6), (QColor(255, 210, 0), 2.5, 7)):
            item = QGraphicsRectItem()
            item.setPen(pg.mkPen(colour, width=width, style=Qt.PenStyle.DashLine if z == 7 else Qt.PenStyle.SolidLine))
            item.setBrush(Qt.BrushStyle.NoBrush)
            item.setZValue(z)
            self.plot.getViewBox().addItem(item)
            self.block.append(item)

    def show_step(self, generation, layer: int, head: int, step: int) -> None:
        """Draw what layer ``layer``, head ``head`` has attended to by step ``step`` (0-based)."""
        data, blocked = frames.attention_so_far(generation, layer, head, step)
        labels = [visible(s) for s in frames.labels(generation, step)]
        C = generation.prompt_tokens
        self.data, self.prompt_tokens = data, C
        self.set_matrix(data, labels, labels, signed=False, levels=(0.0, 1.0), square=True, blocked=blocked)
        for item in self.block:
            item.setRect(QRectF(0, 0, C, C))
        self.set_highlight(generation.steps[step].query, None)
        self.set_axis_titles(
            self.tr("query (row)"),
            self.tr("key (column)"),
            self.tr("layer {l}, head {h}: the prompt's {C}×{C} map (framed) and one new row per step").format(
                l=layer, h=head, C=C
            ),
        )
        self.set_legend_text(self.tr("a later position: not written yet"))

    def highlighted_row(self) -> int | None:
        return self.layers.highlighted()[0]


class GenerationCentre(QObject):
    """Shows the window's generation in the central tensor view (``attach`` builds it inside the view)."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.gen = view.state.generation
        self._map: GenerationMap | None = None  # built when a generation is first shown (``map``)
        self._on_built = []
        self.button = _Button(self.retranslate)
        self.button.setCheckable(True)
        self.button.hide()
        view.bar.layout().addWidget(self.button)
        self.button.toggled.connect(self.gen.show)
        self.gen.changed.connect(lambda _g: self._changed())
        self.gen.stepChanged.connect(lambda _t: self._redraw())
        self.gen.shownChanged.connect(lambda _on: self._changed())
        self.retranslate()

    @property
    def map(self) -> GenerationMap:
        """The generation's map, built the first time it is asked for: a window that never shows a
        generation never builds it (its plot took 0.02 s of every start)."""
        if self._map is None:
            self._map = GenerationMap()
            self._map.hide()
            self.view.content.layout().addWidget(self._map, 1)
            self._map.cellHovered.connect(self._hovered)
            self._map.cellClicked.connect(self._clicked)
            for wire in self._on_built:
                wire(self._map)
        return self._map

    def when_built(self, wire) -> None:
        """Call ``wire(map)`` once the map exists (now, if it does)."""
        self._on_built.append(wire)
        if self._map is not None:
            wire(self._map)

    @property
    def showing(self) -> bool:
        """Whether the generation's map is drawn in the view now (instead of a stage)."""
        return self._map is not None and self._map.isVisible()

    def retranslate(self) -> None:
        self.button.setText(self.tr("Generation"))
        self.button.setToolTip(self.tr("Show the generation's attention: the prompt's map and one row per new token"))

    def _changed(self) -> None:
        self.button.setVisible(self.gen.active)
        self.button.blockSignals(True)
        self.button.setChecked(self.gen.shown)
        self.button.blockSignals(False)
        self.view._drawn = None  # the stage's picture must be drawn again when the generation goes
        if self.view.state.trace is not None:
            self.view._refresh()

    def _redraw(self) -> None:
        if self.gen.shown and self.view.state.trace is not None:
            self.view._refresh()

    def take_over(self) -> bool:
        """Called by the tensor view before it draws a stage: True when the generation is drawn instead."""
        if not self.gen.shown:
            if self.showing:
                self.map.hide()
                self.view._drawn = None
            return False
        v, g = self.view, self.gen.generation
        for w in (v.splitter, v.trio, v.lookup):
            w.hide()
        self.map.show()
        layer, head, _ = selected_head(g, v.state.selection)
        v.head_spin.setEnabled(g.trace.config.H > 1)
        if v.presenting:
            self.map.set_text_px(v.large.text_px(), (v.large.layers.min_px, v.large.layers.max_px), v.large.smallest_px)
        self.map.show_step(g, layer, head, self.gen.step)
        t, cfg, n = self.gen.step, g.trace.config, frames.positions(g, self.gen.step)
        v.title.setText(self.tr("Generation, step {t} of {T} — layer {l}").format(t=t + 1, T=len(g.steps), l=layer))
        v.edge.setText(f"q (1, {cfg.D}) · Kᵀ ({cfg.D}, {n}) → softmax → (1, {n})")
        v._drawn = None
        return True

    @property
    def state(self):
        return self.view.state

    def say(self, text: str) -> None:
        self.view.explanation.setText(text)

    def _hovered(self, i: int, j: int) -> None:
        data, g = self.map.data, self.gen.generation
        if i < 0 or data is None or g is None:
            self.view._hint()
            return
        labels = frames.labels(g, self.gen.step)
        self.view.explanation.setText(
            self.tr("query {i} “{qi}” → key {j} “{kj}”: weight {w:.3f}").format(
                i=i, qi=visible(labels[i]), j=j, kj=visible(labels[j]), w=float(data[i, j])
            )
        )

    def _clicked(self, i: int, _j: int) -> None:
        """A click on a decode row shows that step."""
        C = self.map.prompt_tokens
        if i >= C - 1:
            self.gen.set_step(i - (C - 1))


class _Button(QToolButton):
    """The Generation button: says its words again on a language switch (the centre is no widget)."""

    def __init__(self, retranslate) -> None:
        super().__init__()
        self._retranslate = retranslate

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)


def attach(view) -> GenerationCentre:
    return GenerationCentre(view)
