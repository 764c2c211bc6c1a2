"""Every stage a family declares (explorer/families/) has its translated title and caption in the window
(explorer/ui/captions_families.py): a family that adds a stage cannot reach the window without its words."""

from __future__ import annotations

import pytest

from explorer.families import FAMILIES
from explorer.ui.captions_families import family_caption, family_titles


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.stages], ids=lambda f: f.name)
def test_each_stage_a_family_adds_has_a_title_and_a_caption(family):
    cfg = family.hf_config(family.example, "config.json")
    titles = family_titles()
    for key in family.stages:
        assert titles.get(key), f"{family.name}'s stage {key} has no title"
        assert family_caption(key, {}, cfg), f"{family.name}'s stage {key} has no caption"
