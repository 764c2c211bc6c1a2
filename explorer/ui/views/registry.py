"""The list of views the main window builds. Each entry: object name (for saved layouts), title (translated
in the "Views" context), the class to build, and where it docks. Adding a view means adding a line here."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt

from explorer.ui.bridge.state import AppState
from explorer.ui.views.base import View

Left, Right, Top, Bottom = (
    Qt.DockWidgetArea.LeftDockWidgetArea,
    Qt.DockWidgetArea.RightDockWidgetArea,
    Qt.DockWidgetArea.TopDockWidgetArea,
    Qt.DockWidgetArea.BottomDockWidgetArea,
)


@dataclass(frozen=True)
class ViewSpec:
    object_name: str
    title: str  # source text; shown through QCoreApplication.translate("Views", title)
    factory: str  # "module:Class", imported when the window is built
    area: Qt.DockWidgetArea | None  # None: the central widget
    tabify_with: str | None = None  # object name of a dock to share tabs with
    below: str | None = None  # object name of a dock to stack this one under
    size: int | None = None  # starting width (left/right) or height (top/bottom) in pixels
    height: int | None = None  # starting height of a side dock stacked with another
    closed: bool = False  # starts closed; the View menu (its shortcut) or a lesson opens it in its place

    def create(self, state: AppState) -> View:
        module, cls = self.factory.split(":")
        return getattr(importlib.import_module(module), cls)(state)


V = "explorer.ui.views."


def view_specs() -> list[ViewSpec]:
    """Default layout: the pipeline across the top, text and controls on the left, the central tensor view
    (the attention map, the largest figure), the selected token beside it on the right (the next token in
    a tab behind it), and reference panels tabbed below the map. Sizes are for the default window;
    MainWindow.apply_default_sizes scales them to the window actually shown."""
    return [*_main_views(), *_reference_tabs(), *_side_tabs()]


def _main_views() -> list[ViewSpec]:
    """The map in the centre, the pipeline above it, text and controls on the left, the selected token and
    the next token on the right."""
    return [
        ViewSpec("tensor", QT_TRANSLATE_NOOP("Views", "Tensor"), V + "tensor.tensor_view:TensorView", None),
        ViewSpec("flow", QT_TRANSLATE_NOOP("Views", "Pipeline"), V + "pipeline.flow_view:FlowView", Top, size=150),
        ViewSpec(
            "input", QT_TRANSLATE_NOOP("Views", "Text"), V + "tokens.input_view:InputView", Left, size=300, height=150
        ),
        ViewSpec(
            "controls", QT_TRANSLATE_NOOP("Views", "Model"), V + "controls_view:ControlsView", Left, below="input"
        ),
        ViewSpec(
            "selection",
            QT_TRANSLATE_NOOP("Views", "Selected token"),
            V + "tokens.selection_view:SelectionView",
            Right,
            size=360,
        ),
        ViewSpec(
            "output",
            QT_TRANSLATE_NOOP("Views", "Next token"),
            V + "tokens.output_view:OutputView",
            Right,
            tabify_with="selection",
        ),
    ]


def _reference_tabs() -> list[ViewSpec]:
    """The reference panels, tabbed below the map."""
    return [
        ViewSpec(
            "identities",
            QT_TRANSLATE_NOOP("Views", "Identities"),
            V + "identities_view:IdentitiesView",
            Bottom,
            size=200,
        ),
        ViewSpec(
            "scaling",
            QT_TRANSLATE_NOOP("Views", "Scaling"),
            V + "scaling_view:ScalingView",
            Bottom,
            tabify_with="identities",
        ),
        ViewSpec(
            "params",
            QT_TRANSLATE_NOOP("Views", "Parameters"),
            V + "params_view:ParamsView",
            Bottom,
            tabify_with="identities",
        ),
        ViewSpec(
            "tensors",
            QT_TRANSLATE_NOOP("Views", "Tensors"),
            V + "tensor.tensor_list:TensorListView",
            Bottom,
            tabify_with="identities",
        ),
        ViewSpec(
            "train",
            QT_TRANSLATE_NOOP("Views", "Train"),
            V + "training.train_view:TrainView",
            Bottom,
            tabify_with="identities",
        ),
        ViewSpec(
            "generate",
            QT_TRANSLATE_NOOP("Views", "Generate"),
            V + "generation.generate_view:GenerateView",
            Bottom,
            tabify_with="identities",
        ),
    ]


def _side_tabs() -> list[ViewSpec]:
    """More tabs beside the selected token (and Compare, below the map), built after the panels below."""
    return [
        ViewSpec(
            "interventions",
            QT_TRANSLATE_NOOP("Views", "Interventions"),
            V + "interventions.interventions_view:InterventionsView",
            Right,
            tabify_with="selection",
        ),
        # Tall and narrow beside the map: layers down, heads across (the side column has the height for 30
        # layers). Closed at start: a fourth tab there would cut every tab's title short.
        ViewSpec(
            "model_view",
            QT_TRANSLATE_NOOP("Views", "Model view"),
            V + "model_view:ModelView",
            Right,
            tabify_with="selection",
            closed=True,
        ),
        # “How is this made?” (issue 39): beside the map, closed until a cell is asked about.
        ViewSpec(
            "anatomy",
            QT_TRANSLATE_NOOP("Views", "How is this made?"),
            V + "anatomy.anatomy_view:AnatomyView",
            Right,
            tabify_with="selection",
            closed=True,
        ),
        # Compare two runs (issue 40): File → Compare… floats it as large as the window (three maps).
        ViewSpec(
            "compare",
            QT_TRANSLATE_NOOP("Views", "Compare"),
            V + "compare.compare_view:CompareView",
            Bottom,
            tabify_with="identities",
            closed=True,
        ),
    ]
