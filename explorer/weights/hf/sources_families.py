"""Where our parameters come from in the checkpoints of the families beyond GPT-2 and Llama (see
``explorer/weights/hf/sources.py`` for ``Source`` and the GPT-2 / Llama maps). Our names are the lecture
note's; the file's are each family's own."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.weights.hf.sources import Source, llama_sources


def decoder_sources(cfg: ModelConfig, biases: frozenset[str]) -> dict[str, Source]:
    """Qwen 3, Gemma 1–3, Phi-3, OLMo 2: Llama's map with each family's renames and additions."""
    out = llama_sources(cfg, biases)
    family = cfg.family
    for l in range(cfg.layers):
        m, p = f"layers.{l}", f"layers.{l}"
        if cfg.qk_norm != "none":
            out[f"{p}.attn.q_norm.weight"] = Source(f"{m}.self_attn.q_norm.weight")
            out[f"{p}.attn.k_norm.weight"] = Source(f"{m}.self_attn.k_norm.weight")
        if cfg.norm_placement == "sandwich":  # Gemma 2/3: post_attention_layernorm is the attention's output norm
            out[f"{p}.ln_attn_out.weight"] = Source(f"{m}.post_attention_layernorm.weight")
            out[f"{p}.ln_ffn.weight"] = Source(f"{m}.pre_feedforward_layernorm.weight")
            out[f"{p}.ln_ffn_out.weight"] = Source(f"{m}.post_feedforward_layernorm.weight")
        if cfg.norm_placement == "output":  # OLMo 2: no norm before the sublayers
            for name in (f"{p}.ln_attn.weight", f"{p}.ln_ffn.weight"):
                out.pop(name, None)
            out[f"{p}.ln_attn_out.weight"] = Source(f"{m}.post_attention_layernorm.weight")
            out[f"{p}.ln_ffn_out.weight"] = Source(f"{m}.post_feedforward_layernorm.weight")
        if family == "phi3":
            _phi3_fused(cfg, out, m, p)
    if family.startswith("gemma"):  # Gemma's RMSNorm multiplies by (1 + w): store γ = 1 + w
        for name, src in list(out.items()):
            if name.endswith("norm.weight") or ".ln_" in name or name.startswith("ln_final"):
                out[name] = Source(src.key, "plus1")
    return out


def _phi3_fused(cfg: ModelConfig, out: dict[str, Source], m: str, p: str) -> None:
    """Phi-3 stores W_q, W_k, W_v as one qkv_proj and W_gate, W_in as one gate_up_proj (rows stacked)."""
    q, kv, F = cfg.H * cfg.D, cfg.H_kv * cfg.D, cfg.F
    total = q + 2 * kv
    for x, (a, b) in zip("qkv", ((0, q), (q, q + kv), (q + kv, total))):
        out[f"{p}.attn.W_{x}"] = Source(f"{m}.self_attn.qkv_proj.weight", "rowsT", start=a, stop=b, total=total)
    out[f"{p}.ffn.W_gate"] = Source(f"{m}.mlp.gate_up_proj.weight", "rowsT", start=0, stop=F, total=2 * F)
    out[f"{p}.ffn.W_in"] = Source(f"{m}.mlp.gate_up_proj.weight", "rowsT", start=F, stop=2 * F, total=2 * F)


def gpt_neox_sources(cfg: ModelConfig) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("gpt_neox.embed_in.weight")}
    for l in range(cfg.layers):
        m, p = f"gpt_neox.layers.{l}", f"layers.{l}"
        for ours, theirs in (("ln_attn", "input_layernorm"), ("ln_ffn", "post_attention_layernorm")):
            out[f"{p}.{ours}.weight"] = Source(f"{m}.{theirs}.weight")
            out[f"{p}.{ours}.bias"] = Source(f"{m}.{theirs}.bias")
        for i, x in enumerate("qkv"):  # query_key_value: per head, q k v rows side by side
            out[f"{p}.attn.W_{x}"] = Source(f"{m}.attention.query_key_value.weight", "heads3", i, cfg.H)
            out[f"{p}.attn.b_{x}"] = Source(f"{m}.attention.query_key_value.bias", "heads3", i, cfg.H)
        out |= {
            f"{p}.attn.W_o": Source(f"{m}.attention.dense.weight", "T"),
            f"{p}.attn.b_o": Source(f"{m}.attention.dense.bias"),
            f"{p}.ffn.W_in": Source(f"{m}.mlp.dense_h_to_4h.weight", "T"),
            f"{p}.ffn.b_in": Source(f"{m}.mlp.dense_h_to_4h.bias"),
            f"{p}.ffn.W_out": Source(f"{m}.mlp.dense_4h_to_h.weight", "T"),
            f"{p}.ffn.b_out": Source(f"{m}.mlp.dense_4h_to_h.bias"),
        }
    out["ln_final.weight"] = Source("gpt_neox.final_layer_norm.weight")
    out["ln_final.bias"] = Source("gpt_neox.final_layer_norm.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("embed_out.weight|lm_head.weight", "T")
    return out


def _ln(ours: str, theirs: str) -> dict[str, Source]:
    """A LayerNorm's scale and shift (older BERT checkpoints call them gamma and beta)."""
    return {
        f"{ours}.weight": Source(f"{theirs}.weight|{theirs}.gamma"),
        f"{ours}.bias": Source(f"{theirs}.bias|{theirs}.beta"),
    }


