"""The words inside the pipeline's edge labels, and the stages' titles, translated (the labels and the English
titles are the core's)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.present.stage_titles import HEADING_CONTEXT, STAGE_TITLES, TITLE_CONTEXT


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
        "top K": QCoreApplication.translate("StageWords", "the {K} most probable of {X} experts"),
        "dense layer": QCoreApplication.translate("StageWords", "a dense FFN in this layer: no router"),
        "shared expert": QCoreApplication.translate("StageWords", "shared expert"),
    }


def stage_titles() -> dict[str, str]:
    """Every stage's short title, translated (the step line, the stage list, figures): one call for a view that
    names all its stages. The English is explorer/present/stage_titles.py's, the only table of titles."""
    return {key: QCoreApplication.translate(TITLE_CONTEXT, t.title) for key, t in STAGE_TITLES.items()}


def stage_headings() -> dict[str, str]:
    """Every stage's heading, translated (the flow view's and presentation mode's longer wording)."""
    return {key: QCoreApplication.translate(HEADING_CONTEXT, t.heading) for key, t in STAGE_TITLES.items()}
