"""What a model with another vocabulary scores on a corpus's held-out lines, counted in that corpus's own
targets: how far below the corpus's bigram a real model gets on the same text (``attention-explorer eval
smollm2 --corpus english --other-vocabulary``; docs/training.md, "How far below the bigram").

Held-out loss is the mean over a corpus's targets: every token of a line but the first, each given the
tokens before it. Another model cuts the same line into other tokens, so its nats are summed over the text
after the corpus's first token of each line (its tokens that start there or later) and divided by the
corpus's target count. For a model with the corpus's own vocabulary that is its held-out loss exactly.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

# A start token, where the model has one, gives its first position something to read (as in its training).
START_TOKENS = ("<|endoftext|>", "<s>", "<bos>", "<|begin_of_text|>")


def _start_id(tokenizer) -> int | None:
    for spelling in START_TOKENS:
        i = tokenizer.token_id(spelling)
        if i is not None:
            return i
    return None


def unknown_pieces(tokenizer, lines: list[str]) -> list[str]:
    """The pieces of ``lines`` the vocabulary has no token for: where it has any, its nats would not be
    comparable (one <unk> stands for many words, and predicting it is cheap)."""
    out = []
    for line in lines:
        enc = tokenizer.encode(line)
        out += [piece for piece, unknown in zip(enc.tokens, enc.unknown) if unknown]
    return out


@torch.inference_mode()
def reference_nats(
    bundle, lines: list[str], corpus_tokenizer, context: int = 64, device: str = "cpu"
) -> tuple[float, int]:
    """(nats the model gives the text after each line's first corpus token, the corpus's targets)."""
    model = bundle.model_for("float32", device).eval()
    start = _start_id(bundle.tokenizer)
    total, targets = 0.0, 0
    for line in lines:
        own = corpus_tokenizer.encode(line)
        n = min(len(own), context)  # the corpus scores a line's first `context` tokens
        if n < 2:
            continue
        targets += n - 1
        first, end = len(own.tokens[0]), sum(len(t) for t in own.tokens[:n])
        enc = bundle.tokenizer.hf.encode(line[:end], add_special_tokens=False)
        ids = ([start] if start is not None else []) + list(enc.ids)  # (T,)
        logp = F.log_softmax(model(torch.tensor([ids], device=device))[0].float(), dim=-1).cpu()  # (T, V)
        shift = 0 if start is None else 1
        for k, (a, _) in enumerate(enc.offsets):
            if a >= first:  # a token after the corpus's first one: position k − 1 (+ the start) predicts it
                total -= float(logp[k - 1 + shift, enc.ids[k]])
    return total, targets
