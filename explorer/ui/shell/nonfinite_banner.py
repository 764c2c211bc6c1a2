"""The banner over the window while the trace shown holds NaN or infinite numbers: the trace's finite-check
line, whole (issue 44).

The status bar said it too, cut short after a few words and replaced by the next message; a map then drew
blank cells with nothing to say why. The banner stays while such a trace is shown, beside the snapshot banner's
row, and goes when a trace of finite numbers replaces it. The line is the core's (explorer/trace/finite.py);
the window adds only a translated heading.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QSizePolicy, QWidget

from explorer.present.nonfinite import nonfinite_line
from explorer.ui.bridge.state import AppState
from explorer.ui.shell.banner_row import banner_row


class NonfiniteBanner(QFrame):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("nonfiniteBanner")
        self.state = state
        self.line: str | None = None  # the core's finite-check notice of the trace shown, or None
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # The NaN colour of the maps' cells (map_layers.NAN_FILL) as the border: the banner names what they mark.
        self.setStyleSheet(
            "#nonfiniteBanner { background: #fde2f3; border: 1px solid #c2188b; }"
            "#nonfiniteBanner QLabel { color: #4a0033; }"
        )
        self.message = QLabel()
        self.message.setObjectName("nonfiniteMessage")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)  # the whole line, on as many rows as it needs: never cut short
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self.message, 1)

    def follow(self, notices: tuple[str, ...]) -> None:
        self.line = nonfinite_line(notices)
        self.retranslate()

    def text(self) -> str:
        if self.line is None:
            return ""
        return self.tr("Numbers that cannot be shown: {line}").format(line=self.line)

    def retranslate(self) -> None:
        self.message.setText(self.text())
        self._fit_height()

    def resizeEvent(self, event) -> None:
        """As tall as the wrapped line at the banner's width: a toolbar asks a word-wrapped label's height at
        its narrowest and gave it half the window."""
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        margins = self.layout().contentsMargins()
        width = max(1, self.width() - margins.left() - margins.right())
        # measured here: QLabel.heightForWidth answered 280 px for one line at 1374 px (offscreen, Qt 6)
        wrapped = self.message.fontMetrics().boundingRect(
            QRect(0, 0, width, 100_000), Qt.TextFlag.TextWordWrap, self.message.text()
        )
        lines = max(wrapped.height(), self.message.fontMetrics().height())
        if lines != self.message.height():  # the label too: the layout kept its first, narrowest height
            self.message.setFixedHeight(lines)
            self.setFixedHeight(lines + margins.top() + margins.bottom() + 2 * self.frameWidth())

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def install_nonfinite_banner(window: QMainWindow) -> NonfiniteBanner:
    """A fixed toolbar row above the panels, shown only while the trace's notices hold the finite-check line."""
    state: AppState = window.state
    banner = NonfiniteBanner(state, window)
    bar = banner_row(window, "nonfiniteBar", banner)

    def follow(notices=None) -> None:
        banner.follow(tuple(notices if notices is not None else state.notices))
        bar.setVisible(banner.line is not None)

    state.noticesChanged.connect(follow)
    state.traceChanged.connect(lambda trace: follow(trace.notices))
    # A restored dock layout (restoreState) may show the row on its own: put it right.
    bar.visibilityChanged.connect(lambda visible: visible != (banner.line is not None) and follow())
    follow()
    window.nonfinite_bar = bar
    return banner
