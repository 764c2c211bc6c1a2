"""“How is this made?” on the Model view's grid (issue 39): a cell of one small map (a layer, a head, a query
row and a key column of the stage the grid shows) is handed to the stepper like a cell of the central map.
A click chooses the cell under the pointer; walked with the arrow keys, the map under the keyboard's frame
stands for the selected query and key (the line across every map), or the query's own key when none is.

Plain functions of the ModelView; texts in the "ModelView" translation context."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer.anatomy import Cell
from explorer.present import model_view as mv
from explorer.present.number_format import map_format
from explorer.present.token_parts import token_label
from explorer.ui.views.anatomy.ask import AnatomyAsk


def _row(view) -> int | None:
    trace = view.state.trace
    return None if trace is None else min(view.state.selection.row, trace.B - 1)


def cell_of(view, layer: int, head: int, down: float, across: float) -> tuple[int, int, int, int] | None:
    """(layer, head, query, key) of a point of a map, given as fractions of its side (the maps are n × n)."""
    row = _row(view)
    if row is None:
        return None
    n = view.state.trace.rows[row].length
    return layer, head, int(down * n), int(across * n)


def pressed(view, layer: int, head: int, down: float, across: float) -> None:
    choose(view, cell_of(view, layer, head, down, across))


def choose(view, cell: tuple[int, int, int, int] | None) -> None:
    """The chosen cell, framed on its map (the maps are n × n: the sentence's tokens)."""
    view.chosen_cell = cell
    row = _row(view)
    n = view.state.trace.rows[row].length if row is not None else 0
    view.mosaic.set_chosen(None if cell is None or not n else (*cell, n))


def meant(view) -> tuple[int, int, int, int] | None:
    """The cell Ctrl+H explains: the one clicked, if the keyboard's frame is still on its map; else that map's
    selected query and key."""
    chosen, (layer, head) = getattr(view, "chosen_cell", None), view.mosaic.cursor
    if chosen is not None and chosen[:2] == (layer, head):
        return chosen
    row, sel = _row(view), view.state.selection
    if row is None or not view.mosaic.layers:
        return None
    query = sel.token if sel.token is not None else view.state.trace.rows[row].length - 1
    return layer, head, query, sel.key if sel.key is not None else query


def model_ask(view, layer: int, head: int, i: int, j: int) -> AnatomyAsk | None:
    """The ask for query ``i``, key ``j`` of head ``head`` of layer ``layer`` at the grid's stage."""
    trace, row = view.state.trace, _row(view)
    if row is None or layer not in trace.layers or not 0 <= head < trace.config.H:
        return None
    n = trace.rows[row].length
    if not (0 <= i < n and 0 <= j < n):
        return None
    stage = mv.shown_stage(view.state.selection.stage)
    matrix = trace.head_map(layer, stage, row, head)[:n, :n]
    shown = map_format(matrix)(float(matrix[i, j]))
    where = QCoreApplication.translate("ModelView", "layer {l}, head {h}: query {i} “{qi}” → key {j} “{kj}”").format(
        l=layer, h=head, i=i, qi=token_label(trace, row, i), j=j, kj=token_label(trace, row, j)
    )
    return AnatomyAsk(Cell(stage, layer, head, i, key=j, sentence=row), f"{where} = {shown}", shown)


def ask(view, cell: tuple[int, int, int, int] | None = None) -> bool:
    """Hand the ask for ``cell`` (default: the meant one) to the state; say why not, if not."""
    cell = cell if cell is not None else meant(view)
    asked = model_ask(view, *cell) if cell is not None else None
    if asked is None:
        view.status.setText(
            QCoreApplication.translate(
                "ModelView", "How is this made? Click a cell of a map first, or walk the maps with the arrow keys."
            )
        )
        return False
    choose(view, cell)
    view.state.ask_anatomy(asked)
    return True


def context_menu(view, layer: int, head: int, down: float, across: float, at) -> None:
    """The grid's context menu: “How is this made?” for the cell under the pointer."""
    cell = cell_of(view, layer, head, down, across)
    if cell is None:
        return
    if getattr(view, "how_menu", None) is not None:
        view.how_menu.deleteLater()
    view.how_menu = QMenu(view)
    action = QAction(QCoreApplication.translate("ModelView", "How is this made? (Ctrl+H)"), view.how_menu)
    action.triggered.connect(lambda: ask(view, cell))
    view.how_menu.addAction(action)
    view.how_menu.popup(at)  # not exec(): no nested event loop
