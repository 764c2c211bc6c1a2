"""Presentation mode (F5): full screen, large type, one stage at a time, for a class.

The slide shows the selected stage's title, its caption in plain words, its computation with the real
shapes, and the same central tensor view as the main window, large. ← → Space PageUp PageDown (what a
presentation clicker sends) move through the stages layer by layer via ``state.select``, so the main window
follows; Esc or F5 leaves. After the last stage, a generation of the Generate panel (``state.generation``)
continues the walk, one slide per new token: the centre's generation map large, the cache tables, the chosen
token and the cost line beside it, all at the figure's text size. The window is the one slide window
(``slide_window.py``); this module is its deck. Nothing here computes: words come from ``captions``, shapes
from ``explorer.present.stages``, the order from ``explorer.present.stage_walk``, the picture from
``TensorView``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from explorer.analysis.token_text import visible
from explorer.generation import frames
from explorer.present import stage_walk
from explorer.present.stages import STAGE_KEYS, edge_label, stage, stage_keys_for
from explorer.ui.bridge.state import AppState
from explorer.ui.classroom import anatomy_slide, compare_slide
from explorer.ui.classroom.slide_window import BACK_KEYS, NEXT_KEYS, SlideWindow
from explorer.ui.views.generation.generation_details import GenerationDetails
from explorer.ui.views.generation.generation_map import selected_head
from explorer.ui.words import captions
from explorer.ui.words.stage_words import stage_words

# Every text of a slide in pixels, × the figure's text size (which follows the screen's height): on a
# 1280×720 projector the title, captions and footer stayed at the desk's point sizes (issue 22).
TITLE_SCALE, EDGE_SCALE, CAPTION_SCALE, FOOTER_SCALE = 2.0, 1.05, 1.25, 1.0
# No text on a slide smaller than this on a 1920×1080 projector, in proportion elsewhere: 14 px at 720 lines.
FIGURE_PX_AT_1080 = 21

NAME = "PresentationWindow"  # the slide window's name, and its words' translation context


def _scaled(base: QFont, px: float, bold: bool = False, mono: bool = False) -> QFont:
    font = QFont(base)
    if mono:
        font.setFamily("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    return font


def show_for(state: AppState, parent: QWidget | None = None) -> SlideWindow:
    """Open presentation mode over ``parent``, or leave it if it is already open (F5 toggles).

    One window per main window, kept and reused: its tensor view stays connected to the state.
    """
    existing = SlideWindow.find(parent, NAME)
    if existing is not None and existing.isVisible():
        existing.close()
        return existing
    return (existing or SlideWindow(state, StageDeck(), parent)).open()


class StageDeck:
    """The stages layer by layer, then a generation's tokens: presentation mode's slides."""

    name = NAME

    def build(self, window: SlideWindow, lay: QVBoxLayout) -> None:
        self._figure_px = 0
        window.edge = QLabel()
        window.edge.setWordWrap(True)
        # Its own title and shape line repeat, in small type, what the slide says above.
        window.tensor.title.hide()
        window.tensor.edge.hide()
        window.footer = QLabel()
        window.footer.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        window.footer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        window.details = _generation_details()
        lay.setContentsMargins(40, 24, 40, 12)
        lay.setSpacing(10)
        lay.addWidget(window.edge)
        lay.addWidget(window.caption)
        figure = QHBoxLayout()
        figure.addWidget(window.tensor, 3)
        figure.addWidget(window.details, 2)
        anatomy_slide.build(window, figure)  # “How is this made?” beside the figure (H)
        compare_slide.build(window, figure)  # two runs compared in place of the figure (C)
        lay.addLayout(figure, 1)
        lay.addWidget(window.footer)
        state = window.state
        state.traceChanged.connect(window.refresh)
        state.selectionChanged.connect(window.refresh)
        gen = state.generation
        for signal in (gen.changed, gen.stepChanged, gen.shownChanged, gen.liveChanged):
            signal.connect(window.refresh)

    # ------------------------------------------------------------------ sizes
    def resized(self, window: SlideWindow) -> None:
        px = figure_px(window)
        if px != self._figure_px:
            self._figure_px = px
            _set_text_px(window, px)

    # ------------------------------------------------------------------ texts
    def retranslate(self, window: SlideWindow) -> None:
        window.setWindowTitle(QCoreApplication.translate("PresentationWindow", "Attention Explorer — presentation"))
        window.leave.setToolTip(QCoreApplication.translate("PresentationWindow", "Leave presentation mode (Esc)"))
        self.fill(window)

    def fill(self, window: SlideWindow) -> None:
        state = window.state
        trace, sel = state.trace, state.selection
        window.details.setVisible(state.generation.shown)
        if state.generation.shown:
            _fill_generation(window)
            return
        window.title.setText(captions.title(sel.stage))
        if trace is None:
            window.where.setText("")
            window.edge.setText("")
            window.caption.setText(QCoreApplication.translate("PresentationWindow", "Waiting for the first trace…"))
            window.footer.setText("")
            return
        window.where.setText(
            QCoreApplication.translate("PresentationWindow", "layer {n} of L = {L}").format(
                n=sel.layer, L=trace.config.L
            )
            if stage(sel.stage).per_layer
            else ""
        )
        window.edge.setText(edge_label(sel.stage, trace, sel.layer, sel.row, stage_words()))
        window.caption.setText(captions.caption(sel.stage, trace, sel.layer, sel.row))
        # Numbered like the stage list (1…15, or 18 with the pre-norms); the layer is said above.
        keys = stage_keys_for(trace.config)
        i = keys.index(sel.stage) if sel.stage in keys else STAGE_KEYS.index(sel.stage)
        window.footer.setText(
            QCoreApplication.translate("PresentationWindow", "stage {i} / {n} · ← → to move · Esc to leave").format(
                i=i + 1, n=len(keys)
            )
        )
        live = state.generation.live
        if live:  # a generation is running: its tokens so far (its maps come when it is done)
            window.footer.setText(
                QCoreApplication.translate("PresentationWindow", "Generating… {n} tokens: {text}").format(
                    n=len(live), text=" ".join(visible(s.token) for s in live)
                )
            )

    # ------------------------------------------------------------------ keys
    def step(self, window: SlideWindow, delta: int) -> None:
        """The next (previous) slide: the stages layer by layer, then, when there is a generation, one slide
        per generated token; back from its first token returns to the stages."""
        state = window.state
        trace, sel, gen = state.trace, state.selection, state.generation
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
        state.select(stage=key, layer=layer)

    def key(self, window: SlideWindow, event: QKeyEvent) -> bool:
        _one_beside_the_figure(window, event)
        if anatomy_slide.key(window, event) or compare_slide.key(window, event):
            return True
        key = event.key()
        if event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier):
            QWidget.keyPressEvent(window, event)  # Alt+arrows: the tensor view's head/token shortcuts
            return True
        moves = {Qt.Key.Key_Home: -10_000, Qt.Key.Key_End: 10_000}
        moves.update({k: 1 for k in NEXT_KEYS})
        moves.update({k: -1 for k in BACK_KEYS})
        if key not in moves:
            return False
        self.step(window, moves[key])
        return True


def _one_beside_the_figure(window: SlideWindow, event: QKeyEvent) -> None:
    """C puts the stepper away before the comparison comes, H the comparison before the stepper: both at once
    left the three compared maps a third of the slide, their labels run together."""
    if event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier):
        return
    if event.key() == Qt.Key.Key_C and window.stepper.isVisible():
        anatomy_slide.toggle(window)
    elif event.key() == Qt.Key.Key_H and window.compare_maps.isVisible():
        compare_slide.toggle(window)


def _generation_details() -> GenerationDetails:
    """A generation (state.generation, shown): the Generate panel's tables, list and cost line beside the map."""
    details = GenerationDetails(with_map=False)
    for w in details.findChildren(QWidget):
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    details.hide()
    return details


