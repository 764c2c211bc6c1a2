"""The words inside the pipeline's edge labels, translated (the labels themselves are built in the core)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def stage_words() -> dict[str, str]:
    # Literal translate() calls: lupdate does not see through an alias.
    return {
        "text": QCoreApplication.translate("StageWords", "text"),
        "scaling off": QCoreApplication.translate("StageWords", "scaling off"),
        "where blocked": QCoreApplication.translate("StageWords", "−∞ where blocked"),
        "softmax over keys": QCoreApplication.translate("StageWords", "softmax over keys"),
        "rows sum to 1": QCoreApplication.translate("StageWords", "rows sum to 1"),
        "no W_o": QCoreApplication.translate("StageWords", "no W_o in the unfactored form"),
        "attention": QCoreApplication.translate("StageWords", "attention"),
        "no residual": QCoreApplication.translate("StageWords", "no residual"),
        "scores": QCoreApplication.translate("StageWords", "scores"),
        "row i predicts": QCoreApplication.translate("StageWords", "row i predicts token i+1"),
        "blocked rows": QCoreApplication.translate("StageWords", "rows sum to 1 except {n} fully blocked rows: all 0"),
        "all rows blocked": QCoreApplication.translate("StageWords", "every row fully blocked: all 0"),
        "mean": QCoreApplication.translate("StageWords", "mean"),
        "variance": QCoreApplication.translate("StageWords", "variance"),
        "norm": QCoreApplication.translate("StageWords", "norm"),
        "sentence A/B": QCoreApplication.translate("StageWords", "sentence A → row 0, B → row 1"),
        "normalised": QCoreApplication.translate("StageWords", "normalised"),
        "each head": QCoreApplication.translate("StageWords", "each head"),
        "all heads": QCoreApplication.translate("StageWords", "all heads together"),
        "sliding": QCoreApplication.translate("StageWords", "sliding layer: the last {W} keys"),
        "parallel": QCoreApplication.translate("StageWords", "the FFN reads x, beside attention"),
        "mask token": QCoreApplication.translate("StageWords", "at [MASK]: the token that belongs there"),
    }
