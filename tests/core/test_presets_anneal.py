"""A preset recipe's second phase (presets_build.Anneal): the shipped weights are the second phase's, the
preset still names and is scored on the whole corpus, and metrics.json says what the second phase did."""

from __future__ import annotations

import json

import pytest
import torch

from explorer.errors import ConfigError
from explorer.train import presets_build
from explorer.train.corpora import SHIPPED_FILES, corpus_from_spec, get_corpus, read_lines
from explorer.train.corpora_text import shipped_part
from explorer.train.evaluate import baselines_for, evaluate_bundle
from explorer.train.loop import Trainer, TrainSettings
from explorer.weights.checkpoint import load_checkpoint
from explorer.weights.presets import preset_config

FIRST = TrainSettings(steps=3, batch_size=8, lr=1e-3, seed=0, eval_every=3, threads=1, checkpoint_every=0)
SECOND = TrainSettings(steps=2, batch_size=8, lr=1e-3, seed=1, eval_every=2, threads=1, checkpoint_every=0)
PART = ("english/devil.txt.gz",)


def test_a_part_of_a_corpus_has_its_files_lines_its_vocabulary_and_its_held_out_lines():
    whole = get_corpus("english")
    part = shipped_part("english", PART)
    assert part.name == "english"
    assert part._train_lines == read_lines(PART[0])
    assert part._heldout_lines == whole._heldout_lines
    assert part.tokenizer.to_str() == whole.tokenizer.to_str()
    with pytest.raises(ConfigError, match="english/nothing.txt is not a training file of the english corpus"):
        shipped_part("english", ("english/nothing.txt",))
    assert set(PART) <= set(SHIPPED_FILES["english"][0])
    # its spec names the part, so that nothing kept by spec (the baselines) mistakes it for the whole
    assert part.spec() != whole.spec()
    assert corpus_from_spec(part.spec())._train_lines == part._train_lines


def _state(model) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def test_the_preset_is_the_second_phase_scored_on_the_whole_corpus(tmp_path, monkeypatch):
    recipe = presets_build.Recipe("classroom", "english", FIRST, anneal=presets_build.Anneal(PART, SECOND))
    monkeypatch.setitem(presets_build.RECIPES, "classroom", recipe)
    metrics = presets_build.build("classroom", tmp_path, log=lambda s: None)
    saved = load_checkpoint(tmp_path / "classroom")

    # the same two phases by hand: the whole corpus, then the part, from the first phase's weights
    config = preset_config("classroom")
    first = Trainer(get_corpus("english"), config, FIRST)
    first.run()
    after_first = _state(first.model)
    second = Trainer(shipped_part("english", PART), config, SECOND, init=first.model)
    second.run()
    for key, value in _state(second.model).items():
        assert torch.equal(saved.model.state_dict()[key], value), key
    assert any(not torch.equal(saved.model.state_dict()[k], v) for k, v in after_first.items())

    assert metrics["steps"] == 5 and metrics["anneal"]["steps"] == 2
    assert metrics["anneal"]["files"] == list(PART)
    assert metrics["anneal"]["settings"]["lr"] == SECOND.lr
    on_disk = json.loads((tmp_path / "classroom" / "metrics.json").read_text(encoding="utf-8"))
    assert on_disk["anneal"] == metrics["anneal"]
    config_json = json.loads((tmp_path / "classroom" / "config.json").read_text(encoding="utf-8"))
    assert config_json["step"] == 5
    assert config_json["train"]["corpus"] == get_corpus("english").spec()
    assert config_json["train"]["anneal"]["files"] == list(PART)

    # `eval` scores it against the whole corpus's bigram, not one fitted on the part it trained on last
    out = evaluate_bundle(saved)
    whole = baselines_for(get_corpus("english"), 64)
    assert out["corpus"] == "english" and out["bigram_loss"] == whole["bigram_loss"]
    assert out["bigram_loss"] != baselines_for(shipped_part("english", PART), 64)["bigram_loss"]
    assert out["heldout_loss"] == pytest.approx(metrics["heldout_loss"], abs=1e-4)
