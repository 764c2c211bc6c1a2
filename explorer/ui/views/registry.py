"""The list of views the main window builds. Each entry: object name (for saved layouts), title (translated
in the "Views" context), factory, and where it docks. Adding a view means adding a line here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt

from explorer.ui.state import AppState
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
    factory: Callable[[AppState], View]
    area: Qt.DockWidgetArea | None  # None: the central widget
    tabify_with: str | None = None  # object name of a dock to share tabs with


def _tensor_list(state: AppState) -> View:
    from explorer.ui.views.tensor_list import TensorListView

    return TensorListView(state)


def _flow(state: AppState) -> View:
    from explorer.ui.views.flow_view import FlowView

    return FlowView(state)


def _input(state: AppState) -> View:
    from explorer.ui.views.input_view import InputView

    return InputView(state)


def _controls(state: AppState) -> View:
    from explorer.ui.views.controls_view import ControlsView

    return ControlsView(state)


def _identities(state: AppState) -> View:
    from explorer.ui.views.identities_view import IdentitiesView

    return IdentitiesView(state)


def _scaling(state: AppState) -> View:
    from explorer.ui.views.scaling_view import ScalingView

    return ScalingView(state)


def _output(state: AppState) -> View:
    from explorer.ui.views.output_view import OutputView

    return OutputView(state)


def _params(state: AppState) -> View:
    from explorer.ui.views.params_view import ParamsView

    return ParamsView(state)


def _tensor_view(state: AppState) -> View:
    from explorer.ui.views.tensor_view import TensorView

    return TensorView(state)


def _selection(state: AppState) -> View:
    from explorer.ui.views.selection_view import SelectionView

    return SelectionView(state)


def view_specs() -> list[ViewSpec]:
    return [
        ViewSpec("tensor", QT_TRANSLATE_NOOP("Views", "Tensor"), _tensor_view, None),
        ViewSpec("selection", QT_TRANSLATE_NOOP("Views", "Selected token"), _selection, Right),
        ViewSpec("tensors", QT_TRANSLATE_NOOP("Views", "Tensors"), _tensor_list, Bottom),
        ViewSpec("input", QT_TRANSLATE_NOOP("Views", "Text"), _input, Top),
        ViewSpec("controls", QT_TRANSLATE_NOOP("Views", "Model"), _controls, Left),
        ViewSpec("identities", QT_TRANSLATE_NOOP("Views", "Identities"), _identities, Bottom, tabify_with="tensors"),
        ViewSpec("scaling", QT_TRANSLATE_NOOP("Views", "Scaling"), _scaling, Bottom, tabify_with="identities"),
        ViewSpec("flow", QT_TRANSLATE_NOOP("Views", "Pipeline"), _flow, Top),
        ViewSpec("output", QT_TRANSLATE_NOOP("Views", "Next token"), _output, Right),
        ViewSpec("params", QT_TRANSLATE_NOOP("Views", "Parameters"), _params, Bottom, tabify_with="tensors"),
    ]
