"""The loss of a model on a batch (what a training step minimises) and its held-out figures (what an
evaluation step reports): cross-entropy in nats per token, and for tasks accuracy on the answer part.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from explorer.config import ModelConfig
from explorer.errors import ConfigError
from explorer.model.capture import CaptureSink, capturing
from explorer.model.linear import affine
from explorer.train.corpora import IGNORE, Batch, Corpus


def token_losses(model: torch.nn.Module, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
    """(logits (B, C, V), log-probability of each target (B, C), 0 where ignored)."""
    logits = model(batch.ids)  # (B, C, V); causal mask: right padding is never seen by real positions
    logp = F.log_softmax(logits.float(), dim=-1)  # (B, C, V)
    tgt = batch.targets.clamp(min=0)  # (B, C)
    lp = logp.gather(-1, tgt.unsqueeze(-1)).squeeze(-1)  # (B, C)
    return logits, lp.masked_fill(batch.targets == IGNORE, 0.0)


def batch_loss(model: torch.nn.Module, batch: Batch) -> torch.Tensor:
    """Mean cross-entropy (nats per token) over the counted targets only."""
    if _plain_unembedding(model):
        return _counted_loss(model, batch)
    logits = model(batch.ids)  # (B, C, V)
    V = logits.shape[-1]
    return F.cross_entropy(logits.reshape(-1, V).float(), batch.targets.reshape(-1), ignore_index=IGNORE)


def _plain_unembedding(model: torch.nn.Module) -> bool:
    cfg = getattr(model, "cfg", None)
    return cfg is not None and cfg.logit_softcap is None and not cfg.mlm_head and hasattr(model, "W_u")


def _counted_loss(model: torch.nn.Module, batch: Batch) -> torch.Tensor:
    """The same loss, with the unembedding applied only at the counted positions. Rows are right-padded to
    the longest of the batch, so most (B, C, V) logits would be padding; with V = 16,384 they were most of
    a step's time. The model stops at final.out (B, C, E), as under a trace that derives its logits."""
    sink = CaptureSink(wants=lambda name: False)
    sink.derives_logits = True
    sink.derives_maps = True  # the attention computes as it does with no sink at all
    with capturing(model, sink):
        x = model(batch.ids)  # (B, C, E)
    counted = batch.targets != IGNORE  # (B, C)
    logits = affine(x[counted], model.W_u(), model.unembed.b_u)  # (N, E) · (E, V) → (N, V)
    return F.cross_entropy(logits.float(), batch.targets[counted])


def context_for(corpus: Corpus, config: ModelConfig, requested: int | None) -> int:
    """The row length to train and evaluate with: requested, or the corpus default, within the model's reach."""
    context = requested or corpus.default_context
    if config.positions == "learned" and context > config.max_positions:
        if requested is not None:
            raise ConfigError(
                f"--context {requested} is longer than the model's {config.max_positions} learned positions; "
                "lower it or raise max positions"
            )
        context = config.max_positions
    return context


@torch.inference_mode()
def evaluate(
    model: torch.nn.Module,
    corpus: Corpus,
    context: int,
    answer_only: bool | None = None,
    batches: list[Batch] | None = None,
    device: str = "cpu",
) -> dict[str, float]:
    """Held-out cross-entropy (nats/token) and, for tasks, accuracy on the answer part.

    ``accuracy``: share of answer tokens that are the most likely next token; ``correct_prob``: mean
    probability given to the right answer token; ``exact_match``: share of sequences whose whole answer is
    right (all under teacher forcing). For ``induction`` the answer part is the predictable repeated half.
    """
    was_training = model.training
    model.eval()
    if batches is None:
        batches = corpus.heldout_batches(context, answer_only)
    nll, count = 0.0, 0
    correct = prob = answered = 0.0
    exact = rows_with_answer = 0
    try:
        for b in batches:
            b = b.to(device)
            logits, lp = token_losses(model, b)
            counted = b.targets != IGNORE
            nll -= float(lp[counted].sum())
            count += int(counted.sum())
            if corpus.is_task:
                ans = b.answer  # (B, C)
                # The answer targets are counted even when the loss is not answer-only.
                tgt = b.ids.roll(-1, dims=1)  # (B, C): ids[t+1] at t (the last column is never an answer)
                right = (logits.argmax(-1) == tgt) & ans
                logp = F.log_softmax(logits.float(), dim=-1).gather(-1, tgt.unsqueeze(-1)).squeeze(-1)
                correct += float(right.sum())
                prob += float(logp.exp()[ans].sum())
                answered += float(ans.sum())
                has = ans.any(dim=1)
                exact += int(((right | ~ans).all(dim=1) & has).sum())
                rows_with_answer += int(has.sum())
    finally:
        model.train(was_training)
    out = {"heldout_loss": nll / max(1, count), "tokens": count}
    if corpus.is_task and answered:
        out.update(
            accuracy=correct / answered,
            correct_prob=prob / answered,
            exact_match=exact / max(1, rows_with_answer),
        )
    return out


__all__ = ["token_losses", "batch_loss", "context_for", "evaluate"]
