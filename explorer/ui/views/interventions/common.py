"""Small pieces the Interventions tabs share: where the model behind the shown trace is, colours for probabilities,
how numbers are printed, a fixed-height bar plot, and the wiring of a tab that computes on a background job."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from explorer.ui.background.job_runner import runner_of
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.base import View
from explorer.ui.views.map.heatmap import colour_map


def fmt(p: float) -> str:
    return f"{p:.3f}" if abs(p) >= 0.001 or p == 0 else f"{p:.1e}"


def live_model(view):
    """(the job runner's model cache, the source of the model that traced the shown trace), or None for a
    snapshot opened read-only (its model is not there) or before the first trace. The model itself is found
    or built in the job's thread: a view never holds one."""
    if view.state.read_only or view.state.trace is None:
        return None
    return runner_of(view).models, view.state.source


def prob_colours(p: float) -> tuple[QColor, QColor]:
    """(background, text) for a probability in [0, 1] on the sequential map the heatmaps use."""
    bg = colour_map(False).map(min(max(p, 0.0), 1.0), mode="qcolor")
    text = QColor(0, 0, 0) if bg.lightness() > 110 else QColor(255, 255, 255)
    return bg, text


def bar_plot(height: int, bars: pg.BarGraphItem) -> tuple[pg.PlotWidget, pg.PlotItem, QLabel]:
    """A still plot (no mouse, no buttons) of ``height`` pixels holding ``bars``, and a wrapping title."""
    widget = pg.PlotWidget()
    plot = widget.getPlotItem()
    plot.setMouseEnabled(False, False)
    plot.hideButtons()
    plot.addItem(bars)
    widget.setFixedHeight(height)
    title = QLabel()
    title.setWordWrap(True)
    return widget, plot, title


class JobTab(View):
    """A tab whose numbers come from a background job (``self.slot``): ``_compute`` runs on every new trace
    and selection while the tab is on screen, and when it is shown; ``_done`` / ``_failed`` take the result."""

    def wire_job(self) -> None:
        self.slot = JobSlot(self)
        self.slot.succeeded.connect(self._done)
        self.slot.failed.connect(self._failed)
        compute = self.when_shown(self._compute)
        self.state.traceChanged.connect(lambda _t: compute())
        self.state.selectionChanged.connect(lambda _s: compute())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._compute()  # built before it was placed in the window, or shown after the model was built

    def shutdown(self) -> None:
        self.slot.shutdown()

    def _compute(self) -> None:
        raise NotImplementedError

    def _done(self, result) -> None:
        raise NotImplementedError

    def _failed(self, message: str) -> None:
        raise NotImplementedError
