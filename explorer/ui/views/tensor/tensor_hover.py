"""The central view's hover: which cell is under the mouse, its number exactly as the map prints it (one
format per map, explorer.present.number_format), its tokens as a person reads them (byte pieces joined,
explorer.present.token_parts), and how the number was made (explorer.present.explain).

Plain functions of the TensorView; texts in the "TensorView" translation context."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QToolTip

from explorer import names
from explorer.present import long_map, matrices
from explorer.present.explain import explain_cell, explain_value
from explorer.present.hover_format import fmt
from explorer.present.number_format import map_format
from explorer.present.stages import PAIRWISE_STAGE_KEYS
from explorer.present.token_parts import token_label
from explorer.ui.views.tensor import tensor_long
from explorer.ui.words.plain_text import plain_tip


def show(view, text: str) -> None:
    view.explanation.setText(text)
    QToolTip.showText(QCursor.pos(), plain_tip(text), view)  # a token like <b> is shown, not read as HTML


def hovered(view, head: int, i: int, j: int) -> None:
    """A cell of the large map (``head``: the selected one) or of a small map of the grid; −1: the mouse left."""
    if head < 0 or i < 0:
        view._hint()
        QToolTip.hideText()
        return
    show(view, cell_explanation(view, head, i, j))


def trio_hovered(view, k: str, i: int, j: int) -> None:
    if i < 0:
        view._hint()  # the link stays on the cell last hovered, for the pointer on its way to it
        QToolTip.hideText()
        return
    view.trio_hovered = (k, i, j)
    view._show_link(view.state.selection, None)
    trace, sel = view.state.trace, view.state.selection
    m = matrices.stage_matrix(trace, names.attn(sel.layer, k), sel.head, sel.row)
    value = view.qkv[k].layers.number_format(m.data[i, j]) if k in view.qkv else ""
    where = QCoreApplication.translate("TensorView", "{name}: token {i} “{ti}”, column {j}").format(
        name=m.name, i=i, ti=token_label(trace, sel.row, i), j=m.columns[j]
    )
    show(
        view, f"{where} = {value}\n{explain_value(trace, m.name, sel.head, sel.row, i, m.columns[j], explain_words())}"
    )


def printed(view, head: int, value) -> str:
    """The cell's number in its map's format (the large map's, or a small map's own)."""
    if value is None:
        return ""
    if tensor_long.shown(view, head) is not None:  # the overview's format is for its blocks: the cell's own digits
        return fmt(float(value))
    if head == view.state.selection.head or view.state.selection.stage not in PAIRWISE_STAGE_KEYS:
        return view.large.layers.number_format(float(value))
    shown = view._maps[0][head]
    cached = getattr(view, "_hover_format", None)
    if cached is None or cached[0] is not shown:  # once per map, not per mouse move (a 4096² map: 66 ms)
        cached = view._hover_format = (shown, map_format(shown))
    return cached[1](float(value))


def cell_explanation(view, head: int, i: int, j: int) -> str:
    trace, sel = view.state.trace, view.state.selection
    if sel.stage in PAIRWISE_STAGE_KEYS:
        where = QCoreApplication.translate("TensorView", "head {h}: query {i} “{qi}” → key {j} “{kj}”").format(
            h=head, i=i, qi=token_label(trace, sel.row, i), j=j, kj=token_label(trace, sel.row, j)
        )
        with long_map.small_work():  # a hover's rows: one thread, not two waiting on each other
            how = explain_cell(trace, sel.stage, sel.layer, head, sel.row, i, j, explain_words())
        shown = view._maps[0][head][i, j] if head in view._maps[0] else tensor_long.cell_value(view, head, i, j)
        return f"{where}{_value(view, head, shown)}\n{how}{tensor_long.readout(view, head, i)}"
    m = view._matrix
    if m is None:
        return ""
    col = m.columns[j]
    where = QCoreApplication.translate("TensorView", "{name}: token {i} “{ti}”, column {j}").format(
        name=m.name, i=i, ti=token_label(trace, sel.row, i), j=col
    )
    how = explain_value(trace, m.name, head, sel.row, i, col, explain_words())
    return f"{where}{_value(view, head, m.data[i, j])}\n{how}"


def _value(view, head: int, value) -> str:
    """ " = 0.31": the drawn cell's number; in Baseline or Difference, said as that run's, since the explanation
    below is the intervened run's."""
    mode = getattr(view, "_shown_mode", "intervened")
    shown = printed(view, head, value)
    if mode == "intervened" or not shown:
        return f" = {shown}" if shown else ""
    return (
        " · "
        + view.compare.prefix(mode)
        + shown
        + " · "
        + QCoreApplication.translate("TensorView", "below: the intervened run")
    )


def explain_words() -> dict[str, str]:
    """The words inside a cell's explanation (explorer.present.explain), translated."""
    # Literal translate() calls: lupdate does not see through an alias.
    return {
        "masked": QCoreApplication.translate("TensorView", "masked"),
        "scaling off": QCoreApplication.translate("TensorView", "scaling off"),
        "every key blocked": QCoreApplication.translate("TensorView", "every key blocked"),
        "softmax": QCoreApplication.translate("TensorView", "softmax"),
        "after RoPE": QCoreApplication.translate("TensorView", "after RoPE"),
        "head": QCoreApplication.translate("TensorView", "head"),
        "dim": QCoreApplication.translate("TensorView", "dim"),
        "no residual": QCoreApplication.translate("TensorView", "no residual"),
        "norm": QCoreApplication.translate("TensorView", "norm"),
        "next": QCoreApplication.translate("TensorView", "next"),
        "keys": QCoreApplication.translate("TensorView", "keys"),
        "dims": QCoreApplication.translate("TensorView", "dims"),
        "mean": QCoreApplication.translate("TensorView", "mean"),
        "variance": QCoreApplication.translate("TensorView", "variance"),
        "no norm": QCoreApplication.translate("TensorView", "no norm: the vector goes on unchanged"),
        "sentence": QCoreApplication.translate("TensorView", "sentence"),
        "unchanged": QCoreApplication.translate("TensorView", "unchanged: only the first {R} dimensions turn"),
    }
