"""Presentation mode (F5): full screen, large type, one stage at a time, for a class.

The window shows the selected stage's title, its caption in plain words, its computation with the real
shapes, and the same central tensor view as the main window, large. ← → Space PageUp PageDown (what a
presentation clicker sends) move through the stages layer by layer via ``state.select``, so the main window
follows; Esc or F5 leaves. Nothing here computes: words come from ``captions``, shapes from
``explorer.present.stages``, the order from ``explorer.present.stage_walk``, the picture from ``TensorView``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from explorer.ui.stage_words import stage_words
from explorer.present import stage_walk
from explorer.present.stages import STAGE_KEYS, edge_label, stage, stage_keys_for
from explorer.ui import captions
from explorer.ui.state import AppState
from explorer.ui.views.tensor_view import TensorView

TITLE_SCALE, EDGE_SCALE, CAPTION_SCALE, FOOTER_SCALE = 2.6, 1.6, 1.8, 1.1  # × the application's font size
FIGURE_PX_AT_1080 = 20  # no text inside a figure smaller than this on a 1920×1080 projector

_NEXT = (Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_PageDown, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
_BACK = (Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Up, Qt.Key.Key_Backspace)
_LEAVE = (Qt.Key.Key_Escape, Qt.Key.Key_F5)


def _scaled(base: QFont, factor: float, bold: bool = False, mono: bool = False) -> QFont:
    font = QFont(base)
    if mono:
        font.setFamily("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(base.pointSizeF() * factor)
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
        base = self.font()
        self.title = QLabel()
        self.title.setFont(_scaled(base, TITLE_SCALE, bold=True))
        self.where = QLabel()
        self.where.setFont(_scaled(base, CAPTION_SCALE))
        self.where.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.leave = QToolButton(text="✕", autoRaise=True)
        self.leave.setFont(_scaled(base, CAPTION_SCALE))
        self.leave.clicked.connect(self.close)
        self.edge = QLabel()
        self.edge.setFont(_scaled(base, EDGE_SCALE, mono=True))
        self.edge.setWordWrap(True)
        self.caption = QLabel()
        self.caption.setFont(_scaled(base, CAPTION_SCALE))
        self.caption.setWordWrap(True)
        self.tensor = TensorView(state)
        self.tensor.setFont(_scaled(base, 1.3))
        self._figure_px = 0
        # Its own title and shape line repeat, in small type, what the slide says above.
        self.tensor.title.hide()
        self.tensor.edge.hide()
        self.footer = QLabel()
        self.footer.setFont(_scaled(base, FOOTER_SCALE))
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
        lay.addWidget(self.tensor, 1)
        lay.addWidget(self.footer)
        state.traceChanged.connect(self._refresh)
        state.selectionChanged.connect(self._refresh)
        self.retranslate()

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
            self.tensor.set_presentation(px)

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
        self.title.setText(captions.title(sel.stage))
        if trace is None:
            self.where.setText("")
            self.edge.setText("")
            self.caption.setText(self.tr("Waiting for the first trace…"))
            self.footer.setText("")
            return
        layers = trace.layers or (0,)
        self.where.setText(
            self.tr("layer {n} of L = {L}").format(n=sel.layer, L=trace.config.L) if stage(sel.stage).per_layer else ""
        )
        self.edge.setText(edge_label(sel.stage, trace, sel.layer, sel.row, stage_words()))
        self.caption.setText(captions.caption(sel.stage, trace, sel.layer, sel.row))
        # Numbered like the stage list (1…15, or 18 with the pre-norms); the layer is said above.
        keys = stage_keys_for(trace.config)
        i = keys.index(sel.stage) if sel.stage in keys else STAGE_KEYS.index(sel.stage)
        self.footer.setText(self.tr("stage {i} / {n} · ← → to move · Esc to leave").format(i=i + 1, n=len(keys)))

    # ------------------------------------------------------------------ keys
    def step(self, delta: int) -> None:
        trace, sel = self.state.trace, self.state.selection
        layers = (trace.layers if trace is not None else ()) or (sel.layer,)
        key, layer = stage_walk.step(sel.stage, sel.layer, delta, layers, trace.config if trace is not None else None)
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
