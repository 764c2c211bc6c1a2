"""Per-matrix parameter counts and bytes (the parameters panel)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.present.param_summary import parameter_groups, parameter_rows, totals


def test_rows_sum_to_the_parameter_count():
    cfg = ModelConfig(
        vocab_size=50, embed_dim=8, key_dim=4, heads=2, layers=3, bias=True, positions="learned", max_positions=16
    )
    rows = parameter_rows(cfg, "float32")
    assert sum(r.count for r in rows) == cfg.parameter_count()
    assert all(r.nbytes == 4 * r.count for r in rows)
    assert totals(cfg, "float64") == (cfg.parameter_count(), 8 * cfg.parameter_count())


def test_groups_hold_every_row_once_in_model_order():
    cfg = ModelConfig(vocab_size=50, embed_dim=8, key_dim=4, heads=2, layers=2)
    groups = parameter_groups(cfg)
    assert [(g.part, g.layer) for g in groups] == [("input", None), ("layer", 0), ("layer", 1), ("output", None)]
    assert sum(g.count for g in groups) == cfg.parameter_count()
    layer1 = {r.short: r for r in groups[2].rows}
    assert layer1["attn.W_q"].shape == (8, 2 * 4)
    assert layer1["attn.W_q"].count == 64


def test_heads_change_the_query_matrix():
    a = {r.name: r for r in parameter_rows(ModelConfig(vocab_size=10, embed_dim=8, key_dim=4, heads=2))}
    b = {r.name: r for r in parameter_rows(ModelConfig(vocab_size=10, embed_dim=8, key_dim=4, heads=4))}
    assert a["params.layers.0.attn.W_q"].shape == (8, 8)
    assert b["params.layers.0.attn.W_q"].shape == (8, 16)


def test_layer_rows_follow_the_model_order():
    cfg = ModelConfig(vocab_size=10, embed_dim=8, key_dim=4, heads=2, layers=1)
    shorts = [r.short for r in parameter_groups(cfg)[1].rows]
    assert (
        shorts.index("ln_attn.weight")
        < shorts.index("attn.W_q")
        < shorts.index("ln_ffn.weight")
        < shorts.index("ffn.W_in")
    )
