"""Every stage a family declares (explorer/families/) has its title and heading (explorer/present/stage_titles.py,
translated by explorer/ui/words/stage_words.py) and its caption in the window (explorer/ui/words/captions_families.py):
a family that adds a stage cannot reach the window without its words."""

from __future__ import annotations

import pytest

from explorer.families import FAMILIES
from explorer.ui.words.captions_families import family_caption
from explorer.ui.words.stage_words import stage_headings, stage_titles


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.stages], ids=lambda f: f.name)
def test_each_stage_a_family_adds_has_a_title_and_a_caption(family):
    cfg = family.hf_config(family.example, "config.json")
    titles, headings = stage_titles(), stage_headings()
    for key in family.stages:
        assert titles.get(key) and headings.get(key), f"{family.name}'s stage {key} has no title"
        assert family_caption(key, {}, cfg), f"{family.name}'s stage {key} has no caption"
