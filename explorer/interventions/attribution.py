"""The logit lens and direct logit attribution, read from one trace.

Logit lens: the residual stream after layer l, put through the final norm and the unembedding as if it were
the last layer: what the model "would predict" there. After the last layer it is the model's own output.

Direct attribution: with residual connections the stream at the end is a sum,
    x = embed.out + Σ_l (attn.out_l + ffn.out_l),   attn.out_l = Σ_h Rʰ·W_oʰ + b_o,
and with the final norm's scale frozen at its value in this run (1/σ for LayerNorm, 1/rms for RMSNorm) the
norm is linear, so the target's logit splits into one term per component plus constants (b_o of every
layer, the norm's shift, the unembedding bias). The sum is the logit, to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from explorer import names
from explorer.errors import ConfigError, InputError
from explorer.model.linear import affine
from explorer.trace.readable import as_run_tensor, readable
from explorer.trace.trace import Trace
from explorer.util.printable import quoted
from explorer.weights.bundle import ModelBundle


@dataclass(frozen=True)
class LensRow:
    layer: int
    prob: float  # probability of the target read after this layer
    rank: int  # 1 = the target is the most likely token there
    top: str  # the most likely token there
    top_id: int


def resolve_target(bundle: ModelBundle, token: str | None, token_id: int | None) -> int:
    """The id of ``--target TOKEN`` (a vocabulary entry as shown, or text that is exactly one token) or
    ``--target-id ID``."""
    V = bundle.config.V
    if token_id is not None:
        if not 0 <= token_id < V:
            raise ConfigError(f"--target-id {token_id} does not exist: ids run 0 … {V - 1}")
        return token_id
    if token is None:
        raise InputError("give the token whose logit to explain: --target TOKEN or --target-id ID")
    shown = bundle.tokenizer.display_vocab()
    if token in shown:
        return shown.index(token)
    enc = bundle.tokenizer.encode(token)
    if len(enc) != 1 or any(enc.unknown):
        pieces = " ".join(enc.tokens) if len(enc) else "nothing"
        raise InputError(
            f"--target {quoted(token)} is not one token of this model's vocabulary (it reads as: {pieces}); "
            "use --target-id ID"
        )
    return enc.ids[0]


def refuse_undecomposable(config, what: str = "attribution") -> None:
    """The lens and the attribution read a decoder's residual stream through its final norm and unembedding.
    An encoder predicts through its masked-LM head (a dense layer, an activation and a norm: not linear), and
    a post-norm model renormalises the stream after every layer, so neither splits into those parts: one line
    instead of a KeyError on the final norm they do not have."""
    if getattr(config, "mlm_head", False):
        raise ConfigError(
            f"the {what} reads a decoder's next-token logits through its final norm: an encoder (BERT, RoBERTa, "
            "DistilBERT) predicts a [MASK] through its masked-LM head, which does not split into the stream's parts"
        )
    if getattr(config, "norm_placement", "pre") == "post":
        raise ConfigError(
            f"the {what} splits the residual stream into its parts: a post-norm model renormalises the stream "
            "after every layer, so it does not split"
        )


def _frozen_norm(trace: Trace, x: np.ndarray):
    """The final norm as a linear map with its scale frozen at the value ``x`` (the last stream) gives it:
    (function applied to each component, the norm's constant vector)."""
    cfg = trace.config
    params = trace.params()
    if "params.ln_final.weight" not in params:  # no final norm (final_norm off): the stream is read as it is
        return (lambda c: c), np.zeros_like(x)
    if cfg.norm == "layernorm":
        sigma = np.sqrt(((x - x.mean()) ** 2).mean() + cfg.norm_eps)
        w = params["params.ln_final.weight"].astype(np.float64)
        b = params.get("params.ln_final.bias", np.zeros_like(w)).astype(np.float64)  # a LayerNorm without shift
        return (lambda c: (c - c.mean()) / sigma * w), b
    if cfg.norm == "rmsnorm":
        rms = np.sqrt((x**2).mean() + cfg.norm_eps)
        w = params["params.ln_final.weight"].astype(np.float64)
        return (lambda c: c / rms * w), np.zeros_like(x)
    return (lambda c: c), np.zeros_like(x)


def direct_attribution(
    trace: Trace, target: int, position: int, b: int = 0
) -> tuple[list[dict[str, Any]], float, float]:
    """(contributions [{"component", "value"}], constant, logit) for ``target`` at ``position`` of sentence b."""
    cfg = trace.config
    refuse_undecomposable(cfg)
    if not cfg.residual:
        raise ConfigError(
            "attribution splits the residual stream into its parts: this model has no residual connections"
        )
    params = trace.params()
    f64 = lambda name: np.asarray(trace[name], dtype=np.float64)  # noqa: E731
    x = f64(f"layers.{cfg.layers - 1}.out")[b, position]  # (E,) the stream before the final norm
    norm, shift = _frozen_norm(trace, x)
    W_u = params.get("params.unembed.W_u")
    u = (W_u[:, target] if W_u is not None else params["params.embed.tok"][target]).astype(np.float64)  # (E,)
    read = lambda c: float(norm(c) @ u)  # noqa: E731

    parts = [{"component": "embed", "value": read(f64("embed.out")[b, position])}]
    constant = float(shift @ u)
    if "params.unembed.b_u" in params:
        constant += float(params["params.unembed.b_u"][target])
    for l in range(cfg.layers):
        heads = f64(names.attn(l, "heads"))[b, :, position]  # (H, D_v): each head's Rʰ at this position
        W_o = params.get(f"params.layers.{l}.attn.W_o")
        Dv = heads.shape[-1]
        for h in range(heads.shape[0]):
            if W_o is not None:
                vec = heads[h] @ W_o[h * Dv : (h + 1) * Dv].astype(np.float64)  # (D_v) · (D_v, E) → (E,)
            else:  # unfactored: the heads side by side are the output
                vec = np.zeros_like(x)
                vec[h * Dv : (h + 1) * Dv] = heads[h]
            parts.append({"component": f"layers.{l}.attn.head.{h}", "value": read(vec)})
        b_o = params.get(f"params.layers.{l}.attn.b_o")
        if b_o is not None:
            constant += read(b_o.astype(np.float64))
        parts.append({"component": f"layers.{l}.ffn", "value": read(f64(f"layers.{l}.ffn.out")[b, position])})
    return parts, constant, float(trace.logits_rows(b, position, position + 1)[0, target])


def logit_lens(bundle: ModelBundle, trace: Trace, target: int, position: int, b: int = 0) -> list[LensRow]:
    """After every layer, the target's probability and rank and the top token, read through the model's own
    final norm and unembedding (so the last layer gives ``probs`` of the trace)."""
    refuse_undecomposable(trace.config, "logit lens")
    model = bundle.model_for(trace.options.dtype, trace.options.device)
    vocab = trace.vocab or bundle.tokenizer.display_vocab()
    rows = []
    with torch.inference_mode():
        for l in range(trace.config.layers):
            x = as_run_tensor(trace[f"layers.{l}.out"][b : b + 1, position : position + 1], trace.options.dtype).to(
                trace.options.device
            )
            if model.ln_final is not None:
                x = model.ln_final(x)  # (1, 1, E)
            logits = affine(x, model.W_u(), model.unembed.b_u)  # (1, 1, E) · (E, V) → (1, 1, V)
            p = readable(torch.softmax(logits / trace.options.temperature, dim=-1)[0, 0])  # (V,)
            top = int(p.argmax())
            rows.append(LensRow(l, float(p[target]), 1 + int((p > p[target]).sum()), vocab[top], top))
    return rows


def attribute(
    bundle: ModelBundle, trace: Trace, target: int, position: int | None = None, b: int = 0
) -> dict[str, Any]:
    """The ``attribute`` command's JSON: position, target, logit, logit_lens, contributions, constant."""
    length = trace.rows[b].length
    if position is None:
        position = length - 1
    if not 0 <= position < length:
        raise ConfigError(f"--position {position} does not exist: the text has positions 0 … {length - 1}")
    parts, constant, logit = direct_attribution(trace, target, position, b)
    vocab = trace.vocab or bundle.tokenizer.display_vocab()
    return {
        "position": position,
        "token": trace.token_label(b, position),
        "target": vocab[target],
        "target_id": target,
        "logit": logit,
        "logit_lens": [
            {"layer": r.layer, "prob": r.prob, "rank": r.rank, "top": r.top}
            for r in logit_lens(bundle, trace, target, position, b)
        ],
        "contributions": parts,
        "constant": constant,
    }
