"""The Text panel's one-time suggestion: Japanese typed on a preset whose vocabulary has no Japanese.

The classroom preset splits every kanji and kana into byte tokens (27 of them for 9 characters) with no
hint why (issue 22). When a trace shows Japanese text whose characters came out as loose bytes or unknown
tokens, a line offers the japanese preset (keeping the typed sentence). It is offered once a session:
taken, dismissed or no longer true, it does not come back.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from explorer.present.token_parts import japanese_without_vocabulary

PRESET = "japanese"


class LanguageHint(QWidget):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.offered = False  # shown once this session: never again after
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.use = QPushButton()
        self.use.clicked.connect(self._take)
        self.dismiss = QToolButton(text="✕", autoRaise=True)
        self.dismiss.clicked.connect(self._close)
        row = QHBoxLayout()
        row.addWidget(self.use)
        row.addStretch(1)
        row.addWidget(self.dismiss)
        lay = QVBoxLayout(self)  # the words above, the buttons below: the Text panel is narrow
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.label)
        lay.addLayout(row)
        self.hide()
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(self.tr("This model has no Japanese words: each character became byte tokens."))
        self.use.setText(self.tr("Use the japanese preset"))
        self.use.setToolTip(self.tr("Switch to the japanese preset, keeping this sentence"))
        self.dismiss.setToolTip(self.tr("Do not suggest it again"))

    def on_trace(self, trace) -> None:
        source = self.state.source
        wanted = (
            not self.offered
            and not trace.read_only
            and not (source.kind == "preset" and source.name == PRESET)
            and any(japanese_without_vocabulary(r.text, r.tokens, r.unknown) for r in trace.rows)
        )
        if wanted:
            self.show()
        elif self.isVisible():
            self._close()  # no longer true (the text or the model changed): once is enough

    def _take(self) -> None:
        self._close()
        self.state.set_preset(PRESET, keep_text=True)

    def _close(self) -> None:
        self.offered = True
        self.hide()
