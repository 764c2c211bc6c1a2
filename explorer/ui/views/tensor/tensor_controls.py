"""The centre view's control bar follows the state: the stages numbered as the model runs them, the layer,
head and sentence spin boxes, and the tensor picker. Only what changed is set: a combo text or a spin box
range set again (even to the same value) makes the whole window lay itself out again, on every edit."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt

from explorer.present import matrices, stages
from explorer.present.stages import PAIRWISE_STAGE_KEYS, STAGE_KEYS
from explorer.ui.views.only_changes import set_range, set_value
from explorer.ui.words import captions


def number_stages(view, config) -> None:
    """Number the stages as the model runs them: a model without norms has no norm stages (hidden)."""
    keys, titles = stages.stage_keys_for(config), view.stage_titles()  # translated once, not once per stage
    for i, key in enumerate(STAGE_KEYS):
        n = keys.index(key) + 1 if key in keys else None
        text = f"{n}. {titles[key]}" if n else titles[key]
        if view.stage_combo.itemText(i) != text:  # a new text resizes the combo: the window lays out again
            view.stage_combo.setItemText(i, text)
        if view.stage_combo.view().isRowHidden(i) != (n is None):
            view.stage_combo.view().setRowHidden(i, n is None)


def sync_controls(view, trace, sel) -> None:
    per_layer = stages.stage(sel.stage).per_layer
    blockers = [
        QSignalBlocker(w) for w in (view.stage_combo, view.layer_spin, view.head_spin, view.row_spin, view.tensor_combo)
    ]
    number_stages(view, trace.config)
    view.stage_combo.setCurrentIndex(STAGE_KEYS.index(sel.stage))
    layers = view.state.selectable_layers() or (0,)  # uncaptured layers too: picking one traces it
    set_range(view.layer_spin, min(layers), max(layers))
    set_value(view.layer_spin, sel.layer)
    view.layer_spin.setEnabled(per_layer and len(layers) > 1)
    set_range(view.head_spin, 0, trace.config.H - 1)
    set_value(view.head_spin, sel.head)
    set_range(view.row_spin, 0, trace.B - 1)
    set_value(view.row_spin, sel.row)
    for w in (view.row_label, view.row_spin):
        w.setVisible(trace.B > 1)
    tensors = () if sel.stage in PAIRWISE_STAGE_KEYS else matrices.stage_tensors(trace, sel.stage, sel.layer)
    if sel.stage == "qkv":  # all three are drawn side by side; the combo offers only what is not (RoPE)
        tensors = tuple(n for n in tensors if not n.endswith((".q", ".k", ".v"))) and tensors
    if tuple(view.tensor_combo.itemData(i) for i in range(view.tensor_combo.count())) != tensors:
        view.tensor_combo.clear()
        for n in tensors:  # in words; the public name (exports, the CLI) is the tooltip
            view.tensor_combo.addItem(captions.tensor_title(n), n)
            view.tensor_combo.setItemData(view.tensor_combo.count() - 1, n, Qt.ItemDataRole.ToolTipRole)
    view.tensor_combo.setCurrentIndex(min(view._tensor_choice.get(sel.stage, 0), max(0, len(tensors) - 1)))
    for w in (view.tensor_label, view.tensor_combo):
        w.setVisible(len(tensors) > 1)
    view.tensor_combo.setToolTip(view.current_tensor() or "")
    del blockers


def step_selection(view, what: str, delta: int) -> None:
    """The keyboard's next / previous head, layer or query token (Alt+arrows, Alt+PgUp/PgDown)."""
    sel, trace = view.state.selection, view.state.trace
    if trace is None:
        return
    if what == "head":
        view.state.select(head=max(0, sel.head + delta))
    elif what == "layer":
        layers = view.state.selectable_layers() or (0,)
        i = layers.index(sel.layer) if sel.layer in layers else 0
        view.state.select(layer=layers[max(0, min(len(layers) - 1, i + delta))])
    else:
        current = sel.token if sel.token is not None else (-1 if delta > 0 else trace.rows[sel.row].length)
        view.state.select(token=max(0, current + delta))
