"""Presentation mode (F5): full screen, large type, one stage at a time, for a class.

The window shows the selected stage's title, its caption in plain words, its computation with the real
shapes, and the same central tensor view as the main window, large. ← → Space PageUp PageDown (what a
presentation clicker sends) move through the stages layer by layer via ``state.select``, so the main window
follows; Esc or F5 leaves. After the last stage, a generation of the Generate panel (``state.generation``)
continues the walk, one slide per new token: the centre's generation map large, the cache tables, the chosen
token and the cost line beside it, all at the figure's text size. Nothing here computes: words come from ``captions``,
shapes from ``explorer.present.stages``, the order from ``explorer.present.stage_walk``, the picture from
``TensorView``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from explorer.analysis.token_text import visible
from explorer.generation import frames
from explorer.present import stage_walk
from explorer.present.stages import STAGE_KEYS, edge_label, stage, stage_keys_for
from explorer.ui import captions
from explorer.ui.stage_words import stage_words
from explorer.ui.state import AppState
from explorer.ui.views.generation_details import GenerationDetails
from explorer.ui.views.generation_map import selected_head
from explorer.ui.views.tensor_view import TensorView

# Every text of a slide in pixels, × the figure's text size (which follows the screen's height): on a
# 1280×720 projector the title, captions and footer stayed at the desk's point sizes (issue 22).
TITLE_SCALE, EDGE_SCALE, CAPTION_SCALE, FOOTER_SCALE = 2.0, 1.05, 1.25, 1.0
# No text on a slide smaller than this on a 1920×1080 projector, in proportion elsewhere: 14 px at 720 lines.
FIGURE_PX_AT_1080 = 21

_NEXT = (Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_PageDown, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
_BACK = (Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Up, Qt.Key.Key_Backspace)
_LEAVE = (Qt.Key.Key_Escape, Qt.Key.Key_F5)


def _scaled(base: QFont, px: float, bold: bool = False, mono: bool = False) -> QFont:
    font = QFont(base)
    if mono:
        font.setFamily("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    return font


class PresentationWindow(QWidget):
    @classmethod
    def show_for(cls, state: AppState, parent: QWidget | None = None) -> PresentationWindow:
        """Open presentation mode over ``parent``, or leave it if it is already open (F5 toggles).

        One window per main window, kept and reused: its tensor view stays connected to the state.
        """
        existing = parent.findChild(PresentationWindow) if parent is not None else None
        if existing is not None and existing.isVisible():
            existing.close()
            return existing
        window = existing or cls(state, parent)
        window.showFullScreen()
        window.raise_()
        window.activateWindow()
        window.setFocus()
        return window

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("PresentationWindow")
        self.state = state
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.title = QLabel()
        self.where = QLabel()
        self.where.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.leave = QToolButton(text="✕", autoRaise=True)
        self.leave.clicked.connect(self.close)
        self.edge = QLabel()
        self.edge.setWordWrap(True)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.tensor = TensorView(state)
        self._figure_px = 0
        # Its own title and shape line repeat, in small type, what the slide says above.
        self.tensor.title.hide()
        self.tensor.edge.hide()
        self.footer = QLabel()
        self.footer.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.footer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Every key belongs to the slides: the embedded view's boxes and maps are for the mouse only.
        for w in self.tensor.findChildren(QWidget):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.leave.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.where)
        top.addWidget(self.leave)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(40, 24, 40, 12)
        lay.setSpacing(10)
        lay.addLayout(top)
        lay.addWidget(self.edge)
        lay.addWidget(self.caption)
        self.details = self._generation_details()
        figure = QHBoxLayout()
        figure.addWidget(self.tensor, 3)
        figure.addWidget(self.details, 2)
        lay.addLayout(figure, 1)
        lay.addWidget(self.footer)
        state.traceChanged.connect(self._refresh)
        state.selectionChanged.connect(self._refresh)
        gen = state.generation
        for signal in (gen.changed, gen.stepChanged, gen.shownChanged, gen.liveChanged):
            signal.connect(self._refresh)
        self.retranslate()

    def _generation_details(self) -> GenerationDetails:
        """A generation (state.generation, shown): the Generate panel's tables, list and cost line beside the map."""
        details = GenerationDetails(with_map=False)
        for w in details.findChildren(QWidget):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        details.hide()
        return details

    # ------------------------------------------------------------------ sizes
    def figure_px(self) -> int:
        """The figure's smallest text in pixels: 20 px on a 1080-line projector, in proportion elsewhere,
        never below the application's own size."""
        from explorer.ui.views.heatmap import base_px

        return max(base_px(), round(FIGURE_PX_AT_1080 * self.height() / 1080))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        px = self.figure_px()
        if px != self._figure_px:
            self._figure_px = px
            self._set_text_px(px)

    def _set_text_px(self, px: int) -> None:
        """Every text of the slide from ``px`` up: the figure's, and the title, lines and footer around it."""
        from explorer.ui.views.heatmap import base_px

        base, desk = self.font(), base_px()  # a small screen still gets type larger than the desk's
        self.title.setFont(_scaled(base, max(px * TITLE_SCALE, 2 * desk), bold=True))
        for label in (self.where, self.leave, self.caption):
            label.setFont(_scaled(base, max(px * CAPTION_SCALE, 1.5 * desk)))
        self.edge.setFont(_scaled(base, px * EDGE_SCALE, mono=True))
        self.footer.setFont(_scaled(base, px * FOOTER_SCALE))
        self.tensor.setFont(_scaled(base, px))
        self.tensor.set_presentation(px)
        self.details.set_text_px(px)

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Attention Explorer — presentation"))
        self.leave.setToolTip(self.tr("Leave presentation mode (Esc)"))
        self._refresh()

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _refresh(self, *_args) -> None:
        trace, sel = self.state.trace, self.state.selection
        self.details.setVisible(self.state.generation.shown)
        if self.state.generation.shown:
            self._refresh_generation()
            return
        self.title.setText(captions.title(sel.stage))
        if trace is None:
            self.where.setText("")
            self.edge.setText("")
            self.caption.setText(self.tr("Waiting for the first trace…"))
            self.footer.setText("")
            return
        self.where.setText(
            self.tr("layer {n} of L = {L}").format(n=sel.layer, L=trace.config.L) if stage(sel.stage).per_layer else ""
        )
        self.edge.setText(edge_label(sel.stage, trace, sel.layer, sel.row, stage_words()))
        self.caption.setText(captions.caption(sel.stage, trace, sel.layer, sel.row))
        # Numbered like the stage list (1…15, or 18 with the pre-norms); the layer is said above.
        keys = stage_keys_for(trace.config)
        i = keys.index(sel.stage) if sel.stage in keys else STAGE_KEYS.index(sel.stage)
        self.footer.setText(self.tr("stage {i} / {n} · ← → to move · Esc to leave").format(i=i + 1, n=len(keys)))
        live = self.state.generation.live
        if live:  # a generation is running: its tokens so far (its maps come when it is done)
            self.footer.setText(
                self.tr("Generating… {n} tokens: {text}").format(
                    n=len(live), text=" ".join(visible(s.token) for s in live)
                )
            )

    def _refresh_generation(self) -> None:
        """A slide per generated token: the map grows by one row, the cache by one row, with the cost."""
        gen = self.state.generation
        g, t = gen.generation, gen.step
        layer, head, _ = selected_head(g, self.state.selection)
        n, C, D = frames.positions(g, t), g.prompt_tokens, g.trace.config.D
        self.title.setText(self.tr("Generation: step {t} of {T}").format(t=t + 1, T=len(g.steps)))
        self.where.setText(self.tr("layer {l}, head {h}").format(l=layer, h=head))
        self.edge.setText(f"q (1, {D}) · Kᵀ ({D}, {n}) → softmax → (1, {n})")
        if t == 0:
            self.caption.setText(
                self.tr(
                    "The prefill: the prompt's {C} tokens run as one trace and fill the cache; "
                    "the last row of its {C}×{C} map gives the first new token."
                ).format(C=C)
            )
        else:
            self.caption.setText(
                self.tr(
                    "Only the new token runs: its query attends to the {n} keys so far (one new row "
                    "under the map), and its key and value join the cache."
                ).format(n=n)
            )
        self.details.show_step(g, self.state.selection, t)
        self.footer.setText(self.tr("token {t} / {T} · ← → to move · Esc to leave").format(t=t + 1, T=len(g.steps)))

    # ------------------------------------------------------------------ keys
    def step(self, delta: int) -> None:
        """The next (previous) slide: the stages layer by layer, then, when there is a generation, one slide
        per generated token; back from its first token returns to the stages."""
        trace, sel, gen = self.state.trace, self.state.selection, self.state.generation
        if gen.shown:
            if gen.step + delta < 0:
                gen.show(False)
            else:
                gen.set_step(gen.step + delta)
            return
        layers = (trace.layers if trace is not None else ()) or (sel.layer,)
        key, layer = stage_walk.step(sel.stage, sel.layer, delta, layers, trace.config if trace is not None else None)
        if delta > 0 and (key, layer) == (sel.stage, sel.layer) and gen.active:  # past the last stage
            gen.set_step(0)
            gen.show(True)
            return
        self.state.select(stage=key, layer=layer)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier):
            super().keyPressEvent(event)  # Alt+arrows: the tensor view's head/token shortcuts
        elif key in _NEXT:
            self.step(1)
        elif key in _BACK:
            self.step(-1)
        elif key == Qt.Key.Key_Home:
            self.step(-10_000)
        elif key == Qt.Key.Key_End:
            self.step(10_000)
        elif key in _LEAVE:
            self.close()
        else:
            super().keyPressEvent(event)
