"""The Interventions panel: a thin container of tabs (explorer/ui/views/interventions/). Compare lists the
interventions and shows before/after; Logit lens and Attribution read the shown trace; Patching adds an
activation patch from another sentence and runs the patching sweep. Each tab draws numbers the core computes.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QScrollArea, QTabWidget, QVBoxLayout, QWidget

from explorer.ui.views.base import View
from explorer.ui.views.interventions.attribution_tab import AttributionTab
from explorer.ui.views.interventions.compare_tab import MAP_MODES, TOP, CompareTab  # noqa: F401 - re-exported
from explorer.ui.views.interventions.lens_tab import LensTab
from explorer.ui.views.interventions.patch_form import PatchForm
from explorer.ui.views.interventions.sweep_panel import SweepPanel

TABS = (
    QT_TRANSLATE_NOOP("InterventionsView", "Compare"),
    QT_TRANSLATE_NOOP("InterventionsView", "Logit lens"),
    QT_TRANSLATE_NOOP("InterventionsView", "Attribution"),
    QT_TRANSLATE_NOOP("InterventionsView", "Patching"),
)


def _scrolling(widget: QWidget) -> QScrollArea:
    """A short dock scrolls a tab rather than squeezing its tables and maps to nothing."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(widget)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the tab fits the dock's width
    return scroll


class InterventionsView(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.compare = CompareTab(state)
        self.lens = LensTab(state)
        self.attribution = AttributionTab(state)
        self.patch_form = PatchForm(state)
        self.sweep = SweepPanel(state)
        patching = QWidget()
        lay = QVBoxLayout(patching)
        lay.addWidget(self.patch_form)
        lay.addSpacing(12)
        lay.addWidget(self.sweep, 1)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        # Compare keeps its own scroll area (its table and map share the height); the others scroll here.
        for widget in (self.compare, _scrolling(self.lens), _scrolling(self.attribution), _scrolling(patching)):
            self.tabs.addTab(widget, "")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)
        # The Compare tab's parts, as the panel's (the tests and the main window read them here).
        self.list, self.kl_label, self.table = self.compare.list, self.compare.kl_label, self.compare.table
        self.mode_combo, self.map = self.compare.mode_combo, self.compare.map
        self.remove_button, self.clear_button = self.compare.remove_button, self.compare.clear_button
        self.retranslate()

    @property
    def shown_map(self):
        return self.compare.shown_map

    def tab_views(self) -> tuple[View, ...]:
        return (self.compare, self.lens, self.attribution, self.patch_form, self.sweep)

    def retranslate(self) -> None:
        for i, text in enumerate(TABS):
            self.tabs.setTabText(i, QCoreApplication.translate("InterventionsView", text))

    def flush_deferred(self) -> None:
        super().flush_deferred()
        for view in self.tab_views():
            view.flush_deferred()

    def shutdown(self) -> None:
        """The window is closing: stop the tabs' background work and wait for it."""
        for view in (self.lens, self.attribution, self.sweep):
            view.shutdown()
