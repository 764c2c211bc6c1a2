"""Small pieces the Interventions tabs share: the model behind the shown trace, colours for probabilities,
and how numbers are printed."""

from __future__ import annotations

from PySide6.QtGui import QColor

from explorer.ui.views.heatmap import colour_map


def fmt(p: float) -> str:
    return f"{p:.3f}" if abs(p) >= 0.001 or p == 0 else f"{p:.1e}"


def live_bundle(view):
    """The model that traced the shown trace (the worker keeps the models it built), or None for a snapshot
    opened read-only or a model not built yet."""
    if view.state.read_only or view.state.trace is None:
        return None
    worker = getattr(view.window(), "worker", None)
    return worker.cached_bundle(view.state.source) if hasattr(worker, "cached_bundle") else None


def prob_colours(p: float) -> tuple[QColor, QColor]:
    """(background, text) for a probability in [0, 1] on the sequential map the heatmaps use."""
    bg = colour_map(False).map(min(max(p, 0.0), 1.0), mode="qcolor")
    text = QColor(0, 0, 0) if bg.lightness() > 110 else QColor(255, 255, 255)
    return bg, text
