"""What the mixtures of experts share (Mixtral, Qwen-MoE, OLMoE): their config.json keys (how many experts,
how many a token runs) and where a Hugging Face checkpoint keeps the router and each expert. Every layer's
FFN is the same mixture but where Qwen-MoE keeps a dense one (``dense_layers``)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.hf_fields import bool_field, size
from explorer.families.source import Source

ROUTER_TRAINING = (
    "the router's load-balancing loss, its noise and whether the forward returns the router's scores: training "
    "only, a forward pass computes the same numbers"
)
# The keys every mixture's table adds to its dense family's.
MOE_FIELDS = table_of(
    implemented("num_experts_per_tok", why="K: each token runs the K experts of highest router probability"),
    inert(ROUTER_TRAINING, "router_aux_loss_coef", "output_router_logits", "router_jitter_noise"),
)


def expert_fields(data: dict, origin: str, experts_key: str, default: tuple[int, int], norm_topk: bool) -> dict:
    """X, K and whether the K weights are renormalised (``norm_topk_prob`` where the family reads it)."""
    X = size(data, experts_key, default=default[0], origin=origin)
    return dict(
        experts=X,
        experts_per_token=size(data, "num_experts_per_tok", default=default[1], origin=origin),
        norm_topk=norm_topk if "norm_topk_prob" not in data else bool_field(data, "norm_topk_prob", False, origin),
    )


def hf_experts(
    cfg: ModelConfig,
    out: dict[str, Source],
    block: str = "mlp",
    names: tuple[str, str, str] = ("gate_proj", "up_proj", "down_proj"),
) -> dict[str, Source]:
    """Llama's map with each MoE layer's FFN replaced by the router (``{block}.gate``, (X, E) transposed) and
    the X experts (``{block}.experts.{e}.<gate|up|down>``, each transposed into its row of our stack)."""
    gate, up, down = names
    for l in range(cfg.layers):
        if not cfg.is_moe(l):
            continue
        m, p = f"layers.{l}.{block}", f"layers.{l}.ffn"
        for key in [k for k in out if k.startswith(f"{p}.")]:
            del out[key]  # the dense FFN's W_gate, W_in, W_out (and zero biases) are not there
        X = cfg.experts
        out |= {
            f"{p}.W_router": Source(f"{m}.gate.weight", "T"),
            f"{p}.experts.W_gate": Source(f"{m}.experts.{{e}}.{gate}.weight", "experts", parts=X),
            f"{p}.experts.W_in": Source(f"{m}.experts.{{e}}.{up}.weight", "experts", parts=X),
            f"{p}.experts.W_out": Source(f"{m}.experts.{{e}}.{down}.weight", "experts", parts=X),
        }
    return out
