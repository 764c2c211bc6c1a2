"""The central view's side of “How is this made?”: which cell is meant (the keyboard's cell while the map has
the focus, else the cell last clicked or entered, else the selected query and key), and the ask that the
state hands to the stepper (explorer/ui/views/anatomy/). Plain functions of the TensorView."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer.anatomy.shown import shown_cell
from explorer.present.stages import PAIRWISE_STAGE_KEYS
from explorer.ui.views.anatomy.ask import AnatomyAsk
from explorer.ui.views.tensor import tensor_hover, trio_anatomy


def meant_cell(view) -> tuple[int, int] | None:
    """(row, column) of the large map that “How is this made?” explains, or None when no cell is chosen."""
    access = getattr(view.large, "access", None)
    walked = access.cell if access is not None else None
    # the newer of the two: the keys moved on since the last click (or Enter), or not
    if walked is not None and view.large.graphics.hasFocus() and walked != view.walked_at_choice:
        return walked
    if view.chosen_cell is not None:
        return view.chosen_cell
    sel = view.state.selection
    if sel.stage in PAIRWISE_STAGE_KEYS and sel.token is not None and sel.key is not None:
        return sel.token, sel.key
    return walked


def anatomy_ask(view, i: int, j: int) -> AnatomyAsk | None:
    """The ask for cell (i, j) of the large map; None where its stage has no anatomy."""
    trace, sel = view.state.trace, view.state.selection
    if trace is None or i < 0 or j < 0:
        return None
    if sel.stage in PAIRWISE_STAGE_KEYS:
        tensor, column, value = None, j, view._maps[0].get(sel.head, None)
        value = None if value is None else value[i, j]
    else:
        m = view._matrix
        if m is None or i >= m.data.shape[0] or j >= m.data.shape[1]:
            return None
        tensor, column, value = m.name, int(m.columns[j]), m.data[i, j]
    cell = shown_cell(sel.stage, tensor, sel.layer, sel.head, sel.row, i, column)
    if cell is None:
        return None
    where = tensor_hover.cell_explanation(view, sel.head, i, j).split("\n")[0]
    return AnatomyAsk(cell, where, tensor_hover.printed(view, sel.head, value))


def ask(view, cell: tuple[int, int] | None = None) -> bool:
    """Hand the ask for ``cell`` (default: the meant one) to the state; say under the map why not, if not."""
    centre = getattr(view, "generation_centre", None)
    if centre is not None and centre.showing:  # the generation is shown instead of the stage
        from explorer.ui.views.generation import generation_anatomy  # loaded with the generation's map

        return generation_anatomy.ask(centre, centre.map, cell)
    if view.state.selection.stage == "qkv" and cell is None:  # the three maps Q K V, not the large map
        chosen = trio_anatomy.meant(view)
        asked = trio_anatomy.trio_ask(view, *chosen) if chosen is not None else None
    else:
        cell = cell if cell is not None else meant_cell(view)
        asked = anatomy_ask(view, *cell) if cell is not None else None
    if asked is None:
        view.explanation.setText(
            QCoreApplication.translate(
                "TensorView",
                "How is this made? Choose a cell first (click it, or walk the map with the arrow keys), on a "
                "stage from Q·Kᵀ to the probabilities.",
            )
        )
        return False
    view.state.ask_anatomy(asked)
    return True


def add_how_entry(view, menu: QMenu | None, i: int, j: int) -> QMenu | None:
    """The map's context menu with “How is this made?” for cell (i, j) on top (a menu of its own where the
    stage offers nothing else)."""
    asked = anatomy_ask(view, i, j)
    if asked is None:
        return menu
    menu = menu if menu is not None else QMenu(view)
    first = menu.actions()[0] if menu.actions() else None
    action = QAction(QCoreApplication.translate("TensorView", "How is this made? (Ctrl+H)"), menu)
    action.triggered.connect(lambda: _asked(view, (i, j), asked))
    menu.insertAction(first, action)
    if first is not None:
        menu.insertSeparator(first)
    return menu


def _asked(view, cell: tuple[int, int], asked: AnatomyAsk) -> None:
    view.pick(*cell)
    view.state.ask_anatomy(asked)


def link_text() -> str:
    """The link under the map (rich text: the label shows only this, never a token)."""
    how = QCoreApplication.translate("TensorView", "How is this made?")
    return f'<a href="how">{how}</a> (Ctrl+H)'
