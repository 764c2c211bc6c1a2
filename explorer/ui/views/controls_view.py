"""The model's knobs: preset, weights, sizes (E, D, H, L, D_v, F, positions, norm, residuals), mask,
scaling, temperature, dtype, device. The choices come from explorer.vocab, the CLI's own list. Every change goes
straight to the state and the worker re-traces; there is no run button.

The controls also follow the state (a preset chosen from the menu, a restored session, a loaded model whose
sizes are fixed) with their signals blocked, so that showing a value never sends it back.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QSpinBox

from explorer import vocab
from explorer.config import MaskSpec, ModelConfig, estimate_memory
from explorer.errors import ExplorerError
from explorer.session.open import preset_source_config
from explorer.ui.bridge.state import ModelSource
from explorer.ui.views import controls_build
from explorer.ui.views.base import View
from explorer.ui.views.only_changes import set_value
from explorer.ui.words.byte_size import human_bytes
from explorer.ui.words.captions_families import active_parameters_note
from explorer.util.devices import available_devices
from explorer.weights.presets import get_preset

_DEFAULTS = {f.name: f.default for f in fields(ModelConfig)}


def _label_items(combo, labels: dict[str, str]) -> None:
    """Each item's text by its key (the item's data), so that reordering a vocabulary never mislabels one."""
    for i in range(combo.count()):
        combo.setItemText(i, labels[combo.itemData(i)])


def _shown(value: Any, spin: QSpinBox) -> int:
    """A requested size as its spin box can show it. The request keeps what was asked even when the worker
    refuses it, and a restored session or a script can ask for "x", 2.5 or 10**20: int("x") raised inside
    a slot, and a number past the range overflowed the spin box. Those show as the nearest value instead."""
    try:
        number = int(value or 0)
    except (TypeError, ValueError, OverflowError):
        number = 0
    return max(spin.minimum(), min(spin.maximum(), number))


class ControlsView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        controls_build.build(self)
        self.retranslate()
        self._connect()
        state.requestChanged.connect(lambda _r: self._sync())
        state.modelInfoChanged.connect(lambda _c, _e: self._sync())
        state.traceChanged.connect(self._on_trace)
        state.errorRaised.connect(self._on_error)
        # model, sizes, mask, scaling, dtype, device: all re-trace, so none can change while a snapshot is shown
        state.snapshotChanged.connect(lambda path: self.setEnabled(path is None))
        self.setEnabled(state.snapshot is None)
        self._sync()

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self._retranslate_model()
        self._retranslate_sizes()
        self._retranslate_attention_and_run()
        self._sync()

    def _retranslate_model(self) -> None:
        self.model_group.setTitle(self.tr("Preset and weights"))
        self.size_group.setTitle(self.tr("Sizes"))
        self.attn_group.setTitle(self.tr("Attention"))
        self.run_group.setTitle(self.tr("Computation"))
        self.preset_label.setText(self.tr("Preset"))
        self.preset.setToolTip(
            self.tr("A named starting point: sizes, vocabulary, example sentence and maybe trained weights")
        )
        self.weights_label.setText(self.tr("Weights"))
        self.random_weights.setText(self.tr("random (untrained)"))
        self.random_weights.setToolTip(
            self.tr(
                "On: random weights from the seed (changing a size always gives random weights). Off: back to "
                "the preset's own sizes and its trained weights, when it has them."
            )
        )
        self.seed_label.setText(self.tr("Seed"))
        self.seed.setSpecialValueText(self.tr("preset's"))
        self.seed.setToolTip(self.tr("Seed of the random weights: the same seed gives the same numbers"))

    def _retranslate_sizes(self) -> None:
        texts = {
            "embed_dim": (self.tr("E (embedding)"), self.tr("E: size of each token's vector")),
            "key_dim": (
                self.tr("D (query/key)"),
                self.tr("D: size of each head's query and key vectors; scores are divided by √D"),
            ),
            "heads": (
                self.tr("H (heads)"),
                self.tr("H: number of attention heads, each with its own W_q, W_k, W_v, W_o"),
            ),
            "layers": (self.tr("L (layers)"), self.tr("L: number of blocks (attention + FFN) stacked")),
            "value_dim": (
                self.tr("D_v (value)"),
                self.tr("D_v: size of each head's value vector (and of its output Rⁱ)"),
            ),
            "ffn_dim": (self.tr("F (FFN width)"), self.tr("F: width of the feed-forward layer's hidden activations")),
        }
        for name, (label, tip) in texts.items():
            self.size_labels[name].setText(label)
            self.size_labels[name].setToolTip(tip)
            self.sizes[name].setToolTip(tip)
        self.sizes["value_dim"].setSpecialValueText(self.tr("= D"))
        self.sizes["ffn_dim"].setSpecialValueText(self.tr("= 4·E"))
        self.positions_label.setText(self.tr("Positions"))
        self.positions.setToolTip(
            self.tr(
                "How the model knows where each token is: nothing, fixed sines and cosines, a learned table, "
                "or rotated queries and keys"
            )
        )
        for i, text in enumerate(
            (self.tr("none"), self.tr("sinusoidal"), self.tr("learned"), self.tr("rotary (RoPE)"))
        ):
            self.positions.setItemText(i, text)
        self.norm_label.setText(self.tr("Norm"))
        self.norm.setToolTip(
            self.tr(
                "Normalisation before attention, before the FFN and at the end (a stage of its own); none with "
                "residuals off is the note's bare block"
            )
        )
        _label_items(
            self.norm, {"layernorm": self.tr("LayerNorm"), "rmsnorm": self.tr("RMSNorm"), "none": self.tr("none")}
        )
        self.residual_label.setText(self.tr("Residuals"))
        self.residual.setText(self.tr("add x back"))
        self.residual.setToolTip(
            self.tr(
                "On: each block adds its attention and FFN outputs to its input x. Off (with norm none): the "
                "note's bare Attention then FFN"
            )
        )

    def _retranslate_attention_and_run(self) -> None:
        self.mask_label.setText(self.tr("Mask"))
        self.mask.setToolTip(self.tr("Which keys each query may attend to; blocked scores become −∞ before softmax"))
        _label_items(
            self.mask,
            {
                "causal": self.tr("causal"),
                "none": self.tr("none (sees the future)"),
                "window": self.tr("window W"),
                "prefix": self.tr("prefix P"),
                "explicit": self.tr("hand-painted"),
            },
        )
        self.mask_size.setToolTip(
            self.tr("Window W: query i sees keys {first} … i. Prefix P: the first P tokens see each other").format(
                first=vocab.WINDOW_FIRST_KEY
            )
        )
        self.scale_label.setText(self.tr("Scaling"))
        self.scale.setText(self.tr("÷ √D"))
        self.scale.setToolTip(
            self.tr("Divide the scores by √D so their variance stays near 1; off, softmax saturates as D grows")
        )
        self.temperature_label.setText(self.tr("Temperature"))
        self.temperature.setToolTip(
            self.tr("Next-token probabilities are softmax(logits ÷ temperature): below 1 sharper, above 1 flatter")
        )
        self.dtype_label.setText(self.tr("Precision"))
        self.dtype.setToolTip(
            self.tr(
                "float32 is fast; float64 shows identities equal to ~1e-16; bfloat16 and float16 compute as most "
                "checkpoints ship and GPUs run them: half the memory, about 3 and 4 significant digits"
            )
        )
        self.device_label.setText(self.tr("Device"))
        self.device.setToolTip(self.tr("Where the model runs (only the devices present on this computer)"))

    # ------------------------------------------------------------------ controls → state
    def _connect(self) -> None:
        s = self.state
        self.preset.activated.connect(lambda i: s.set_preset(self.preset.itemData(i)))
        self.random_weights.toggled.connect(self._weights_toggled)
        self.seed.valueChanged.connect(lambda v: s.set_seed(None if v < 0 else v))
        for name, spin in self.sizes.items():
            spin.valueChanged.connect(lambda v, name=name: self._size_changed(name, v))
        self.positions.activated.connect(lambda i: s.set_sizes(positions=self.positions.itemData(i)))
        self.norm.activated.connect(lambda i: s.set_sizes(norm=self.norm.itemData(i)))
        self.residual.toggled.connect(lambda on: s.set_sizes(residual=on))
        self.mask.activated.connect(lambda _i: self._mask_changed())
        self.mask_size.valueChanged.connect(lambda _v: self._mask_changed())
        self.scale.toggled.connect(lambda on: s.set_options(scale=on))
        self.temperature.valueChanged.connect(lambda v: s.set_options(temperature=v))
        self.dtype.activated.connect(lambda i: s.set_options(dtype=self.dtype.itemData(i)))
        self.device.activated.connect(lambda i: s.set_options(device=self.device.itemData(i)))

    def _weights_toggled(self, random: bool) -> None:
        src = self.state.source
        if random:
            self.state.set_random_weights(True)
        elif src.kind == "preset":
            # Trained weights only fit the preset's own sizes: going back to them resets sizes and seed too.
            self.state.set_source(ModelSource("preset", src.name))

    def _size_changed(self, name: str, value: int) -> None:
        self.state.set_sizes(**{name: (None if value == 0 and name in ("value_dim", "ffn_dim") else value)})

    def _mask_changed(self) -> None:
        kind = self.mask.currentData()
        self._show_mask_parts(kind)
        if kind == "explicit":
            self.state.paint()  # the Session's painting (from causal when nothing is painted yet), grown to the text
            return
        self.state.set_options(
            mask=MaskSpec(kind, self.mask_size.value()) if kind in vocab.SIZED_MASKS else MaskSpec(kind)
        )

    def _show_mask_parts(self, kind: str) -> None:
        sized = kind in vocab.SIZED_MASKS
        self.mask_size.setVisible(sized)
        self.mask_size_label.setVisible(sized)
        self.mask_size_label.setText("W" if kind == "window" else "P")
        self.painter.setVisible(kind == "explicit")

    # ------------------------------------------------------------------ state → controls
    def displayed_sizes(self) -> dict[str, Any]:
        """What the size controls show: the request's sizes for a preset (even ones the worker refused, so
        the user sees what they typed), the model's own for a loaded model or snapshot."""
        src = self.state.source
        if src.kind == "preset" and self.state.editable_sizes:
            return {**_DEFAULTS, **get_preset(src.name).sizes, **src.size_overrides()}
        cfg = self.state.config
        if cfg is None:
            return dict(_DEFAULTS)
        return {**cfg.to_dict(), "value_dim": cfg.D_v, "ffn_dim": cfg.F}

    def _sync(self) -> None:
        s = self.state
        src, opts = s.source, s.options
        editable = s.editable_sizes and src.kind == "preset"
        blockers = [
            QSignalBlocker(w)
            for w in (
                self.preset,
                self.random_weights,
                self.seed,
                self.positions,
                self.norm,
                self.residual,
                self.mask,
                self.mask_size,
                self.scale,
                self.temperature,
                self.dtype,
                self.device,
                *self.sizes.values(),
            )
        ]
        index = self.preset.findData(src.name) if src.kind == "preset" else -1
        self.preset.setCurrentIndex(index)
        self.preset.setPlaceholderText(src.name.replace("\\", "/").rsplit("/", 1)[-1] if index < 0 else "")
        self.random_weights.setChecked(src.random_weights or src.seed is not None or bool(src.sizes))
        set_value(self.seed, -1 if src.seed is None else _shown(src.seed, self.seed))  # 2**40 overflowed the box
        sizes = self.displayed_sizes()
        for name, spin in self.sizes.items():
            set_value(spin, _shown(sizes.get(name), spin))
            spin.setEnabled(editable)
        self.positions.setCurrentIndex(max(0, self.positions.findData(sizes.get("positions", "sinusoidal"))))
        self.positions.setEnabled(editable)
        self.norm.setCurrentIndex(max(0, self.norm.findData(sizes.get("norm", "layernorm"))))
        self.residual.setChecked(bool(sizes.get("residual", True)))
        for w in (self.norm, self.residual):
            w.setEnabled(editable)
        for w in (self.random_weights, self.seed):
            w.setEnabled(editable)
        self.mask.setCurrentIndex(self.mask.findData(opts.mask.kind))
        if opts.mask.size is not None:
            set_value(self.mask_size, opts.mask.size)
        self.scale.setChecked(opts.scale)
        set_value(self.temperature, opts.temperature)
        self.dtype.setCurrentIndex(self.dtype.findData(opts.dtype))
        self.device.setCurrentIndex(self.device.findData(opts.device))
        del blockers
        self._show_mask_parts(opts.mask.kind)
        self._update_counts()

    def _update_counts(self) -> None:
        s = self.state
        try:
            if s.source.kind == "preset" and s.editable_sizes:
                cfg = preset_source_config(s.source)  # the config the worker builds the model with
            else:
                cfg = s.config
        except ExplorerError as exc:
            self.params.setText(self.tr("These sizes cannot work: {message}").format(message=str(exc)))
            return
        if cfg is None:
            self.params.setText("")
            return
        text = self.tr("{n} parameters").format(n=f"{cfg.parameter_count():,}") + active_parameters_note(cfg)
        trace = s.trace
        if trace is not None:
            est = estimate_memory(cfg, trace.B, trace.C, s.options)
            text += " · " + self.tr("about {mem} at peak for this text").format(mem=human_bytes(est.peak_bytes))
        self.params.setText(text)

    def _on_trace(self, trace) -> None:
        self.error_box.setVisible(False)
        self._update_counts()
        if not self._devices_listed:
            self._devices_listed = True
            self.device.blockSignals(True)
            for d in available_devices():
                if self.device.findData(d) < 0:
                    self.device.addItem(d, d)
            self.device.blockSignals(False)

    def _on_error(self, message: str) -> None:
        self.error.setText(
            self.tr("Not traced: {message}. The last good trace is still shown.").format(message=message)
        )
        self.error_box.setVisible(True)

    def error_text(self) -> str:
        return "" if self.error_box.isHidden() else self.error.text()
