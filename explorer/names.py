"""The one list of traced tensor names (DESIGN.md section 3).

The model captures under these names, the Trace stores them, exports write them, the CLI prints them, the
views look them up and the tests check them. ``{l}`` stands for a layer index. Renaming an entry here is a
breaking change of the snapshot format.

Shape labels: B batch, C context (tokens), E embedding size, D query/key size per head, D_v value size
per head, H query heads, H_kv key/value heads (equal to H unless grouped-query attention), F FFN width,
V vocabulary, R the dimensions of a head that RoPE turns (D unless partial), P number of learned positions,
S segments (token types), N_q and N_k the widths of the query and key norms (D, or H·D and H_kv·D); in a
mixture of experts, X experts, K of them chosen per token, F_x one expert's width and F_s the shared
expert's; in a generation, T generated tokens and C_total positions in the KV cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class TensorName:
    pattern: str  # e.g. "layers.{l}.attn.q"
    labels: tuple[str, ...]  # e.g. ("B", "H", "C", "D")
    description: str
    signed: bool = True  # values of both signs: draw with a diverging colour map
    pairwise: bool = False  # a (C, C) map per head: can be derived on demand from q and k

    @property
    def per_layer(self) -> bool:
        return "{l}" in self.pattern

    @property
    def is_param(self) -> bool:
        return self.pattern.startswith("params.")

    def name(self, layer: int | None = None) -> str:
        return self.pattern.format(l=layer) if self.per_layer else self.pattern


_T = TensorName

ACTIVATIONS: tuple[TensorName, ...] = (
    _T("tokens", ("B", "C"), "token ids, one row per sentence (token strings are in the manifest)", False),
    _T("mask", ("B", "C", "C"), "True where query i (row) may attend to key j (column)", False),
    _T("mask.empty_rows", ("B", "C"), "True for a query whose every key is blocked: its weights are all 0", False),
    _T(
        "segments",
        ("B", "C"),
        "each token's sentence (segment, token type): 0 for sentence A, 1 for sentence B (models with a segment table)",
        False,
    ),
    _T("embed.tok", ("B", "C", "E"), "token embedding: row `id` of the embedding table"),
    _T(
        "embed.seg",
        ("B", "C", "E"),
        "segment embedding: row `segment` of the segment table, added to the token embedding (BERT)",
    ),
    _T(
        "embed.pos",
        ("B", "C", "E"),
        "positional part added to the token embedding (zeros when positions are none or rotary)",
    ),
    _T("embed.sum", ("B", "C", "E"), "embed.tok + embed.seg + embed.pos before the embedding norm (BERT)"),
    _T(
        "embed.out",
        ("B", "C", "E"),
        "embed.tok (× √E with an embedding scale) + embed.seg + embed.pos, normalised when the model has an "
        "embedding norm: the input of layer 0",
    ),
    _T("layers.{l}.attn.in", ("B", "C", "E"), "what attention reads (after the pre-norm, if the block has one)"),
    _T("layers.{l}.attn.q", ("B", "H", "C", "D"), "queries per head: x · W_q"),
    _T("layers.{l}.attn.k", ("B", "H_kv", "C", "D"), "keys per head: x · W_k"),
    _T("layers.{l}.attn.v", ("B", "H_kv", "C", "D_v"), "values per head: x · W_v"),
    _T(
        "layers.{l}.attn.q_norm",
        ("B", "H", "C", "D"),
        "queries after their RMSNorm (models with q/k norm: Qwen 3, Gemma 3, OLMo 2)",
    ),
    _T("layers.{l}.attn.k_norm", ("B", "H_kv", "C", "D"), "keys after their RMSNorm (models with q/k norm)"),
    _T(
        "layers.{l}.attn.rope_angles",
        ("B", "C", "R"),
        "RoPE's angle (radians) for position i and turning dimension d: i·ω_d, ω_d = θ^(−2d/R) (d and d + R/2 "
        "share one), or as a rotary scaling (linear, dynamic, yarn, llama3, longrope) changes ω (RoPE models only)",
        False,
    ),
    _T("layers.{l}.attn.q_rot", ("B", "H", "C", "D"), "queries after the rotary position embedding (RoPE models only)"),
    _T("layers.{l}.attn.k_rot", ("B", "H_kv", "C", "D"), "keys after the rotary position embedding (RoPE models only)"),
    _T(
        "layers.{l}.attn.scores",
        ("B", "H", "C", "C"),
        "Q · Kᵀ, unscaled: query i (row) against key j (column)",
        True,
        True,
    ),
    _T(
        "layers.{l}.attn.scaled",
        ("B", "H", "C", "C"),
        "scores / √D (√query_scalar where the config sets it: Gemma 2/3; equal to scores when scaling is off)",
        True,
        True,
    ),
    _T(
        "layers.{l}.attn.capped",
        ("B", "H", "C", "C"),
        "c · tanh(scaled / c): the soft-capped scores the mask applies to (Gemma 2)",
    ),
    _T("layers.{l}.attn.masked", ("B", "H", "C", "C"), "scaled, with −inf where the mask blocks", True, True),
    _T(
        "layers.{l}.attn.weights",
        ("B", "H", "C", "C"),
        "attention map: softmax over keys; row i sums to 1 (all 0 when every key of the row is blocked)",
        False,
        True,
    ),
    _T(
        "layers.{l}.attn.lse",
        ("B", "H", "C"),
        "each query row's log-sum-exp, log Σⱼ exp(masked_ij) over the keys it sees (−inf for a row that sees "
        "none): weights_ij = exp(masked_ij − lse_i), so a long text's maps are computed tile by tile from q, k "
        "and it (kept only where a head's whole map would be too large to hold: explorer/trace/tiles.py)",
    ),
    _T("layers.{l}.attn.heads", ("B", "H", "C", "D_v"), "weights · V: each head's output, the note's Rⁱ"),
    _T("layers.{l}.attn.concat", ("B", "C", "H·D_v"), "the heads side by side [R¹ … Rᴴ]"),
    _T("layers.{l}.attn.out", ("B", "C", "E"), "concat · W_o: the attention output"),
    _T(
        "layers.{l}.attn.out_norm",
        ("B", "C", "E"),
        "the attention output after its own norm, before the residual sum (Gemma 2 and 3, OLMo 2)",
    ),
    _T(
        "layers.{l}.attn.sum",
        ("B", "C", "E"),
        "x + attn.out before the post-norm that makes it mid (post-norm blocks: BERT)",
    ),
    _T("layers.{l}.mid", ("B", "C", "E"), "residual stream after attention (attn.out alone when residuals are off)"),
    _T(
        "layers.{l}.ffn.in",
        ("B", "C", "E"),
        "what the FFN reads (after its pre-norm, if the block has one; x itself in a parallel block)",
    ),
    _T("layers.{l}.ffn.hidden", ("B", "C", "F"), "FFN activations after the non-linearity (gate · up for gated FFNs)"),
    # A mixture of experts (explorer/model/moe.py): the router, the experts it chooses, their weighted sum.
    _T(
        "layers.{l}.ffn.router_logits",
        ("B", "C", "X"),
        "the router's score of each expert for each token: x · W_router",
    ),
    _T(
        "layers.{l}.ffn.router_probs",
        ("B", "C", "X"),
        "softmax of the router's scores over the X experts: row i sums to 1 (mixture-of-experts layers)",
        False,
    ),
    _T(
        "layers.{l}.ffn.experts_chosen",
        ("B", "C", "K"),
        "the K experts of highest probability each token runs, most probable first (integer expert indices)",
        False,
    ),
    _T(
        "layers.{l}.ffn.expert_weights",
        ("B", "C", "K"),
        "the chosen experts' probabilities, divided by their sum where the model renormalises (Mixtral)",
        False,
    ),
    _T(
        "layers.{l}.ffn.expert_out",
        ("B", "K", "C", "E"),
        "each token's j-th chosen expert applied to it; ffn.out is their sum weighted by expert_weights",
    ),
    _T(
        "layers.{l}.ffn.shared_gate",
        ("B", "C", "1"),
        "σ(x · w_shared_gate): how much of the shared expert each token takes (Qwen-MoE)",
        False,
    ),
    _T("layers.{l}.ffn.shared_out", ("B", "C", "E"), "the shared expert every token runs (Qwen-MoE), before its gate"),
    _T(
        "layers.{l}.ffn.out",
        ("B", "C", "E"),
        "FFN output (a mixture of experts: Σ_j expert_weights_j · expert_out_j, plus the gated shared expert)",
    ),
    _T(
        "layers.{l}.ffn.out_norm",
        ("B", "C", "E"),
        "the FFN output after its own norm, before the residual sum (Gemma 2 and 3, OLMo 2)",
    ),
    _T(
        "layers.{l}.ffn.sum",
        ("B", "C", "E"),
        "mid + ffn.out before the post-norm that makes it the block's output (BERT)",
    ),
    _T("layers.{l}.out", ("B", "C", "E"), "the block's output (the residual stream)"),
    _T(
        "final.out",
        ("B", "C", "E"),
        "the last block's output after the final norm (equal to it when the model has no norm)",
    ),
    _T("mlm.hidden", ("B", "C", "E"), "masked-LM head: act(final.out · W_t + b_t) (encoders)"),
    _T("mlm.out", ("B", "C", "E"), "masked-LM head: mlm.hidden after its norm, what the unembedding reads (encoders)"),
    _T("logits.uncapped", ("B", "C", "V"), "the scores over the vocabulary before the soft-cap (Gemma 2)"),
    _T(
        "logits",
        ("B", "C", "V"),
        "scores over the vocabulary: row i predicts the token after tokens 0..i (an encoder's: the token at i)",
    ),
    _T("probs", ("B", "C", "V"), "softmax(logits / temperature): C next-token distributions", False),
    _T("baseline.logits", ("B", "C", "V"), "in an intervened run: the logits of the same input without interventions"),
    _T(
        "baseline.probs",
        ("B", "C", "V"),
        "in an intervened run: the probs of the same input without interventions",
        False,
    ),
    # Generation (explorer/generation): T new tokens written one by one after the C prompt tokens. Step t's
    # query sits at position C − 1 + t and sees C + t keys; the cache holds C_total = C + T − 1 positions
    # (every token fed so far: the last one chosen is not yet fed).
    _T("gen.tokens", ("B", "T"), "the generated token ids, one per step", False),
    _T(
        "gen.logits", ("B", "T", "V"), "step t's scores over the vocabulary: the distribution its token was chosen from"
    ),
    _T(
        "gen.layers.{l}.attn.weights",
        ("B", "H", "T", "C_total"),
        "step t's query row of the attention map over keys 0 … C − 1 + t (0 beyond): rows C − 1 … of the causal map",
        False,
    ),
    _T(
        "gen.layers.{l}.attn.q",
        ("B", "H", "T", "D"),
        "step t's query (after q/k norm and RoPE where the model has them): what its scores read from the cache",
    ),
    _T(
        "cache.layers.{l}.k",
        ("B", "H_kv", "C_total", "D"),
        "the KV cache's keys after the last step (after RoPE for rotary models)",
    ),
    _T("cache.layers.{l}.v", ("B", "H_kv", "C_total", "D_v"), "the KV cache's values after the last step"),
)

PARAMS: tuple[TensorName, ...] = (
    _T("params.embed.tok", ("V", "E"), "embedding table; row `id` is that token's vector"),
    _T("params.embed.pos", ("P", "E"), "learned position table (learned positions only)"),
    _T("params.embed.seg", ("S", "E"), "segment (token type) table: row 0 for sentence A, row 1 for sentence B (BERT)"),
    _T("params.embed.ln.weight", ("E",), "embedding norm: scale (BERT)"),
    _T("params.embed.ln.bias", ("E",), "embedding norm: shift (BERT)"),
    _T(
        "params.layers.{l}.ln_attn.weight",
        ("E",),
        "pre-attention norm: scale (a post-norm block applies it after the sum)",
    ),
    _T("params.layers.{l}.ln_attn.bias", ("E",), "pre-attention norm: shift (LayerNorm only)"),
    _T(
        "params.layers.{l}.attn.W_q", ("E", "H·D"), "query weights, heads side by side: head h in columns h·D … h·D+D−1"
    ),
    _T("params.layers.{l}.attn.W_k", ("E", "H_kv·D"), "key weights, heads side by side"),
    _T(
        "params.layers.{l}.attn.W_v",
        ("E", "H_kv·D_v"),
        "value weights, heads side by side (E, E) in the unfactored form",
    ),
    _T("params.layers.{l}.attn.W_o", ("H·D_v", "E"), "output projection: [W_o¹; …; W_oᴴ] stacked"),
    _T("params.layers.{l}.attn.b_q", ("H·D",), "query bias"),
    _T("params.layers.{l}.attn.b_k", ("H_kv·D",), "key bias"),
    _T("params.layers.{l}.attn.b_v", ("H_kv·D_v",), "value bias"),
    _T("params.layers.{l}.attn.b_o", ("E",), "output bias"),
    _T(
        "params.layers.{l}.attn.q_norm.weight",
        ("N_q",),
        "query RMSNorm: scale, D per head (Qwen 3, Gemma 3) or H·D (OLMo 2)",
    ),
    _T("params.layers.{l}.attn.k_norm.weight", ("N_k",), "key RMSNorm: scale, D per head or H_kv·D"),
    _T("params.layers.{l}.ln_attn_out.weight", ("E",), "norm of the attention output: scale (Gemma 2 and 3, OLMo 2)"),
    _T("params.layers.{l}.ln_attn_out.bias", ("E",), "norm of the attention output: shift (LayerNorm only)"),
    _T("params.layers.{l}.ln_ffn.weight", ("E",), "pre-FFN norm: scale (a post-norm block applies it after the sum)"),
    _T("params.layers.{l}.ln_ffn.bias", ("E",), "pre-FFN norm: shift (LayerNorm only)"),
    _T("params.layers.{l}.ffn.W_in", ("E", "F"), "FFN input weights (the 'up' projection of a gated FFN)"),
    _T("params.layers.{l}.ffn.b_gate", ("F",), "FFN gate bias (a gated FFN with biases: Llama's mlp_bias)"),
    _T("params.layers.{l}.ffn.b_in", ("F",), "FFN input bias"),
    _T("params.layers.{l}.ffn.W_gate", ("E", "F"), "gate weights of a gated (SiLU) FFN"),
    _T("params.layers.{l}.ffn.W_out", ("F", "E"), "FFN output weights"),
    _T("params.layers.{l}.ffn.b_out", ("E",), "FFN output bias"),
    _T("params.layers.{l}.ffn.W_router", ("E", "X"), "the router of a mixture of experts: one column per expert"),
    _T("params.layers.{l}.ffn.experts.W_in", ("X", "E", "F_x"), "each expert's input ('up') weights, stacked"),
    _T("params.layers.{l}.ffn.experts.W_gate", ("X", "E", "F_x"), "each expert's gate weights, stacked"),
    _T("params.layers.{l}.ffn.experts.W_out", ("X", "F_x", "E"), "each expert's output ('down') weights, stacked"),
    _T("params.layers.{l}.ffn.shared.W_in", ("1", "E", "F_s"), "the shared expert's input weights (Qwen-MoE)"),
    _T("params.layers.{l}.ffn.shared.W_gate", ("1", "E", "F_s"), "the shared expert's gate weights (Qwen-MoE)"),
    _T("params.layers.{l}.ffn.shared.W_out", ("1", "F_s", "E"), "the shared expert's output weights (Qwen-MoE)"),
    _T("params.layers.{l}.ffn.w_shared_gate", ("E", "1"), "the shared expert's gate: σ(x · w_shared_gate) (Qwen-MoE)"),
    _T("params.layers.{l}.ln_ffn_out.weight", ("E",), "norm of the FFN output: scale (Gemma 2 and 3, OLMo 2)"),
    _T("params.layers.{l}.ln_ffn_out.bias", ("E",), "norm of the FFN output: shift (LayerNorm only)"),
    _T("params.ln_final.weight", ("E",), "final norm: scale"),
    _T("params.ln_final.bias", ("E",), "final norm: shift (LayerNorm only)"),
    _T("params.mlm.W_t", ("E", "E"), "masked-LM head transform weights (encoders)"),
    _T("params.mlm.b_t", ("E",), "masked-LM head transform bias"),
    _T("params.mlm.ln.weight", ("E",), "masked-LM head norm: scale"),
    _T("params.mlm.ln.bias", ("E",), "masked-LM head norm: shift"),
    _T("params.unembed.W_u", ("E", "V"), "linear to the vocabulary (the embedding table transposed when tied)"),
    _T("params.unembed.b_u", ("V",), "vocabulary bias"),
)

ALL: tuple[TensorName, ...] = ACTIVATIONS + PARAMS

# The (C, C) stages of one head, in the order the note computes them.
PAIRWISE_STAGES = ("scores", "scaled", "masked", "weights")


def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile("^" + re.escape(pattern).replace(re.escape("{l}"), r"(\d+)") + "$")


_MATCHERS = tuple((_regex(t.pattern), t) for t in ALL)


@lru_cache(maxsize=4096)
def spec(name: str) -> TensorName:
    """The entry for a concrete name such as ``layers.1.attn.weights``; KeyError if it is not one of ours."""
    for regex, entry in _MATCHERS:
        if regex.match(name):
            return entry
    raise KeyError(f"unknown tensor name {name!r}")


def layer_of(name: str) -> int | None:
    """The layer index in a concrete name, or None for names outside the layers."""
    m = re.match(r"^(?:params\.)?layers\.(\d+)\.", name)
    return int(m.group(1)) if m else None


def attn(layer: int, stage: str) -> str:
    """``attn(1, "weights") == "layers.1.attn.weights"``: the short way views and tests address a stage."""
    return f"layers.{layer}.attn.{stage}"


def qk_stages(positions: str) -> tuple[str, str]:
    """The q and k stages whose dot products are a model's scores: the rotated ones (``q_rot``, ``k_rot``)
    for a RoPE model, else ``q`` and ``k``. Defined once: the trace's derivation, the hovers and generation
    all read the scores' operands through it."""
    return ("q_rot", "k_rot") if positions == "rope" else ("q", "k")


