"""Walking the pipeline layer by layer (Play, arrow keys, presentation mode)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.present.stage_walk import is_last, position, step, walk
from explorer.present.stages import STAGES, stage_keys_for

BARE = ModelConfig(vocab_size=10, embed_dim=4, key_dim=2, heads=2, layers=2, norm="none", residual=False)
PRENORM = ModelConfig(vocab_size=10, embed_dim=4, key_dim=2, heads=2, layers=2, norm="layernorm")


def test_walk_repeats_the_layer_stages_for_every_layer():
    steps = walk((0, 1), BARE)
    bare_stages = [s for s in STAGES if not s.norm and not s.needs]
    per_layer = sum(1 for s in bare_stages if s.per_layer)
    assert len(steps) == len(bare_stages) + per_layer
    assert steps[0] == ("tokens", None) and steps[-1] == ("probs", None)
    assert steps[2] == ("qkv", 0)
    assert steps[2 + per_layer] == ("qkv", 1)
    assert [k for k, _ in walk((0,), BARE)] == [s.key for s in bare_stages]


def test_a_pre_norm_model_walks_through_its_norms():
    keys = [k for k, _ in walk((0,), PRENORM)]
    assert keys == [s.key for s in STAGES if not s.needs]  # a real family's own stages are not this model's
    assert keys.index("norm_attn") == keys.index("embed") + 1 and keys.index("qkv") == keys.index("norm_attn") + 1
    assert keys.index("norm_ffn") == keys.index("residual") + 1 and keys.index("ffn") == keys.index("norm_ffn") + 1
    assert keys.index("final_norm") == keys.index("block") + 1 and keys.index("logits") == keys.index("final_norm") + 1
    assert "norm_attn" not in stage_keys_for(BARE) and "final_norm" not in stage_keys_for(BARE)
    assert step("block", 0, 1, (0, 1), PRENORM) == ("norm_attn", 1)
    assert step("embed", 0, 1, (0, 1), BARE) == ("qkv", 0)
    assert step("block", 0, 1, (0,), BARE) == ("logits", 0) and step("block", 0, 1, (0,), PRENORM) == ("final_norm", 0)


def test_a_norm_stage_selected_on_a_bare_model_steps_from_where_it_stands():
    # the user switched the norm off while the norm stage was selected
    assert step("norm_attn", 0, 1, (0,), BARE) == ("scores", 0)
    assert step("final_norm", 0, -1, (0,), BARE) == ("block", 0)


def test_step_crosses_from_one_layer_into_the_next_and_back():
    assert step("block", 0, 1, (0, 1), BARE) == ("qkv", 1)
    assert step("qkv", 1, -1, (0, 1), BARE) == ("block", 0)
    assert step("block", 1, 1, (0, 1), BARE) == ("logits", 1)  # the layer stays as it was
    assert step("logits", 1, -1, (0, 1), BARE) == ("block", 1)


def test_step_clamps_at_both_ends():
    assert step("tokens", 0, -1, (0, 1)) == ("tokens", 0)
    assert step("probs", 1, 5, (0, 1)) == ("probs", 1)
    assert is_last("probs", 0, (0, 1)) and not is_last("logits", 0, (0, 1))


def test_position_counts_from_zero():
    assert position("tokens", 0, (0, 1)) == (0, len(walk((0, 1))))
    assert position("qkv", 1, (0, 1), BARE)[0] == 2 + sum(
        1 for s in STAGES if s.per_layer and not s.norm and not s.needs
    )
    # an unknown layer (a trace restricted to some layers) falls back to the first one held
    assert position("qkv", 5, (2, 3)) == position("qkv", 2, (2, 3))


def test_each_family_walks_through_its_own_stages():
    """A real family's stages appear where its model computes them, and only there."""
    bert = ModelConfig(
        vocab_size=10,
        embed_dim=4,
        key_dim=2,
        heads=2,
        layers=1,
        norm="layernorm",
        norm_placement="post",
        segments=2,
        embed_norm=True,
        mlm_head=True,
        bidirectional=True,
        positions="learned",
    )
    keys = [k for k, _ in walk((0,), bert)]
    assert keys[:3] == ["tokens", "segment", "embed"] and "norm_attn" not in keys and "final_norm" not in keys
    assert (
        keys.index("post_norm_attn") == keys.index("residual") + 1
        and keys.index("post_norm_ffn") == keys.index("block") + 1
    )
    assert keys.index("mlm") == keys.index("logits") - 1
    gemma2 = ModelConfig(
        vocab_size=10,
        embed_dim=4,
        key_dim=2,
        heads=2,
        layers=2,
        norm="rmsnorm",
        norm_placement="sandwich",
        positions="rope",
        attn_softcap=50.0,
        logit_softcap=30.0,
        sliding_window=4,
        sliding_layers=(0,),
    )
    keys = [k for k, _ in walk((0,), gemma2)]
    assert keys.index("capped") == keys.index("scaled") + 1 and keys.index("masked") == keys.index("capped") + 1
    assert keys.index("attn_out_norm") == keys.index("out") + 1 and keys.index("ffn_out_norm") == keys.index("ffn") + 1
    assert keys[-3:] == ["logits", "logit_cap", "probs"] and "norm_attn" in keys
    neox = ModelConfig(vocab_size=10, embed_dim=4, key_dim=2, heads=2, layers=1, positions="rope", parallel_block=True)
    keys = [k for k, _ in walk((0,), neox)]
    assert keys.index("parallel") == keys.index("norm_attn") + 1 and "norm_ffn" not in keys
    qwen3 = ModelConfig(
        vocab_size=10, embed_dim=4, key_dim=2, heads=2, layers=1, positions="rope", norm="rmsnorm", qk_norm="head"
    )
    keys = [k for k, _ in walk((0,), qwen3)]
    assert keys.index("qk_norm") == keys.index("qkv") + 1
