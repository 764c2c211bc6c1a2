"""“How is this made?” on a generation's map (the Generate panel's, and the centre's while it shows the
generation). A cell of the prompt's framed block is a weight of the generation's own trace (the prefill,
``generation.trace``): the stepper builds it from that trace, not the window's. A row a decode step wrote is
built from the generation's own query row and KV cache (explorer/work/anatomy.py ``decode_work``), ending on
the drawn weight bit for bit; a generation that kept neither (no cache, an older snapshot) has its prompt and
tokens traced again as one text, off the GUI thread (``decode_row_work``), with the model loaded.

Plain functions; ``owner`` is the view that holds the map and a ``say(text)`` for the line it speaks on."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer.analysis.token_text import visible
from explorer.anatomy import Cell
from explorer.anatomy.decode_cells import holds_decode_anatomy
from explorer.generation import frames
from explorer.ui.background.job_runner import runner_of
from explorer.ui.views.anatomy.ask import AnatomyAsk
from explorer.ui.views.generation.generation_map import selected_head
from explorer.work.anatomy import decode_row_work, decode_work


def meant(gmap) -> tuple[int, int] | None:
    """(row, column) that Ctrl+H explains: the keyboard's cell while the map has the focus, else the clicked."""
    if gmap.graphics.hasFocus() and gmap.access.cell is not None:
        return gmap.access.cell
    return getattr(gmap, "chosen_cell", None)


def gen_ask(state, gmap, i: int, j: int) -> AnatomyAsk | None:
    """The ask for cell (i, j) of the map; None off the map or without a generation."""
    g, data = state.generation.generation, gmap.data
    if g is None or data is None or not (0 <= i < data.shape[0] and 0 <= j < data.shape[1]):
        return None
    layer, head, _ = selected_head(g, state.selection)
    labels = frames.labels(g, state.generation.step)
    where = QCoreApplication.translate("GenerationCentre", "query {i} “{qi}” → key {j} “{kj}”: weight {w:.3f}").format(
        i=i, qi=visible(labels[i]), j=j, kj=visible(labels[j]), w=float(data[i, j])
    )  # the map's hover line (generation_map.GenerationCentre._hovered)
    head_words = QCoreApplication.translate("GenerationAnatomy", "generation, layer {l}, head {h}").format(
        l=layer, h=head
    )
    cell = Cell("weights", layer, head, i, key=j, sentence=0)
    shown = f"{float(data[i, j]):.3f}"
    if i < g.prompt_tokens:  # the prefill: the generation's own trace holds every tensor of it
        return AnatomyAsk(cell, f"{head_words}: {where}", shown, trace=g.trace)
    s = i - g.prompt_tokens + 1
    if holds_decode_anatomy(g, layer):  # its query row and the cached keys: the generation's own numbers
        own = QCoreApplication.translate("GenerationAnatomy", "decode step {s}, its query and the cached keys")
        return AnatomyAsk(cell, f"{head_words}, {own.format(s=s)}: {where}", shown, work=decode_work(g, cell))
    again = QCoreApplication.translate("GenerationAnatomy", "decode step {s}, traced again as one text").format(s=s)
    work = decode_row_work(runner_of(gmap).models, state.source, g, cell)
    return AnatomyAsk(cell, f"{head_words}, {again}: {where}", shown, work=work)


def ask(owner, gmap, cell: tuple[int, int] | None = None) -> bool:
    """Hand the ask for ``cell`` (default: the meant one) to the state; say why not, if not."""
    cell = cell if cell is not None else meant(gmap)
    asked = gen_ask(owner.state, gmap, *cell) if cell is not None else None
    if asked is None:
        owner.say(
            QCoreApplication.translate(
                "GenerationAnatomy",
                "How is this made? Choose a cell of the map first (click it, or walk the map with the arrow keys).",
            )
        )
        return False
    gmap.chosen_cell = cell
    getattr(owner, "keep_open", lambda: None)()  # the panel stays beside the stepper that opens
    owner.state.ask_anatomy(asked)
    return True


def clicked(gmap, i: int, j: int) -> None:
    gmap.chosen_cell = (i, j)


def context_menu(owner, gmap, i: int, j: int, at) -> None:
    """The map's context menu: “How is this made?” for the cell under the pointer."""
    if i < 0 or j < 0:
        return
    if getattr(owner, "how_menu", None) is not None:
        owner.how_menu.deleteLater()
    owner.how_menu = QMenu(gmap)
    action = QAction(QCoreApplication.translate("GenerationAnatomy", "How is this made? (Ctrl+H)"), owner.how_menu)
    action.triggered.connect(lambda: ask(owner, gmap, (i, j)))
    owner.how_menu.addAction(action)
    owner.how_menu.popup(at)  # not exec(): no nested event loop


def wire(owner, gmap) -> None:
    """A click chooses the cell, the context menu offers its steps."""
    gmap.chosen_cell = None
    gmap.cellClicked.connect(lambda i, j: clicked(gmap, i, j))
    gmap.cellContextRequested.connect(lambda i, j, at: context_menu(owner, gmap, i, j, at))
