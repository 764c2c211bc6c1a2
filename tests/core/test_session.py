"""explorer.session (issue 14, item 1): the model source, the one way to open it, and the policies that turn a
result into the next request, all without Qt."""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest
import torch

from explorer.analysis.mask_paint import causal
from explorer.cli import build_parser
from explorer.cli.model_options import source_from_args
from explorer.config import MaskSpec, RunOptions
from explorer.errors import ConfigError, MaskTooSmall, ModelLoadError
from explorer.model.mask import base_mask
from explorer.session import ModelSource, mask_growth
from explorer.session import capture_policy as capture
from explorer.session.open import open_source, resolve_run_folder
from explorer.weights.checkpoint import save_checkpoint
from explorer.weights.presets import DEFAULT_PRESET, load_preset


def test_the_session_imports_no_qt():
    # Every module of the package, imported in a fresh interpreter: none of them may pull Qt in.
    import subprocess

    code = (
        "import sys, explorer.session, explorer.session.open, explorer.session.capture_policy, "
        "explorer.session.mask_growth, explorer.session.session;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _args(*argv: str):
    return build_parser().parse_args(["export", "--text", "a", "--out", "x.npz", *argv])


def test_the_cli_names_the_same_source_the_window_would():
    assert source_from_args(_args()) == ModelSource()  # the window's first source: the default preset
    assert source_from_args(_args("-E", "8", "-H", "2", "--seed", "3")) == ModelSource(
        "preset", DEFAULT_PRESET, seed=3
    ).with_sizes(embed_dim=8, heads=2)
    assert source_from_args(_args("--model", "some/folder")) == ModelSource("path", "some/folder")
    with pytest.raises(ConfigError, match="sizes come from the model file"):
        source_from_args(_args("--model", "some/folder", "-E", "8"))


def test_open_source_builds_the_preset_with_its_overrides():
    source = ModelSource("preset", DEFAULT_PRESET, seed=5).with_sizes(embed_dim=8, heads=2, key_dim=4)
    bundle = open_source(source)
    expected = load_preset(DEFAULT_PRESET, seed=5, embed_dim=8, heads=2, key_dim=4)
    assert (bundle.config.E, bundle.config.H, bundle.config.D) == (8, 2, 4)
    for (name, a), (_, b) in zip(bundle.model.state_dict().items(), expected.model.state_dict().items()):
        assert torch.equal(a, b), name  # same seed, same weights: one recipe, not two


def test_a_run_folder_opens_as_its_latest_complete_checkpoint(tmp_path):
    small = load_preset(DEFAULT_PRESET, seed=1, embed_dim=8, heads=2, key_dim=4, layers=1)
    run = tmp_path / "run"
    save_checkpoint(small, run / "step-000000")
    save_checkpoint(load_preset(DEFAULT_PRESET, seed=2, embed_dim=8, heads=2, key_dim=4, layers=1), run / "step-000004")
    (run / "step-000006").mkdir()  # a checkpoint being written: not complete, never chosen
    notes: list[str] = []
    assert resolve_run_folder(str(run), notes.append) == str(run / "step-000004")
    assert len(notes) == 1 and "step-000004" in notes[0]
    opened = open_source(ModelSource("path", str(run)))
    latest = open_source(ModelSource("path", str(run / "step-000004")))
    first = open_source(ModelSource("path", str(run / "step-000000")))
    sd, sd_latest, sd_first = (b.model.state_dict() for b in (opened, latest, first))
    assert all(torch.equal(sd[k], sd_latest[k]) for k in sd)  # the newest complete checkpoint, not the first
    assert not all(torch.equal(sd[k], sd_first[k]) for k in sd)
    empty = tmp_path / "empty-run"
    (empty / "step-000000").mkdir(parents=True)
    with pytest.raises(ModelLoadError, match="run folder without a complete checkpoint"):
        resolve_run_folder(str(empty))
    assert resolve_run_folder(str(tmp_path / "model.gguf")) == str(tmp_path / "model.gguf")  # not a folder: as given


def test_capture_policy():
    assert not capture.one_layer_at_a_time("auto", 2, 5_000)  # two layers: both kept even for a long text
    assert capture.one_layer_at_a_time("auto", 3, 600) and not capture.one_layer_at_a_time("auto", 3, 100)
    assert capture.one_layer_at_a_time("auto", 30, 5)  # a deep model, whatever the text
    assert not capture.one_layer_at_a_time("all", 30, 5_000)
    assert capture.one_layer_at_a_time("selected", 1, 1)
    assert capture.layers_to_capture("auto", (), 30, 5, layer=7) == (7,)
    assert capture.layers_to_capture("auto", (), 30, 5, layer=99) == (29,)  # a stale selection is clamped
    assert capture.layers_to_capture("auto", (), 2, 5, layer=1) is None  # all layers
    assert capture.layers_to_capture("custom", (1, 5, 40), 30, 5, layer=3) == (1, 5)
    assert capture.layers_to_capture("custom", (40,), 30, 5, layer=3) == (3,)  # none of the list exists here
    assert capture.on_layer_wanted("custom", (1, 5), 3) == ((1, 3, 5), (1, 3, 5))
    assert capture.on_layer_wanted("all", (1,), 3) == ((1,), None)
    assert capture.on_layer_wanted("auto", (), 3) == ((), (3,))
    opts = RunOptions(layers_to_capture=(1, 5, 40))
    assert capture.capturable(opts, 30).layers_to_capture == (1, 5)
    assert capture.capturable(RunOptions(layers_to_capture=(40,)), 30).layers_to_capture == (0,)
    assert capture.capturable(RunOptions(), 30) == RunOptions()


def test_a_too_small_painting_is_refused_with_fields_and_grows_from_them():
    painted = np.array([[True, False, True], [False, True, False], [True, True, True]])
    with pytest.raises(MaskTooSmall) as refused:
        base_mask(MaskSpec.explicit(painted), 9)
    assert (refused.value.painted, refused.value.tokens) == (3, 9)
    assert isinstance(refused.value, ConfigError)  # the CLI still prints it as a one-line error
    assert str(refused.value).startswith("the painted mask is 3×3 but the text has 9 tokens")
    needed = mask_growth.tokens_after_error(refused.value)
    assert needed == 9
    assert mask_growth.tokens_after_error(ConfigError("the painted mask is 3×3 but the text has 9 tokens")) is None
    assert mask_growth.tokens_after_error(None) is None
    grown = mask_growth.grown(painted, needed)
    assert len(grown) >= 9
    np.testing.assert_array_equal(grown[:3, :3], painted)  # what was painted stays
    np.testing.assert_array_equal(grown[3:9, :9], causal(len(grown))[3:9, :9])  # new rows are causal
    base_mask(MaskSpec.explicit(grown), 9)  # and the core takes it
    assert mask_growth.grown(grown, 9) is None  # already large enough: nothing to send
    assert len(mask_growth.grown(None, 5)) >= 5  # nothing painted yet: causal


def test_after_a_trace_the_painting_keeps_spare_rows():
    assert mask_growth.tokens_after_trace(painted=10, C=8) == 8 + mask_growth.SPARE_ROWS
    assert mask_growth.tokens_after_trace(painted=30, C=8) is None


def test_first_and_preset_requests_bring_the_preset_example_and_options():
    from explorer.session import first_request, preset_request
    from explorer.weights.presets import PRESETS, get_preset

    first = first_request()
    assert first.source == ModelSource() and first.text == get_preset(DEFAULT_PRESET).example
    assert first_request(source=ModelSource("path", "x")).text == "This is a pen ."  # a file model has no example
    assert first_request("mine").text == "mine"
    base = first_request(get_preset(DEFAULT_PRESET).example, options=RunOptions(dtype="float64", scale=False))
    for name, preset in PRESETS.items():
        switched = preset_request(base, name)  # the old preset's example gives way to the new one's
        assert switched.source == ModelSource("preset", name) and switched.text == preset.example
        for field, value in preset.options.items():
            assert getattr(switched.options, field) == value  # the preset's own starting options
        untouched = {"dtype": "float64", "scale": False}.keys() - preset.options.keys()
        for field in untouched:
            assert getattr(switched.options, field) == getattr(base.options, field)  # the rest kept
        assert preset_request(base, name, keep_text=True).text == base.text
        assert (
            preset_request(dataclasses.replace(base, text="typed"), name).text == "typed"
        )  # a teacher's sentence stays


def test_a_preset_switch_keeps_a_typed_sentence_and_drops_a_painted_mask():
    """Issue 22: choosing a preset silently replaced the teacher's sentence, and kept a mask painted for
    43 tokens on seed-toy's 2."""
    from explorer.config import MaskSpec
    from explorer.session import first_request, preset_request

    painted = MaskSpec("explicit", matrix=tuple(tuple(j <= i for j in range(43)) for i in range(43)))
    base = first_request("私は学生です。", options=RunOptions(mask=painted))
    switched = preset_request(base, "japanese")
    assert switched.text == "私は学生です。" and switched.options.mask == MaskSpec()
    assert preset_request(first_request("   "), "japanese").text == "これはペンです。"  # nothing typed: the example
    assert preset_request(base, "seed-toy", keep_text=False).text == "This is\na pen"


def test_a_sized_source_builds_its_config_once_and_the_model_uses_it(monkeypatch):
    """The config a size edit asks for is built once (explorer.session.open.preset_source_config) and the
    model is built with that very object; the sizes are the preset's with the overrides on top."""
    from explorer.config import ModelConfig
    from explorer.session.open import preset_source_config
    from explorer.weights.presets import get_preset, shipped_config

    shipped_config(DEFAULT_PRESET)
    preset_source_config.cache_clear()
    built = []
    original = ModelConfig.__post_init__
    monkeypatch.setattr(ModelConfig, "__post_init__", lambda self: (built.append(self.heads), original(self)))
    source = ModelSource().with_sizes(heads=2, layers=1)
    config = preset_source_config(source)
    bundle = open_source(source)
    assert preset_source_config(source) is config and bundle.config is config
    assert built == [2]
    expected = {**get_preset(DEFAULT_PRESET).sizes, "heads": 2, "layers": 1}
    assert {k: getattr(config, k) for k in expected} == expected
