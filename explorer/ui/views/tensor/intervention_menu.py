"""The context menus that change the computation: ablate a head (from the head grid, or the large map), cut
the edge under the mouse (from the large attention map). Each action adds an intervention to the state's
request; the worker re-traces. Nothing is offered for a snapshot (it cannot be recomputed)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu, QWidget

from explorer.interventions.spec import EdgeCut, HeadAblation
from explorer.present.stages import PAIRWISE_STAGE_KEYS
from explorer.ui.bridge.state import AppState

# Stages whose large map is a head's (query, key) map: a cell there is an edge that can be cut.
EDGE_STAGES = PAIRWISE_STAGE_KEYS


def intervention_menu(
    state: AppState, parent: QWidget, layer: int, head: int, query: int = -1, key: int = -1
) -> QMenu | None:
    """The menu for head ``head`` of ``layer`` (and, with a cell, the edge query → key); None when nothing
    can be changed."""
    if state.trace is None or state.read_only:
        return None
    menu = QMenu(parent)
    zero = menu.addAction(
        QCoreApplication.translate("InterventionMenu", "Ablate head {h} of layer {l} (zero)").format(h=head, l=layer)
    )
    zero.triggered.connect(lambda: state.add_intervention(HeadAblation(layer, head, "zero")))
    mean = menu.addAction(
        QCoreApplication.translate("InterventionMenu", "Ablate head {h} of layer {l} (mean over positions)").format(
            h=head, l=layer
        )
    )
    mean.triggered.connect(lambda: state.add_intervention(HeadAblation(layer, head, "mean")))
    if query >= 0 and key >= 0 and state.selection.stage in EDGE_STAGES:
        menu.addSeparator()
        cut = menu.addAction(
            QCoreApplication.translate(
                "InterventionMenu", "Cut edge: query {i} may not attend to key {j} (head {h})"
            ).format(i=query, j=key, h=head)
        )
        cut.triggered.connect(lambda: state.add_intervention(EdgeCut(layer, head, query, key)))
    if not state.interventions.empty:
        menu.addSeparator()
        menu.addAction(QCoreApplication.translate("InterventionMenu", "Clear all interventions")).triggered.connect(
            state.clear_interventions
        )
    return menu