def _linear(ours_W: str, ours_b: str, theirs: str) -> dict[str, Source]:
    return {ours_W: Source(f"{theirs}.weight", "T"), ours_b: Source(f"{theirs}.bias")}


def bert_sources(cfg: ModelConfig, offset: int = 0) -> dict[str, Source]:
    """BERT (prefix bert.) and RoBERTa (prefix roberta., positions after ``offset`` rows)."""
    base = "roberta" if cfg.family == "roberta" else "bert"
    e = f"{base}.embeddings"
    out = {
        "embed.tok": Source(f"{e}.word_embeddings.weight"),
        "embed.pos": Source(f"{e}.position_embeddings.weight", "skip", offset)
        if offset
        else Source(f"{e}.position_embeddings.weight"),
        "embed.seg": Source(f"{e}.token_type_embeddings.weight"),
        **_ln("embed.ln", f"{e}.LayerNorm"),
    }
    for l in range(cfg.layers):
        m, p = f"{base}.encoder.layer.{l}", f"layers.{l}"
        for x, name in zip("qkv", ("query", "key", "value")):
            out |= _linear(f"{p}.attn.W_{x}", f"{p}.attn.b_{x}", f"{m}.attention.self.{name}")
        out |= _linear(f"{p}.attn.W_o", f"{p}.attn.b_o", f"{m}.attention.output.dense")
        out |= _ln(f"{p}.ln_attn", f"{m}.attention.output.LayerNorm")
        out |= _linear(f"{p}.ffn.W_in", f"{p}.ffn.b_in", f"{m}.intermediate.dense")
        out |= _linear(f"{p}.ffn.W_out", f"{p}.ffn.b_out", f"{m}.output.dense")
        out |= _ln(f"{p}.ln_ffn", f"{m}.output.LayerNorm")
    if base == "roberta":
        out |= _linear("mlm.W_t", "mlm.b_t", "lm_head.dense") | _ln("mlm.ln", "lm_head.layer_norm")
        out["unembed.b_u"] = Source("lm_head.bias|lm_head.decoder.bias")
    else:
        out |= _linear("mlm.W_t", "mlm.b_t", "cls.predictions.transform.dense") | _ln(
            "mlm.ln", "cls.predictions.transform.LayerNorm"
        )
        out["unembed.b_u"] = Source("cls.predictions.bias|cls.predictions.decoder.bias")
    return out


def distilbert_sources(cfg: ModelConfig) -> dict[str, Source]:
    e = "distilbert.embeddings"
    out = {
        "embed.tok": Source(f"{e}.word_embeddings.weight"),
        "embed.pos": Source(f"{e}.position_embeddings.weight"),
        **_ln("embed.ln", f"{e}.LayerNorm"),
    }
    for l in range(cfg.layers):
        m, p = f"distilbert.transformer.layer.{l}", f"layers.{l}"
        for x in "qkv":
            out |= _linear(f"{p}.attn.W_{x}", f"{p}.attn.b_{x}", f"{m}.attention.{x}_lin")
        out |= _linear(f"{p}.attn.W_o", f"{p}.attn.b_o", f"{m}.attention.out_lin")
        out |= _ln(f"{p}.ln_attn", f"{m}.sa_layer_norm")
        out |= _linear(f"{p}.ffn.W_in", f"{p}.ffn.b_in", f"{m}.ffn.lin1")
        out |= _linear(f"{p}.ffn.W_out", f"{p}.ffn.b_out", f"{m}.ffn.lin2")
        out |= _ln(f"{p}.ln_ffn", f"{m}.output_layer_norm")
    out |= _linear("mlm.W_t", "mlm.b_t", "vocab_transform") | _ln("mlm.ln", "vocab_layer_norm")
    out["unembed.b_u"] = Source("vocab_projector.bias")
    return out
