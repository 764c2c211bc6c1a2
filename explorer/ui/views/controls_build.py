"""The model's knobs (ControlsView, controls_view.py), built once: the widgets of each group, the error box
and the scrolling column they sit in. Only construction: ControlsView sets the texts, follows the state
and sends changes to it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from explorer import vocab
from explorer.ui.views.mask_painter import MaskPainter
from explorer.weights.presets import PRESETS

MASK_KINDS = vocab.MASK_KINDS  # combo order
# The spin boxes, in form order: ModelConfig field, range, and 0 meaning "the default" where it has one
# (value_dim 0: "= D", ffn_dim 0: "= 4·E").
SIZE_FIELDS: tuple[tuple[str, int, int], ...] = tuple((o.field, o.low, o.high) for o in vocab.SIZE_OPTIONS)


def _spin(lo: int, hi: int) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setKeyboardTracking(False)  # typing "128" sends 128 once (on Enter or leaving the box), not 1, 12, 128
    s.setAccelerated(True)
    s.setMinimumWidth(56)  # the range's widest number (the seed's 2³¹) would otherwise widen the whole dock
    return s


def _combo() -> QComboBox:
    c = QComboBox()
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(8)  # a narrow dock elides long entries instead of clipping the form
    return c


def build(view) -> None:
    _model_widgets(view)
    _run_widgets(view)
    _error_box(view)
    _groups(view)
    _layout(view)


def _model_widgets(view) -> None:
    view.preset = _combo()
    for name in PRESETS:
        view.preset.addItem(name, name)
    view.random_weights = QCheckBox()
    view.seed = _spin(-1, 2**31 - 1)
    view.sizes: dict[str, QSpinBox] = {name: _spin(lo, hi) for name, lo, hi in SIZE_FIELDS}
    view.positions = _combo()
    for p in vocab.POSITIONS:
        view.positions.addItem("", p)
    view.norm = _combo()  # the CLI's --norm; "bare" is no norm and no residuals
    for n in vocab.NORMS:
        view.norm.addItem("", n)
    view.residual = QCheckBox()
    view.params = QLabel()
    view.params.setWordWrap(True)


def _run_widgets(view) -> None:
    view.mask = _combo()
    for k in MASK_KINDS:
        view.mask.addItem("", k)
    view.mask_size = _spin(1, 65_536)
    view.mask_size_label = QLabel()
    view.painter = MaskPainter(view.state)
    view.scale = QCheckBox()
    view.temperature = QDoubleSpinBox()
    view.temperature.setRange(0.05, 20.0)
    view.temperature.setSingleStep(0.1)
    view.temperature.setDecimals(2)
    view.temperature.setKeyboardTracking(False)
    view.dtype = _combo()
    for d in vocab.DTYPES:
        view.dtype.addItem(d, d)
    view.device = _combo()
    # Asking torch which devices exist imports torch (seconds): the window starts with the CPU and
    # lists the rest once the first trace is in (torch is loaded by then, in the worker).
    view.device.addItem("cpu", "cpu")
    view._devices_listed = False


def _error_box(view) -> None:
    view.error_icon = QLabel()
    icon = view.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
    view.error_icon.setPixmap(icon.pixmap(18, 18))
    view.error = QLabel()
    view.error.setWordWrap(True)
    view.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    view.error_box = QWidget()
    eb = QHBoxLayout(view.error_box)
    eb.setContentsMargins(0, 0, 0, 0)
    eb.addWidget(view.error_icon, 0, Qt.AlignmentFlag.AlignTop)
    eb.addWidget(view.error, 1)
    view.error_box.setVisible(False)


def _groups(view) -> None:
    view.model_group, view.size_group, view.attn_group, view.run_group = (QGroupBox() for _ in range(4))
    form = QFormLayout(view.model_group)
    view.preset_label, view.weights_label, view.seed_label = QLabel(), QLabel(), QLabel()
    form.addRow(view.preset_label, view.preset)
    form.addRow(view.weights_label, view.random_weights)
    form.addRow(view.seed_label, view.seed)

    form = QFormLayout(view.size_group)
    view.size_labels: dict[str, QLabel] = {}
    for name, _, _ in SIZE_FIELDS:
        view.size_labels[name] = QLabel()
        form.addRow(view.size_labels[name], view.sizes[name])
    view.positions_label = QLabel()
    form.addRow(view.positions_label, view.positions)
    view.norm_label, view.residual_label = QLabel(), QLabel()
    form.addRow(view.norm_label, view.norm)
    form.addRow(view.residual_label, view.residual)
    form.addRow(view.params)

    form = QFormLayout(view.attn_group)
    view.mask_label = QLabel()
    mask_row = QHBoxLayout()
    mask_row.addWidget(view.mask, 1)
    mask_row.addWidget(view.mask_size_label)
    mask_row.addWidget(view.mask_size)
    form.addRow(view.mask_label, mask_row)
    form.addRow(view.painter)
    view.scale_label, view.temperature_label = QLabel(), QLabel()
    form.addRow(view.scale_label, view.scale)
    form.addRow(view.temperature_label, view.temperature)

    form = QFormLayout(view.run_group)
    view.dtype_label, view.device_label = QLabel(), QLabel()
    form.addRow(view.dtype_label, view.dtype)
    form.addRow(view.device_label, view.device)


def _layout(view) -> None:
    inner = QWidget()
    col = QVBoxLayout(inner)
    col.setContentsMargins(4, 4, 4, 4)
    col.addWidget(view.error_box)
    for g in (view.model_group, view.attn_group, view.size_group, view.run_group):  # mask and ÷√D above the fold
        col.addWidget(g)
    col.addStretch(1)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(inner)
    outer = QVBoxLayout(view)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)