def figure_px(window: QWidget) -> int:
    """The figure's smallest text in pixels: 20 px on a 1080-line projector, in proportion elsewhere,
    never below the application's own size."""
    from explorer.ui.views.map.heatmap import base_px

    return max(base_px(), round(FIGURE_PX_AT_1080 * window.height() / 1080))


def _set_text_px(window: SlideWindow, px: int) -> None:
    """Every text of the slide from ``px`` up: the figure's, and the title, lines and footer around it."""
    from explorer.ui.views.map.heatmap import base_px

    base, desk = window.font(), base_px()  # a small screen still gets type larger than the desk's
    window.title.setFont(_scaled(base, max(px * TITLE_SCALE, 2 * desk), bold=True))
    for label in (window.where, window.leave, window.caption):
        label.setFont(_scaled(base, max(px * CAPTION_SCALE, 1.5 * desk)))
    window.edge.setFont(_scaled(base, px * EDGE_SCALE, mono=True))
    window.footer.setFont(_scaled(base, px * FOOTER_SCALE))
    window.tensor.setFont(_scaled(base, px))
    window.tensor.set_presentation(px)
    window.details.set_text_px(px)
    window.stepper.present(px)


def _fill_generation(window: SlideWindow) -> None:
    """A slide per generated token: the map grows by one row, the cache by one row, with the cost."""
    state = window.state
    gen = state.generation
    g, t = gen.generation, gen.step
    layer, head, _ = selected_head(g, state.selection)
    n, C, D = frames.positions(g, t), g.prompt_tokens, g.trace.config.D
    window.title.setText(
        QCoreApplication.translate("PresentationWindow", "Generation: step {t} of {T}").format(t=t + 1, T=len(g.steps))
    )
    window.where.setText(
        QCoreApplication.translate("PresentationWindow", "layer {l}, head {h}").format(l=layer, h=head)
    )
    window.edge.setText(f"q (1, {D}) · Kᵀ ({D}, {n}) → softmax → (1, {n})")
    if t == 0:
        window.caption.setText(
            QCoreApplication.translate(
                "PresentationWindow",
                "The prefill: the prompt's {C} tokens run as one trace and fill the cache; "
                "the last row of its {C}×{C} map gives the first new token.",
            ).format(C=C)
        )
    else:
        window.caption.setText(
            QCoreApplication.translate(
                "PresentationWindow",
                "Only the new token runs: its query attends to the {n} keys so far (one new row "
                "under the map), and its key and value join the cache.",
            ).format(n=n)
        )
    window.details.show_step(g, state.selection, t)
    window.footer.setText(
        QCoreApplication.translate("PresentationWindow", "token {t} / {T} · ← → to move · Esc to leave").format(
            t=t + 1, T=len(g.steps)
        )
    )
