"""The central view's long maps (issue 43): a layer whose maps are served only as tiles opens on its overview,
and its hover reads the exact cell and the row's readouts (explorer/present/long_map.py prepares them all).
Plain functions of the TensorView; texts in the "TensorView" translation context."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.present import long_map
from explorer.present.hover_format import fmt
from explorer.ui.background.render_queue import render_queue
from explorer.ui.words.figure_words import figure_words


def draw(view, trace, sel) -> bool:
    """Draw the selected head's long map and return True, or return False for a map the trace holds whole."""
    if not long_map.shows_long_map(trace, sel.stage, sel.layer):
        return False
    view.grid.hide()  # one head at a time: every head's overview is seconds of work
    render_queue().cancel(view, view._draw_grid)
    view._grid_drawn = view._matrix = None
    ov = long_map.overview(trace, sel.stage, sel.layer, sel.row, sel.head)
    view._maps = ({}, ov.levels)
    remark = QCoreApplication.translate(
        "TensorView",
        "long text: zoomed out, each cell is the largest value of {b} × {b} tokens; zoomed in to {n} tokens a "
        "side or fewer (mouse wheel), each cell is one token's own exact value · Alt+← / Alt+→ for the other heads",
    ).format(b=ov.block, n=long_map.EXACT_SPAN)
    shown = (trace, sel.stage, sel.layer, sel.row, sel.head, ov)
    view.large.show_overview(long_map.overview_panel(trace, sel, ov), shown, figure_words(), remark)
    return True


def shown(view, head: int):
    """The long map shown large for ``head`` (its painter's (trace, stage, layer, row, head, overview)), or None."""
    painter = view.large.long_map
    if painter is None or painter.shown is None or painter.shown[4] != head:
        return None
    return painter.shown


def cell_value(view, head: int, i: int, j: int) -> float | None:
    """The exact number of cell (i, j) of the long map shown (a one-cell tile), None for any other map."""
    long = shown(view, head)
    if long is None:
        return None
    trace, stage, layer, row, head, _ov = long
    return long_map.cell_value(trace, stage, layer, row, head, i, j)


def readout(view, head: int, i: int) -> str:
    """A line on query row i of the long map shown: how spread its attention is, how much of it the first
    token takes, and its strongest keys; empty for any other map."""
    long = shown(view, head)
    if long is None:
        return ""
    r = long_map.row_readout(long[5], i)
    keys = ", ".join(f"{k} ({w:.3g})" for k, w in r.top)  # three digits: a long row's weights are small
    return "\n" + QCoreApplication.translate(
        "TensorView",
        "query {i}: spread (entropy) {e} nats · on the first token {s} · strongest keys: {keys}",
    ).format(i=i, e=fmt(r.entropy), s=f"{r.sink:.3g}", keys=keys)
