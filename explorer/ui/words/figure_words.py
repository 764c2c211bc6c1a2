"""The figure's words in the interface language: the same source texts (and translation contexts) as the
central view's, so that a hand-out and the window say the same thing (explorer/handouts/words.py holds the
English ones). The calls are literal: lupdate finds literals only."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.handouts.words import FigureWords


def figure_words() -> FigureWords:
    from explorer.ui.words import captions
    from explorer.ui.words.stage_words import stage_titles, stage_words

    text = {
        "step": QCoreApplication.translate("TensorView", "Step {n} of {total}: {title}"),
        "layer": QCoreApplication.translate("TensorView", "layer {layer}"),
        "map title": QCoreApplication.translate("TensorView", "query (row) attends to key (column) — head {h}"),
        "head": QCoreApplication.translate("TensorView", "head {h}"),
        "query axis": QCoreApplication.translate("TensorView", "query (row)"),
        "key axis": QCoreApplication.translate("TensorView", "key (column)"),
        "token axis": QCoreApplication.translate("TensorView", "token (row)"),
        "legend weights": QCoreApplication.translate("TensorView", "blocked by the mask (−∞ before softmax): weight 0"),
        "legend masked": QCoreApplication.translate(
            "TensorView", "−∞ (masked): the mask blocks this key, so its weight becomes 0"
        ),
        "legend not chosen": QCoreApplication.translate(
            "TensorView", "not among the token's chosen experts: it does not run them (weight 0)"
        ),
        "clipped": QCoreApplication.translate(
            "TensorView", "colours saturate above {v} (a long sentence spreads attention thin)"
        ),
        "subset": QCoreApplication.translate("TensorView", "the {shown} most likely of {total} tokens"),
        "of head": QCoreApplication.translate("TensorView", "{axis} ({n}) of head {h}"),
        "of choice": QCoreApplication.translate("TensorView", "{axis} ({n}) of each token's expert #{j}"),
        "trio q": QCoreApplication.translate("TensorView", "Queries Q — head {h}"),
        "trio k": QCoreApplication.translate("TensorView", "Keys K — head {h}"),
        "trio v": QCoreApplication.translate("TensorView", "Values V — head {h}"),
        **_compare_words(),
    }
    titles = stage_titles()  # the one table (explorer/present/stage_titles.py), translated
    return FigureWords(text=text, stage_titles=titles, tensor_title=captions.tensor_title, edge_words=stage_words())


def _compare_words() -> dict[str, str]:
    """Two runs compared (``figure --compare``): the Compare view's own words where it has them."""
    return {
        "compare title": QCoreApplication.translate(
            "CompareFigure", "Two runs compared: where does head {layer}.{head} look?"
        ),
        "compare a": QCoreApplication.translate("CompareView", "A: {model}"),
        "compare b": QCoreApplication.translate("CompareView", "B: {model}"),
        "compare intervened": QCoreApplication.translate("CompareView", " (intervened)"),
        "compare difference": QCoreApplication.translate("CompareView", "B − A (red: B attends more, blue: less)"),
        "compare query": QCoreApplication.translate("CompareView", "query (aligned)"),
        "compare key": QCoreApplication.translate("CompareView", "key (aligned)"),
        "compare legend": QCoreApplication.translate("CompareView", "masked, or no token of this run there"),
        "compare units": QCoreApplication.translate(
            "CompareView",
            "{units} aligned tokens, {alone} on one side only ([brackets]: the other run's only, hatched).",
        ),
        "compare gather": QCoreApplication.translate(
            "CompareFigure",
            "Tokens are matched by the characters they cover; where the tokenizations differ, a row is averaged "
            "over the unit's queries and a column summed over its keys.",
        ),
    }
