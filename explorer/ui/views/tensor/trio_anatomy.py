"""“How is this made?” on the Q K V stage's three maps: the cell chosen on Q, K or V (the keyboard's cell of the
map with the focus, else the cell last clicked) and the core's ``Cell`` of stage "qkv" with that part, handed
to the stepper through the same ask as the large map's cells (explorer/ui/views/tensor/tensor_anatomy.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer import names
from explorer.anatomy import Cell
from explorer.present import matrices
from explorer.present.token_parts import token_label
from explorer.ui.views.anatomy.ask import AnatomyAsk


def meant(view) -> tuple[str, int, int] | None:
    """(part, row, column) of the trio that Ctrl+H explains: the walked cell of the focused map, else the clicked."""
    for part, heatmap in getattr(view, "qkv", {}).items():
        if heatmap.graphics.hasFocus() and heatmap.access.cell is not None:
            return (part, *heatmap.access.cell)
    return getattr(view, "trio_chosen", None)


def trio_ask(view, part: str, i: int, j: int) -> AnatomyAsk | None:
    """The ask for cell (i, j) of the ``part`` map (q, k or v) of the selected head; None off the map."""
    trace, sel = view.state.trace, view.state.selection
    if trace is None or part not in getattr(view, "qkv", {}) or i < 0 or j < 0:
        return None
    m = matrices.stage_matrix(trace, names.attn(sel.layer, part), sel.head, sel.row)
    if i >= m.data.shape[0] or j >= m.data.shape[1]:
        return None
    cell = Cell("qkv", sel.layer, sel.head, i, dim=int(m.columns[j]), sentence=sel.row, part=part)
    where = QCoreApplication.translate("TensorView", "{name}: token {i} “{ti}”, column {j}").format(
        name=m.name, i=i, ti=token_label(trace, sel.row, i), j=m.columns[j]
    )  # the hover's words (tensor_hover.trio_hovered)
    shown = view.qkv[part].layers.number_format(float(m.data[i, j]))
    return AnatomyAsk(cell, f"{where} = {shown}", shown)


def link_asked(view) -> bool:
    """The link beside the hover line: on the Q K V stage, the trio's cell last hovered; else the chosen cell."""
    hovered = getattr(view, "trio_hovered", None)
    if view.state.selection.stage != "qkv" or hovered is None:
        return view.ask_anatomy()
    asked = trio_ask(view, *hovered)
    if asked is None:
        return view.ask_anatomy()
    clicked(view, *hovered)
    view.state.ask_anatomy(asked)
    return True


def clicked(view, part: str, i: int, j: int) -> None:
    view.trio_chosen = (part, i, j)
    view.state.select(token=i)


def context_menu(view, part: str, i: int, j: int, at) -> None:
    """The trio map's context menu: “How is this made?” for the cell under the pointer."""
    asked = trio_ask(view, part, i, j)
    if asked is None:
        return
    if getattr(view, "trio_menu", None) is not None:
        view.trio_menu.deleteLater()
    view.trio_menu = QMenu(view)
    action = QAction(QCoreApplication.translate("TensorView", "How is this made? (Ctrl+H)"), view.trio_menu)
    action.triggered.connect(lambda: (clicked(view, part, i, j), view.state.ask_anatomy(asked)))
    view.trio_menu.addAction(action)
    view.trio_menu.popup(at)  # not exec(): no nested event loop
