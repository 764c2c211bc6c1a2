""" "Induction heads": for a model trained on the induction task (the preset, or a checkpoint of such a run),
the heads whose queries attend to the token right after the previous occurrence of themselves, best first,
and a button that shows the best one. The scores are the core's ``induction_scores`` on the shown trace."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from explorer.train.runs import best_heads, checkpoint_corpus
from explorer.ui.bridge.state import AppState

TASK = "induction"


@lru_cache(maxsize=64)
def _corpus_of(path: str) -> str | None:
    return checkpoint_corpus(path)


def shown_corpus(state: AppState) -> str | None:
    """The corpus the shown model was trained on: its checkpoint's, or its preset's shipped checkpoint's."""
    src = state.source
    if src.kind == "preset":
        from explorer.weights.presets import PRESETS, preset_dir

        folder = preset_dir(src.name) if src.name in PRESETS else None
        return _corpus_of(str(folder)) if folder is not None and folder.is_dir() else None
    return _corpus_of(src.name) if Path(src.name).is_dir() else None


def shows_induction_model(state: AppState) -> bool:
    src = state.source
    return (src.kind == "preset" and src.name == TASK) or shown_corpus(state) == TASK


class InductionReadout(QWidget):
    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.best: list[tuple[int, int, float]] = []
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.show_best = QPushButton()
        self.show_best.clicked.connect(self._select_best)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.show_best)
        state.traceChanged.connect(self._on_trace)
        self.retranslate()
        self.setVisible(False)

    def retranslate(self) -> None:
        self.show_best.setToolTip(
            self.tr(
                "Show this head's attention weights: each query should look at the token "
                "right after the previous occurrence of itself"
            )
        )
        self.label.setToolTip(
            self.tr(
                "Mean attention weight each head puts on the induction target, over the "
                "repeated tokens of the text (1 = all of it)"
            )
        )
        self._show()

    def _on_trace(self, trace) -> None:
        visible = shows_induction_model(self.state) and trace.config.layers >= 1
        self.setVisible(visible)
        if not visible:
            self.best = []
            return
        from explorer.train.induction import induction_scores

        self.best = best_heads(induction_scores(trace), 3)
        self._show()

    def _show(self) -> None:
        if not self.best:
            self.label.setText(self.tr("Induction heads: type a sequence and repeat it (qwertyqwerty) to find them."))
            self.show_best.setEnabled(False)
            self.show_best.setText(self.tr("Show"))
            return
        parts = [self.tr("layer {l} · head {h}: {s:.2f}").format(l=l, h=h, s=s) for l, h, s in self.best]
        self.label.setText(
            self.tr("Induction heads (mean weight on the target): {list}").format(list=",  ".join(parts))
        )
        l, h, _s = self.best[0]
        self.show_best.setText(self.tr("Show layer {l}, head {h}").format(l=l, h=h))
        self.show_best.setEnabled(True)

    def _select_best(self) -> None:
        if self.best:
            l, h, _s = self.best[0]
            self.state.select(layer=l, head=h, stage="weights")
