"""Every stage's title, once, in English: the short title of the step line, the stage list and figures ("Scaled
÷√D"), and the heading the flow view and presentation mode write over a stage ("Scaling by √D").

No Qt here: the window translates a title where it shows it (explorer/ui/words/stage_words.py). The marker below
is how lupdate (the Makefile's translations target) finds these texts in this file; its contexts are the
ones the window translates with.
"""

from __future__ import annotations

from dataclasses import dataclass

TITLE_CONTEXT = "StageTitles"
HEADING_CONTEXT = "StageHeadings"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    """Marks ``text`` for translation in ``context`` and returns it unchanged."""
    return text


@dataclass(frozen=True)
class StageTitle:
    title: str  # short: "Step 3 of 18: Scaled ÷√D", the stage list, a figure's heading
    heading: str  # long: the flow view's and presentation mode's heading over the stage


STAGE_TITLES: dict[str, StageTitle] = {
    "tokens": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Tokens → ids"),
        QT_TRANSLATE_NOOP("StageHeadings", "Tokens"),
    ),
    "segment": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Segment embedding"),
        QT_TRANSLATE_NOOP("StageHeadings", "Segment embedding (sentence A / B)"),
    ),
    "embed": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Embedding"),
        QT_TRANSLATE_NOOP("StageHeadings", "Embedding"),
    ),
    "norm_attn": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Norm before attention"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation before attention"),
    ),
    "parallel": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Parallel block: FFN norm"),
        QT_TRANSLATE_NOOP("StageHeadings", "Parallel block: the FFN's norm"),
    ),
    "qkv": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Queries, keys, values"),
        QT_TRANSLATE_NOOP("StageHeadings", "Queries, keys and values"),
    ),
    "qk_norm": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Query/key norm"),
        QT_TRANSLATE_NOOP("StageHeadings", "Query and key normalisation"),
    ),
    "rope": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Rotary angles (scaled)"),
        QT_TRANSLATE_NOOP("StageHeadings", "Rotary position angles, scaled for long texts"),
    ),
    "scores": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Scores Q·Kᵀ"),
        QT_TRANSLATE_NOOP("StageHeadings", "Similarity scores Q·Kᵀ"),
    ),
    "scaled": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Scaled ÷√D"),
        QT_TRANSLATE_NOOP("StageHeadings", "Scaling by √D"),
    ),
    "capped": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Soft-capped scores"),
        QT_TRANSLATE_NOOP("StageHeadings", "Soft-cap of the scores"),
    ),
    "masked": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Mask"),
        QT_TRANSLATE_NOOP("StageHeadings", "The mask"),
    ),
    "weights": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Attention weights (softmax)"),
        QT_TRANSLATE_NOOP("StageHeadings", "Attention weights (softmax)"),
    ),
    "heads": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Head outputs A·V"),
        QT_TRANSLATE_NOOP("StageHeadings", "Weighted sum of values"),
    ),
    "concat": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Heads side by side"),
        QT_TRANSLATE_NOOP("StageHeadings", "Heads side by side"),
    ),
    "out": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Output projection ·W_o"),
        QT_TRANSLATE_NOOP("StageHeadings", "Output projection W_o"),
    ),
    "attn_out_norm": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Norm of the attention output"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation of the attention output"),
    ),
    "residual": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Residual + x"),
        QT_TRANSLATE_NOOP("StageHeadings", "Residual connection"),
    ),
    "post_norm_attn": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Post-norm after attention"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation after attention (post-norm)"),
    ),
    "norm_ffn": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Norm before the FFN"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation before the FFN"),
    ),
    "router": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Router"),
        QT_TRANSLATE_NOOP("StageHeadings", "The router: which experts each token runs"),
    ),
    "experts": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Chosen experts"),
        QT_TRANSLATE_NOOP("StageHeadings", "The outputs of each token's chosen experts"),
    ),
    "ffn": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Feed-forward network"),
        QT_TRANSLATE_NOOP("StageHeadings", "Feed-forward network"),
    ),
    "ffn_out_norm": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Norm of the FFN output"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation of the FFN output"),
    ),
    "block": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Block output"),
        QT_TRANSLATE_NOOP("StageHeadings", "Block output"),
    ),
    "post_norm_ffn": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Post-norm after the FFN"),
        QT_TRANSLATE_NOOP("StageHeadings", "Normalisation after the FFN (post-norm)"),
    ),
    "final_norm": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Final norm"),
        QT_TRANSLATE_NOOP("StageHeadings", "Final normalisation"),
    ),
    "mlm": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Masked-LM head"),
        QT_TRANSLATE_NOOP("StageHeadings", "Masked-language-model head"),
    ),
    "logits": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Scores over the vocabulary"),
        QT_TRANSLATE_NOOP("StageHeadings", "Scores over the vocabulary"),
    ),
    "logit_cap": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Soft-capped vocabulary scores"),
        QT_TRANSLATE_NOOP("StageHeadings", "Soft-cap of the vocabulary scores"),
    ),
    "probs": StageTitle(
        QT_TRANSLATE_NOOP("StageTitles", "Next-token probabilities"),
        QT_TRANSLATE_NOOP("StageHeadings", "Next-token probabilities"),
    ),
}


def title(key: str) -> str:
    """The stage's short title in English (a key the table lacks is its own title)."""
    found = STAGE_TITLES.get(key)
    return found.title if found is not None else key
