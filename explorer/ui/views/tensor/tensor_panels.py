"""Two of the central view's stages that are not one matrix: the embed lookup (Tokens stage: the ids, and
one-hot row · W_E = its row) and Q, K, V of the selected head side by side on one colour scale.

Functions of the TensorView they draw into (tensor_view.py); their texts keep the view's translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTableWidgetItem

from explorer import names
from explorer.present import before_after, figure, matrices
from explorer.present.token_parts import token_label
from explorer.ui.words.figure_words import figure_words
from explorer.ui.words.plain_text import plain_tip


def draw_lookup(view, trace, sel) -> None:
    """The ids of the sentence, and the selected token's embed lookup: one-hot row (1, V) · W_E (V, E)."""
    view.grid.hide()
    view._grid_drawn = None
    view._matrix = None
    token = sel.token if sel.token is not None else 0
    look = matrices.lookup(trace, sel.row, token)
    _fill_ids_table(view, trace, sel.row, look)
    _draw_lookup_maps(view, trace, sel.row, look)


def _fill_ids_table(view, trace, row: int, look) -> None:
    """Each token of the sentence and its id, the looked-up token's row selected."""
    labels = matrices.token_labels(trace, row)
    view.ids_table.setHorizontalHeaderLabels(
        [QCoreApplication.translate("TensorView", "token"), QCoreApplication.translate("TensorView", "id")]
    )
    view.ids_table.setRowCount(len(look.ids))
    for r, (label, i) in enumerate(zip(labels, look.ids)):
        for c, text in enumerate((label, str(i))):
            item = QTableWidgetItem(text)
            item.setToolTip(plain_tip(text))
            view.ids_table.setItem(r, c, item)
    if view.presenting:  # the slide's table as large as its figure's text (it was 12 px on a projector)
        _table_px(view.ids_table, view.large.text_px())
    view.ids_table.resizeColumnToContents(0)
    view.ids_table.selectRow(look.token)


def _draw_lookup_maps(view, trace, row: int, look) -> None:
    """one-hot (1, V) · W_E (V, E) = the token's vector (1, E), as three maps."""
    V, E = look.one_hot.shape[1], look.table.shape[1]
    word = token_label(trace, row, look.token)
    vocab = [str(v) for v in range(V)]
    dims = [str(d) for d in range(E)]
    view.one_hot.set_axis_titles(
        "",
        "",
        QCoreApplication.translate("TensorView", "one-hot row of “{w}”: 1 at column {i}, 0 elsewhere  (1, {V})").format(
            w=word, i=look.id, V=V
        ),
    )
    view.one_hot.set_matrix(
        look.one_hot, [QCoreApplication.translate("TensorView", "one-hot")], vocab, False, (0.0, 1.0)
    )
    view.one_hot.set_highlight(None, look.id)
    rows = [str(r) for r in range(look.first_row, look.first_row + look.table.shape[0])]
    shown = (
        QCoreApplication.translate("TensorView", "rows {a}…{b} of {V}").format(a=rows[0], b=rows[-1], V=V)
        if len(rows) < V
        else f"({V}, {E})"
    )
    view.table_map.set_axis_titles(
        QCoreApplication.translate("TensorView", "id (row)"),
        QCoreApplication.translate("TensorView", "embedding dimension (E = {E})").format(E=E),
        QCoreApplication.translate("TensorView", "· the embedding table W_E {shown}: the one-hot picks row {i}").format(
            shown=shown, i=look.id
        ),
    )
    view.table_map.set_token_axes(False, False)  # ids × dimensions
    view.table_map.set_matrix(look.table, rows, dims, True)
    view.table_map.set_highlight(look.id - look.first_row, None)
    view.picked.set_axis_titles(
        "",
        "",
        QCoreApplication.translate("TensorView", "= row {i} of W_E: the token vector of “{w}”  (1, {E})").format(
            i=look.id, w=word, E=E
        ),
    )
    view.picked.set_matrix(
        look.picked, [f"W_E[{look.id}]"], dims, True, view.table_map.image.getLevels() if look.table.size else None
    )
    for m in (view.one_hot, view.table_map, view.picked):
        m.title.setToolTip("params.embed.tok" if m is view.table_map else "")
        if view.presenting:
            m.set_text_px(
                view.large.text_px(), (view.large.layers.min_px, view.large.layers.max_px), view.large.smallest_px
            )


def present(view, px: int) -> None:
    """Presentation mode: the Tokens stage's table at the slide's text size (its maps follow when drawn)."""
    if view.ids_table is not None:
        _table_px(view.ids_table, px)


def _table_px(table, px: int) -> None:
    from PySide6.QtGui import QFont

    font = QFont(table.font())
    font.setPixelSize(px)
    table.setFont(font)
    for header in (table.horizontalHeader(), table.verticalHeader()):
        header.setFont(font)
    table.verticalHeader().setDefaultSectionSize(round(px * 1.6))
    table.setMaximumWidth(max(220, px * 14))


def trio_names(trace, sel) -> tuple[str, str, str] | None:
    names_ = tuple(names.attn(sel.layer, k) for k in ("q", "k", "v"))
    return names_ if all(n in trace for n in names_) else None


def draw_trio(view, trace, sel, baseline=None, mode: str = "intervened") -> None:
    """Q = x·W_q, K = x·W_k, V = x·W_v of the selected head, side by side on one colour scale (in ``mode``:
    the intervened run, the baseline, or their difference; see explorer.present.before_after)."""
    view.grid.hide()
    view._grid_drawn = None
    if mode == "intervened":
        shown = [matrices.stage_matrix(trace, n, sel.head, sel.row) for n in trio_names(trace, sel)]
    else:
        shown = [
            before_after.compared_matrix(trace, baseline, n, sel.head, sel.row, mode) for n in trio_names(trace, sel)
        ]
    view._matrix = shown[0]
    words, prefix = figure_words(), view.compare.prefix(mode)
    for panel, heatmap in zip(figure.trio_panels(trace, sel, shown), view.qkv.values()):
        heatmap.show_panel(panel, words, prefix)  # cells fill the narrow third
        if view.presenting:
            heatmap.set_text_px(
                view.large.text_px(), (view.large.layers.min_px, view.large.layers.max_px), view.large.smallest_px
            )
