"""The pipeline as a row of clickable stage boxes, with the real shapes, a Play button and arrow keys.

tokens → Embed → [ Q K V → Q·Kᵀ → ÷√D → mask → softmax → ·V → concat → ·W_o → + x → FFN → block out ] ×L
→ Linear → softmax. Each box prints its tensor's shape for one sentence and one head; the selected stage's
full computation (``explorer.present.stages.edge_label``) and a caption are spelled out below. Play and ← → walk
the stages layer by layer (``explorer.present.stage_walk``), always through ``state.select``.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.present import stage_walk
from explorer.present.stage_facts import stage_numbers, stage_shape
from explorer.present.stages import STAGES, edge_label, shown, stage_keys_for
from explorer.ui.views.base import View
from explorer.ui.views.folding_label import ELLIPSIS, FoldingLabel
from explorer.ui.views.pipeline.flow_layout import FlowLayout
from explorer.ui.views.pipeline.stage_box import Diagram, StageBox, arrow, box_scales
from explorer.ui.words import captions
from explorer.ui.words.stage_words import stage_words

PLAY_INTERVAL_MS = 1500

# Widgets that use ← → (or Space) themselves: the stage keys must not steal them.
_TEXT_INPUTS = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QComboBox)
_ARROW_USERS = (*_TEXT_INPUTS, QAbstractSlider, QAbstractItemView)
# Shift/Ctrl/Alt/Meta + arrow belong to other shortcuts (and to text selection).
_CHORD = (
    Qt.KeyboardModifier.ShiftModifier
    | Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)


class FlowView(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.boxes: dict[str, StageBox] = {}
        self.arrows: dict[str, QLabel] = {}  # the arrow in front of a box, hidden with it
        self._fitted: list | None = None  # the boxes' contents the diagram was last fitted to
        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_INTERVAL_MS)
        self.timer.timeout.connect(self._tick)
        self._build()
        self.retranslate()
        state.traceChanged.connect(self.when_shown(lambda _t: self._refresh()))
        state.selectionChanged.connect(self.when_shown(lambda _s: self._refresh()))
        QApplication.instance().installEventFilter(self)
        self._refresh()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self._diagram = self._build_diagram()
        controls = self._build_controls()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 2)
        lay.setSpacing(1)
        lay.addWidget(self._diagram)
        lay.addLayout(controls)
        lay.addWidget(self.caption)
        lay.addStretch(1)

    def _build_group(self) -> FlowLayout:
        """The framed group of the stages every layer repeats; returns its row. Its layer header sits on the
        controls' line (a line of its own cost the map 20 px of a laptop's height, issue 22)."""
        self.group = QFrame()
        self.group.setObjectName("layerGroup")
        self.group.setFrameShape(QFrame.Shape.StyledPanel)
        self.group.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.group.setAutoFillBackground(True)
        g = QVBoxLayout(self.group)
        g.setContentsMargins(4, 2, 4, 2)
        g.setSpacing(0)
        inner = FlowLayout(spacing=0, line_spacing=4)
        g.addLayout(inner)
        return inner

    def _build_diagram(self) -> Diagram:
        diagram = Diagram()
        row = FlowLayout(diagram, spacing=0, line_spacing=4)
        row.setContentsMargins(2, 2, 2, 2)
        inner = self._build_group()
        placed_group = False
        for i, s in enumerate(STAGES):
            box = StageBox(s.key, s.symbol)
            box.setObjectName(f"stage.{s.key}")
            box.clicked.connect(lambda _=False, key=s.key: self.state.select(stage=key))
            self.boxes[s.key] = box
            target = inner if s.per_layer else row
            if s.per_layer and not placed_group:
                row.addWidget(arrow())
                row.addWidget(self.group)
                placed_group = True
            elif i > 0:
                self.arrows[s.key] = arrow()
                target.addWidget(self.arrows[s.key])
            target.addWidget(box)
        diagram.shrink = self._shrink_to
        return diagram

    def _build_controls(self) -> QHBoxLayout:
        """Play, ◀ ▶ and the selected stage's computation on one line; the caption below it."""
        self.play = QToolButton()
        self.play.setCheckable(True)
        self.play.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.play.toggled.connect(self._set_playing)
        self.back = QToolButton(text="◀")
        self.forward = QToolButton(text="▶")
        self.back.clicked.connect(lambda: self.step(-1))
        self.forward.clicked.connect(lambda: self.step(1))
        self.prev_layer = QToolButton(text="‹", autoRaise=True)
        self.next_layer = QToolButton(text="›", autoRaise=True)
        self.prev_layer.clicked.connect(lambda: self._move_layer(-1))
        self.next_layer.clicked.connect(lambda: self._move_layer(1))
        self.layer_label = QLabel()
        self.detail = FoldingLabel()  # one line, cut, while the map needs the room (200 % text on a laptop)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        # a narrow dock wraps the edge label instead of growing (FoldingLabel wraps)
        big = QFont(self.detail.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.detail.setFont(big)
        self.caption = FoldingLabel()
        self.caption.setForegroundRole(QPalette.ColorRole.WindowText)
        controls = QHBoxLayout()
        controls.setSpacing(4)
        for w in (self.play, self.back, self.forward):
            controls.addWidget(w)
        controls.addSpacing(8)
        for w in (self.prev_layer, self.layer_label, self.next_layer):
            controls.addWidget(w)
        controls.addSpacing(8)
        controls.addWidget(self.detail, 1)
        return controls

    def text_size_changed(self, *_sizes) -> None:
        """View → Text size: the boxes are measured again (one row if the box scales allow it)."""
        self._diagram.fit()

    def _shrink_to(self, width: int) -> None:
        """The largest of the box scales (stage_box.box_scales) at which the whole pipeline fits one row of
        ``width`` (the smallest if none does: the row then wraps and the diagram grows)."""
        for scale in box_scales():
            for box in self.boxes.values():
                box.set_scale(scale)
            self.group.layout().invalidate()  # the layer group's width follows its boxes now, not later
            self.group.updateGeometry()
            if self._diagram.layout().sizeHint().width() <= width:
                return

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self._set_play_text()
        self.play.setToolTip(
            self.tr("Step through the stages automatically, one every {s:g} s (Space)").format(
                s=self.timer.interval() / 1000
            )
        )
        self.back.setToolTip(self.tr("Previous stage (←)"))
        self.forward.setToolTip(self.tr("Next stage (→)"))
        self.prev_layer.setToolTip(self.tr("Previous layer"))
        self.next_layer.setToolTip(self.tr("Next layer"))
        self.group.setToolTip(self.tr("These stages repeat in every layer; the arrows choose the layer shown"))
        self.layer_label.setToolTip(self.group.toolTip())
        self._refresh()

    def key_help(self) -> list[tuple[str, str]]:
        """The keys this panel reads from the whole window (Help → Keyboard shortcuts lists them)."""
        return [
            ("Left", self.tr("previous stage")),
            ("Right", self.tr("next stage")),
            ("Space", self.tr("play / pause the stages")),
        ]

    def _set_play_text(self) -> None:
        self.play.setText(self.tr("❚❚ Pause") if self.play.isChecked() else self.tr("▶ Play"))

    def _note(self, key: str, heads: int, trace) -> str:
        opt = trace.options
        if key == "scaled":
            return self.tr("scaling off") if not opt.scale else "÷ {}".format(stage_numbers(trace)["sqrt_D"])
        if key == "masked":
            m = opt.mask
            words = {
                "causal": self.tr("causal"),
                "none": self.tr("none"),
                "window": self.tr("window:{n}"),
                "prefix": self.tr("prefix:{n}"),
                "explicit": self.tr("explicit:{n}x{n}"),
            }
            return (
                words[m.kind].format(n=len(m.matrix or ()) if m.kind == "explicit" else m.size)
                if m.kind in words
                else str(m)
            )
        if key == "probs":
            return self.tr("T = {t:g}").format(t=opt.temperature)
        if key == "experts" and trace.config.is_moe(self.state.selection.layer):  # K choices, where others count heads
            return self.tr("K = {k} per token").format(k=heads)
        if heads > 1:
            return self.tr("× {h} heads").format(h=heads)
        return ""

    def _refresh(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        had_focus = any(box.hasFocus() for box in self.boxes.values())
        for key, box in self.boxes.items():
            box.set_selected(key == sel.stage)
        if had_focus and sel.stage in self.boxes:  # ← → on the pipeline: the keyboard follows the stage
            self.boxes[sel.stage].setFocus(Qt.FocusReason.OtherFocusReason)
        if trace is None:
            self.layer_label.setText(self.tr("layer {n}").format(n=sel.layer))
            self.detail.setText(f"<b>{captions.title(sel.stage)}</b>")
            self.caption.setText("")
            return
        layers = self.state.selectable_layers() or (0,)  # uncaptured layers too: picking one traces it
        first_in_group = True
        for s in STAGES:  # a pre-norm is a stage only when the model has one
            visible = shown(s.key, trace.config)
            _show(self.boxes[s.key], visible)
            if s.key in self.arrows:  # the first box of the layer group has no arrow in front
                _show(self.arrows[s.key], visible and not (s.per_layer and first_in_group))
            if s.per_layer and visible:
                first_in_group = False
        contents, words, titles = [], stage_words(), captions.titles()  # translated once, not once per box
        for key, box in self.boxes.items():
            if not box.isVisibleTo(self):  # a stage this model does not have: nothing to show or explain
                contents.append((key, False))
                continue
            shape, heads = stage_shape(key, trace, sel.layer, sel.row)
            edge = edge_label(key, trace, sel.layer, sel.row, words)
            contents.append((key, True, shape, self._note(key, heads, trace), edge))
            box.set_content(*contents[-1][2:])
            tip = self.tr("<b>{title}</b><br>{edge}<br><i>Click to show this stage</i>").format(
                title=titles[key], edge=_html(edge)
            )
            if box.toolTip() != tip:  # each set sends the box an event, 30 boxes on every edit
                box.setToolTip(tip)
            if box.accessibleName() != titles[key]:
                box.setAccessibleName(titles[key])
        self.layer_label.setText(self.tr("layer {n} of L = {L}").format(n=sel.layer, L=trace.config.L))
        self.prev_layer.setEnabled(sel.layer != layers[0])
        self.next_layer.setEnabled(sel.layer != layers[-1])
        line = self.tr("<b>{title}</b> &nbsp; <code>{edge}</code> &nbsp; <span>(stage {i} / {n})</span>")
        title, i, n = _html(titles[sel.stage]), _index(sel.stage, trace.config) + 1, len(stage_keys_for(trace.config))
        # folded (a short window), the formula is cut and the stage's place left to the tooltip: its name stays
        short = re.sub(r"\s*&nbsp;\s*<span>.*?</span>", "", line)
        self.detail.set_rich(
            lambda edge: (short if edge.endswith(ELLIPSIS) else line).format(title=title, edge=_html(edge), i=i, n=n),
            edge_label(sel.stage, trace, sel.layer, sel.row, words),
        )
        self.caption.setText(captions.caption(sel.stage, trace, sel.layer, sel.row))
        if contents != self._fitted:  # boxes may have grown (a longer shape); the same boxes need no relayout
            self._fitted = contents  # (fitting asks the whole window to lay out again: every edit, before)
            self._diagram.fit()

    # ------------------------------------------------------------------ stepping
    def step(self, delta: int) -> None:
        trace, sel = self.state.trace, self.state.selection
        layers = (trace.layers if trace is not None else ()) or (sel.layer,)
        key, layer = stage_walk.step(sel.stage, sel.layer, delta, layers, trace.config if trace is not None else None)
        self.state.select(stage=key, layer=layer)

    def _move_layer(self, delta: int) -> None:
        trace, sel = self.state.trace, self.state.selection
        layers = self.state.selectable_layers()
        if trace is None or not layers:
            return
        i = layers.index(sel.layer) if sel.layer in layers else 0
        self.state.select(layer=layers[max(0, min(len(layers) - 1, i + delta))])

    def toggle_play(self) -> None:
        self.play.toggle()

    def _set_playing(self, playing: bool) -> None:
        self._set_play_text()
        if playing:
            trace, sel = self.state.trace, self.state.selection
            layers = (trace.layers if trace is not None else ()) or (sel.layer,)
            if stage_walk.is_last(sel.stage, sel.layer, layers, _config(trace)):  # start over from the tokens
                self.state.select(stage=stage_walk.walk(layers, _config(trace))[0][0], layer=layers[0])
            self.timer.start()
        else:
            self.timer.stop()

    def _tick(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        layers = (trace.layers if trace is not None else ()) or (sel.layer,)
        self.step(1)
        sel = self.state.selection
        if stage_walk.is_last(sel.stage, sel.layer, layers, _config(trace)):
            self.play.setChecked(False)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fitted = None  # the same texts take another size: fit again on the next refresh
        super().changeEvent(event)

    # ------------------------------------------------------------------ window-wide keys
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        # Only keys the focused widget has no use for: the token chips, a table, a slider keep ← →; a
        # focused button keeps Space. Those reach the window unaccepted. Plain buttons are the exception:
        # Qt moves the focus with arrows there, which is not what a teacher who just clicked one expects.
        # Every event of the application passes here: isinstance first (0.1 µs), the enum of event.type() (0.7 µs)
        # only for a key event.
        if not isinstance(event, QKeyEvent) or event.type() != QEvent.Type.KeyPress:
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self.window():
            return False
        key = event.key()
        if key not in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space) or event.modifiers() & _CHORD:
            return False
        plain_button = (
            isinstance(obj, QAbstractButton)
            and key != Qt.Key.Key_Space
            and not obj.autoExclusive()
            and obj.group() is None
        )
        if obj is not self.window() and not plain_button:
            return False
        # A text field at the end of its text lets an arrow through; it is still typing, not stepping.
        if isinstance(QApplication.focusWidget(), _ARROW_USERS):
            return False
        if key == Qt.Key.Key_Space:
            self.toggle_play()
        else:
            self.step(1 if key == Qt.Key.Key_Right else -1)
        event.accept()
        return True


def _config(trace):
    return trace.config if trace is not None else None


def _index(key: str, config) -> int:
    """The stage's place among the model's stages (a norm stage of a bare model: where it would stand)."""
    keys = stage_keys_for(config)
    return keys.index(key) if key in keys else sum(1 for k in keys if STAGES_ORDER.index(k) < STAGES_ORDER.index(key))


STAGES_ORDER = tuple(s.key for s in STAGES)


def _show(widget, visible: bool) -> None:
    # 60 boxes and arrows on every edit, nearly always as they were. isVisibleTo(parent): what showing the
    # parent would show (isHidden() is True for any child of a window not yet shown).
    if widget.isVisibleTo(widget.parentWidget()) != visible:
        widget.setVisible(visible)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
