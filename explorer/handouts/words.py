"""The words a figure prints, in English. The window and the commands pass translated ones
(explorer/ui/words/figure_words.py builds them with the same source texts as the central view, so a figure and
the view say the same thing in both languages); a figure drawn from Python, without Qt, reads the same
translations from the .ts file (translated_words.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from explorer.present import stage_titles

WORDS = {
    "step": "Step {n} of {total}: {title}",
    "layer": "layer {layer}",
    "map title": "query (row) attends to key (column) — head {h}",
    "head": "head {h}",  # one map of the grid of every head (the window's thumbnail title)
    "query axis": "query (row)",
    "key axis": "key (column)",
    "token axis": "token (row)",
    "legend weights": "blocked by the mask (−∞ before softmax): weight 0",
    "legend masked": "−∞ (masked): the mask blocks this key, so its weight becomes 0",
    "legend not chosen": "not among the token's chosen experts: it does not run them (weight 0)",
    "clipped": "colours saturate above {v} (a long sentence spreads attention thin)",
    "subset": "the {shown} most likely of {total} tokens",
    "of head": "{axis} ({n}) of head {h}",
    "of choice": "{axis} ({n}) of each token's expert #{j}",
    "trio q": "Queries Q — head {h}",
    "trio k": "Keys K — head {h}",
    "trio v": "Values V — head {h}",
    "compare title": "Two runs compared: where does head {layer}.{head} look?",
    "compare a": "A: {model}",
    "compare b": "B: {model}",
    "compare intervened": " (intervened)",
    "compare difference": "B − A (red: B attends more, blue: less)",
    "compare query": "query (aligned)",
    "compare key": "key (aligned)",
    "compare legend": "masked, or no token of this run there",
    "compare units": "{units} aligned tokens, {alone} on one side only ([brackets]: the other run's only, hatched).",
    "compare gather": (
        "Tokens are matched by the characters they cover; where the tokenizations differ, a row is averaged "
        "over the unit's queries and a column summed over its keys."
    ),
}

STAGE_TITLES = {key: t.title for key, t in stage_titles.STAGE_TITLES.items()}  # the one table, in English

TENSOR_TITLES = {
    "tokens": "token ids",
    "embed.tok": "token embedding (row id of the table)",
    "embed.pos": "position embedding",
    "embed.out": "x = token + position embedding",
    "attn.in": "what attention reads (after the norm)",
    "attn.q": "queries Q = x·W_q",
    "attn.k": "keys K = x·W_k",
    "attn.v": "values V = x·W_v",
    "attn.heads": "head outputs A·V",
    "attn.concat": "heads side by side",
    "attn.out": "attention output ·W_o",
    "mid": "stream after attention (x + attention)",
    "ffn.in": "what the FFN reads (after the norm)",
    "ffn.hidden": "FFN hidden activations",
    # the rest of the window's captions (explorer/ui/words/captions.py, captions_families.py): a figure drawn
    # without Qt (explorer/api/figure.py) names every tensor as the `figure` command does
    "attn.q_rot": "queries after RoPE",
    "attn.k_rot": "keys after RoPE",
    "attn.scores": "scores Q·Kᵀ",
    "attn.scaled": "scaled scores Q·Kᵀ/√D",
    "attn.masked": "masked scores",
    "attn.weights": "attention weights A",
    "ffn.out": "FFN output",
    "out": "block output (residual stream)",
    "final.out": "stream after the final norm",
    "logits": "scores over the vocabulary (logits)",
    "probs": "next-token probabilities",
    "segments": "segment of each token (0: sentence A, 1: sentence B)",
    "embed.seg": "segment embedding",
    "embed.sum": "token + segment + position, before the norm",
    "attn.q_norm": "queries after their norm",
    "attn.k_norm": "keys after their norm",
    "attn.capped": "soft-capped scores",
    "attn.out_norm": "attention output after its norm",
    "attn.sum": "x + attention, before the post-norm",
    "ffn.out_norm": "FFN output after its norm",
    "ffn.sum": "mid + FFN, before the post-norm",
    "mlm.hidden": "masked-LM head: after the activation",
    "mlm.out": "masked-LM head: after its norm",
    "logits.uncapped": "scores before the soft-cap",
    "ffn.router_probs": "router: each expert's probability",
    "ffn.router_logits": "router: each expert's score",
    "ffn.experts_chosen": "the experts each token runs",
    "ffn.expert_weights": "the chosen experts' weights",
    "ffn.expert_out": "each chosen expert's output",
    "ffn.shared_out": "the shared expert's output",
    "ffn.shared_gate": "the shared expert's gate",
}


def tensor_key(name: str) -> str:
    """A tensor's name without its layer ("layers.3.attn.q" → "attn.q"): the key of its title."""
    return re.sub(r"^layers\.\d+\.", "", name)


def _tensor_title(name: str) -> str:
    return TENSOR_TITLES.get(tensor_key(name), name)


@dataclass(frozen=True)
class FigureWords:
    text: dict[str, str] = field(default_factory=lambda: dict(WORDS))
    stage_titles: dict[str, str] = field(default_factory=lambda: dict(STAGE_TITLES))
    tensor_title: Callable[[str], str] = _tensor_title
    edge_words: dict[str, str] | None = None  # explorer.present.stages.edge_label's words

    def __getitem__(self, key: str) -> str:
        return self.text.get(key, WORDS[key])


ENGLISH = FigureWords()
