"""Walking the pipeline layer by layer (Play, arrow keys, presentation mode)."""

from __future__ import annotations

from explorer.stage_walk import is_last, position, step, walk
from explorer.stages import STAGE_KEYS, STAGES


def test_walk_repeats_the_layer_stages_for_every_layer():
    steps = walk((0, 1))
    per_layer = sum(1 for s in STAGES if s.per_layer)
    assert len(steps) == len(STAGES) + per_layer
    assert steps[0] == ("tokens", None) and steps[-1] == ("probs", None)
    assert steps[2] == ("qkv", 0)
    assert steps[2 + per_layer] == ("qkv", 1)
    assert [k for k, _ in walk((0,))] == list(STAGE_KEYS)


def test_step_crosses_from_one_layer_into_the_next_and_back():
    assert step("block", 0, 1, (0, 1)) == ("qkv", 1)
    assert step("qkv", 1, -1, (0, 1)) == ("block", 0)
    assert step("block", 1, 1, (0, 1)) == ("logits", 1)  # the layer stays as it was
    assert step("logits", 1, -1, (0, 1)) == ("block", 1)


def test_step_clamps_at_both_ends():
    assert step("tokens", 0, -1, (0, 1)) == ("tokens", 0)
    assert step("probs", 1, 5, (0, 1)) == ("probs", 1)
    assert is_last("probs", 0, (0, 1)) and not is_last("logits", 0, (0, 1))


def test_position_counts_from_zero():
    assert position("tokens", 0, (0, 1)) == (0, len(walk((0, 1))))
    assert position("qkv", 1, (0, 1))[0] == 2 + sum(1 for s in STAGES if s.per_layer)
    # an unknown layer (a trace restricted to some layers) falls back to the first one held
    assert position("qkv", 5, (2, 3)) == position("qkv", 2, (2, 3))
