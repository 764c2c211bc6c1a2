"""The loss curve of a training run: training loss at every step, held-out loss at every evaluation, and a
vertical line at the checkpoint the views show. Pure drawing: the numbers come from the run."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from explorer.ui.views.plot_bits import SCALED_COLOUR, UNSCALED_COLOUR, pen, set_axis_title

TRAIN_COLOUR = SCALED_COLOUR  # blue
HELDOUT_COLOUR = UNSCALED_COLOUR  # orange: distinct on both themes and for red–green colour blindness


class LossCurve(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(90)
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.2)
        item.setMenuEnabled(False)
        item.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.legend = item.addLegend(offset=(-8, 8))
        self.train_curve = item.plot(pen=pen(TRAIN_COLOUR + (150,), width=1.0))
        self.heldout_curve = item.plot(
            pen=pen(HELDOUT_COLOUR, width=2.0), symbol="o", symbolSize=6, symbolBrush=HELDOUT_COLOUR, symbolPen=None
        )
        self.train_curve.setDownsampling(auto=True, method="mean")  # long runs: one point per pixel column
        self.train_curve.setClipToView(True)
        self.legend.addItem(self.train_curve, "")
        self.legend.addItem(self.heldout_curve, "")
        self.marker = pg.InfiniteLine(angle=90, movable=False, pen=pen((128, 128, 128), width=1.0, dashed=True))
        self.marker.setVisible(False)
        item.addItem(self.marker, ignoreBounds=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self._train: tuple[list[float], list[float]] = ([], [])
        self._heldout: tuple[list[float], list[float]] = ([], [])
        self._names = ("", "")

    def retranslate(self, step: str, loss: str, training: str, heldout: str) -> None:
        item = self.plot.getPlotItem()
        set_axis_title(item, "bottom", step)
        set_axis_title(item, "left", loss)
        self._names = (training, heldout)
        for (_sample, label), name in zip(self.legend.items, self._names):
            label.setText(name)

    # ------------------------------------------------------------------ data
    def clear(self) -> None:
        self._train = ([], [])
        self._heldout = ([], [])
        self._redraw()

    def add(self, points) -> None:
        """TrainProgress items, in step order."""
        for p in points:
            if p.loss is not None:
                self._train[0].append(p.step)
                self._train[1].append(p.loss)
            if p.heldout_loss is not None:
                self._heldout[0].append(p.step)
                self._heldout[1].append(p.heldout_loss)
        self._redraw()

    def set_log(self, rows: list[dict]) -> None:
        """A finished run's log (one row per evaluation: step, loss, heldout_loss)."""
        self.set_total(None)
        self._train = (
            [r["step"] for r in rows if r.get("loss") is not None],
            [r["loss"] for r in rows if r.get("loss") is not None],
        )
        self._heldout = (
            [r["step"] for r in rows if r.get("heldout_loss") is not None],
            [r["heldout_loss"] for r in rows if r.get("heldout_loss") is not None],
        )
        self._redraw()

    def set_total(self, steps: int | None) -> None:
        """Fix the step axis to a run's length while it trains (None: fit the data again)."""
        item = self.plot.getPlotItem()
        if steps:
            item.setXRange(0, steps, padding=0.02)
        else:
            item.enableAutoRange(x=True)

    def mark(self, step: int | None) -> None:
        self.marker.setVisible(step is not None)
        if step is not None:
            self.marker.setValue(step)

    def _redraw(self) -> None:
        self.train_curve.setData(np.asarray(self._train[0], dtype=float), np.asarray(self._train[1], dtype=float))
        self.heldout_curve.setData(np.asarray(self._heldout[0], dtype=float), np.asarray(self._heldout[1], dtype=float))

    # ------------------------------------------------------------------ for tests and screen readers
    def training_points(self) -> int:
        return len(self._train[0])

    def last_heldout(self) -> float | None:
        return self._heldout[1][-1] if self._heldout[1] else None

    def heldout_points(self) -> int:
        return len(self._heldout[0])
