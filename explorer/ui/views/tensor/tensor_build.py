"""The central tensor view's widgets, built once: the control bar, the before/after switch, the exported
part (caption, grid of heads and the large map; Q, K, V side by side; the embed lookup), the hover line and
the keyboard shortcuts. Only construction: TensorView (tensor_view.py) sets the texts and draws."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QSplitter, QTableWidget, QVBoxLayout, QWidget

from explorer.present.stages import STAGE_KEYS
from explorer.ui.views.folding_label import FoldingLabel
from explorer.ui.views.map.head_grid import HeadGrid
from explorer.ui.views.map.heatmap import Heatmap
from explorer.ui.views.tensor import tensor_hover, trio_anatomy
from explorer.ui.views.tensor.compare_switch import CompareSwitch


def build(view) -> None:
    view.compare = CompareSwitch()  # Baseline / Intervened / Difference, only while interventions are active
    view.compare.hide()
    _build_bar(view)
    mono = QFont("monospace")
    mono.setStyleHint(QFont.StyleHint.Monospace)
    _build_content(view, mono)
    view.explanation = FoldingLabel()  # one line while the map needs the room (200 % text on a laptop)
    view.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    view.explanation.setFont(mono)
    view.explanation.setMinimumHeight(view.explanation.fontMetrics().height() * 2 + 6)
    # The maps are the point of the window: docks around may shrink, this must stay readable.
    view.splitter.setMinimumHeight(180)
    view.setMinimumWidth(520)
    lay = QVBoxLayout(view)
    lay.setContentsMargins(4, 4, 4, 0)
    lay.addWidget(view.bar)
    lay.addWidget(view.compare)  # its own row: the bar is full at 1366 px; a slide (no bar) keeps it too
    lay.addWidget(view.content, 1)
    view.how_link = QLabel()  # “How is this made?” for the chosen cell (issue 39): opens the stepper
    view.how_link.setTextFormat(Qt.TextFormat.RichText)
    view.how_link.linkActivated.connect(lambda _href: trio_anatomy.link_asked(view))
    view.how_link.hide()  # shown once a cell is chosen: beside the hint it made the row, not the map, grow at 200 %
    below = QHBoxLayout()
    below.addWidget(view.explanation, 1)  # outside the exported part: a hover hint is no use on a slide
    below.addWidget(view.how_link, 0, Qt.AlignmentFlag.AlignTop)
    lay.addLayout(below)
    _build_shortcuts(view)


def _build_bar(view) -> None:
    view.stage_label, view.stage_combo = QLabel(), QComboBox()
    for key in STAGE_KEYS:
        view.stage_combo.addItem("", key)
    view.layer_label, view.layer_spin = QLabel(), QSpinBox()
    view.head_label, view.head_spin = QLabel(), QSpinBox()
    view.tensor_label, view.tensor_combo = QLabel(), QComboBox()
    view.tensor_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    view.row_label, view.row_spin = QLabel(), QSpinBox()
    view.bar = QWidget()  # the controls: hidden on a slide, where the arrow keys choose the stage
    bar = QHBoxLayout(view.bar)
    bar.setContentsMargins(0, 0, 0, 0)
    for label, control in (
        (view.stage_label, view.stage_combo),
        (view.layer_label, view.layer_spin),
        (view.head_label, view.head_spin),
        (view.tensor_label, view.tensor_combo),
        (view.row_label, view.row_spin),
    ):
        label.setBuddy(control)
        bar.addWidget(label)
        bar.addWidget(control)
        bar.addSpacing(8)
    bar.addStretch(1)


def _build_content(view, mono: QFont) -> None:
    """The caption and the maps: what File → Export view saves."""
    view.content = QWidget()
    view.title = QLabel()
    font = view.title.font()
    font.setPointSizeF(font.pointSizeF() * 1.25)
    font.setBold(True)
    view.title.setFont(font)
    view.edge = QLabel()
    view.edge.setFont(mono)
    view.edge.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    view.grid = HeadGrid()
    view.large = Heatmap()
    view.splitter = QSplitter(Qt.Orientation.Horizontal)
    view.splitter.addWidget(view.grid)
    view.splitter.addWidget(view.large)
    # The large map is the point: the grid of heads gets about a quarter of the width (until moved).
    view.splitter.setStretchFactor(0, 1)
    view.splitter.setStretchFactor(1, 3)
    view._split_moved = False
    view.splitter.splitterMoved.connect(lambda *_: setattr(view, "_split_moved", True))
    content = QVBoxLayout(view.content)
    content.setContentsMargins(6, 4, 6, 4)
    content.addWidget(view.title)
    content.addWidget(view.edge)
    content.addWidget(view.splitter, 1)
    content.addWidget(_build_trio(view), 1)
    content.addWidget(_build_lookup(view), 1)


# The QKV and Tokens stages' maps (six of the view's twelve plots) are built the first time their stage is
# drawn: the window opens on the attention maps, and a plot costs milliseconds of start-up each.


def _build_trio(view) -> QWidget:
    view.trio = QWidget()
    view.qkv = {}  # filled by fill_trio
    view.trio.hide()
    return view.trio


def fill_trio(view) -> None:
    """The QKV stage: Q, K and V of the selected head side by side, one colour scale (the bar on V)."""
    if view.qkv:
        return
    trio = QHBoxLayout(view.trio)
    trio.setContentsMargins(0, 0, 0, 0)
    view.qkv = {k: Heatmap(colour_bar=(k == "v"), index_columns=True) for k in ("q", "k", "v")}
    for k, m in view.qkv.items():
        trio.addWidget(m, 1)
        m.cellHovered.connect(lambda i, j, k=k: tensor_hover.trio_hovered(view, k, i, j))
        m.cellClicked.connect(lambda i, j, k=k: trio_anatomy.clicked(view, k, i, j))
        m.cellContextRequested.connect(lambda i, j, at, k=k: trio_anatomy.context_menu(view, k, i, j, at))


def _build_lookup(view) -> QWidget:
    view.lookup = QWidget()
    view.ids_table = None  # built by fill_lookup
    view.lookup.hide()
    return view.lookup


def fill_lookup(view) -> None:
    """The Tokens stage: the ids, and the embed lookup as the note writes it, one-hot row · W_E = its row."""
    if view.ids_table is not None:
        return
    view.ids_table = QTableWidget(0, 2)
    view.ids_table.verticalHeader().hide()
    view.ids_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    view.ids_table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    view.ids_table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
    view.ids_table.horizontalHeader().setStretchLastSection(True)
    view.ids_table.setMaximumWidth(220)
    view.ids_table.cellClicked.connect(lambda r, _c: view.state.select(token=r))
    view.one_hot = Heatmap(colour_bar=False, index_columns=True)
    view.table_map = Heatmap(colour_bar=True, index_columns=True)
    view.picked = Heatmap(colour_bar=False, index_columns=True)
    for m in (view.one_hot, view.picked):  # one row each: short, and never raising the window's minimum
        m.setMaximumHeight(96)
        m.graphics.setMinimumHeight(30)
    view.table_map.graphics.setMinimumHeight(40)
    steps = QVBoxLayout()
    steps.setContentsMargins(0, 0, 0, 0)
    steps.setSpacing(2)
    steps.addWidget(view.one_hot)
    steps.addWidget(view.table_map, 1)
    steps.addWidget(view.picked)
    look = QHBoxLayout(view.lookup)
    look.setContentsMargins(0, 0, 0, 0)
    look.addWidget(view.ids_table)
    look.addLayout(steps, 1)


def _build_shortcuts(view) -> None:
    """Keyboard: heads, layers and the query token without the mouse."""
    view._shortcuts = {
        "head+": QShortcut(QKeySequence("Alt+Right"), view, lambda: view._step("head", 1)),
        "head-": QShortcut(QKeySequence("Alt+Left"), view, lambda: view._step("head", -1)),
        "token+": QShortcut(QKeySequence("Alt+Down"), view, lambda: view._step("token", 1)),
        "token-": QShortcut(QKeySequence("Alt+Up"), view, lambda: view._step("token", -1)),
        "layer+": QShortcut(QKeySequence("Alt+PgDown"), view, lambda: view._step("layer", 1)),
        "layer-": QShortcut(QKeySequence("Alt+PgUp"), view, lambda: view._step("layer", -1)),
    }
    for sc in view._shortcuts.values():
        sc.setContext(Qt.ShortcutContext.WindowShortcut)