def qk(layer: int, positions: str) -> tuple[str, str]:
    """``qk(0, "rope") == ("layers.0.attn.q_rot", "layers.0.attn.k_rot")``: see ``qk_stages``."""
    q, k = qk_stages(positions)
    return attn(layer, q), attn(layer, k)


def kv_head_of(h: int, heads: int, kv_heads: int) -> int:
    """Grouped-query attention: the key/value head that query head ``h`` reads, h // (H / H_kv).

    ``attn.k`` / ``attn.v`` (and ``k_rot``) have H_kv heads; query heads g·H/H_kv … (g+1)·H/H_kv − 1 share head g.
    """
    if heads % kv_heads:
        raise ValueError(f"H ({heads}) must be a multiple of H_kv ({kv_heads})")
    if not 0 <= h < heads:
        raise IndexError(f"query head {h} does not exist: there are {heads}")
    return h // (heads // kv_heads)


def query_heads_of(g: int, heads: int, kv_heads: int) -> tuple[int, ...]:
    """The query heads that share key/value head ``g`` (the inverse of ``kv_head_of``)."""
    if not 0 <= g < kv_heads:
        raise IndexError(f"key/value head {g} does not exist: there are {kv_heads}")
    per = heads // kv_heads
    return tuple(range(g * per, (g + 1) * per))


def is_known(name: str) -> bool:
    try:
        spec(name)
    except KeyError:
        return False
    return True
