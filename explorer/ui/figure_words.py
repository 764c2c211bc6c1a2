"""The figure's words in the interface language: the same source texts (and translation contexts) as the
central view's, so that a hand-out and the window say the same thing (explorer/handouts/words.py holds the
English ones). The calls are literal: lupdate finds literals only."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.handouts.words import FigureWords


def figure_words() -> FigureWords:
    from explorer.ui import captions
    from explorer.ui.stage_words import stage_words

    text = {
        "step": QCoreApplication.translate("TensorView", "Step {n} of {total}: {title}"),
        "layer": QCoreApplication.translate("TensorView", "layer {layer}"),
        "map title": QCoreApplication.translate("TensorView", "query (row) attends to key (column) — head {h}"),
        "query axis": QCoreApplication.translate("TensorView", "query (row)"),
        "key axis": QCoreApplication.translate("TensorView", "key (column)"),
        "token axis": QCoreApplication.translate("TensorView", "token (row)"),
        "legend weights": QCoreApplication.translate("TensorView", "blocked by the mask (−∞ before softmax): weight 0"),
        "legend masked": QCoreApplication.translate(
            "TensorView", "−∞ (masked): the mask blocks this key, so its weight becomes 0"
        ),
        "clipped": QCoreApplication.translate(
            "TensorView", "colours saturate above {v} (a long sentence spreads attention thin)"
        ),
        "subset": QCoreApplication.translate("TensorView", "the {shown} most likely of {total} tokens"),
        "of head": QCoreApplication.translate("TensorView", "{axis} ({n}) of head {h}"),
        "trio q": QCoreApplication.translate("TensorView", "Queries Q — head {h}"),
        "trio k": QCoreApplication.translate("TensorView", "Keys K — head {h}"),
        "trio v": QCoreApplication.translate("TensorView", "Values V — head {h}"),
    }
    titles = {
        "tokens": QCoreApplication.translate("TensorView", "Tokens → ids"),
        "embed": QCoreApplication.translate("TensorView", "Embedding"),
        "norm_attn": QCoreApplication.translate("TensorView", "Norm before attention"),
        "qkv": QCoreApplication.translate("TensorView", "Queries, keys, values"),
        "scores": QCoreApplication.translate("TensorView", "Scores Q·Kᵀ"),
        "scaled": QCoreApplication.translate("TensorView", "Scaled ÷√D"),
        "masked": QCoreApplication.translate("TensorView", "Mask"),
        "weights": QCoreApplication.translate("TensorView", "Attention weights (softmax)"),
        "heads": QCoreApplication.translate("TensorView", "Head outputs A·V"),
        "concat": QCoreApplication.translate("TensorView", "Heads side by side"),
        "out": QCoreApplication.translate("TensorView", "Output projection ·W_o"),
        "residual": QCoreApplication.translate("TensorView", "Residual + x"),
        "norm_ffn": QCoreApplication.translate("TensorView", "Norm before the FFN"),
        "ffn": QCoreApplication.translate("TensorView", "Feed-forward network"),
        "block": QCoreApplication.translate("TensorView", "Block output"),
        "final_norm": QCoreApplication.translate("TensorView", "Final norm"),
        "logits": QCoreApplication.translate("TensorView", "Scores over the vocabulary"),
        "probs": QCoreApplication.translate("TensorView", "Next-token probabilities"),
    }
    return FigureWords(text=text, stage_titles=titles, tensor_title=captions.tensor_title, edge_words=stage_words())
