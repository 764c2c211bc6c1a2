"""Titles and captions of the stages only some real families have (segments, q/k norm, soft-caps, the
parallel block, the norms after a sublayer, an encoder's masked-LM head). Literal translate() calls, as in
``explorer/ui/words/captions.py``, which asks here first."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def family_caption(key: str, n: dict, cfg) -> str | None:
    """The stage explained for a class, or None for a stage every model has."""
    if key == "segment":
        return QCoreApplication.translate(
            "Captions",
            "An encoder reads two sentences at once, parted by [SEP]: every token of sentence A gets row 0 of "
            "the segment table, every token of sentence B row 1, added to its token vector.",
        )
    if key == "parallel":
        return QCoreApplication.translate(
            "Captions",
            "In a parallel block (GPT-NeoX, Pythia) the FFN does not wait for attention: it reads the same x, "
            "through its own norm, and both results are added to x together.",
        )
    if key == "qk_norm":
        return QCoreApplication.translate(
            "Captions",
            "Each query and each key is divided by its root mean square and scaled by a learned γ before the "
            "scores, so that no score can grow without bound.",
        )
    if key == "rope":
        return QCoreApplication.translate(
            "Captions",
            "RoPE turns each pair of dimensions of q and k by the angle i·ω: position times the pair's frequency. "
            "This model stretches the frequencies ({kind} scaling) so that a long text turns no pair further than "
            "training did; row 1 of the map holds the frequencies themselves.",
        ).format(kind=cfg.rope_scaling.kind if cfg.rope_scaling is not None else "")
    if key in ("router", "experts") or (key == "ffn" and cfg.moe):
        return _moe_caption(key, cfg)
    if key == "capped":
        return QCoreApplication.translate(
            "Captions",
            "Soft-capping squeezes every scaled score into (−c, c) with c·tanh(s/c), c = {cap}: small scores "
            "barely change, huge ones cannot dominate the softmax.",
        ).format(cap=f"{cfg.attn_softcap or 0:g}")
    if key in ("attn_out_norm", "ffn_out_norm"):
        return QCoreApplication.translate(
            "Captions",
            "The sublayer's output is normalised before it is added to the stream, so that no layer can flood "
            "the residual stream.",
        )
    if key in ("post_norm_attn", "post_norm_ffn"):
        return QCoreApplication.translate(
            "Captions",
            "A post-norm block (BERT, the original Transformer) normalises the stream after adding the "
            "sublayer's output: x + sublayer, then LayerNorm.",
        )
    if key == "mlm":
        return QCoreApplication.translate(
            "Captions",
            "An encoder cannot predict the next token (it sees them all). Its head turns each position's "
            "vector into a guess for the token that belongs there: at a [MASK], the hidden word.",
        )
    if key == "logit_cap":
        return QCoreApplication.translate(
            "Captions",
            "The vocabulary scores are soft-capped too: c·tanh(z/c) with c = {cap}, so that no score exceeds ±c.",
        ).format(cap=f"{cfg.logit_softcap or 0:g}")
    return None


def _moe_caption(key: str, cfg) -> str:
    """A mixture of experts (Mixtral, OLMoE, Qwen-MoE): the router, the chosen experts, their weighted sum."""
    K, X = cfg.experts_per_token, cfg.experts
    if key == "router":
        return QCoreApplication.translate(
            "Captions",
            "The router scores every token against each of the X = {X} experts and turns the scores into "
            "probabilities (softmax over the experts). Each token runs only its K = {K} most probable experts, "
            "marked in the map; the others cost it nothing.",
        ).format(X=X, K=K)
    if key == "experts":
        return QCoreApplication.translate(
            "Captions",
            "Each expert is a small FFN of its own. Here is what each token's chosen experts give it: the head "
            "control steps through its K = {K} choices, most probable first.",
        ).format(K=K)
    if cfg.norm_topk:
        return QCoreApplication.translate(
            "Captions",
            "The FFN's output is the chosen experts' outputs weighted by their probabilities, rescaled to sum "
            "to 1 (plus a shared expert every token runs, where the model has one).",
        )
    return QCoreApplication.translate(
        "Captions",
        "The FFN's output is the chosen experts' outputs weighted by their probabilities as the router gave "
        "them: they sum to less than 1 (plus a shared expert every token runs, where the model has one).",
    )


def family_tensor_title(key: str) -> str | None:
    return {
        "segments": QCoreApplication.translate("Captions", "segment of each token (0: sentence A, 1: sentence B)"),
        "embed.seg": QCoreApplication.translate("Captions", "segment embedding"),
        "embed.sum": QCoreApplication.translate("Captions", "token + segment + position, before the norm"),
        "attn.q_norm": QCoreApplication.translate("Captions", "queries after their norm"),
        "attn.k_norm": QCoreApplication.translate("Captions", "keys after their norm"),
        "attn.capped": QCoreApplication.translate("Captions", "soft-capped scores"),
        "attn.out_norm": QCoreApplication.translate("Captions", "attention output after its norm"),
        "attn.sum": QCoreApplication.translate("Captions", "x + attention, before the post-norm"),
        "ffn.out_norm": QCoreApplication.translate("Captions", "FFN output after its norm"),
        "ffn.sum": QCoreApplication.translate("Captions", "mid + FFN, before the post-norm"),
        "mlm.hidden": QCoreApplication.translate("Captions", "masked-LM head: after the activation"),
        "mlm.out": QCoreApplication.translate("Captions", "masked-LM head: after its norm"),
        "logits.uncapped": QCoreApplication.translate("Captions", "scores before the soft-cap"),
        "ffn.router_probs": QCoreApplication.translate("Captions", "router: each expert's probability"),
        "ffn.router_logits": QCoreApplication.translate("Captions", "router: each expert's score"),
        "ffn.experts_chosen": QCoreApplication.translate("Captions", "the experts each token runs"),
        "ffn.expert_weights": QCoreApplication.translate("Captions", "the chosen experts' weights"),
        "ffn.expert_out": QCoreApplication.translate("Captions", "each chosen expert's output"),
        "ffn.shared_out": QCoreApplication.translate("Captions", "the shared expert's output"),
        "ffn.shared_gate": QCoreApplication.translate("Captions", "the shared expert's gate"),
    }.get(key)


def active_parameters_note(cfg) -> str:
    """ " · 1,234 used per token (K = 2 of X = 8 experts)" for a mixture of experts, "" for a dense model: the
    parameters one token computes with, beside the count of all of them."""
    if cfg is None or not getattr(cfg, "moe", False):
        return ""
    return " · " + QCoreApplication.translate("Captions", "{n} used per token (K = {K} of X = {X} experts)").format(
        n=f"{cfg.active_parameter_count():,}", K=cfg.experts_per_token, X=cfg.experts
    )
